//! Rule `xml-declaration-encoding`: the XML declaration names an encoding other than UTF-8 (reported by the prolog stage).

use crate::declare_rule;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports an `encoding` pseudo-attribute in the XML declaration whose value is not `UTF-8`
    /// (case-insensitive), pointing at the value.
    ///
    /// ## Why is this bad?
    /// Sitemaps must be UTF-8. A declaration such as `encoding="ISO-8859-1"` makes parsers decode the
    /// bytes as Latin-1, so every non-ASCII character in a URL or title turns into something else;
    /// and where the bytes really are Latin-1 the file breaks the protocol.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="ISO-8859-1"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// A name the Encoding Standard reads as UTF-8 but spelled differently (`utf8`, ` UTF-8 `,
    /// `unicode-1-1-utf-8`) is replaced by `UTF-8`: a safe fix, as the file was read as UTF-8 to get here.
    /// Another encoding (`ISO-8859-1`) is not fixed: the bytes may need converting, which only a tool
    /// such as `iconv` can do knowing the source encoding.
    ///
    /// ## References
    /// - sitemaps.org protocol: "The file itself must be UTF-8 encoded"
    /// - XML 1.0 §4.3.3 (character encoding in entities)
    pub static META = {
        name: "xml-declaration-encoding",
        category: Encoding,
        severity: Error,
        fix: Safe,
        summary: "the XML declaration names an encoding other than UTF-8",
    }
}

impl Rule for Check {}
