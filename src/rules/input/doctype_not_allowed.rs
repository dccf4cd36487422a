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

/// A `<!DOCTYPE …>` at `span` that the XML stage blanked out; `entities`: the first names of the
/// `entity_count` general entities it declares.
pub fn blanked(span: Range<usize>, entities: &[String], entity_count: usize) -> Diagnostic {
    let d = Diagnostic::new(&META, span, "DOCTYPE declarations are not allowed in sitemaps")
        .with_label("remove this declaration")
        .with_help("delete the `<!DOCTYPE …>`: sitemaps are defined by an XML Schema, not a DTD, and search engines refuse DTDs because they enable entity-expansion attacks (billion laughs, external entities)");
    if entity_count == 0 {
        return d;
    }
    let names: Vec<String> = entities.iter().map(|n| format!("`{n}`")).collect();
    let more = if entity_count > 3 { ", …" } else { "" };
    d.with_note(format!(
        "the DTD was not processed: its {} ({}{more}) {} not expanded",
        if entity_count == 1 {
            "entity"
        } else {
            "entities"
        },
        names.join(", "),
        if entity_count == 1 { "is" } else { "are" },
    ))
}

/// A `<!DOCTYPE` (at `span`) never closed with `>`.
pub fn unclosed(span: Range<usize>) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        "DOCTYPE declarations are not allowed in sitemaps",
    )
    .with_label("this declaration is never closed with `>`")
    .with_help("delete the `<!DOCTYPE …>`: sitemaps are defined by an XML Schema, not a DTD")
}
