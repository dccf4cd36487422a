//! hreflang across the files of a set: return links and cluster consistency between pages listed
//! in different files (one sitemap per language is the common layout).
//!
//! Each file's [`Alternates`] (every `<url>`'s `<loc>` and its `<xhtml:link>`s with `hreflang` and
//! `href`) joins one [`SetGraph`] when the file's turn comes, in output order. A pair of pages in
//! two files is compared once, when the later file comes, and its findings join that file's
//! report (the earlier one is already written): the primary span in the later file, a label at
//! the place in the earlier file ([`crate::diagnostic::Elsewhere`]). Pairs within one file are
//! the per-file rules' own; only a file with alternates joins, and an alternate whose URL no file
//! of the set lists is not followed.
//!
//! Memory: each distinct URL once, and per page and per alternate a few words (positions, not
//! spans or text); time linear in the set's alternates: URLs are interned, lists sorted by URL
//! id, the alternates to a page not listed yet are chained by URL until it comes, and the list
//! comparisons of clusters work within a budget proportional to the alternates, as the per-file
//! graph does.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{is_xml_space, links, Entry, EntryKind, Sitemap};
use crate::pipeline::source::SourceFile;
use crate::rule::{Gathered, RuleMeta, MAX_REPORTS_PER_RULE};
use crate::rules::hreflang::{
    hreflang_cluster_mismatch as cluster, hreflang_return_link as ret, mixed, FastHasher, Seeded,
    There,
};

type Fast = BuildHasherDefault<FastHasher>;

/// No page, alternate or file.
const NONE: u32 = u32::MAX;

/// Pages of an earlier file a page is compared with, list against list, at most.
const MAX_COMPARED: usize = 16;
/// Missing alternates named per finding at most.
const MAX_NAMED: usize = 8;

// ---------------------------------------------------------------------------------------------
// One file's alternates

/// The alternates of one file as the set keeps them until the file's turn ([`super::FileSummary`],
/// with [`crate::Settings::collect_set`]): every `<url>`'s trimmed `<loc>` and its links with both
/// `hreflang` and `href`, their text in one buffer, their spans as source ranges.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Alternates {
    text: String,
    pages: Vec<FilePage>,
    links: Vec<FileLink>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct FilePage {
    /// The URL in [`Alternates::text`].
    loc: Range<u32>,
    span: Range<u32>,
    /// Its links in [`Alternates::links`].
    links: Range<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct FileLink {
    href: Range<u32>,
    lang: Range<u32>,
    href_span: Range<u32>,
    lang_span: Range<u32>,
}

fn r32(r: Range<usize>) -> Option<Range<u32>> {
    Some(u32::try_from(r.start).ok()?..u32::try_from(r.end).ok()?)
}

fn us(r: &Range<u32>) -> Range<usize> {
    r.start as usize..r.end as usize
}

impl Alternates {
    /// Records one entry (a `<url>` with a `<loc>`).
    pub fn entry(&mut self, sitemap: &Sitemap<'_>, entry: &Entry<'_>) {
        if entry.kind != EntryKind::Url {
            return;
        }
        let Some(loc) = entry.loc() else { return };
        if loc.trimmed().is_empty() {
            return;
        }
        let Some(span) = r32(loc.span(sitemap.source)) else {
            return;
        };
        let Some(text) = self.push(loc.trimmed()) else {
            return;
        };
        let start = self.links.len();
        for link in links::links(entry) {
            let (Some(lang), Some(href)) = (link.hreflang(), link.href()) else {
                continue;
            };
            let (Some(href_span), Some(lang_span)) = (r32(href.span), r32(lang.span)) else {
                continue;
            };
            let (Some(href), Some(lang)) = (
                self.push(href.value.trim_matches(is_xml_space)),
                self.push(lang.value.trim()),
            ) else {
                continue;
            };
            self.links.push(FileLink {
                href,
                lang,
                href_span,
                lang_span,
            });
        }
        let (Ok(start), Ok(end)) = (u32::try_from(start), u32::try_from(self.links.len())) else {
            return;
        };
        self.pages.push(FilePage {
            loc: text,
            span,
            links: start..end,
        });
    }

    fn push(&mut self, s: &str) -> Option<Range<u32>> {
        let start = self.text.len();
        self.text.push_str(s);
        r32(start..self.text.len())
    }

    fn get(&self, r: &Range<u32>) -> &str {
        self.text.get(us(r)).unwrap_or("")
    }

    /// Maps every span with `to_source` (a split file's buffer to its text, see
    /// [`crate::pipeline::split`]).
    pub fn map_spans(&mut self, to_source: impl Fn(Range<usize>) -> Range<usize>) {
        let map = |r: &mut Range<u32>| {
            if let Some(m) = r32(to_source(us(r))) {
                *r = m;
            }
        };
        for p in &mut self.pages {
            map(&mut p.span);
        }
        for l in &mut self.links {
            map(&mut l.href_span);
            map(&mut l.lang_span);
        }
    }

    /// Whether the file has any alternate.
    pub fn is_empty(&self) -> bool {
        self.links.is_empty()
    }
}

// ---------------------------------------------------------------------------------------------
// The set's graph

/// A 1-based line and column (a place in a file whose text is gone).
#[derive(Debug, Clone, Copy, Default)]
struct Pos {
    line: u32,
    column: u32,
}

struct Page {
    file: u32,
    url: u32,
    loc: Pos,
    /// Its alternates in [`SetGraph::alts`], sorted by target, then code.
    links: Range<u32>,
    /// An order-independent fingerprint of its (target, code) pairs.
    print: u64,
}

struct Alt {
    /// The page that lists it.
    page: u32,
    target: u32,
    /// The code in lowercase, interned.
    code: u32,
    /// The code as written, interned.
    lang: u32,
    href: Pos,
    lang_at: Pos,
    /// The next alternate (of an earlier file) to the same URL not listed yet.
    next: u32,
}

/// The pages of the files of a set that have alternates, with their alternates.
#[derive(Default)]
pub(crate) struct SetGraph {
    ids: HashMap<Arc<str>, u32, Seeded>,
    urls: Vec<Arc<str>>,
    /// URL → its page (the first `<loc>` of the set with that URL), or [`NONE`].
    first: Vec<u32>,
    /// URL → the last file that lists it as a `<loc>`.
    loc_file: Vec<u32>,
    /// URL → the first of the alternates to it while no page has it (chained by [`Alt::next`]).
    incoming: Vec<u32>,
    /// Lowercase codes and codes as written → id.
    codes: HashMap<Box<str>, u32, Seeded>,
    code_text: Vec<Box<str>>,
    pages: Vec<Page>,
    alts: Vec<Alt>,
    /// Steps left for the list comparisons.
    budget: usize,
    /// Findings so far, per rule: [return links, clusters].
    reported: [usize; 2],
    /// (page URL, missing URL) already reported by the cluster check.
    missing_reported: HashSet<(u32, u32), Fast>,
    /// The language codes each page compared so far gives itself (see [`SetGraph::selves`]).
    self_codes: HashMap<usize, Vec<usize>, Fast>,
}

/// Which rules report, and the names of the set's files.
pub(crate) struct Turn<'a> {
    pub file: usize,
    pub names: &'a [String],
    pub return_links: bool,
    pub clusters: bool,
}

/// The places of the file in its turn: spans, where the set keeps positions.
struct Spans {
    /// Per page of this turn (from the first), its `<loc>`.
    loc: Vec<Range<usize>>,
    /// Per alternate of this turn (from the first), its `href` and `hreflang` values.
    href: Vec<Range<usize>>,
    lang: Vec<Range<usize>>,
    page_base: usize,
    alt_base: usize,
}

impl SetGraph {
    fn intern(&mut self, url: &str) -> u32 {
        if let Some(&id) = self.ids.get(url) {
            return id;
        }
        let id = u32::try_from(self.urls.len()).unwrap_or(NONE);
        let url: Arc<str> = url.into();
        self.ids.insert(url.clone(), id);
        self.urls.push(url);
        self.first.push(NONE);
        self.loc_file.push(NONE);
        self.incoming.push(NONE);
        id
    }

    fn code(&mut self, code: &str) -> u32 {
        if let Some(&id) = self.codes.get(code) {
            return id;
        }
        let id = u32::try_from(self.code_text.len()).unwrap_or(NONE);
        self.codes.insert(code.into(), id);
        self.code_text.push(code.into());
        id
    }

    fn url(&self, id: u32) -> &str {
        self.urls.get(id as usize).map_or("", |u| u)
    }

    fn code_of(&self, id: u32) -> &str {
        self.code_text.get(id as usize).map_or("", |c| c)
    }

    fn alts(&self, page: usize) -> &[Alt] {
        let r = &self.pages[page].links;
        &self.alts[r.start as usize..r.end as usize]
    }

    /// The alternates of `page` to `target` (a range of its list).
    fn to(&self, page: usize, target: u32) -> Range<usize> {
        let alts = self.alts(page);
        let start = alts.partition_point(|a| a.target < target);
        let len = alts[start..].partition_point(|a| a.target == target);
        let base = self.pages[page].links.start as usize;
        base + start..base + start + len
    }

    fn lists(&self, page: usize, target: u32) -> bool {
        !self.to(page, target).is_empty()
    }

    /// The language codes (not `x-default`) `page` gives `target`, sorted, as alternate indexes.
    fn languages(&self, page: usize, target: u32) -> impl Iterator<Item = usize> + '_ {
        let x_default = self.codes.get("x-default").copied();
        self.to(page, target)
            .filter(move |&a| Some(self.alts[a].code) != x_default)
    }

    /// The language codes `page` gives itself (one alternate per code), taken from the cache
    /// (the caller puts them back): gathered once per page, since a page may list itself
    /// 400,000 times and be listed by 50,000 pages.
    fn selves(&mut self, page: usize) -> Vec<usize> {
        if let Some(known) = self.self_codes.remove(&page) {
            return known;
        }
        let own = self.pages[page].url;
        let mut codes: Vec<usize> = self.languages(page, own).collect();
        codes.dedup_by_key(|&mut a| self.alts[a].code);
        codes
    }

    /// The code `page` gives itself, as written, else `…`.
    fn own_code(&self, page: usize) -> &str {
        let own = self.pages[page].url;
        self.to(page, own)
            .next()
            .map_or("…", |a| self.code_of(self.alts[a].lang))
    }

    fn there<'n>(&self, names: &'n [String], file: u32, at: Pos) -> There<'n> {
        There {
            file: names.get(file as usize).map_or("", |n| n),
            line: at.line as usize,
            column: at.column as usize,
        }
    }

    /// Adds file `turn.file` (its `part`, checked as `source`), and returns the findings of the
    /// pairs of its pages with pages of earlier files.
    pub fn file(&mut self, part: &Alternates, source: &SourceFile, turn: &Turn<'_>) -> Gathered {
        let mut out = Vec::new();
        if part.is_empty() || !(turn.return_links || turn.clusters) {
            return Gathered::default();
        }
        let Ok(me) = u32::try_from(turn.file) else {
            return Gathered::default();
        };
        if self.pages.is_empty() {
            self.budget = 100_000;
        }
        self.budget = self
            .budget
            .saturating_add(part.links.len().saturating_mul(32));
        let spans = self.add(part, source, me);
        let mut omitted = [0usize; 2];
        for p in spans.page_base..self.pages.len() {
            self.outgoing(p, &spans, turn, &mut out, &mut omitted);
        }
        for p in spans.page_base..self.pages.len() {
            self.incoming(p, &spans, turn, &mut out, &mut omitted);
        }
        let mut out = Gathered {
            diagnostics: out,
            omitted: Vec::new(),
        };
        note_omitted(&mut out, &ret::META, omitted[0]);
        note_omitted(&mut out, &cluster::META, omitted[1]);
        out
    }

    /// The pages of `part` whose URL no earlier page has, with their alternates sorted.
    fn add(&mut self, part: &Alternates, source: &SourceFile, me: u32) -> Spans {
        let mut spans = Spans {
            loc: Vec::new(),
            href: Vec::new(),
            lang: Vec::new(),
            page_base: self.pages.len(),
            alt_base: self.alts.len(),
        };
        // Every `<loc>` of the file first: targets within the file are the per-file rules'.
        let locs: Vec<u32> = part
            .pages
            .iter()
            .map(|fp| self.intern(part.get(&fp.loc)))
            .collect();
        for &url in &locs {
            self.loc_file[url as usize] = me;
        }
        let mut offsets: Vec<usize> = Vec::new();
        for (fp, &url) in part.pages.iter().zip(&locs) {
            if self.first[url as usize] != NONE {
                continue; // listed before: the set's page of that URL is the first
            }
            let Ok(page) = u32::try_from(self.pages.len()) else {
                break;
            };
            let mut links: Vec<(u32, u32, u32, &FileLink)> = part.links
                [fp.links.start as usize..fp.links.end as usize]
                .iter()
                .map(|l| {
                    let written = part.get(&l.lang);
                    let lang = self.code(written);
                    let code = self.code(&written.to_ascii_lowercase());
                    (self.intern(part.get(&l.href)), code, lang, l)
                })
                .collect();
            links.sort_by_key(|&(target, code, _, _)| (target, code));
            let start = u32::try_from(self.alts.len()).unwrap_or(NONE);
            let mut print = 0u64;
            let mut previous = None;
            for &(target, code, lang, l) in &links {
                if previous != Some((target, code)) {
                    previous = Some((target, code));
                    print = print.wrapping_add(mix(target, code));
                }
                self.alts.push(Alt {
                    page,
                    target,
                    code,
                    lang,
                    href: Pos::default(),
                    lang_at: Pos::default(),
                    next: NONE,
                });
                spans.href.push(us(&l.href_span));
                spans.lang.push(us(&l.lang_span));
                offsets.push(l.href_span.start as usize);
                offsets.push(l.lang_span.start as usize);
            }
            let end = u32::try_from(self.alts.len()).unwrap_or(NONE);
            self.first[url as usize] = page;
            spans.loc.push(us(&fp.span));
            offsets.push(fp.span.start as usize);
            self.pages.push(Page {
                file: me,
                url,
                loc: Pos::default(),
                links: start..end,
                print,
            });
        }
        // Positions, for the labels later files put here: one pass over the text.
        let positions = positions(source, offsets);
        let at = |offset: usize| {
            positions
                .binary_search_by_key(&offset, |&(o, _)| o)
                .map_or(Pos::default(), |i| positions[i].1)
        };
        for (k, span) in spans.loc.iter().enumerate() {
            self.pages[spans.page_base + k].loc = at(span.start);
        }
        for k in 0..spans.href.len() {
            let a = &mut self.alts[spans.alt_base + k];
            a.href = at(spans.href[k].start);
            a.lang_at = at(spans.lang[k].start);
        }
        spans
    }

    /// Pairs of page `p` (of this turn) with pages of earlier files it lists; its alternates to
    /// URLs no page has yet wait for them.
    fn outgoing(
        &mut self,
        p: usize,
        spans: &Spans,
        turn: &Turn<'_>,
        out: &mut Vec<Diagnostic>,
        omitted: &mut [usize; 2],
    ) {
        let me = self.pages[p].file;
        let own = self.pages[p].url;
        let range = self.pages[p].links.clone();
        let mut previous = NONE;
        let mut compared = 0usize;
        for a in range.start as usize..range.end as usize {
            let target = self.alts[a].target;
            if target == own || target == previous {
                continue;
            }
            previous = target;
            if self.loc_file[target as usize] == me {
                continue; // within the file
            }
            let q = self.first[target as usize];
            if q == NONE {
                // Not listed yet: the pair is compared when (if) a later file lists it.
                self.alts[a].next = self.incoming[target as usize];
                self.incoming[target as usize] = u32::try_from(a).unwrap_or(NONE);
                continue;
            }
            let q = q as usize;
            let there_file = self.pages[q].file;
            let returned = self.lists(q, own);
            if turn.return_links && !returned {
                let d = ret::unreturned(
                    spans.href[a - spans.alt_base].clone(),
                    self.code_of(self.alts[a].lang),
                    self.url(target),
                    self.url(own),
                    self.own_code(p),
                    self.there(turn.names, there_file, self.pages[q].loc),
                    !self.alts(q).is_empty(),
                );
                push(out, d, &mut self.reported[0], &mut omitted[0]);
            }
            if !turn.clusters {
                continue;
            }
            // Codes: what this page calls the other and what it calls itself.
            let selves = self.selves(q);
            let mine: Vec<usize> = self.languages(p, target).collect();
            let differ = !shares_code(&self.alts, &mine, &selves);
            let first_self = selves.first().copied();
            self.self_codes.insert(q, selves);
            if let (Some(theirs), Some(&first)) = (first_self, mine.first()) {
                if differ {
                    let d = cluster::code_here(
                        spans.lang[first - spans.alt_base].clone(),
                        self.url(target),
                        self.code_of(self.alts[first].lang),
                        self.code_of(self.alts[theirs].lang),
                        self.there(turn.names, there_file, self.alts[theirs].lang_at),
                    );
                    push(out, d, &mut self.reported[1], &mut omitted[1]);
                }
            }
            // Lists: pages that list each other list the same alternates.
            if returned && self.pages[q].print != self.pages[p].print && compared < MAX_COMPARED {
                compared += 1;
                self.compare(p, q, spans, turn, out, omitted);
            }
        }
    }

    /// Pairs of page `p` (of this turn) with pages of earlier files that list it.
    fn incoming(
        &mut self,
        p: usize,
        spans: &Spans,
        turn: &Turn<'_>,
        out: &mut Vec<Diagnostic>,
        omitted: &mut [usize; 2],
    ) {
        let own = self.pages[p].url;
        let mut a = std::mem::replace(&mut self.incoming[own as usize], NONE);
        let loc_span = spans.loc[p - spans.page_base].clone();
        let mut previous = NONE;
        while a != NONE {
            let alt = a as usize;
            a = self.alts[alt].next;
            let q = self.alts[alt].page;
            if q == previous {
                continue; // one finding per page, whatever codes it lists this page under
            }
            previous = q;
            let q = q as usize;
            let other = self.pages[q].url;
            let file = self.pages[q].file;
            if self.loc_file[other as usize] == self.pages[p].file {
                continue; // this file lists the other page too: the per-file rules compare them
            }
            if turn.return_links && !self.lists(p, other) {
                let d = ret::unlisted(
                    loc_span.clone(),
                    self.url(own),
                    self.url(other),
                    self.own_code(q),
                    self.code_of(self.alts[alt].lang),
                    self.there(turn.names, file, self.alts[alt].href),
                );
                push(out, d, &mut self.reported[0], &mut omitted[0]);
            }
            if !turn.clusters {
                continue;
            }
            let selves = self.selves(p);
            let theirs: Vec<usize> = self.languages(q, own).collect();
            let differ = !shares_code(&self.alts, &theirs, &selves);
            let first_self = selves.first().copied();
            self.self_codes.insert(p, selves);
            if let (Some(mine), Some(&given)) = (first_self, theirs.first()) {
                if differ {
                    let d = cluster::code_there(
                        spans.lang[mine - spans.alt_base].clone(),
                        self.code_of(self.alts[mine].lang),
                        self.url(other),
                        self.code_of(self.alts[given].lang),
                        self.there(turn.names, file, self.alts[given].lang_at),
                    );
                    push(out, d, &mut self.reported[1], &mut omitted[1]);
                }
            }
        }
    }

    /// Pages `p` (this turn) and `q` (an earlier file) list each other: the alternates one lists
    /// and the other does not, in both directions. An alternate whose page lists the page that
    /// lacks it is a missing return link (`hreflang-return-link`'s), and one no file has listed
    /// yet is left out (it may still come, with its own return links).
    fn compare(
        &mut self,
        p: usize,
        q: usize,
        spans: &Spans,
        turn: &Turn<'_>,
        out: &mut Vec<Diagnostic>,
        omitted: &mut [usize; 2],
    ) {
        let file = self.pages[q].file;
        // What `q` lists and `p` lacks: reported at `p`'s `<loc>`.
        let (here, more_here) = self.missing(q, p);
        if let Some(&first) = here.first() {
            let named: Vec<(&str, &str)> = here
                .iter()
                .map(|&a| {
                    (
                        self.url(self.alts[a].target),
                        self.code_of(self.alts[a].lang),
                    )
                })
                .collect();
            let d = cluster::missing_here(
                spans.loc[p - spans.page_base].clone(),
                self.url(self.pages[q].url),
                &named,
                more_here,
                self.there(turn.names, file, self.alts[first].href),
            );
            if let Some(d) = d {
                push(out, d, &mut self.reported[1], &mut omitted[1]);
            }
        }
        // What `p` lists and `q` lacks: reported at `p`'s link to the first.
        let (there, more_there) = self.missing(p, q);
        if let Some(&first) = there.first() {
            let named: Vec<(&str, &str)> = there
                .iter()
                .map(|&a| {
                    (
                        self.url(self.alts[a].target),
                        self.code_of(self.alts[a].lang),
                    )
                })
                .collect();
            let d = cluster::missing_there(
                spans.href[first - spans.alt_base].clone(),
                self.url(self.pages[q].url),
                &named,
                more_there,
                self.there(turn.names, file, self.pages[q].loc),
            );
            if let Some(d) = d {
                push(out, d, &mut self.reported[1], &mut omitted[1]);
            }
        }
    }

    /// The alternates of `from` (distinct targets) that `to` lacks and that are not missing
    /// return links, not reported before: at most [`MAX_NAMED`], and how many more.
    fn missing(&mut self, from: usize, to: usize) -> (Vec<usize>, usize) {
        let (mut found, mut more) = (Vec::new(), 0usize);
        let lacking = self.pages[to].url;
        let range = self.pages[from].links.clone();
        let mut previous = NONE;
        for a in range.start as usize..range.end as usize {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            let r = self.alts[a].target;
            if r == previous || r == lacking {
                continue;
            }
            previous = r;
            if self.lists(to, r) {
                continue;
            }
            let rp = self.first[r as usize];
            if rp == NONE || rp as usize == to || self.lists(rp as usize, lacking) {
                continue;
            }
            if !self.missing_reported.insert((lacking, r)) {
                continue;
            }
            if found.len() < MAX_NAMED {
                found.push(a);
            } else {
                more += 1;
            }
        }
        (found, more)
    }
}

/// Whether two lists of alternates (indexes, each sorted by code) share a code.
fn shares_code(alts: &[Alt], a: &[usize], b: &[usize]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (alts[a[i]].code, alts[b[j]].code);
        match x.cmp(&y) {
            std::cmp::Ordering::Equal => return true,
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
        }
    }
    false
}

/// A well-mixed hash of a (target, code) pair, summed into a page's fingerprint.
fn mix(target: u32, code: u32) -> u64 {
    let mut h = FastHasher::default();
    h.write_u32(target);
    h.write_u32(code);
    mixed(h.finish())
}

/// Reports `d` under the run's cap of its rule.
fn push(out: &mut Vec<Diagnostic>, d: Diagnostic, reported: &mut usize, omitted: &mut usize) {
    if *reported < MAX_REPORTS_PER_RULE {
        *reported += 1;
        out.push(d);
    } else {
        *omitted += 1;
    }
}

fn note_omitted(out: &mut Gathered, rule: &'static RuleMeta, omitted: usize) {
    super::note_omitted(
        out,
        rule,
        omitted,
        "hreflang findings across the files of the set",
    );
}

/// The position of each offset (sorted, deduplicated), counted in one pass over the text as
/// [`SourceFile::position`] counts them.
fn positions(source: &SourceFile, mut offsets: Vec<usize>) -> Vec<(usize, Pos)> {
    offsets.sort_unstable();
    offsets.dedup();
    let text = source.text().as_bytes();
    let mut out = Vec::with_capacity(offsets.len());
    // The line of the last offset, and the characters from its start to the last offset.
    let (mut line, mut at, mut chars) = (usize::MAX, 0usize, 0usize);
    for written in offsets {
        let offset = source.clamp(written);
        let l = source.line_index(offset);
        if l != line {
            line = l;
            at = source.line_start(offset).min(offset);
            chars = 0;
        }
        chars += text[at..offset]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count();
        at = offset;
        let pos = Pos {
            line: u32::try_from(l + 1).unwrap_or(u32::MAX),
            column: u32::try_from(chars + 1).unwrap_or(u32::MAX),
        };
        out.push((written, pos));
    }
    out
}
