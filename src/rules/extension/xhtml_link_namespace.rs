//! Rule `xhtml-link-namespace`: an hreflang `<link>` in `<url>` without the XHTML namespace (`<xhtml:link>`).

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{is_plain_hreflang_link, Entry, Kind, Sitemap};
use crate::rule::{Collector, Context, Rule};
use crate::values::namespace::XHTML_NS;

declare_rule! {
    /// ## What it does
    /// Reports `<link>` elements inside `<url>` that are in the sitemap namespace (or in no
    /// namespace) instead of the XHTML namespace: `<link rel="alternate" hreflang="de" href="…"/>`
    /// written without the `xhtml:` prefix. The help names the declaration
    /// `xmlns:xhtml="http://www.w3.org/1999/xhtml"` and shows the element rewritten as
    /// `<xhtml:link …/>`. All such links of a file are one mistake of the generator, so they are
    /// reported once, with the others counted. A `<link>` with only text content (a misspelled
    /// `<loc>`) is left to `unknown-element` and `missing-loc`.
    ///
    /// ## Why is this bad?
    /// Google reads hreflang alternates in sitemaps only as `<xhtml:link>` elements in the namespace
    /// `http://www.w3.org/1999/xhtml`. A plain `<link>` is an unknown element of the sitemap
    /// namespace: schema validators reject the file, Yandex reports an error, and the alternates
    /// are ignored.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>
    ///     <loc>https://www.example.com/en/</loc>
    ///     <link rel="alternate" hreflang="en" href="https://www.example.com/en/"/>
    ///     <link rel="alternate" hreflang="de" href="https://www.example.com/de/"/>
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
    /// - Google Search Central, "Localized versions of your page": the sitemap method, `xmlns:xhtml="http://www.w3.org/1999/xhtml"` and `<xhtml:link rel="alternate" hreflang="…" href="…"/>`
    /// - `sitemap.xsd`: `tUrl` allows only `loc`, `lastmod`, `changefreq`, `priority` in the sitemap namespace
    pub static META = {
        name: "xhtml-link-namespace",
        category: Structure,
        severity: Error,
        summary: "an hreflang `<link>` in `<url>` without the XHTML namespace; write `<xhtml:link>`",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        (sitemap.kind == Kind::UrlSet)
            .then(|| Box::new(Links::default()) as Box<dyn Collector<'a> + Send + 'a>)
    }
}

/// The first plain `<link>` of the file and where the others are.
#[derive(Default)]
struct Links {
    first: Option<First>,
    /// Start offsets of the next few, for the note.
    more: Vec<usize>,
    count: usize,
}

struct First {
    name_span: Range<usize>,
    /// The element rewritten with the prefix, when it is short enough to show.
    rewritten: Option<String>,
    /// The prefix bound to the XHTML namespace at the element, if any.
    prefix: Option<String>,
}

/// Notes list this many line numbers.
const LINES_SHOWN: usize = 5;

impl<'a> Collector<'a> for Links {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        for child in &entry.children {
            if !is_plain_hreflang_link(entry, child) {
                continue;
            }
            self.count += 1;
            if self.first.is_some() {
                if self.more.len() < LINES_SHOWN {
                    self.more.push(child.element.name_span.start);
                }
                continue;
            }
            let source = sitemap.source;
            let prefix = child
                .element
                .node
                .lookup_prefix(XHTML_NS)
                .filter(|p| !p.is_empty())
                .map(str::to_string);
            let p = prefix.as_deref().unwrap_or("xhtml");
            let written = child.element.qualified_name(source);
            let rewritten = source
                .get(child.element.span.clone())
                .filter(|s| s.len() <= 200 && !s.contains('\n'))
                .map(|s| {
                    s.replacen(&format!("<{written}"), &format!("<{p}:link"), 1)
                        .replace(&format!("</{written}>"), &format!("</{p}:link>"))
                        .replace(" xmlns=\"\"", "")
                        .replace(" xmlns=''", "")
                });
            self.first = Some(First {
                name_span: child.element.name_span.clone(),
                rewritten,
                prefix,
            });
        }
    }

    fn finish(self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        let Some(first) = self.first else { return };
        let source = sitemap.source;
        let root = crate::diagnostic::shown(sitemap.root.qualified_name(source));
        let written =
            crate::diagnostic::shown(source.get(first.name_span.clone()).unwrap_or("link"));
        let p = crate::diagnostic::shown(first.prefix.as_deref().unwrap_or("xhtml"));
        let example = first
            .rewritten
            .unwrap_or_else(|| format!("<{p}:link rel=\"alternate\" hreflang=\"…\" href=\"…\"/>"));
        let mut d = Diagnostic::new(
            &META,
            first.name_span,
            format!("`<{written}>` is not in the XHTML namespace"),
        )
        .with_label(format!("hreflang alternates are `<{p}:link>` elements"));
        d = match first.prefix {
            Some(_) => d.with_help(format!("add the prefix: `{example}`")),
            None => d
                .with_secondary(
                    sitemap.root.name_span.clone(),
                    format!("`<{root}>` declares no XHTML namespace"),
                )
                .with_help(format!(
                    "declare `xmlns:xhtml=\"{XHTML_NS}\"` on `<{root}>` and add the prefix: `{example}`"
                )),
        };
        if self.count > 1 {
            let n = self.count - 1;
            let lines: Vec<String> = self
                .more
                .iter()
                .map(|&at| line_of(source, at).to_string())
                .collect();
            let more = if n > self.more.len() { ", …" } else { "" };
            d = d.with_note(format!(
                "the same applies to {n} more `<link>` element{} (line{} {}{more})",
                if n == 1 { "" } else { "s" },
                if n == 1 { "" } else { "s" },
                lines.join(", ")
            ));
        }
        cx.report(d);
    }
}

/// 1-based line number of byte offset `at`.
fn line_of(source: &str, at: usize) -> usize {
    source
        .get(..at)
        .map_or(0, |s| s.bytes().filter(|&b| b == b'\n').count())
        + 1
}

#[cfg(test)]
mod tests {
    use crate::{check_reader, Settings};

    const XML: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://www.example.com/</loc><link rel=\"alternate\" hreflang=\"de\" href=\"https://www.example.com/de/\"/></url></urlset>";

    fn codes(settings: &Settings) -> Vec<&'static str> {
        check_reader("t.xml", XML.as_bytes(), settings)
            .unwrap()
            .diagnostics
            .iter()
            .map(|d| d.rule.name)
            .collect()
    }

    #[test]
    fn replaces_unknown_element_and_falls_back_to_it_when_off() {
        assert_eq!(codes(&Settings::default()), ["xhtml-link-namespace"]);
        let mut off = Settings::default();
        off.overrides.insert(super::META.name, None);
        assert_eq!(codes(&off), ["unknown-element"]);
    }
}
