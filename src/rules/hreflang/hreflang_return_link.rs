//! Rule `hreflang-return-link`: page A lists page B as an alternate, B is in the same file (or another file of the set), and B does not list A.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::Sitemap;
use crate::rule::{Collector, Context, Rule, MAX_REPORTS_PER_RULE};
use std::ops::Range;

use crate::rules::hreflang::{graph_collector, Graph, Index, There};

declare_rule! {
    /// ## What it does
    /// Follows the `hreflang` alternates across the file: when the `<url>` of page A lists page
    /// B (`<xhtml:link hreflang="…" href="B"/>`), and B is the `<loc>` of another `<url>` in the
    /// same file, B must list A too. The link without a return is underlined, and B's `<loc>`
    /// labelled. URLs are compared character for character, as Google does.
    ///
    /// Across files: when several files are checked together (named on the command line, or
    /// found with `--site-root`), a page of one file that lists a page of another is followed
    /// too, the common layout of one sitemap per language. The finding joins the report of the
    /// later of the two files (reports are written file by file, in output order), underlined
    /// there, with a label at the place in the other file (`file:line:column`): the link without
    /// a return when it is in the later file, else the `<loc>` of the page that lacks the return
    /// link. A URL is the page of the first file of the set that lists it. Alternates whose URL no
    /// file of the set lists as a `<loc>` are not followed (they may be listed in a sitemap not
    /// checked), and neither are the pages of a file without any alternate.
    ///
    /// The check keeps a few words per link and runs in time linear in the number of links
    /// (sorted lists and one hash map), so a 50,000-URL file with many alternates each stays fast.
    ///
    /// ## Why is this bad?
    /// Google's documentation: "If two pages don't both point to each other, the tags will be
    /// ignored." This stops third parties from claiming to be alternates of your pages, but it
    /// also means one missing return link drops the annotation of both pages.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:xhtml="http://www.w3.org/1999/xhtml">
    ///   <url>
    ///     <loc>https://www.example.com/en/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/"/>
    ///     <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/>
    ///   </url>
    ///   <url>
    ///     <loc>https://www.example.com/de/</loc>
    ///     <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/>
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
    ///     <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/>
    ///   </url>
    ///   <url>
    ///     <loc>https://www.example.com/de/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/"/>
    ///     <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - Google Search Central, "Tell Google about localized versions of your page": "If two pages don't both point to each other, the tags will be ignored"
    pub static META = {
        name: "hreflang-return-link",
        category: Structure,
        severity: Warning,
        summary: "a page lists an alternate in the same file (or set of files) that does not list it back",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, _sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        Some(graph_collector(&META))
    }
}

/// Reports each alternate whose page does not link back.
pub(crate) fn check(graph: &Graph<'_>, index: &Index, cx: &mut Context<'_>) {
    let mut reported = 0usize;
    for (a, page) in graph.pages.iter().enumerate() {
        let own = &*page.loc;
        let mut previous: Option<u32> = None;
        for alt in graph.alts(a) {
            // One finding per target, even when the page lists it under two codes.
            if alt.target == page.id || previous == Some(alt.target) {
                continue;
            }
            previous = Some(alt.target);
            let Some(b) = index.page(alt.target) else {
                continue;
            };
            if b == a || graph.lists(b, page.id) {
                continue;
            }
            if reported >= MAX_REPORTS_PER_RULE {
                cx.count_unreported(&META, 1);
                continue;
            }
            reported += 1;
            let target = &graph.pages[b];
            let secondary = if target.links.is_empty() {
                "this `<url>` lists no alternates".to_owned()
            } else {
                format!("this `<url>` has no `<xhtml:link>` to `{own}`")
            };
            let href = graph.href(alt);
            cx.report(
                Diagnostic::new(
                    &META,
                    alt.href_span.clone(),
                    format!("alternate `{href}` does not link back to `{own}`"),
                )
                .with_label(format!("`{}` alternate without a return link", alt.lang))
                .with_secondary(target.loc_span.clone(), secondary)
                .with_help(format!(
                    "add `<xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{own}\"/>` to the `<url>` of `{href}`, or remove this link if the pages are not translations of each other",
                    graph.own_code(a),
                )),
            );
        }
    }
}

/// Across files: this page lists `href` (its `lang` alternate at `span`), a page of an earlier
/// file of the set (`there`, its `<loc>`), which does not list `own` back.
pub(crate) fn unreturned(
    span: Range<usize>,
    lang: &str,
    href: &str,
    own: &str,
    own_code: &str,
    there: There<'_>,
    target_has_links: bool,
) -> Diagnostic {
    let secondary = if target_has_links {
        format!("the `<url>` of `{href}` has no `<xhtml:link>` to `{own}`")
    } else {
        format!("the `<url>` of `{href}` lists no alternates")
    };
    let file = there.file;
    there.label(
        Diagnostic::new(
            &META,
            span,
            format!("alternate `{href}` (listed in `{file}`) does not link back to `{own}`"),
        )
        .with_label(format!("`{lang}` alternate without a return link")),
        secondary,
    )
    .with_help(format!(
        "add `<xhtml:link rel=\"alternate\" hreflang=\"{own_code}\" href=\"{own}\"/>` to the `<url>` of `{href}` in `{file}`, or remove this link if the pages are not translations of each other"
    ))
}

/// Across files: a page of an earlier file of the set (`there`, its `lang` alternate) lists this
/// page (`own`, its `<loc>` at `span`), and this page does not list `other` back.
pub(crate) fn unlisted(
    span: Range<usize>,
    own: &str,
    other: &str,
    other_code: &str,
    lang: &str,
    there: There<'_>,
) -> Diagnostic {
    let file = there.file;
    there.label(
        Diagnostic::new(
            &META,
            span,
            format!("`{own}` does not link back to `{other}`, which lists it as an alternate in `{file}`"),
        )
        .with_label(format!("no `<xhtml:link>` to `{other}`")),
        format!("`{lang}` alternate of `{other}` to this page"),
    )
    .with_help(format!(
        "add `<xhtml:link rel=\"alternate\" hreflang=\"{other_code}\" href=\"{other}\"/>` to this `<url>`, or remove the link to it from `{file}` if the pages are not translations of each other"
    ))
}

#[cfg(test)]
mod tests {
    use crate::{check_reader, Settings};

    fn findings(xml: &str) -> Vec<String> {
        let report = check_reader("t.xml", xml.as_bytes(), &Settings::default()).unwrap();
        report
            .diagnostics
            .iter()
            .filter(|d| d.rule.name == "hreflang-return-link")
            .map(|d| d.message.clone())
            .collect()
    }

    #[test]
    fn pages_before_the_first_link_are_targets_too() {
        // The graph interns nothing until a link appears: the pages before it must still count.
        let xml = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>https://a.example/de</loc></url>
<url><loc>https://a.example/fr</loc>
<xhtml:link rel="alternate" hreflang="fr" href="https://a.example/fr"/>
<xhtml:link rel="alternate" hreflang="en" href="https://a.example/en"/></url>
<url><loc>https://a.example/en</loc>
<xhtml:link rel="alternate" hreflang="en" href="https://a.example/en"/>
<xhtml:link rel="alternate" hreflang="de" href="https://a.example/de"/>
<xhtml:link rel="alternate" hreflang="fr" href="https://a.example/fr"/></url>
</urlset>"#;
        assert_eq!(
            findings(xml),
            ["alternate `https://a.example/de` does not link back to `https://a.example/en`"]
        );
    }

    #[test]
    fn return_links_are_followed_only_inside_the_file() {
        let xml = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>https://a.example/en</loc>
<xhtml:link rel="alternate" hreflang="en" href="https://a.example/en"/>
<xhtml:link rel="alternate" hreflang="de" href="https://a.example/de"/>
<xhtml:link rel="alternate" hreflang="fr" href="https://a.example/fr"/>
<xhtml:link rel="alternate" hreflang="es" href="https://b.example/es"/></url>
<url><loc>https://a.example/de</loc>
<xhtml:link rel="alternate" hreflang="en" href="https://a.example/en"/>
<xhtml:link rel="alternate" hreflang="de" href="https://a.example/de"/></url>
<url><loc>https://a.example/fr</loc></url>
</urlset>"#;
        assert_eq!(
            findings(xml),
            ["alternate `https://a.example/fr` does not link back to `https://a.example/en`"]
        );
    }

    #[test]
    fn urls_with_entities_compare_decoded() {
        let xml = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>https://a.example/?l=en&amp;x=1</loc>
<xhtml:link rel="alternate" hreflang="en" href="https://a.example/?l=en&amp;x=1"/>
<xhtml:link rel="alternate" hreflang="de" href="https://a.example/?l=de&amp;x=1"/></url>
<url><loc><![CDATA[https://a.example/?l=de&x=1]]></loc>
<xhtml:link rel="alternate" hreflang="en" href="https://a.example/?l=en&#38;x=1"/>
<xhtml:link rel="alternate" hreflang="de" href="https://a.example/?l=de&amp;x=1"/></url>
</urlset>"#;
        assert!(findings(xml).is_empty(), "{:?}", findings(xml));
    }
}
