//! Rule `hreflang-duplicate`: the same `hreflang` value twice among the alternates of one `<url>`.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::links::{self, Link};
use crate::pipeline::model::{Entry, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::language;
use crate::values::text::trim_ws;

declare_rule! {
    /// ## What it does
    /// Reports an `<xhtml:link>` whose `hreflang` repeats one of an earlier `<xhtml:link>` of the
    /// same `<url>` (compared without regard to case, as BCP 47 tags are case-insensitive: `en-GB`
    /// and `en-gb` are the same), and labels the first. Two `x-default` are reported too.
    ///
    /// Two different codes for the same `href` are fine: a page may serve several languages or
    /// regions (`en-GB` and `en-IE`), and the `x-default` page is often also a language version.
    ///
    /// ## Why is this bad?
    /// Each `hreflang` names one alternate. With two different URLs for one code, Google cannot
    /// tell which page to show and may ignore both; the same link twice is redundant and
    /// usually means the generator merged two lists. Multiple `x-default` links are a common
    /// plugin bug.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:xhtml="http://www.w3.org/1999/xhtml">
    ///   <url>
    ///     <loc>https://www.example.com/en/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/"/>
    ///     <xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.com/"/>
    ///     <xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.com/en/"/>
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
    ///     <xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.com/en/"/>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - Google Search Central, "Tell Google about localized versions of your page": one alternate per language or language-region, `x-default` for the fallback
    /// - RFC 5646 §2.1.1: tags are case-insensitive
    pub static META = {
        name: "hreflang-duplicate",
        category: Structure,
        severity: Error,
        summary: "the same `hreflang` value twice among the alternates of one `<url>`",
    }
}

/// Links compared pairwise without allocating; more are sorted in a vector.
const SMALL: usize = 32;

/// What a duplicate check needs of one link: the code, where it is written, the link (whose URL
/// is read only for a finding).
type Item<'e, 'a> = (&'a str, Range<usize>, Option<Link<'e, 'a>>);

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_entry(&self, _sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if !links::has_links(entry) {
            return;
        }
        let mut small: [Item<'_, '_>; SMALL] = Default::default();
        let mut n = 0;
        let mut large: Vec<Item<'_, '_>> = Vec::new();
        for link in links::links(entry) {
            let Some(code) = &link.hreflang() else {
                continue;
            };
            let item = (
                trim_ws(code.value),
                if code.span.is_empty() {
                    link.element.name_span.clone()
                } else {
                    code.span.clone()
                },
                Some(link),
            );
            if n < SMALL {
                small[n] = item;
            } else {
                if large.is_empty() {
                    large.extend(small.iter().cloned());
                }
                large.push(item);
            }
            n += 1;
        }
        if n < 2 {
            return;
        }
        if n <= SMALL {
            for j in 1..n {
                if let Some(i) = (0..j).find(|&i| same(&small[i], &small[j])) {
                    report(
                        &small[i],
                        &small[j],
                        count_before(&small[..j], &small[j]),
                        cx,
                    );
                }
            }
            return;
        }
        // Many links: sort positions by code, then report each group's later members.
        let mut order: Vec<usize> = (0..large.len()).collect();
        order.sort_by(|&a, &b| cmp_code(large[a].0, large[b].0).then(a.cmp(&b)));
        let mut g = 0;
        while g < order.len() {
            let mut h = g + 1;
            while h < order.len() && same(&large[order[g]], &large[order[h]]) {
                h += 1;
            }
            for (k, &j) in order[g + 1..h].iter().enumerate() {
                report(&large[order[g]], &large[j], k + 1, cx);
            }
            g = h;
        }
    }
}

fn same(a: &Item<'_, '_>, b: &Item<'_, '_>) -> bool {
    language::same(a.0, b.0)
}

fn cmp_code(a: &str, b: &str) -> std::cmp::Ordering {
    a.bytes()
        .map(|c| c.to_ascii_lowercase())
        .cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
}

/// The trimmed `href` of a link, empty without one.
fn href<'a>(item: &Item<'_, 'a>) -> &'a str {
    item.2
        .and_then(|link| link.href())
        .map_or("", |h| trim_ws(h.value))
}

fn count_before(earlier: &[Item<'_, '_>], item: &Item<'_, '_>) -> usize {
    earlier.iter().filter(|e| same(e, item)).count()
}

fn report(first: &Item<'_, '_>, dup: &Item<'_, '_>, earlier: usize, cx: &mut Context<'_>) {
    let (first_href, dup_href) = (href(first), href(dup));
    let code = dup.0;
    let ordinal = match earlier + 1 {
        2 => "second".to_owned(),
        3 => "third".to_owned(),
        n => format!("{n}th"),
    };
    let x_default = code.eq_ignore_ascii_case("x-default");
    let (message, help) = if first_href == dup_href {
        (
            format!("`hreflang=\"{code}\"` listed twice for the same `href`"),
            "remove the repeated `<xhtml:link>`".to_owned(),
        )
    } else if x_default {
        (
            "two `x-default` alternates in one `<url>`".to_owned(),
            format!(
                "keep one `x-default`: the one page shown when no language matches (`{}` or `{}`)",
                first_href, dup_href
            ),
        )
    } else {
        let keep = format!(
            "keep one alternate for this code (`{}` or `{}`)",
            first_href, dup_href
        );
        let help = match language::parse(code) {
            Ok(language::Hreflang::Tag {
                language,
                script: None,
                region: None,
            }) => {
                let l = code[language].to_ascii_lowercase();
                format!("{keep}; to target several countries, give each its own code: `{l}-` followed by the ISO 3166-1 country code")
            }
            _ => keep,
        };
        (
            format!("two alternates for `hreflang=\"{code}\"` in one `<url>`"),
            help,
        )
    };
    cx.report_at(&META, dup.1.clone(), |span| {
        Diagnostic::new(&META, span, message)
            .with_label(format!("{ordinal} `{code}`"))
            .with_secondary(first.1.clone(), format!("first `{}` here", first.0))
            .with_help(help)
    });
}
