//! Where sitemaps live: the checks across the files of one run, and how an index's children map to files.
//!
//! A run over several files (named, or found in a directory) is checked as a *set*: while each file
//! is checked, the engine keeps a compact [`FileSummary`] (its kind, a 64-bit fingerprint and the
//! span of every `<loc>`, the URLs an index lists); [`SetCheck`], fed the files in output order,
//! links each index to the checked files its children map to and adds to the file's report what
//! no single file shows: a child that is itself an index, an index that lists itself, a child
//! missing locally, and URLs already listed in an earlier file of the set. Memory: 16 bytes per
//! URL of the file in hand, and a slot of 8 bytes (about 9 with the table's room) per distinct
//! URL of the run, holding its fingerprint and first file ([`first_listing`]), never the URL
//! text.
//!
//! How a child's URL maps to a checked file (see [`Site`]):
//! - with a site root (`--site-root DIR`, or derived from the index's own path when
//!   `--sitemap-url` gives its URL): `https://example.com/sitemaps/a.xml.gz` → `DIR/sitemaps/a.xml.gz`;
//! - otherwise by file name: the child's last path segment names exactly one checked file.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Component, Path, PathBuf};

mod first_listing;
pub mod hreflang;

use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Kind, Sitemap};
use crate::pipeline::source::SourceFile;
use crate::pipeline::url_key::{FingerprintMap, UrlParts};
use crate::rule::{Gathered, RuleMeta, MAX_REPORTS_PER_RULE};
use crate::rules::hreflang::{hreflang_cluster_mismatch, hreflang_return_link};
use crate::rules::{loc::duplicate_loc, site::index_child};
use crate::Settings;

/// The most fingerprints the set's table of first listings makes room for up front (9.1 MB
/// of zeroed address space; see [`first_listing`]): a run with more opens more tables.
const FIRST_ROOM_MAX: usize = 1 << 20;

// ---------------------------------------------------------------------------------------------
// Per-file summaries

/// One `<loc>` of a sitemap: its fingerprint and source span (16 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocPrint {
    pub fingerprint: u64,
    pub start: u32,
    pub end: u32,
}

/// What the set check needs of one checked file; the engine fills it during its walk.
#[derive(Debug, Clone)]
pub struct FileSummary {
    /// What the root says the file is (`Other` when it could not be parsed).
    pub kind: Kind,
    /// Entries (`<url>` or `<sitemap>`) in the file.
    pub entries: usize,
    /// Of a sitemap (`<urlset>`), when collected ([`Settings::collect_set`]): every `<loc>`.
    pub locs: Vec<LocPrint>,
    /// Of an index, when collected: every `<loc>` value and its span.
    pub children: Vec<(String, Range<usize>)>,
    /// Of a sitemap, with [`Settings::collect_pages`]: every `<loc>` value without URL errors,
    /// and its span (the pages `--check-urls` requests).
    pub pages: Vec<(String, Range<usize>)>,
    /// Of a sitemap, when collected: every `<url>`'s `<loc>` and hreflang alternates, for the
    /// hreflang checks across files ([`hreflang`]).
    pub alternates: hreflang::Alternates,
}

impl Default for FileSummary {
    fn default() -> Self {
        FileSummary {
            kind: Kind::Other,
            entries: 0,
            locs: Vec::new(),
            children: Vec::new(),
            pages: Vec::new(),
            alternates: hreflang::Alternates::default(),
        }
    }
}

impl FileSummary {
    /// `<url>` entries counted in the totals (0 for an index).
    pub fn urls(&self) -> usize {
        if self.kind == Kind::UrlSet {
            self.entries
        } else {
            0
        }
    }

    /// Records one entry (called by the engine for every entry, before its children are released).
    pub fn entry(&mut self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, collect: bool, pages: bool) {
        self.kind = sitemap.kind;
        self.entries += 1;
        if !collect && !pages {
            return;
        }
        if collect && sitemap.kind == Kind::UrlSet {
            self.alternates.entry(sitemap, entry);
        }
        let Some(loc) = entry.loc() else { return };
        let value = loc.trimmed();
        if value.is_empty() || loc.url_problems().iter().any(|p| p.kind.is_error()) {
            return;
        }
        let span = loc.span(sitemap.source);
        if pages && sitemap.kind == Kind::UrlSet {
            self.pages.push((value.to_owned(), span.clone()));
        }
        if !collect {
            return;
        }
        match sitemap.kind {
            Kind::UrlSet => {
                if let (Ok(start), Ok(end)) = (u32::try_from(span.start), u32::try_from(span.end)) {
                    self.locs.push(LocPrint {
                        fingerprint: loc.url_key().fingerprint,
                        start,
                        end,
                    });
                }
            }
            Kind::Index => self.children.push((value.to_owned(), span)),
            Kind::Other => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The site: which URL each checked file has, where the site's files live

/// How checked files relate to URLs: built once per run from `--sitemap-url`, `--site-root` and
/// the checked paths.
#[derive(Debug, Clone, Default)]
pub struct Site {
    /// `--sitemap-url`.
    pub sitemap_url: Option<String>,
    /// The file `--sitemap-url` describes: the only file, or the one whose name is the URL's last
    /// path segment.
    pub named: Option<usize>,
    /// `--site-root`, or derived from the named file's path and URL.
    pub root: Option<PathBuf>,
    /// Whether `root` was given (`--site-root`): only then is a child missing locally reported.
    pub root_given: bool,
    /// `--site-root` as written, for messages.
    root_shown: Option<PathBuf>,
    /// `scheme://host[:port]` of `--sitemap-url`.
    pub origin: Option<String>,
    /// Every checked file, absolute and lexically normalised (`None` for stdin).
    files: Vec<Option<PathBuf>>,
    /// The first checked file at each path: one hash lookup per child, not a scan of `files`
    /// (an index of 50,000 children among 50,000 files would compare every child with every
    /// file).
    by_path: HashMap<PathBuf, usize>,
    /// The checked file of each file name, `None` when several files have that name.
    by_name: HashMap<String, Option<usize>>,
    /// `root` with its symlinks resolved (once): where [`resolve_below`] starts.
    root_real: Option<PathBuf>,
}

impl Site {
    /// `files`: the checked paths, in output order (`None` for stdin).
    pub fn new(
        sitemap_url: Option<&str>,
        site_root: Option<&Path>,
        files: &[Option<&Path>],
    ) -> Site {
        let cwd = std::env::current_dir().ok();
        let cwd = cwd.as_deref();
        let files: Vec<Option<PathBuf>> =
            files.iter().map(|f| f.map(|f| absolute(f, cwd))).collect();
        let mut site = Site {
            sitemap_url: sitemap_url.map(str::to_owned),
            root: site_root.map(|r| absolute(r, cwd)),
            root_given: site_root.is_some(),
            root_shown: site_root.map(Path::to_path_buf),
            files,
            ..Site::default()
        };
        for (i, f) in site.files.iter().enumerate() {
            let Some(f) = f else { continue };
            site.by_path.entry(f.clone()).or_insert(i);
            if let Some(name) = f.file_name().and_then(|n| n.to_str()) {
                site.by_name
                    .entry(name.to_owned())
                    .and_modify(|hit| *hit = None)
                    .or_insert(Some(i));
            }
        }
        site.root_real = site.root.as_deref().and_then(|r| r.canonicalize().ok());
        let Some(url) = sitemap_url else {
            return site;
        };
        let Some(parts) = UrlParts::parse(url) else {
            return site;
        };
        site.origin = Some(url[..parts.host.end].to_owned() + &port_suffix(url, &parts));
        let path = &url[parts.path.clone()];
        let (dir, last) = path.rsplit_once('/').unwrap_or(("", path));
        site.named = if site.files.len() == 1 {
            Some(0)
        } else {
            site.named_file(last)
        };
        if site.root.is_none() {
            // The named file's folder minus the URL's folder: `out/catalog/` for `/catalog/`.
            if let Some(Some(file)) = site.named.and_then(|i| site.files.get(i)) {
                let mut local = file.parent().map(Path::to_path_buf);
                for segment in dir.split('/').filter(|s| !s.is_empty()).rev() {
                    local = local.filter(|l| {
                        l.file_name().and_then(|n| n.to_str()) == percent_decode(segment).as_deref()
                    });
                    local = local.and_then(|l| l.parent().map(Path::to_path_buf));
                }
                site.root = local;
            }
        }
        site.root_real = site.root.as_deref().and_then(|r| r.canonicalize().ok());
        site
    }

    /// The URL the `i`-th checked file is served at, when known: `--sitemap-url` for the file it
    /// names, else the origin plus the file's path below the site root.
    pub fn url_of(&self, i: usize) -> Option<String> {
        if self.named == Some(i) {
            return self.sitemap_url.clone();
        }
        let (root, origin) = (self.root.as_ref()?, self.origin.as_ref()?);
        let file = self.files.get(i)?.as_ref()?;
        let rel = file.strip_prefix(root).ok()?;
        let mut url = origin.clone();
        for c in rel.components() {
            url.push('/');
            url.push_str(c.as_os_str().to_str()?);
        }
        Some(url)
    }

    /// The local file a child URL maps to (see the module docs), if it is on `site` (the
    /// index's origin).
    fn local_path(&self, child: &str, site: &str) -> Option<PathBuf> {
        let root = self.root.as_ref()?;
        let parts = UrlParts::parse(child)?;
        let o = UrlParts::parse(site)?;
        if !o.same_origin(site, &parts, child) {
            return None;
        }
        let mut path = root.clone();
        // Decoded first, then tested: `%2e%2e` is `..`, and a segment must name one entry in
        // its folder (no `..`, `/`, `\\`, NUL, drive prefix or absolute path).
        for segment in child[parts.path.clone()].split('/') {
            let segment = percent_decode(segment)?;
            match segment.as_str() {
                "" | "." => {}
                s if is_plain_name(s) => path.push(s),
                _ => return None,
            }
        }
        Some(path)
    }

    /// `path` as the user wrote the site root (`public/sitemaps/a.xml`), for messages.
    fn shown(&self, path: &Path) -> String {
        match (&self.root, &self.root_shown) {
            (Some(root), Some(shown)) => path
                .strip_prefix(root)
                .map_or_else(|_| path.to_path_buf(), |rel| shown.join(rel)),
            _ => path.to_path_buf(),
        }
        .display()
        .to_string()
    }

    /// The checked file a child URL links to; `site` is the index's origin (its URL's, else its
    /// first child's), `scheme://host[:port]`.
    fn link(&self, child: &str, site: &str) -> Link {
        if self.root.is_some() {
            let Some(local) = self.local_path(child, site) else {
                return Link::OffSite;
            };
            if let Some(&i) = self.by_path.get(&local) {
                return Link::File(i);
            }
            // Symlinks below the root are followed only while they stay below it: nothing
            // outside the root is ever looked at.
            let Some(resolved) = self
                .root
                .as_deref()
                .zip(self.root_real.as_deref())
                .and_then(|(root, real)| resolve_below(real, local.strip_prefix(root).ok()?))
            else {
                return Link::OffSite;
            };
            return if resolved.is_file() {
                Link::Unchecked
            } else {
                Link::Missing(local)
            };
        }
        let Some(parts) = UrlParts::parse(child) else {
            return Link::OffSite;
        };
        let path = &child[parts.path.clone()];
        let Some(last) = path.rsplit('/').next().and_then(percent_decode) else {
            return Link::Unchecked;
        };
        if last.is_empty() {
            return Link::Unchecked;
        }
        match self.named_file(&last) {
            Some(i) => Link::File(i),
            None => Link::Unchecked,
        }
    }

    /// The only checked file called `name`, if exactly one is.
    fn named_file(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied().flatten()
    }
}

/// Whether a decoded URL path segment names one entry of a folder on every platform: not `.`
/// or `..`, no separator (`/`, `\\`), no NUL, and one plain path component (no drive prefix, not
/// absolute).
fn is_plain_name(s: &str) -> bool {
    !s.contains(['/', '\\', '\0'])
        && matches!(
            Path::new(s).components().collect::<Vec<_>>()[..],
            [Component::Normal(n)] if n == s
        )
}

/// How many symlinks [`resolve_below`] follows before giving up (Linux's own limit).
const MAX_SYMLINKS: usize = 40;

/// `root/rel` with every symlink resolved, looking only at entries below `root` (a path without
/// symlinks; one `lstat` per component, `readlink` for links): `None` when a link leads out of
/// `root` (or `..` would), or after [`MAX_SYMLINKS`] links. Components after a missing one are
/// joined as they are.
fn resolve_below(root: &Path, rel: &Path) -> Option<PathBuf> {
    let mut cur = root.to_path_buf();
    let mut pending: Vec<std::ffi::OsString> = rel
        .components()
        .rev()
        .map(|c| c.as_os_str().to_owned())
        .collect();
    let mut links = 0;
    let mut missing = false;
    while let Some(c) = pending.pop() {
        match Path::new(&c).components().next() {
            None | Some(Component::CurDir) => {}
            Some(Component::ParentDir) => {
                if cur == root {
                    return None;
                }
                cur.pop();
            }
            Some(Component::Normal(name)) => {
                let next = cur.join(name);
                let meta = if missing {
                    None
                } else {
                    std::fs::symlink_metadata(&next).ok()
                };
                match meta {
                    Some(m) if m.file_type().is_symlink() => {
                        links += 1;
                        if links > MAX_SYMLINKS {
                            return None;
                        }
                        let target = std::fs::read_link(&next).ok()?;
                        let target = if target.is_absolute() {
                            // Absolute targets count only when they point below the root.
                            cur = root.to_path_buf();
                            target.strip_prefix(root).ok()?.to_path_buf()
                        } else {
                            target
                        };
                        pending.extend(target.components().rev().map(|c| c.as_os_str().to_owned()));
                    }
                    Some(_) => cur = next,
                    None => {
                        missing = true;
                        cur = next;
                    }
                }
            }
            Some(Component::RootDir | Component::Prefix(_)) => return None,
        }
    }
    Some(cur)
}

/// `scheme://host[:port]` of a URL.
fn origin_of(url: &str) -> Option<String> {
    let p = UrlParts::parse(url)?;
    Some(url[..p.host.end].to_owned() + &port_suffix(url, &p))
}

fn port_suffix(url: &str, parts: &UrlParts) -> String {
    match &parts.port {
        Some(p) if !p.is_empty() => format!(":{}", &url[p.clone()]),
        _ => String::new(),
    }
}

/// What a child URL of an index links to.
#[derive(Debug, PartialEq, Eq)]
enum Link {
    /// The `i`-th checked file.
    File(usize),
    /// A file under the site root that was not among the checked files, or no unique name match.
    Unchecked,
    /// Under the site root, no such file.
    Missing(PathBuf),
    /// Not on the site (another origin), or not a URL that maps to a path.
    OffSite,
}

/// `path` made absolute against the current directory `cwd` and cleaned of `.` and `..`
/// (lexically: symlinks are not resolved, so the same spelling always gives the same path). The
/// caller asks for the current directory once: `std::path::absolute` asks the kernel per path.
fn absolute(path: &Path, cwd: Option<&Path>) -> PathBuf {
    let full = match cwd {
        Some(cwd) if path.is_relative() && !path.as_os_str().is_empty() => cwd.join(path),
        _ => path.to_path_buf(),
    };
    let mut out = PathBuf::new();
    for c in full.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

/// Decodes `%XX` escapes of a path segment; `None` when the result is not UTF-8 or contains `/`
/// or NUL (it could not name one local file).
fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if let Some(v) = b
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    let s = String::from_utf8(out).ok()?;
    (!s.contains(['/', '\0'])).then_some(s)
}

// ---------------------------------------------------------------------------------------------
// The set check

/// Counts over the checked files.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    pub files: usize,
    pub sitemaps: usize,
    pub indexes: usize,
    /// `<url>` entries in all sitemaps.
    pub urls: usize,
    /// Children of indexes that link to a checked file.
    pub linked: usize,
}

/// The check across the files of one run, fed the files in output order.
///
/// Every finding belongs to a file that has just been checked, so it joins that file's report
/// before the report is rendered: a URL already listed in an *earlier* file is found in the
/// fingerprints seen so far (a slot of 8 bytes per distinct URL, [`first_listing`]), and whether
/// a child of an index is itself an index is known for earlier files and read from the first
/// bytes of later ones ([`sniff_kind`]). Output stays streaming, one entry per file.
pub struct SetCheck<'s> {
    site: &'s Site,
    /// File names in output order (for messages).
    names: Vec<String>,
    /// Local paths in output order (`None` for stdin or unreadable input).
    paths: Vec<Option<PathBuf>>,
    /// Kinds of the files checked so far.
    kinds: Vec<Option<Kind>>,
    /// Fingerprint → the first file (output order) that lists it.
    first: first_listing::FirstListings,
    /// How many files the run is known to have so far (those given, and the children of the
    /// fetched indexes): the guess the table of first listings is sized from.
    expected_files: usize,
    /// `duplicate-loc` findings across files so far (at most [`MAX_REPORTS_PER_RULE`] a run).
    reported: usize,
    /// `index-child` findings so far (at most [`MAX_REPORTS_PER_RULE`] a run).
    children_reported: usize,
    /// Kinds read from the first bytes of files not checked yet ([`sniff_kind`]), so that a
    /// file listed many times is read once.
    sniffed: HashMap<usize, Option<Kind>>,
    /// The pages with hreflang alternates of the files so far.
    alternates: hreflang::SetGraph,
    pub totals: Totals,
}

impl<'s> SetCheck<'s> {
    /// `names` and `paths`: every file of the run, in output order, as `site` was built with.
    pub fn new(site: &'s Site, names: Vec<String>, paths: Vec<Option<PathBuf>>) -> Self {
        let n = names.len();
        SetCheck {
            site,
            names,
            paths,
            kinds: vec![None; n],
            first: first_listing::FirstListings::default(),
            expected_files: n,
            reported: 0,
            children_reported: 0,
            sniffed: HashMap::new(),
            alternates: hreflang::SetGraph::default(),
            totals: Totals::default(),
        }
    }

    /// The findings of file `i` (called once per file, in output order; `source` is its text),
    /// to be finalized with the file's own ([`crate::report::finalize`]). `suppressed` says
    /// whether an inline suppression of the file covers a finding of a rule at an offset: such a
    /// finding is neither built nor counted against the cap.
    pub fn file(
        &mut self,
        i: usize,
        summary: &FileSummary,
        source: &SourceFile,
        settings: &Settings,
        suppressed: &dyn Fn(&'static RuleMeta, usize) -> bool,
    ) -> Gathered {
        let mut out = Gathered::default();
        self.totals.files += 1;
        match summary.kind {
            Kind::UrlSet => self.totals.sitemaps += 1,
            Kind::Index => self.totals.indexes += 1,
            Kind::Other => {}
        }
        self.totals.urls += summary.urls();
        if let Some(k) = self.kinds.get_mut(i) {
            *k = Some(summary.kind);
        }
        self.children(i, summary, suppressed, &mut out);
        self.across_files(i, summary, source, settings, suppressed, &mut out);
        out
    }

    /// A file that joins the set while the run goes on (a fetched sitemap, named by its URL;
    /// called in output order like [`SetCheck::file`]): the URLs it repeats from earlier files
    /// of the run, to be finalized with the file's findings. An index's children are the live
    /// check's to follow and report, not this. A fetched file's report is finalized before it
    /// joins the set, so its inline suppressions do not reach these findings.
    pub fn fetched(
        &mut self,
        name: String,
        summary: &FileSummary,
        source: &SourceFile,
        settings: &Settings,
    ) -> Gathered {
        let i = self.names.len();
        self.names.push(name);
        self.paths.push(None);
        self.kinds.push(Some(summary.kind));
        let mut out = Gathered::default();
        self.across_files(i, summary, source, settings, &|_, _| false, &mut out);
        out
    }

    /// Tells that the run has `files` files in all, as far as is known by now (a live check
    /// learns of an index's children as it goes): the table of first listings is sized for
    /// that many files as large as the first with URLs.
    pub fn expect_files(&mut self, files: usize) {
        self.expected_files = self.expected_files.max(files);
    }

    /// The URLs of file `i` already listed in an earlier file (when `duplicate-loc` is on) and
    /// the hreflang findings across files.
    fn across_files(
        &mut self,
        i: usize,
        summary: &FileSummary,
        source: &SourceFile,
        settings: &Settings,
        suppressed: &dyn Fn(&'static RuleMeta, usize) -> bool,
        out: &mut Gathered,
    ) {
        if settings.severity_of(&duplicate_loc::META).is_some() {
            self.duplicates(i, summary, suppressed, out);
        }
        let turn = hreflang::Turn {
            file: i,
            names: &self.names,
            return_links: settings.severity_of(&hreflang_return_link::META).is_some(),
            clusters: settings
                .severity_of(&hreflang_cluster_mismatch::META)
                .is_some(),
        };
        let found = self.alternates.file(&summary.alternates, source, &turn);
        out.diagnostics.extend(found.diagnostics);
        out.omitted.extend(found.omitted);
    }

    fn children(
        &mut self,
        i: usize,
        summary: &FileSummary,
        suppressed: &dyn Fn(&'static RuleMeta, usize) -> bool,
        out: &mut Gathered,
    ) {
        let site = self.site;
        let own_url = site.url_of(i);
        // The engine already reported self-listing when the file's URL was known.
        let url_known = own_url.is_some();
        let Some(origin) = own_url
            .as_deref()
            .or(summary.children.first().map(|c| c.0.as_str()))
            .and_then(origin_of)
        else {
            return;
        };
        let mut omitted = 0usize;
        let mut report = |at: usize, d: &dyn Fn() -> Diagnostic, out: &mut Gathered| {
            if suppressed(&index_child::META, at) {
                return;
            }
            if self.children_reported < MAX_REPORTS_PER_RULE {
                self.children_reported += 1;
                out.diagnostics.push(d());
            } else {
                omitted += 1;
            }
        };
        for (child, span) in &summary.children {
            match site.link(child, &origin) {
                Link::File(j) => {
                    self.totals.linked += 1;
                    if j == i {
                        if !url_known {
                            report(
                                span.start,
                                &|| index_child::self_listing(span.clone(), child),
                                out,
                            );
                        }
                        continue;
                    }
                    let kind = match self.kinds.get(j).copied().flatten() {
                        Some(k) => Some(k),
                        None => *self.sniffed.entry(j).or_insert_with(|| {
                            self.paths
                                .get(j)
                                .cloned()
                                .flatten()
                                .and_then(|p| sniff_kind(&p))
                        }),
                    };
                    if kind == Some(Kind::Index) {
                        let name = &self.names[j];
                        report(span.start, &|| index_child::nested(span.clone(), name), out);
                    }
                }
                Link::Missing(path) if site.root_given => {
                    report(
                        span.start,
                        &|| index_child::missing(span.clone(), &site.shown(&path)),
                        out,
                    );
                }
                _ => {}
            }
        }
        note_omitted(out, &index_child::META, omitted, "children of indexes");
    }

    /// URLs of this sitemap already listed in an earlier file: a warning on the first
    /// occurrence in this file (repeats within the file are `duplicate-loc`'s own part).
    fn duplicates(
        &mut self,
        i: usize,
        summary: &FileSummary,
        suppressed: &dyn Fn(&'static RuleMeta, usize) -> bool,
        out: &mut Gathered,
    ) {
        let Ok(me) = u32::try_from(i) else { return };
        if self.first.is_empty() {
            // Room for every file of the set as large as the first (the first with URLs), in
            // one table. Capped: a guess, not a limit.
            self.first.expect(
                summary
                    .locs
                    .len()
                    .saturating_mul(self.expected_files.max(i + 1))
                    .min(FIRST_ROOM_MAX),
            );
        }
        let mut omitted = 0usize;
        // URLs of this file already reported (only duplicates are kept here).
        let mut here: FingerprintMap<()> = FingerprintMap::default();
        for l in &summary.locs {
            let first = self.first.first_or_insert(l.fingerprint, me);
            if first == me || here.insert(l.fingerprint, ()).is_some() {
                continue;
            }
            if suppressed(&duplicate_loc::META, l.start as usize) {
                continue;
            }
            if self.reported >= MAX_REPORTS_PER_RULE {
                omitted += 1;
                continue;
            }
            self.reported += 1;
            out.diagnostics.push(duplicate_loc::across_files(
                l.start as usize..l.end as usize,
                &self.names[first as usize],
            ));
        }
        note_omitted(
            out,
            &duplicate_loc::META,
            omitted,
            "URLs of this file listed in earlier files of the set",
        );
    }
}

/// Notes on the last finding of `rule` in `out` that `omitted` more `what` were not reported,
/// and counts them.
fn note_omitted(out: &mut Gathered, rule: &'static RuleMeta, omitted: usize, what: &str) {
    if omitted == 0 {
        return;
    }
    out.omitted.push((rule, omitted));
    if let Some(d) = out.diagnostics.iter_mut().rev().find(|d| d.rule == rule) {
        d.notes.push(format!(
            "{omitted} more {what} were not reported (at most {MAX_REPORTS_PER_RULE} in a run)"
        ));
    }
}

/// Whether the file at `path` is a sitemap or an index, from its root element's name in the
/// first 64 KiB (decompressed when gzip); a text sitemap (see [`crate::pipeline::text_sitemap`])
/// is a sitemap. `None` when it cannot be read or has no start tag.
pub fn sniff_kind(path: &Path) -> Option<Kind> {
    use std::io::Read;
    // The guarded open: a FIFO or device listed by an index (and named on the command line)
    // must not block or flood the run.
    let (mut file, _) = crate::pipeline::files::open_regular(path).ok()?;
    let mut head = [0u8; 2];
    let n = file.read(&mut head).ok()?;
    let (file, _) = crate::pipeline::files::open_regular(path).ok()?;
    let mut buf = Vec::new();
    if n == 2 && head == [0x1f, 0x8b] {
        flate2::read::MultiGzDecoder::new(file)
            .take(65_536)
            .read_to_end(&mut buf)
            .ok()?;
    } else {
        file.take(65_536).read_to_end(&mut buf).ok()?;
    }
    // A text sitemap is a sitemap whatever its lines hold.
    if crate::pipeline::text_sitemap::is_text_name(&path.to_string_lossy())
        && !crate::pipeline::text_sitemap::starts_xml(&buf)
    {
        return Some(Kind::UrlSet);
    }
    sniff_root(&buf).map(|(kind, _)| kind)
}

/// The root element of an XML document from its first bytes: its kind and its local name.
/// Comments, processing instructions and the document type declaration before it are skipped.
/// `None` when no root element starts in `head`, or when its name is not plain ASCII (a UTF-16
/// file, say): a caller deciding whether a file is a sitemap then checks it rather than guess.
pub fn sniff_root(head: &[u8]) -> Option<(Kind, &str)> {
    let mut rest = head;
    loop {
        let at = rest.iter().position(|&b| b == b'<')?;
        rest = &rest[at + 1..];
        let skip_to = |rest: &[u8], end: &[u8]| {
            rest.windows(end.len())
                .position(|w| w == end)
                .map(|p| p + end.len())
        };
        if rest.starts_with(b"!--") {
            rest = &rest[skip_to(&rest[3..], b"-->")? + 3..];
            continue;
        }
        if rest.starts_with(b"?") {
            rest = &rest[skip_to(rest, b"?>")?..];
            continue;
        }
        if rest.starts_with(b"!") {
            // `<!DOCTYPE x [ … ]>`: the internal subset may hold `>`; it ends at `]` + `>`.
            let close = rest.iter().position(|&b| b == b'>')?;
            let open = rest.iter().position(|&b| b == b'[');
            rest = match open {
                Some(o) if o < close => &rest[skip_to(rest, b"]")?..],
                _ => &rest[close + 1..],
            };
            continue;
        }
        let len = rest
            .iter()
            .position(|b| b.is_ascii_whitespace() || matches!(b, b'>' | b'/'))
            .unwrap_or(rest.len());
        let name = std::str::from_utf8(&rest[..len]).ok()?;
        if name.is_empty()
            || len == rest.len()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
        {
            return None;
        }
        let local = name.rsplit(':').next().unwrap_or("");
        let kind = match local {
            "sitemapindex" => Kind::Index,
            "urlset" => Kind::UrlSet,
            _ => Kind::Other,
        };
        return Some((kind, local));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_derives_the_root_from_the_named_file() {
        let files = [
            Some(Path::new("/srv/out/catalog/sitemap.xml")),
            Some(Path::new("/srv/out/a.xml")),
        ];
        let site = Site::new(
            Some("https://example.com/catalog/sitemap.xml"),
            None,
            &files,
        );
        assert_eq!(site.named, Some(0));
        assert_eq!(site.root.as_deref(), Some(Path::new("/srv/out")));
        assert_eq!(site.url_of(1).as_deref(), Some("https://example.com/a.xml"));
        let o = "https://example.com";
        assert_eq!(site.link("https://example.com/a.xml", o), Link::File(1));
        assert_eq!(site.link("https://other.example/a.xml", o), Link::OffSite);
        assert_eq!(site.link("https://example.com/../a.xml", o), Link::OffSite);
    }

    #[test]
    fn the_root_is_found_past_comments_instructions_and_the_doctype() {
        fn root(s: &str) -> Option<(Kind, &str)> {
            sniff_root(s.as_bytes())
        }
        assert_eq!(root("<urlset xmlns='x'>"), Some((Kind::UrlSet, "urlset")));
        assert_eq!(
            root("<?xml version='1.0'?><!-- by <b>gen</b> --><sm:sitemapindex>"),
            Some((Kind::Index, "sitemapindex"))
        );
        assert_eq!(
            root("<!DOCTYPE rss [<!ENTITY a '>'>]><rss version='2.0'>"),
            Some((Kind::Other, "rss"))
        );
        assert_eq!(
            root("\u{feff}<feed xmlns='http://www.w3.org/2005/Atom'/>").map(|r| r.1),
            Some("feed")
        );
        // Unsure: no root yet, a cut-off name, UTF-16, or not XML at all.
        assert_eq!(root("<!-- <rss> "), None);
        assert_eq!(root("<urls"), None);
        assert_eq!(root("\0<\0u\0r\0l\0s\0e\0t\0>"), None);
        assert_eq!(root("plain text"), None);
    }
}
