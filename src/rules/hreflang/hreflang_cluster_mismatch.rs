//! Rule `hreflang-cluster-mismatch`: pages of one hreflang cluster list different alternates, or disagree on a page's code.

use std::collections::{HashMap, HashSet};
use std::hash::Hasher;
use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::Sitemap;
use crate::rule::{Collector, Context, Rule, MAX_REPORTS_PER_RULE};
use crate::rules::hreflang::{
    graph_collector, mixed, Alt, FastHasher, Graph, Index, There, X_DEFAULT,
};

declare_rule! {
    /// ## What it does
    /// Compares the alternates of pages that list each other (both are `<loc>`s of this file):
    ///
    /// - every page of a cluster should list the same set of alternates: when page A lists B and
    ///   B lists A, but B lists an alternate C that A does not, A is reported, and B's link to C
    ///   labelled (a missing link that is a missing *return* link is left to
    ///   `hreflang-return-link`, and a missing self-reference to `hreflang-self-missing`);
    /// - a page's code should be the same everywhere: when A lists B as `fr` but B lists itself as
    ///   `fr-CA`, A's code is underlined and B's labelled.
    ///
    /// Pages are compared through a fingerprint of their lists, and only pairs that differ are
    /// examined, at most 16 per page and within a work budget proportional to the number of
    /// links, so the check stays linear on files of 50,000 URLs.
    ///
    /// Across files: when several files are checked together (named on the command line, or
    /// found with `--site-root`), pages in different files are compared too (codes, and the
    /// lists of pages that list each other), as `hreflang-return-link` follows them: the finding
    /// joins the report of the later file, with a label at the place in the other file
    /// (`file:line:column`). An alternate that the page lacks is reported when its own page is
    /// in a file already compared (or in this one) and does not list the page back; an alternate
    /// no file of the set lists, or only a later one, is left out. Alternates whose URL no file
    /// of the set lists as a `<loc>` are not followed.
    ///
    /// ## Why is this bad?
    /// Google's documentation: "Each language version must list itself as well as all other
    /// language versions." A page missing from some lists is only partly connected to its
    /// cluster: Google may not show it, or show the wrong version, in the search results of the
    /// pages that lack it. Two codes for one page mean one of them is wrong.
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
    ///     <xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.com/"/>
    ///   </url>
    ///   <url>
    ///     <loc>https://www.example.com/de/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/"/>
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
    ///     <xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.com/"/>
    ///   </url>
    ///   <url>
    ///     <loc>https://www.example.com/de/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/"/>
    ///     <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/>
    ///     <xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.com/"/>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - Google Search Central, "Tell Google about localized versions of your page": "Each language version must list itself as well as all other language versions"
    pub static META = {
        name: "hreflang-cluster-mismatch",
        category: Structure,
        severity: Warning,
        summary: "pages that list each other as alternates list different alternates, or give a page different codes",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, _sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        Some(graph_collector(&META))
    }
}

/// Alternates of the other page compared per page at most.
const MAX_COMPARED: usize = 16;
/// Missing alternates named per page at most.
const MAX_NAMED: usize = 8;

/// The sum of `hash` over the distinct keys of a sequence whose equal keys are adjacent (a
/// page's alternates, sorted by URL, then code): an order-independent fingerprint of the set.
fn sum_of_distinct<K: PartialEq + Copy>(
    keys: impl Iterator<Item = K>,
    hash: impl Fn(K) -> u64,
) -> u64 {
    let mut sum = 0u64;
    let mut previous: Option<K> = None;
    for key in keys {
        if previous == Some(key) {
            continue;
        }
        previous = Some(key);
        sum = sum.wrapping_add(hash(key));
    }
    sum
}

/// An order-independent fingerprint of a page's list: the sum of the hashes of its distinct
/// (href, lowercase code) pairs.
fn fingerprint(graph: &Graph<'_>, page: usize) -> u64 {
    let pairs = graph.alts(page).iter().map(|alt| (alt.target, alt.code));
    sum_of_distinct(pairs, |(target, code)| {
        let mut h = FastHasher::default();
        h.write_u32(target);
        h.write_u128(code);
        mixed(h.finish())
    })
}

/// An order-independent fingerprint of the URLs a page reaches: its own and those of its
/// alternates, each once, whatever the codes (`listed_self`: whether the alternates include its
/// own URL). Two pages with the same reach list each other's alternates (a page that lacks only
/// its self-link included).
fn reach(graph: &Graph<'_>, page: usize, listed_self: bool) -> u64 {
    let targets = graph.alts(page).iter().map(|alt| alt.target);
    let sum = sum_of_distinct(targets, target_hash);
    if listed_self {
        sum
    } else {
        sum.wrapping_add(target_hash(graph.pages[page].id))
    }
}

fn target_hash(target: u32) -> u64 {
    let mut h = FastHasher::default();
    h.write_u32(target);
    mixed(h.finish())
}

/// The cluster checks over a finished graph (see [`graph_collector`]).
pub(crate) fn check(graph: &Graph<'_>, index: &Index, cx: &mut Context<'_>) {
    {
        let prints: Vec<u64> = (0..graph.pages.len())
            .map(|p| fingerprint(graph, p))
            .collect();
        // Whether each page lists itself: one that does not gives itself no code to compare.
        let listed_self: Vec<bool> = graph
            .pages
            .iter()
            .enumerate()
            .map(|(p, page)| graph.lists(p, page.id))
            .collect();
        let reaches: Vec<u64> = listed_self
            .iter()
            .enumerate()
            .map(|(p, &listed)| reach(graph, p, listed))
            .collect();
        // Steps of the comparisons below, bounded so that pathological files stay linear.
        let mut budget = graph.links.len().saturating_mul(32) + 100_000;
        let mut self_codes: HashMap<usize, HashSet<u128>> = HashMap::new();
        let mut reported = 0usize;
        // Built only if kept: past the cap a finding is counted, not formatted.
        let mut report = |build: &dyn Fn() -> Diagnostic, cx: &mut Context<'_>| {
            if reported < MAX_REPORTS_PER_RULE {
                reported += 1;
                cx.report(build());
            } else {
                cx.count_unreported(&META, 1);
            }
        };
        for (p, page) in graph.pages.iter().enumerate() {
            let own = page.id;
            if graph.alts(p).is_empty() || index.page(own) != Some(p) {
                continue;
            }
            // Codes: the page's code for each alternate agrees with the alternate's own.
            let mut previous: Option<u32> = None;
            for alt in graph.alts(p) {
                if alt.target == own || previous == Some(alt.target) {
                    continue;
                }
                previous = Some(alt.target);
                let Some(q) = index.page(alt.target) else {
                    continue;
                };
                if !listed_self[q] {
                    continue;
                }
                // `x-default` is a role, not the page's language: only language codes compare.
                let language = |a: &&Alt<'_>| a.code != X_DEFAULT;
                let mut selves = graph.alts_to(q, alt.target).iter().filter(language);
                let mut mine = graph.alts_to(p, alt.target).iter().filter(language);
                let (Some(theirs), Some(_)) = (selves.next(), mine.clone().next()) else {
                    continue;
                };
                if q == p {
                    continue;
                }
                // Usually the page gives itself one code, the one used here: found without
                // gathering its codes (a set per page).
                if mine.clone().any(|m| m.code == theirs.code) {
                    continue;
                }
                // The codes a page gives itself, gathered once per page: comparing every code
                // of P's links to Q with every code Q gives itself would be quadratic when both
                // repeat (400,000 times each).
                let codes = self_codes.entry(q).or_insert_with(|| {
                    graph
                        .alts_to(q, alt.target)
                        .iter()
                        .filter(language)
                        .map(|a| a.code)
                        .collect()
                });
                if mine.any(|m| codes.contains(&m.code)) {
                    continue;
                }
                report(
                    &|| {
                        Diagnostic::new(
                            &META,
                            alt.lang_span.clone(),
                            format!(
                                "`{}` is `{}` here, but lists itself as `{}`",
                                graph.href(alt),
                                alt.lang,
                                theirs.lang
                            ),
                        )
                        .with_label("code given by this page")
                        .with_secondary(theirs.lang_span.clone(), "code the page gives itself")
                        .with_help(format!(
                            "give each page the same code everywhere: write `hreflang=\"{}\"` here, or fix the alternate's own code",
                            theirs.lang
                        ))
                    },
                    cx,
                );
            }
            // Sets: alternates that the page's reciprocal alternates list and it does not.
            let mut missing: Vec<(usize, usize)> = Vec::new();
            let mut more = 0usize;
            let mut compared = 0usize;
            let mut previous: Option<u32> = None;
            for alt in graph.alts(p) {
                if alt.target == own || previous == Some(alt.target) {
                    continue;
                }
                previous = Some(alt.target);
                let Some(q) = index.page(alt.target) else {
                    continue;
                };
                if q == p || prints[q] == prints[p] || !graph.lists(q, own) {
                    continue;
                }
                compared += 1;
                if compared > MAX_COMPARED {
                    break;
                }
                // Every URL the other page reaches, this one does: nothing is missing. The steps
                // the loop below would have taken are spent all the same, so that the budget
                // runs out where it did.
                if reaches[q] == reaches[p] {
                    budget = budget.saturating_sub(graph.alts(q).len());
                    continue;
                }
                for (i, theirs) in graph.alts(q).iter().enumerate() {
                    if budget == 0 {
                        break;
                    }
                    budget -= 1;
                    let r = theirs.target;
                    if r == own || graph.lists(p, r) {
                        continue;
                    }
                    // R lists this page but not the other way round: a missing return link,
                    // reported by `hreflang-return-link` at R's link.
                    if index
                        .page(r)
                        .is_some_and(|rr| rr != p && graph.lists(rr, own))
                    {
                        continue;
                    }
                    let known = missing
                        .iter()
                        .any(|&(mq, mi)| graph.alts(mq)[mi].target == r);
                    if known {
                        continue;
                    }
                    if missing.len() < MAX_NAMED {
                        missing.push((q, i));
                    } else {
                        more += 1;
                    }
                }
            }
            let Some(&(q, i)) = missing.first() else {
                continue;
            };
            report(
                &|| {
                    let first = &graph.alts(q)[i];
                    let d = Diagnostic::new(
                        &META,
                        page.loc_span.clone(),
                        format!(
                            "`{}` (`{}`) is missing from the alternates of this page",
                            graph.href(first),
                            first.lang
                        ),
                    )
                    .with_label("its cluster lists more alternates than this page")
                    .with_secondary(
                        first.href_span.clone(),
                        format!("listed by `{}`", graph.pages[q].loc),
                    )
                    .with_help(format!(
                        "every page of a cluster lists the same alternates: add `<xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{}\"/>`",
                        first.lang,
                        graph.href(first)
                    ));
                    let rest: Vec<(&str, &str)> = missing[1..]
                        .iter()
                        .map(|&(mq, mi)| {
                            let a = &graph.alts(mq)[mi];
                            (graph.href(a), &*a.lang)
                        })
                        .collect();
                    also_missing(d, &rest, more)
                },
                cx,
            );
        }
    }
}

/// Across files: this page calls `href` `lang` (at `span`), and that page, in an earlier file of
/// the set, calls itself `theirs` (`there`).
pub(crate) fn code_here(
    span: Range<usize>,
    href: &str,
    lang: &str,
    theirs: &str,
    there: There<'_>,
) -> Diagnostic {
    let file = there.file;
    there.label(
        Diagnostic::new(
            &META,
            span,
            format!("`{href}` is `{lang}` here, but lists itself as `{theirs}` in `{file}`"),
        )
        .with_label("code given by this page"),
        "code the page gives itself",
    )
    .with_help(format!(
        "give each page the same code everywhere: write `hreflang=\"{theirs}\"` here, or fix the alternate's own code in `{file}`"
    ))
}

/// Across files: this page calls itself `own_code` (at `span`), and `other`, in an earlier file
/// of the set, calls it `lang` (`there`).
pub(crate) fn code_there(
    span: Range<usize>,
    own_code: &str,
    other: &str,
    lang: &str,
    there: There<'_>,
) -> Diagnostic {
    let file = there.file;
    there.label(
        Diagnostic::new(
            &META,
            span,
            format!("this page lists itself as `{own_code}`, but `{other}` lists it as `{lang}` in `{file}`"),
        )
        .with_label("code the page gives itself"),
        "code given by another page",
    )
    .with_help(format!(
        "give each page the same code everywhere: write `hreflang=\"{own_code}\"` in `{file}`, or fix this page's own code"
    ))
}

/// Across files: alternates (`missing`, each `(href, code)`; `more` beyond them) that `other`,
/// which this page (its `<loc>` at `span`) and which lists this page, lists in an earlier file of
/// the set (`there`, its link to the first), and this page does not.
pub(crate) fn missing_here(
    span: Range<usize>,
    other: &str,
    missing: &[(&str, &str)],
    more: usize,
    there: There<'_>,
) -> Option<Diagnostic> {
    let (href, lang) = *missing.first()?;
    let d = there.label(
        Diagnostic::new(
            &META,
            span,
            format!("`{href}` (`{lang}`) is missing from the alternates of this page"),
        )
        .with_label("its cluster lists more alternates than this page"),
        format!("listed by `{other}`"),
    )
    .with_help(format!(
        "every page of a cluster lists the same alternates: add `<xhtml:link rel=\"alternate\" hreflang=\"{lang}\" href=\"{href}\"/>`"
    ));
    Some(also_missing(d, &missing[1..], more))
}

/// Across files: alternates (`missing`; the first at `span`) that this page lists and `other`,
/// its alternate in an earlier file of the set (`there`, its `<loc>`) that lists it back, does
/// not.
pub(crate) fn missing_there(
    span: Range<usize>,
    other: &str,
    missing: &[(&str, &str)],
    more: usize,
    there: There<'_>,
) -> Option<Diagnostic> {
    let (href, lang) = *missing.first()?;
    let file = there.file;
    let d = there.label(
        Diagnostic::new(
            &META,
            span,
            format!("`{href}` (`{lang}`) is missing from the alternates of `{other}` in `{file}`"),
        )
        .with_label("listed by this page"),
        format!("the `<url>` of `{other}`, which lacks it"),
    )
    .with_help(format!(
        "every page of a cluster lists the same alternates: add `<xhtml:link rel=\"alternate\" hreflang=\"{lang}\" href=\"{href}\"/>` to the `<url>` of `{other}` in `{file}`"
    ));
    Some(also_missing(d, &missing[1..], more))
}

/// The note naming the other missing alternates, when there are.
fn also_missing(d: Diagnostic, rest: &[(&str, &str)], more: usize) -> Diagnostic {
    if rest.is_empty() && more == 0 {
        return d;
    }
    let names: Vec<String> = rest
        .iter()
        .map(|(href, lang)| format!("`{href}` (`{lang}`)"))
        .collect();
    let tail = if more > 0 { " and others" } else { "" };
    d.with_note(format!("also missing: {}{tail}", names.join(", ")))
}

#[cfg(test)]
mod tests {
    use crate::{check_reader, Settings};

    fn sitemap(urls: &[(String, Vec<(&str, String)>)]) -> String {
        let mut s = String::from(
            "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
        );
        for (loc, links) in urls {
            s.push_str(&format!("<url><loc>{loc}</loc>"));
            for (lang, href) in links {
                s.push_str(&format!(
                    "<xhtml:link rel=\"alternate\" hreflang=\"{lang}\" href=\"{href}\"/>"
                ));
            }
            s.push_str("</url>\n");
        }
        s.push_str("</urlset>\n");
        s
    }

    fn count(xml: &str, rule: &str) -> usize {
        let report = check_reader("t.xml", xml.as_bytes(), &Settings::default()).unwrap();
        report
            .diagnostics
            .iter()
            .filter(|d| d.rule.name == rule)
            .count()
    }

    /// A hub listing thousands of pages that each list only the hub and themselves: every page
    /// misses thousands of alternates. The work budget keeps this linear, and reports are capped.
    #[test]
    fn hub_with_thousands_of_partial_pages_stays_bounded() {
        let n = 3_000;
        let page = |i: usize| format!("https://www.example.com/p{i}/");
        let hub = "https://www.example.com/".to_owned();
        let mut urls = vec![(
            hub.clone(),
            std::iter::once(("x-default", hub.clone()))
                .chain((0..n).map(|i| ("en", page(i))))
                .collect(),
        )];
        for i in 0..n {
            urls.push((page(i), vec![("x-default", hub.clone()), ("en", page(i))]));
        }
        let xml = sitemap(&urls);
        let started = std::time::Instant::now();
        let found = count(&xml, "hreflang-cluster-mismatch");
        assert!(found > 0 && found <= crate::rule::MAX_REPORTS_PER_RULE);
        // Generous: the unbounded comparison would take minutes in a debug build.
        assert!(started.elapsed().as_secs() < 60);
        // The hub lists `en` many times: duplicates, not return-link problems.
        assert_eq!(count(&xml, "hreflang-return-link"), 0);
    }

    #[test]
    fn consistent_cluster_is_clean_and_a_missing_member_is_found() {
        let e = |p: &str| format!("https://www.example.com/{p}/");
        let all = vec![("en", e("en")), ("de", e("de")), ("fr", e("fr"))];
        let urls = vec![
            (e("en"), all.clone()),
            (e("de"), all.clone()),
            (e("fr"), all.clone()),
        ];
        assert_eq!(count(&sitemap(&urls), "hreflang-cluster-mismatch"), 0);
        let mut urls = urls;
        urls[2].1.push(("it", "https://www.example.it/".to_owned()));
        // `en` and `de` lack the Italian page that `fr` lists.
        assert_eq!(count(&sitemap(&urls), "hreflang-cluster-mismatch"), 2);
        // The same with `hreflang-return-link` off: the rule then builds its own graph.
        let xml = sitemap(&urls);
        let alone = Settings::only("hreflang-cluster-mismatch");
        let report = check_reader("t.xml", xml.as_bytes(), &alone).unwrap();
        assert_eq!(report.diagnostics.len(), 2);
        // And off while `hreflang-return-link` runs: no finding of it.
        let mut off = Settings::default();
        off.overrides.insert("hreflang-cluster-mismatch", None);
        let report = check_reader("t.xml", xml.as_bytes(), &off).unwrap();
        assert!(report
            .diagnostics
            .iter()
            .all(|d| d.rule.name != "hreflang-cluster-mismatch"));
    }

    /// Pages that list every other member but not themselves reach the same URLs: no member is
    /// missing (that is `hreflang-self-missing`'s finding). One more alternate on one page still
    /// shows as missing from the others.
    #[test]
    fn pages_without_their_self_link_miss_nothing_else() {
        let e = |p: &str| format!("https://www.example.com/{p}/");
        let others = |me: &str| -> Vec<(&'static str, String)> {
            [("en", "en"), ("de", "de"), ("fr", "fr")]
                .into_iter()
                .filter(|(_, p)| *p != me)
                .map(|(lang, p)| (lang, e(p)))
                .collect()
        };
        let mut urls = vec![
            (e("en"), others("en")),
            (e("de"), others("de")),
            (e("fr"), others("fr")),
        ];
        assert_eq!(count(&sitemap(&urls), "hreflang-cluster-mismatch"), 0);
        assert_eq!(count(&sitemap(&urls), "hreflang-self-missing"), 3);
        urls[2].1.push(("it", "https://www.example.it/".to_owned()));
        assert_eq!(count(&sitemap(&urls), "hreflang-cluster-mismatch"), 2);
    }

    #[test]
    fn codes_compare_without_case_short_or_long() {
        let e = |p: &str| format!("https://www.example.com/{p}/");
        for (a, b, other) in [
            ("de", "DE", "fr"),
            (
                "zh-Hant-TW-x-private1",
                "ZH-HANT-TW-X-PRIVATE1",
                "zh-hant-tw-x-private2",
            ),
        ] {
            let urls = |own: &'static str| {
                vec![
                    (e("en"), vec![("en", e("en")), (a, e("de"))]),
                    (e("de"), vec![("EN", e("en")), (own, e("de"))]),
                ]
            };
            assert_eq!(
                count(&sitemap(&urls(b)), "hreflang-cluster-mismatch"),
                0,
                "{a}"
            );
            // The page calls itself something else than the other page calls it.
            assert_eq!(
                count(&sitemap(&urls(other)), "hreflang-cluster-mismatch"),
                1,
                "{a}"
            );
        }
    }
}
