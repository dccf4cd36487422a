//! Rule `doctype-not-allowed`: the file contains a `<!DOCTYPE>` declaration (reported by the parsing stage).

use crate::declare_rule;
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports a `<!DOCTYPE …>` declaration (`<!doctype …>` too). The checker never processes DTDs:
    /// it blanks the declaration out and checks the rest, so a reference to an entity declared in
    /// it is an `xml-syntax` error that points at the declaration (the first use of each entity is
    /// shown, the others are counted).
    ///
    /// ## Why is this bad?
    /// Sitemaps are defined by an XML Schema, not a DTD, and need none. DTDs are how XML attacks work
    /// (billion laughs, quadratic blow-up, external entities reading local files), so crawlers and
    /// hardened parsers refuse them.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <!DOCTYPE urlset>
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
    /// - OWASP XML External Entity Prevention Cheat Sheet
    /// - sitemaps.org `sitemap.xsd` (the schema that defines the format)
    pub static META = {
        name: "doctype-not-allowed",
        category: Xml,
        severity: Error,
        summary: "a `<!DOCTYPE>` declaration, which sitemaps must not have",
    }
}

impl Rule for Check {}

/// A `<!DOCTYPE …>` at `span`.
pub fn diagnostic(span: Range<usize>) -> Diagnostic {
    Diagnostic::new(&META, span, "DOCTYPE declarations are not allowed in sitemaps")
        .with_help("delete the `<!DOCTYPE …>`: sitemaps are defined by an XML Schema, not a DTD, and DTDs enable entity-expansion attacks")
}
