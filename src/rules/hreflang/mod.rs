//! hreflang alternates (`xhtml:link`): attributes, codes, and the graph of return links and clusters.
//!
//! The two graph rules (`hreflang-return-link`, `hreflang-cluster-mismatch`) follow links across
//! the file: [`graph_collector`] builds one [`Graph`] per file for both, and each rule's `check`
//! reports only its own rule over it.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::ops::Range;
use std::sync::Arc;

use hashbrown::{hash_table, HashTable};

use crate::diagnostic::Diagnostic;
use crate::pipeline::model::links;
use crate::pipeline::model::{detach, Entry, EntryKind, Sitemap, MAX_ENTRIES};
use crate::rule::{Collector, Context, Part, RuleMeta};
use crate::values::text::{trim_ws, trim_xml};

pub mod hreflang_cluster_mismatch;
pub mod hreflang_duplicate;
pub mod hreflang_href_invalid;
pub mod hreflang_invalid;
pub mod hreflang_rel;
pub mod hreflang_return_link;
pub mod hreflang_self_missing;

/// A rule that reads the graph, with its check over the finished graph.
struct GraphRule {
    meta: &'static RuleMeta,
    check: fn(&Graph<'_>, &Index, &mut Context<'_>),
}

/// The rules the graph serves, in registry order.
static GRAPH_RULES: [GraphRule; 2] = [
    GraphRule {
        meta: &hreflang_return_link::META,
        check: hreflang_return_link::check,
    },
    GraphRule {
        meta: &hreflang_cluster_mismatch::META,
        check: hreflang_cluster_mismatch::check,
    },
];

/// The collector of a graph rule (`owner`). Every graph rule that is on has one, but only the
/// first of them (in [`GRAPH_RULES`]) builds the graph: at the end of the file it runs the check
/// of every graph rule that is on, and the others stay empty. What a rule reports does not
/// depend on which other rules are on.
pub(crate) fn graph_collector<'a>(owner: &'static RuleMeta) -> Box<dyn Collector<'a> + Send + 'a> {
    Box::new(GraphCollector {
        owner,
        graph: Some(Graph::default()),
        started: false,
    })
}

struct GraphCollector<'a> {
    owner: &'static RuleMeta,
    /// `None` once another graph rule is known to build the graph.
    graph: Option<Graph<'a>>,
    /// Whether an entry was seen.
    started: bool,
}

impl<'a> Collector<'a> for GraphCollector<'a> {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if !std::mem::replace(&mut self.started, true) {
            let builder = GRAPH_RULES
                .iter()
                .find(|r| cx.settings.severity_of(r.meta).is_some());
            if builder.is_none_or(|r| r.meta.name != self.owner.name) {
                self.graph = None;
            }
        }
        if let Some(graph) = &mut self.graph {
            graph.add(sitemap, entry);
        }
    }

    fn finish(self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        for part in self.finish_parts(sitemap, cx) {
            part(cx);
        }
    }

    fn has_parts(&self) -> bool {
        self.graph
            .as_ref()
            .is_some_and(|g| g.links.len() >= SIDE_BY_SIDE)
    }

    /// The check of each graph rule that is on, over the one graph: the two may run side by
    /// side (the slower first).
    fn finish_parts(
        self: Box<Self>,
        _sitemap: &Sitemap<'a>,
        cx: &mut Context<'_>,
    ) -> Vec<Part<'a>> {
        let Some(mut graph) = self.graph else {
            return Vec::new();
        };
        if graph.links.is_empty() {
            return Vec::new(); // no alternates: nothing to check
        }
        let index = graph.index();
        let shared = Arc::new((graph, index));
        GRAPH_RULES
            .iter()
            .rev()
            .filter(|rule| cx.settings.severity_of(rule.meta).is_some())
            .map(|rule| {
                let (shared, check) = (Arc::clone(&shared), rule.check);
                Box::new(move |cx: &mut Context<'_>| check(&shared.0, &shared.1, cx)) as Part<'a>
            })
            .collect()
    }
}

/// From this many alternates in a file, the two graph checks may run side by side (see
/// [`Collector::finish_parts`]): below it, a thread costs more than it saves.
const SIDE_BY_SIDE: usize = 20_000;

/// A place in another file of the set, where a finding across files puts a label (see
/// [`crate::site_set`] and [`crate::diagnostic::Elsewhere`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct There<'a> {
    /// The file as the run names it.
    pub file: &'a str,
    pub line: usize,
    pub column: usize,
}

impl There<'_> {
    /// `diagnostic` with a label here.
    pub fn label(&self, diagnostic: Diagnostic, message: impl Into<String>) -> Diagnostic {
        diagnostic.with_elsewhere(self.file, self.line, self.column, message)
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
    /// Id → the URL, as the `<loc>` or `href` that had it first wrote it.
    urls: Vec<Cow<'a, str>>,
    /// URL → id, while entries are added; emptied by [`Graph::index`]. The table holds only the
    /// ids (4 bytes a slot, with the URLs in `urls` and their hashes in `hashes`): slots of the
    /// URL and its hash
    /// (40 bytes) made a table of 50,000 URLs 2.6 MB, past a core's cache, and every new URL
    /// a store to a cold line (interning took 4.8 % of the perf samples of a one-thread check of
    /// the 52 MB file with alternates, for 1.1 % of its instructions; 2.4 % since).
    ids: HashTable<u32>,
    /// Id → the URL's hash, for `ids` to compare first and to rehash by; emptied with it.
    hashes: Vec<u64>,
    /// The hash of the URLs (see [`Seeded`]).
    seeded: Seeded,
    /// Lowercase codes longer than 16 bytes → id (see [`Graph::code`]).
    long_codes: HashMap<Box<str>, u32, Seeded>,
    /// Whether a link was seen: until then pages keep their `<loc>` only (id [`NO_PAGE`]), and
    /// a file without hreflang costs no hashing.
    interning: bool,
}

/// The hash of the keys that come from the text of a file (URLs, language codes): seeded anew
/// for each run (foldhash takes the seed from the process's randomised addresses, the clock and a
/// heap address), so that a file cannot be written to make its keys collide. With the
/// unseeded [`FastHasher`], 20,000 `href`s crafted to share one hash took 1.05 s to intern, and
/// twice as many four times as long (every new key compared with all the others): a 50 MB
/// file would have taken hours.
pub(crate) type Seeded = foldhash::fast::RandomState;

/// The fewest bytes a page takes in the text: `<url><loc>x</loc></url>`.
const SMALLEST_PAGE: usize = 23;

/// Room for as many pages as a text of `len` bytes can hold, up to the protocol's limit, made on
/// the first page: grown by doubling, the list of a large file is copied into fresh memory again
/// and again, a page fault per 4 KiB, in the file's turn (one thread at a time). Room never
/// written to is address space, not memory.
fn page_room(len: usize) -> usize {
    (len / SMALLEST_PAGE).min(MAX_ENTRIES)
}

/// The fewest bytes an alternate with both attributes takes in the text:
/// `<link hreflang="" href=""/>`.
const SMALLEST_LINK: usize = 27;

/// Room for the alternates of a file of `len` bytes, made at its first page with alternates
/// (`first` of them): as many for every page the file can hold, but no more than the text can
/// hold. A sitemap usually gives every page the same alternates; grown by doubling, the list
/// (250,000 alternates in the 50 MiB benchmark file) is copied into fresh memory again and
/// again, as [`page_room`] says.
fn link_room(len: usize, first: usize) -> usize {
    page_room(len)
        .saturating_mul(first)
        .min(len / SMALLEST_LINK)
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
        let hash = self.seeded.hash_one(url.as_bytes());
        let (hashes, urls) = (&self.hashes, &self.urls);
        let key = |id: &u32| hashes.get(*id as usize).copied().unwrap_or(0);
        let same = |id: &u32| key(id) == hash && urls.get(*id as usize) == Some(&url);
        match self.ids.entry(hash, same, key) {
            hash_table::Entry::Occupied(found) => *found.get(),
            hash_table::Entry::Vacant(slot) => {
                let id = u32::try_from(self.urls.len()).unwrap_or(u32::MAX);
                slot.insert(id);
                self.hashes.push(hash);
                self.urls.push(url);
                id
            }
        }
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
            let target = self.intern(detach(source, trim_xml(href)));
            let lang = trim_ws(lang);
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
        if start == 0 {
            let room = link_room(source.len(), links.len());
            self.links.reserve_exact(room.saturating_sub(links.len()));
        }
        let urls = &self.urls;
        self.links[links.clone()].sort_unstable_by(|a, b| {
            let by_href = if a.target == b.target {
                std::cmp::Ordering::Equal
            } else {
                url_of(urls, a.target).cmp(url_of(urls, b.target))
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
        self.ids = HashTable::new();
        self.hashes = Vec::new();
        let mut index = vec![NO_PAGE; self.urls.len()];
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
        url_of(&self.urls, alt.target)
    }

    /// The alternates of `page` whose `href` has the id `target`.
    #[inline]
    pub fn alts_to(&self, page: usize, target: u32) -> &[Alt<'a>] {
        let alts = self.alts(page);
        if alts.len() <= LINEAR {
            let start = alts
                .iter()
                .position(|a| a.target == target)
                .unwrap_or(alts.len());
            let len = alts[start..]
                .iter()
                .take_while(|a| a.target == target)
                .count();
            return &alts[start..start + len];
        }
        // Both ends by binary search: a page may list one URL 400,000 times.
        let href = url_of(&self.urls, target);
        let start = alts.partition_point(|a| url_of(&self.urls, a.target) < href);
        let len = alts[start..].partition_point(|a| a.target == target);
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

fn url_of<'u>(urls: &'u [Cow<'_, str>], id: u32) -> &'u str {
    urls.get(id as usize).map_or("", |u| u)
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

/// A fast non-cryptographic hasher (FxHash's multiply-rotate) for keys the text of a file does
/// not choose (ids, and hashes already seeded, see [`Seeded`]) and the list fingerprints.
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

/// `x` mixed (MurmurHash3's finaliser), so that sums of hashes of different lists rarely
/// coincide (the fingerprints of alternate lists).
pub(crate) fn mixed(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// Case-insensitive order of codes.
pub(crate) fn cmp_code(a: &str, b: &str) -> std::cmp::Ordering {
    a.bytes()
        .map(|c| c.to_ascii_lowercase())
        .cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::{link_room, page_room, Graph, SMALLEST_LINK, SMALLEST_PAGE, X_DEFAULT};
    use crate::pipeline::model::MAX_ENTRIES;
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

    /// URLs written to share one [`FastHasher`] hash (the second eight bytes undo the first;
    /// `tests/hostile.rs` makes 125,000 of them) get distinct hashes in the URL table: a file
    /// cannot make its URLs collide there.
    #[test]
    fn crafted_colliding_urls_hash_apart() {
        use super::FastHasher;
        use std::borrow::Cow;
        use std::hash::Hasher;
        let urls = [
            "https://ex.com/pTNAAAAAA~R)FGu6G",
            "https://ex.com/pDjDAAAAAa((zFs*8",
            "https://ex.com/pVyDAAAAA!Yb`QJs_",
            "https://ex.com/pLFEAAAAAj?3{GtAf",
            "https://ex.com/pQhEAAAAAVw|{%2??",
            "https://ex.com/pf-EAAAAA,[6}^rse",
            "https://ex.com/p6AFAAAAA5]bB_c8]",
            "https://ex.com/pDCFAAAAAnH$MRS--",
            "https://ex.com/pl5GAAAAAqK?Q!h^X",
            "https://ex.com/pdGIAAAAAetQ]mVCj",
            "https://ex.com/pQPJAAAAAHwq=Wsn.",
            "https://ex.com/ptaJAAAAAx^`*K#L9",
        ];
        let unseeded: std::collections::HashSet<u64> = urls
            .iter()
            .map(|u| {
                let mut h = FastHasher::default();
                h.write(u.as_bytes());
                h.finish()
            })
            .collect();
        assert_eq!(unseeded.len(), 1, "the URLs collide under FastHasher");
        let mut g = Graph::default();
        for u in urls {
            g.intern(Cow::Borrowed(u));
        }
        let hashes: std::collections::HashSet<u64> = g.hashes.iter().copied().collect();
        assert_eq!(g.hashes.len(), urls.len());
        assert_eq!(
            hashes.len(),
            urls.len(),
            "seeded hashes of distinct URLs differ"
        );
        // Interned again, each URL finds its id.
        for (i, u) in urls.iter().enumerate() {
            assert_eq!(g.intern(Cow::Borrowed(u)), i as u32);
        }
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

    /// The room for alternates: as many as the first page's on every page, never more than the
    /// text can hold, so that a first page of many alternates reserves nothing absurd.
    #[test]
    fn link_room_is_bounded_by_the_text() {
        let smallest = r#"<link hreflang="" href=""/>"#;
        assert_eq!(smallest.len(), SMALLEST_LINK);
        let len = 52_428_800;
        assert_eq!(link_room(len, 5), 5 * MAX_ENTRIES);
        assert_eq!(link_room(len, 1_000_000), len / SMALLEST_LINK);
        assert_eq!(link_room(len, usize::MAX), len / SMALLEST_LINK);
        assert_eq!(link_room(1_000, 3), 1_000 / SMALLEST_LINK);
        assert_eq!(link_room(0, 3), 0);
    }

    /// A file of 6,000 pages in clusters of four, where now and then a page omits an alternate
    /// (no return link to it) or lists another cluster's page (clusters that differ): both graph
    /// rules have findings.
    fn clusters_file() -> String {
        let mut xml = String::from(
            r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">"#,
        );
        let langs = ["en", "de", "fr", "es"];
        for group in 0..1_500 {
            for (k, own) in langs.iter().enumerate() {
                xml.push_str(&format!("<url><loc>https://a.example/{own}/{group}</loc>"));
                for (j, lang) in langs.iter().enumerate() {
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
        xml
    }

    /// Every diagnostic of `xml` under `settings`, as `rule span message`.
    fn diagnostics(xml: &str, settings: &Settings) -> Vec<String> {
        let report = check_reader("t.xml", xml.as_bytes(), settings).unwrap();
        report
            .diagnostics
            .iter()
            .map(|d| format!("{} {:?} {}", d.rule.name, d.primary.span, d.message))
            .collect()
    }

    /// A large file gives both graph rules' findings alike on one thread and on two (from
    /// [`super::SIDE_BY_SIDE`] alternates the two checks run side by side).
    #[test]
    fn one_thread_and_two_report_the_same() {
        let xml = clusters_file();
        assert!(xml.matches("<xhtml:link").count() > 22_000);
        let run = |threads: usize| {
            let settings = Settings {
                threads,
                ..Settings::default()
            };
            diagnostics(&xml, &settings)
        };
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

    /// What a graph rule reports does not depend on whether the other is on.
    #[test]
    fn each_graph_rule_reports_the_same_alone() {
        let xml = clusters_file();
        let both = diagnostics(&xml, &Settings::default());
        for rule in &super::GRAPH_RULES {
            let name = rule.meta.name;
            let alone = diagnostics(&xml, &Settings::only(name));
            let together: Vec<String> = both
                .iter()
                .filter(|d| d.starts_with(&format!("{name} ")))
                .cloned()
                .collect();
            assert!(!alone.is_empty(), "{name}");
            assert_eq!(alone, together, "{name}");
        }
    }
}
