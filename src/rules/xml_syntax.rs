//! Rule `xml-syntax`: the file is not well-formed XML (reported by the parsing stage, one diagnostic per error).

use crate::declare_rule;
use crate::rule::{Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Reports every well-formedness error the XML parser finds, at its exact position, with a fix:
    /// a bare `&` (escape it as `&amp;`), an HTML entity such as `&nbsp;` (write `&#160;`), a bare `<`
    /// in text (`&lt;`), a closing tag that does not match (both tags are labelled), a truncated
    /// file, a second root element, characters XML forbids, an undeclared namespace prefix.
    /// Unescaped `&`, unknown entities and forbidden characters are patched over in memory so that
    /// the errors after them are reported in the same run.
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
    /// ## References
    /// - sitemaps.org protocol, "Entity escaping": `&` `'` `"` `>` `<` must be entity-escaped
    /// - XML 1.0 §2.1 (well-formed documents), §2.4 (character data), §4.6 (predefined entities)
    pub static META = {
        name: "xml-syntax",
        category: Xml,
        severity: Error,
        summary: "the file is not well-formed XML",
    }
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }
}
