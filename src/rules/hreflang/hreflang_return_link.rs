//! Rule `hreflang-return-link`: page A lists page B as an alternate, B is in the same file, and B does not list A.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::links;
use crate::pipeline::model::{detach, Entry, EntryKind, Sitemap};
use crate::rule::{Collector, Context, Rule, RuleMeta, MAX_REPORTS_PER_RULE};
use crate::rules::structure::too_many_entries::MAX_ENTRIES;

declare_rule! {
    /// ## What it does
    /// Follows the `hreflang` alternates across the file: when the `<url>` of page A lists page
    /// B (`<xhtml:link hreflang="…" href="B"/>`), and B is the `<loc>` of another `<url>` in the
    /// same file, B must list A too. The link without a return is underlined, and B's `<loc>`
    /// labelled. Alternates outside the file are not followed (they may be listed in another
    /// sitemap of the site). URLs are compared character for character, as Google does.
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
        summary: "a page lists an alternate in the same file that does not list it back",
    }
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn collector<'a>(&self, _sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        Some(Box::new(Graph::default()))
    }
}

/// One `<url>` of the file as the cross-entry hreflang rules see it.
pub(crate) struct Page<'a> {
    /// The trimmed `<loc>` (borrowed from the source unless it holds entities or CDATA).
    pub loc: Cow<'a, str>,
    pub loc_span: Range<usize>,
    /// The interned id of `loc` (see [`Graph::href`]); [`NO_PAGE`] until a link is seen.
    pub id: u32,
    /// Its alternates: a range of [`Graph::links`], sorted by `href`, then code.
    pub links: Range<usize>,
}

/// One `<xhtml:link>` with both `hreflang` and `href`.
pub(crate) struct Alt<'a> {
    /// The code, a slice of the source unless it holds references.
    pub lang: Cow<'a, str>,
    /// The code in lowercase as a number (see [`Graph::code`]): equal numbers are codes equal
    /// but for case ([`X_DEFAULT`] is `x-default`), so the checks compare codes without reading
    /// the text.
    pub code: u128,
    pub lang_span: Range<usize>,
    pub href_span: Range<usize>,
    /// The interned id of the trimmed `href`: equal ids are equal URLs (see [`Graph::href`]).
    pub target: u32,
}

/// The alternates of every `<url>` of a file, kept compactly: strings are slices of the source
/// (see [`crate::pipeline::model::detach`]), spans are source ranges, and URLs
/// are interned once, so that the checks compare and look up `u32` ids instead of strings.
#[derive(Default)]
pub(crate) struct Graph<'a> {
    pub pages: Vec<Page<'a>>,
    pub links: Vec<Alt<'a>>,
    /// Id → the URL as written in an `href` (empty while only a `<loc>` has it).
    hrefs: Vec<Cow<'a, str>>,
    /// URL → id, while entries are added; emptied by [`Graph::index`].
    ids: HashMap<Hashed<'a>, u32, BuildHasherDefault<FastHasher>>,
    /// Lowercase codes longer than 16 bytes → id (see [`Graph::code`]).
    long_codes: HashMap<Box<str>, u32, BuildHasherDefault<FastHasher>>,
    /// Whether a link was seen: until then pages keep their `<loc>` only (id [`NO_PAGE`]), and
    /// a file without hreflang costs no hashing.
    interning: bool,
}

/// A URL with its hash, so that growing the map does not read the URLs again.
struct Hashed<'a> {
    hash: u64,
    url: Cow<'a, str>,
}

impl Hash for Hashed<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl PartialEq for Hashed<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.url == other.url
    }
}

impl Eq for Hashed<'_> {}

/// The fewest bytes a page takes in the text: `<url><loc>x</loc></url>`.
const SMALLEST_PAGE: usize = 23;

/// Room for as many pages as a text of `len` bytes can hold, up to the protocol's limit, made on
/// the first page: grown by doubling, the list of a large file is copied into fresh memory again
/// and again, a page fault per 4 KiB, in the file's turn (one thread at a time). Room never
/// written to is address space, not memory.
fn page_room(len: usize) -> usize {
    (len / SMALLEST_PAGE).min(MAX_ENTRIES)
}

/// No page: the URL is not the `<loc>` of any page of the file.
const NO_PAGE: u32 = u32::MAX;

/// The [`Alt::code`] of `x-default`.
pub(crate) const X_DEFAULT: u128 = u128::from_le_bytes(*b"x-default\0\0\0\0\0\0\0");

/// Pages with at most this many alternates are searched linearly by id; longer lists by a binary
/// search over their sorted URLs.
const LINEAR: usize = 16;

impl<'a> Graph<'a> {
    /// The id of `url`, interned on first sight.
    fn intern(&mut self, url: Cow<'a, str>) -> u32 {
        let mut h = FastHasher::default();
        h.write(url.as_bytes());
        let key = Hashed {
            hash: h.finish(),
            url,
        };
        let next = u32::try_from(self.hrefs.len()).unwrap_or(u32::MAX);
        let id = *self.ids.entry(key).or_insert(next);
        if id == next {
            self.hrefs.push(Cow::Borrowed(""));
        }
        id
    }

    /// The [`Alt::code`] of `code`: its bytes with ASCII letters in lowercase, as a number
    /// (zero-padded: XML text holds no NUL, so no two codes of up to 16 bytes give the same
    /// number); a longer code is interned, and numbered with a first byte of zero, which no
    /// written code has.
    fn code(&mut self, code: &str) -> u128 {
        if code.len() <= 16 {
            // Byte by byte into the number (as `u128::from_le_bytes` of the padded bytes): a
            // copy into an array read back whole stalls on the store forwarding.
            return code.bytes().rev().fold(0u128, |key, b| {
                key << 8 | u128::from(b.to_ascii_lowercase())
            });
        }
        let next = u32::try_from(self.long_codes.len() + 1).unwrap_or(u32::MAX);
        let id = *self
            .long_codes
            .entry(code.to_ascii_lowercase().into())
            .or_insert(next);
        u128::from(id) << 8
    }

    pub fn add(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>) {
        if entry.kind != EntryKind::Url {
            return;
        }
        let Some(loc) = entry.loc() else { return };
        let source = sitemap.source;
        let loc_text = detach(source, loc.trimmed());
        if loc_text.is_empty() {
            return;
        }
        if self.pages.capacity() == 0 {
            self.pages.reserve(page_room(source.len()));
        }
        let mut id = if self.interning {
            self.intern(loc_text.clone())
        } else {
            NO_PAGE
        };
        let start = self.links.len();
        for link in links::links(entry) {
            let (Some(lang), Some(href)) = (link.hreflang(), link.href()) else {
                continue;
            };
            let (lang, lang_span, href, href_span) = (lang.value, lang.span, href.value, href.span);
            if !self.interning {
                self.interning = true;
                for p in 0..self.pages.len() {
                    self.pages[p].id = self.intern(self.pages[p].loc.clone());
                }
                id = self.intern(loc_text.clone());
            }
            let href = detach(
                source,
                href.trim_matches(crate::pipeline::model::is_xml_space),
            );
            let target = self.intern(href.clone());
            if let Some(slot) = self.hrefs.get_mut(target as usize) {
                if slot.is_empty() {
                    *slot = href;
                }
            }
            let lang = lang.trim();
            let code = self.code(lang);
            self.links.push(Alt {
                lang: detach(source, lang),
                code,
                lang_span,
                href_span,
                target,
            });
        }
        let links = start..self.links.len();
        let hrefs = &self.hrefs;
        self.links[links.clone()].sort_unstable_by(|a, b| {
            let by_href = if a.target == b.target {
                std::cmp::Ordering::Equal
            } else {
                href_of(hrefs, a.target).cmp(href_of(hrefs, b.target))
            };
            by_href.then_with(|| {
                if a.code == b.code {
                    std::cmp::Ordering::Equal
                } else {
                    cmp_code(&a.lang, &b.lang)
                }
            })
        });
        self.pages.push(Page {
            loc: loc_text,
            loc_span: loc.span(sitemap.source),
            id,
            links,
        });
    }

    /// Each id → its first page (or [`NO_PAGE`]); the map of URLs is released.
    pub fn index(&mut self) -> Index {
        self.ids = HashMap::default();
        let mut index = vec![NO_PAGE; self.hrefs.len()];
        for (i, p) in self.pages.iter().enumerate() {
            if let Some(slot) = index.get_mut(p.id as usize) {
                if *slot == NO_PAGE {
                    *slot = u32::try_from(i).unwrap_or(NO_PAGE);
                }
            }
        }
        Index(index)
    }

    #[inline]
    pub fn alts(&self, page: usize) -> &[Alt<'a>] {
        &self.links[self.pages[page].links.clone()]
    }

    /// The URL of an alternate.
    pub fn href(&self, alt: &Alt<'_>) -> &str {
        href_of(&self.hrefs, alt.target)
    }

    /// The alternates of `page` whose `href` has the id `target`.
    #[inline]
    pub fn alts_to(&self, page: usize, target: u32) -> &[Alt<'a>] {
        let alts = self.alts(page);
        let start = if alts.len() <= LINEAR {
            alts.iter()
                .position(|a| a.target == target)
                .unwrap_or(alts.len())
        } else {
            let href = href_of(&self.hrefs, target);
            alts.partition_point(|a| href_of(&self.hrefs, a.target) < href)
        };
        let len = alts[start..]
            .iter()
            .take_while(|a| a.target == target)
            .count();
        &alts[start..start + len]
    }

    #[inline]
    pub fn lists(&self, page: usize, target: u32) -> bool {
        !self.alts_to(page, target).is_empty()
    }

    /// The code `page` gives itself, else `…`.
    pub fn own_code(&self, page: usize) -> &str {
        self.alts_to(page, self.pages[page].id)
            .first()
            .map_or("…", |a| &a.lang)
    }
}

fn href_of<'h>(hrefs: &'h [Cow<'_, str>], id: u32) -> &'h str {
    hrefs.get(id as usize).map_or("", |h| h)
}

/// Each URL id of a [`Graph`] → its first page.
pub(crate) struct Index(Vec<u32>);

impl Index {
    /// The first page whose `<loc>` has the id `target`.
    pub fn page(&self, target: u32) -> Option<usize> {
        match self.0.get(target as usize) {
            Some(&p) if p != NO_PAGE => Some(p as usize),
            _ => None,
        }
    }
}

/// A fast non-cryptographic hasher (FxHash's multiply-rotate) for the URL ids and the list
/// fingerprints: keys come from one file, and a collision only costs a comparison.
#[derive(Default)]
pub(crate) struct FastHasher(u64);

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }

    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Case-insensitive order of codes.
pub(crate) fn cmp_code(a: &str, b: &str) -> std::cmp::Ordering {
    a.bytes()
        .map(|c| c.to_ascii_lowercase())
        .cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
}

impl<'a> Collector<'a> for Graph<'a> {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        self.add(sitemap, entry);
    }

    fn finish(self: Box<Self>, _sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        let mut graph = *self;
        if graph.links.is_empty() {
            return; // no alternates: nothing to check
        }
        let index = graph.index();
        // One graph for both cross-entry rules: `hreflang-cluster-mismatch` collects nothing
        // itself while this rule is enabled. On a large file the two checks run side by side,
        // each into a context of its own, taken over in the same order as one after the other.
        let clusters = cx
            .settings
            .severity_of(&crate::rules::hreflang::hreflang_cluster_mismatch::META)
            .is_some();
        let (graph, index) = (&graph, &index);
        if cx.settings.threads > 1 && clusters && graph.links.len() >= PARALLEL_FINISH {
            let (mut first, mut second) = (Context::new(cx.settings), Context::new(cx.settings));
            std::thread::scope(|s| {
                s.spawn(|| {
                    crate::rules::hreflang::hreflang_cluster_mismatch::check(
                        graph, index, &mut first,
                    )
                });
                return_links(graph, index, &mut second);
            });
            cx.absorb(first);
            cx.absorb(second);
        } else {
            if clusters {
                crate::rules::hreflang::hreflang_cluster_mismatch::check(graph, index, cx);
            }
            return_links(graph, index, cx);
        }
    }
}

/// Alternates from which the two finishing checks run on two threads.
const PARALLEL_FINISH: usize = 20_000;

/// Reports each alternate whose page does not link back.
fn return_links(graph: &Graph<'_>, index: &Index, cx: &mut Context<'_>) {
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

#[cfg(test)]
mod tests {
    use super::{page_room, Graph, PARALLEL_FINISH, SMALLEST_PAGE, X_DEFAULT};
    use crate::rules::structure::too_many_entries::MAX_ENTRIES;
    use crate::{check_reader, Settings};

    #[test]
    fn codes_are_equal_when_equal_but_for_case() {
        let mut g = Graph::default();
        assert_eq!(g.code("x-default"), X_DEFAULT);
        assert_eq!(g.code("X-Default"), X_DEFAULT);
        assert_eq!(g.code("EN-gb"), g.code("en-GB"));
        assert_ne!(g.code("en"), g.code("en-gb"));
        assert_ne!(g.code(""), g.code("en"));
        let long = "zh-Hant-TW-x-private1";
        assert_eq!(g.code(long), g.code(&long.to_uppercase()));
        assert_ne!(g.code(long), g.code("zh-Hant-TW-x-private2"));
        // Long codes are numbered apart from every short one, the empty one included.
        let short: Vec<u128> = ["", "a", "zh-Hant-TW-x-pri"]
            .iter()
            .map(|c| g.code(c))
            .collect();
        assert!(!short.contains(&g.code(long)));
        // Only ASCII letters are folded, as `eq_ignore_ascii_case` does.
        assert_eq!(g.code("dé-CH"), g.code("dé-ch"));
        assert_ne!(g.code("dé"), g.code("dÉ"));
    }

    /// The room made on the first page holds every page the file can have, up to the limit.
    #[test]
    fn page_room_fits_a_file_of_the_smallest_pages() {
        let smallest = "<url><loc>x</loc></url>";
        assert_eq!(smallest.len(), SMALLEST_PAGE);
        for pages in [1, 2, 999, 1_000, 49_999, MAX_ENTRIES] {
            let xml = format!(
                r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{}</urlset>"#,
                smallest.repeat(pages)
            );
            assert!(page_room(xml.len()) >= pages, "{pages} pages");
            assert!(page_room(xml.len()) <= MAX_ENTRIES);
        }
        assert_eq!(page_room(usize::MAX), MAX_ENTRIES);
        assert_eq!(page_room(0), 0);
    }

    fn findings(xml: &str) -> Vec<String> {
        let report = check_reader("t.xml", xml.as_bytes(), &Settings::default()).unwrap();
        report
            .diagnostics
            .iter()
            .filter(|d| d.rule.name == "hreflang-return-link")
            .map(|d| d.message.clone())
            .collect()
    }

    /// The two finishing checks side by side (a large file, several threads) report exactly
    /// what they report one after the other.
    #[test]
    fn the_parallel_finish_reports_what_the_sequential_one_does() {
        let mut xml = String::from(
            r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">"#,
        );
        let langs = ["en", "de", "fr", "es"];
        for group in 0..1_500 {
            for (k, own) in langs.iter().enumerate() {
                xml.push_str(&format!("<url><loc>https://a.example/{own}/{group}</loc>"));
                for (j, lang) in langs.iter().enumerate() {
                    // Now and then a page omits one alternate (no return link to it), or
                    // lists another group's page (clusters that differ).
                    if (group * 7 + k * 3 + j) % 97 == 0 {
                        continue;
                    }
                    let target = if (group + k + j) % 89 == 0 {
                        group + 1
                    } else {
                        group
                    };
                    xml.push_str(&format!(
                        r#"<xhtml:link rel="alternate" hreflang="{lang}" href="https://a.example/{lang}/{target}"/>"#
                    ));
                }
                xml.push_str("</url>");
            }
        }
        xml.push_str("</urlset>");
        let run = |threads: usize| {
            let settings = Settings {
                threads,
                ..Settings::default()
            };
            let report = check_reader("t.xml", xml.as_bytes(), &settings).unwrap();
            report
                .diagnostics
                .iter()
                .map(|d| format!("{} {:?} {}", d.rule.name, d.primary.span, d.message))
                .collect::<Vec<_>>()
        };
        assert!(xml.matches("<xhtml:link").count() > PARALLEL_FINISH + 2_000);
        let one = run(1);
        assert!(
            one.iter().any(|d| d.starts_with("hreflang-return-link"))
                && one
                    .iter()
                    .any(|d| d.starts_with("hreflang-cluster-mismatch")),
            "the file must give both findings: {:?}",
            &one[..one.len().min(5)]
        );
        assert_eq!(one, run(2));
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
