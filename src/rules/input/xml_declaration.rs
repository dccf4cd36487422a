//! Rule `xml-declaration`: a malformed or misplaced XML declaration, or a wrong `version`/`standalone` (reported by the prolog stage).

use crate::declare_rule;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Checks the `<?xml … ?>` declaration, which the XML parser itself accepts too leniently:
    /// `version` must be `1.0`, `standalone` must be `yes` or `no`, the pseudo-attributes must come in
    /// the order version, encoding, standalone, the target must be lowercase `xml`, and nothing but
    /// whitespace (see `leading-whitespace`) may precede it. A processing instruction named `xml` in
    /// any case elsewhere in the file is reported too; other processing instructions, such as
    /// `<?xml-stylesheet …?>`, are fine. A malformed or misplaced declaration is reported once here
    /// and then ignored, so the rest of the file is still checked.
    ///
    /// ## Why is this bad?
    /// Strict XML parsers, and so some crawlers, reject these files as not well-formed.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="2.0" encoding="UTF-8"?>
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
    /// ## References
    /// - XML 1.0 §2.8 (prolog and XML declaration), §2.9 (standalone), §2.6 (reserved PI target `xml`)
    pub static META = {
        name: "xml-declaration",
        category: Encoding,
        severity: Error,
        summary: "malformed or misplaced XML declaration, or a wrong `version`/`standalone`",
    }
}

impl Rule for Check {}
