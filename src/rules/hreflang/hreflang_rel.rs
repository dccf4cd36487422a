//! Rule `hreflang-rel`: an `<xhtml:link>` in a `<url>` without `rel="alternate"`.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::links;
use crate::pipeline::model::{Entry, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::text::trim_ws;

declare_rule! {
    /// ## What it does
    /// Checks that every `<xhtml:link>` inside a `<url>` has `rel="alternate"` (compared without
    /// regard to case and surrounding spaces, as HTML does): a missing `rel`, or another value
    /// such as `amphtml` or `canonical`, is reported.
    ///
    /// ## Why is this bad?
    /// In a sitemap, `<xhtml:link>` only announces alternate versions of the page: language
    /// versions (`hreflang`) and separate mobile URLs (`media`). Google reads only links with
    /// `rel="alternate"`; any other link is ignored, so the alternate it was meant to announce is
    /// lost. AMP versions and canonical URLs are declared in the pages' HTML, not in sitemaps.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:xhtml="http://www.w3.org/1999/xhtml">
    ///   <url>
    ///     <loc>https://www.example.com/en/</loc>
    ///     <xhtml:link hreflang="en" href="https://www.example.com/en/"/>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:xhtml="http://www.w3.org/1999/xhtml">
    ///   <url>
    ///     <loc>https://www.example.com/en/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/"/>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - Google Search Central, "Tell Google about localized versions of your page", sitemap method: `<xhtml:link rel="alternate" hreflang="…" href="…"/>`
    /// - Google Search Central, "Separate URLs" (mobile): `<xhtml:link rel="alternate" media="…" href="…"/>` in sitemaps
    pub static META = {
        name: "hreflang-rel",
        category: Structure,
        severity: Error,
        summary: "an `<xhtml:link>` in a `<url>` without `rel=\"alternate\"`",
    }
}

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if !links::has_links(entry) {
            return;
        }
        let source = sitemap.source;
        for link in links::links(entry) {
            // Named only in a finding.
            let name = || crate::diagnostic::shown(link.element.qualified_name(source));
            match &link.rel() {
                None => cx.report_at(&META, link.element.name_span.clone(), |span| {
                    let name = name();
                    Diagnostic::new(&META, span, format!("`<{name}>` has no `rel` attribute"))
                        .with_label("`rel=\"alternate\"` is missing")
                        .with_help(format!(
                            "add `rel=\"alternate\"`: `<{name} rel=\"alternate\" …/>`"
                        ))
                }),
                // As written nearly always: one comparison before the case-blind one.
                Some(rel)
                    if rel.value == "alternate"
                        || trim_ws(rel.value).eq_ignore_ascii_case("alternate") => {}
                Some(rel) => {
                    let name = name();
                    let v = trim_ws(rel.value);
                    let help = match v.to_ascii_lowercase().as_str() {
                        "amphtml" => "sitemaps do not announce AMP versions: link the AMP page from the page's HTML (`<link rel=\"amphtml\">`) and remove this element".to_owned(),
                        "canonical" => "sitemaps list canonical URLs in `<loc>`: remove this element, and put the canonical URL in `<loc>`".to_owned(),
                        "" => "write `rel=\"alternate\"`".to_owned(),
                        _ if crate::values::text::distance(&v.to_ascii_lowercase(), "alternate") <= 3 => {
                            "write `rel=\"alternate\"`".to_owned()
                        }
                        _ => "in a sitemap, `<xhtml:link>` announces alternate versions only: write `rel=\"alternate\"`, or remove the element".to_owned(),
                    };
                    cx.report_at(
                        &META,
                        if rel.span.is_empty() {
                            link.element.name_span.clone()
                        } else {
                            rel.span.clone()
                        },
                        |span| {
                            Diagnostic::new(
                                &META,
                                span,
                                format!("`rel=\"{v}\"` on `<{name}>` in a sitemap"),
                            )
                            .with_label("only `rel=\"alternate\"` is read")
                            .with_help(help)
                        },
                    );
                }
            }
        }
    }
}
