//! Rule `xml-syntax`: the file is not well-formed XML (reported by the parsing stage, one diagnostic per error).

use crate::declare_rule;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports every well-formedness error the XML parser finds, at its exact position, with a fix:
    /// a bare `&` (escape it as `&amp;`), an HTML entity such as `&nbsp;` (write `&#160;`), a bare `<`
    /// in text (`&lt;`), a closing tag that does not match (both tags are labelled), a truncated
    /// file (the unclosed elements are labelled), a second root element, text around the root
    /// element, characters XML forbids, an undeclared namespace prefix (with the namespace URI of
    /// the common sitemap extensions), a duplicate attribute, `--` in a comment.
    ///
    /// Most errors are patched over in memory so that the errors after them are reported in the
    /// same run: unescaped `&`, unknown entities, bad character references and forbidden characters
    /// (all found in one pass once the first is), a bare `<`, a misspelled or stray closing tag, a
    /// duplicate attribute, a bad comment, and text before the root element. Content after the
    /// root element is ignored once reported, so the sitemap itself is still checked. A truncated
    /// file, a missing closing tag or an undeclared prefix end the XML check, and the sitemap rules
    /// then do not run. At most 50 XML errors are shown one by one; the rest are counted.
    ///
    /// ## Why is this bad?
    /// A file that is not well-formed is not XML: search engines reject the whole sitemap ("Parsing
    /// error", "Invalid XML") and none of its URLs is read.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/search?q=a&page=2</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/search?q=a&amp;page=2</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// An unescaped `&` that starts no reference (`?a=1&b=2`) is escaped as `&amp;`: a safe fix, also
    /// in a file that is otherwise not well-formed (every such `&` is found in one scan). Nothing else is
    /// fixed: an unknown entity (`&nbsp;`), a missing closing tag or a stray `<` have several possible
    /// repairs, and only the writer knows which one is meant.
    ///
    /// ## References
    /// - sitemaps.org protocol, "Entity escaping": `&` `'` `"` `>` `<` must be entity-escaped
    /// - XML 1.0 §2.1 (well-formed documents), §2.4 (character data), §4.6 (predefined entities)
    pub static META = {
        name: "xml-syntax",
        category: Xml,
        severity: Error,
        fix: Safe,
        summary: "the file is not well-formed XML",
    }
}

impl Rule for Check {}
