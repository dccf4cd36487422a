//! Rule `leading-whitespace`: whitespace before the XML declaration (reported by the prolog stage).

use crate::declare_rule;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports spaces, tabs or blank lines before `<?xml` (after a UTF-8 byte-order mark, if there
    /// is one). The rest of the file is still checked as if the whitespace were not there. A file
    /// without an XML declaration may start with whitespace.
    ///
    /// ## Why is this bad?
    /// The XML declaration must be the very first thing in a file. XML parsers stop with "XML
    /// declaration allowed only at the start of the document", and Google Search Console reports
    /// "Leading whitespace". It is one of the most common generator bugs: a template, or a PHP file
    /// with a blank line before `<?php`, prints a newline before the sitemap.
    ///
    /// ## Example
    /// ```xml
    ///
    /// <?xml version="1.0" encoding="UTF-8"?>
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
    /// The whitespace before `<?xml` is removed (a safe fix); a byte-order mark is kept.
    ///
    /// ## References
    /// - XML 1.0 §2.8 (the XML declaration comes first)
    /// - Google Search Console Sitemaps report: "Leading whitespace"
    pub static META = {
        name: "leading-whitespace",
        category: Encoding,
        severity: Error,
        fix: Safe,
        summary: "whitespace before the `<?xml` declaration",
    }
}

impl Rule for Check {}
