//! Runs one input through the stages (bytes → text → XML → model → rules) and applies severities and ordering.

use std::io::Read;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use roxmltree::Document;

use crate::diagnostic::Diagnostic;
use crate::exec::{self, Turns};
use crate::pipeline::encoding::{self, Detected};
use crate::pipeline::input::{self, Bytes};
use crate::pipeline::model::{ChildKind, Element, Entry, Kind, RootChildren, Sitemap};
use crate::pipeline::source::SourceFile;
use crate::pipeline::text_sitemap;
use crate::pipeline::xml_decl;
use crate::report::{self, FileReport, Found};
use crate::rule::{Category, Collector, Context, Rule, RuleMeta, Suppress};
use crate::rules::{self as r};
use crate::site_set::FileSummary;
use crate::suppress::{self, Directive, Suppressions};
use crate::values::uri;
use crate::Settings;

/// Checks what `reader` yields, named `name` (used for messages and the `.gz` name check).
pub fn check_reader(
    name: &str,
    reader: impl Read,
    settings: &Settings,
) -> std::io::Result<FileReport> {
    let bytes = input::load(reader, settings.max_size)?;
    Ok(check_bytes(name, bytes, settings))
}

/// What the caller knows of an input besides its bytes and its name (see [`check_input`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InputOptions {
    /// The input was declared `text/plain` (a fetched file's `Content-Type`): content that is not
    /// XML is then a text sitemap whatever its name (see [`text_sitemap::applies`]).
    pub declared_text: bool,
}

/// Checks bytes already read (see [`input::load`]). Never panics: a panic inside is reported as
/// an `internal-error` diagnostic. Content that is not XML, named `*.txt` or `*.txt.gz`, is
/// checked as a text sitemap.
pub fn check_bytes(name: &str, bytes: Bytes, settings: &Settings) -> FileReport {
    check_input(name, bytes, settings, InputOptions::default())
}

/// [`check_bytes`] with what the caller knows of the input besides its name: the entry point for
/// inputs that come with metadata, such as a fetched file's `Content-Type`. `name` is the display
/// name (a fetched file's URL); spans index the decoded text.
pub fn check_input(
    name: &str,
    bytes: Bytes,
    settings: &Settings,
    options: InputOptions,
) -> FileReport {
    report::finalize(
        find_input(name, bytes, settings, options),
        Default::default(),
        settings,
        false,
    )
}

/// What [`check_bytes`] finds, before [`report::finalize`]: for a caller that adds the findings
/// across files first (the command line). Never panics.
pub fn find(name: &str, bytes: Bytes, settings: &Settings) -> Found {
    find_input(name, bytes, settings, InputOptions::default())
}

/// What [`check_input`] finds, before [`report::finalize`] (see [`find`]). Never panics.
pub fn find_input(name: &str, bytes: Bytes, settings: &Settings, options: InputOptions) -> Found {
    let mut site = FileSummary::default();
    let site_out = &mut site;
    let result = catch_unwind(AssertUnwindSafe(move || {
        run(name, bytes, settings, options, site_out)
    }));
    let (source, diagnostics, walked) = match result {
        Ok(out) => out,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            let d = r::input::internal_error::diagnostic(&what);
            site = FileSummary::default();
            (SourceFile::new(name, ""), vec![d], Walked::default())
        }
    };
    let suppressions = walked
        .suppressions
        .or_else(|| Suppressions::new(walked.directives, settings).map(Arc::new));
    Found {
        source,
        diagnostics,
        omitted: walked.omitted,
        suppressions,
        site,
    }
}

/// The report of a text that is not a sitemap (a robots.txt fetched for a live check) with the
/// findings made about it: severities applied, spans clamped, sorted as every report.
pub fn report_of(
    source: SourceFile,
    diagnostics: Vec<Diagnostic>,
    settings: &Settings,
) -> FileReport {
    let found = Found {
        source,
        diagnostics,
        omitted: Vec::new(),
        suppressions: None,
        site: FileSummary::default(),
    };
    report::finalize(found, Default::default(), settings, false)
}

/// What [`run`] found: the text, the diagnostics, and what the walk over the model adds.
type RunOutput = (SourceFile, Vec<Diagnostic>, Walked);

/// What the [`Walk`] leaves besides its diagnostics: the counts past the caps, and the
/// suppression comments (armed when the rules ran with them, else the directives found).
#[derive(Default)]
struct Walked {
    omitted: Vec<(&'static RuleMeta, usize)>,
    directives: Vec<Directive>,
    suppressions: Option<Arc<Suppressions>>,
}

fn run(
    name: &str,
    bytes: Bytes,
    settings: &Settings,
    options: InputOptions,
    site: &mut FileSummary,
) -> RunOutput {
    // Test hook (debug builds only): panic on purpose for files whose name ends with the value, so
    // tests can show that a panic is contained to its file (tests/hostile.rs).
    #[cfg(debug_assertions)]
    if let Some(suffix) = std::env::var_os("SITEMAP_LINT_DEBUG_PANIC") {
        let suffix = suffix.to_string_lossy();
        if !suffix.is_empty() && name.ends_with(&*suffix) {
            panic!("SITEMAP_LINT_DEBUG_PANIC: deliberate panic while checking `{name}`");
        }
    }
    let mut out = Vec::new();
    let mut walked = Walked::default();
    let named_gz = name.to_ascii_lowercase().ends_with(".gz");

    if bytes.too_large {
        out.push(r::input::input_too_large::diagnostic(
            bytes.gzip,
            settings.max_size,
        ));
        return (SourceFile::new(name, ""), out, Walked::default());
    }

    let gzip_twice = bytes.gzip && bytes.data.starts_with(&[0x1f, 0x8b]);
    // The bytes become the text in place: a large file is not held twice.
    let mut decoded = encoding::decode_owned(bytes.data);
    let mut source = SourceFile::new(name, std::mem::take(&mut decoded.text));
    let text = source.text();
    let text_sitemap = text_sitemap::applies(name, options.declared_text, text);

    if let Some(problem) = &bytes.gzip_problem {
        out.push(r::input::gzip_invalid::diagnostic(problem, text.len()));
        if text.is_empty() {
            // Nothing came out: there is no text to check.
            return (source, out, Walked::default());
        }
    }
    if gzip_twice {
        out.push(r::input::gzip_invalid::compressed_twice());
        return (source, out, Walked::default());
    }
    if named_gz && !bytes.gzip && !text.is_empty() {
        let first = text.chars().next().map_or(0, char::len_utf8);
        out.push(r::input::gzip_extension_mismatch::diagnostic(0..first));
    }

    if decoded.undecodable {
        out.push(r::input::encoding_not_utf8::undecodable(
            decoded.detected.name(),
        ));
        return (source, out, Walked::default());
    }
    let not_utf8 = decoded.detected != Detected::Utf8;
    if not_utf8 {
        out.push(r::input::encoding_not_utf8::diagnostic(
            decoded.detected.name(),
            decoded.bom,
        ));
    }
    for (span, raw) in &decoded.invalid_utf8 {
        out.push(r::input::invalid_utf8::diagnostic(span.clone(), raw));
    }
    if decoded.invalid_utf8_more > 0 {
        if let Some((span, _)) = decoded.invalid_utf8.last() {
            out.push(r::input::invalid_utf8::more(
                span.clone(),
                decoded.invalid_utf8_more,
            ));
        }
    }
    if text_sitemap {
        // Findings on a line that holds bytes that were not UTF-8 would repeat `invalid-utf8`.
        let lines =
            text_sitemap::lines_holding(text, decoded.invalid_utf8.iter().map(|(s, _)| s.start));
        let garbled = |d: &Diagnostic| {
            matches!(d.rule.category, Category::Url | Category::Value)
                && text_sitemap::on_lines(&lines, d.primary.span.start)
        };
        let (found, walked) = check_text(text, settings, site);
        out.extend(found.into_iter().filter(|d| !garbled(d)));
        return (source, out, walked);
    }
    if decoded.bom && text.is_empty() {
        out.push(r::input::xml_syntax::only_bom());
        return (source, out, Walked::default());
    }

    let prolog = xml_decl::check_prolog(text);
    for p in &prolog.problems {
        if p.kind == xml_decl::ProblemKind::Encoding && not_utf8 {
            continue; // already reported by encoding-not-utf8
        }
        // Whitespace is invisible when underlined: point at the declaration it displaces.
        let span = if p.kind == xml_decl::ProblemKind::LeadingWhitespace {
            prolog.skip..(prolog.skip + 5).min(text.len())
        } else {
            p.range.clone()
        };
        out.push(r::input::prolog_problem(p, span));
        // A DOCTYPE before a misplaced declaration is still a DOCTYPE.
        if p.kind == xml_decl::ProblemKind::NotAtStart {
            if let Some(at) = text
                .get(p.range.clone())
                .and_then(|before| before.to_ascii_uppercase().find("<!DOCTYPE"))
            {
                let start = p.range.start + at;
                let end = text[start..]
                    .find('>')
                    .map_or(p.range.end, |e| start + e + 1);
                out.push(r::input::doctype_not_allowed::diagnostic(start..end));
            }
        }
    }

    // A large file that parses in pieces is parsed and checked a piece at a time, on several
    // threads when there are (see `split`): on one thread too, the trees of small pieces cost
    // less than one tree of the whole. Its text is laid out as the pieces in place meanwhile,
    // so it is not held twice. A file with suppression comments is parsed whole: they are found
    // before the rules run, so that what a cap keeps is the same as what is shown (see
    // `rule::Context::report_with`).
    let clean_prolog = prolog.blank.as_ref().is_none_or(|r| r.is_empty());
    let may_split =
        clean_prolog && decoded.invalid_utf8.is_empty() && text.len() >= settings.split_min;
    // Elements whose parsing costs the square of their attributes or namespaces are refused
    // before any parse (see `xml_limits`): here for the whole file, unless it is split and can be
    // scanned a piece at a time (by the threads that parse the pieces); when a piece goes beyond
    // a limit, the split check gives up and the whole-file scan below reports it. Whether it can
    // be is one more search through all the text, which runs beside the other two (on one
    // thread, after them): the three came before any other thread had work, 47 M instructions
    // on the 52 MB file.
    let (splits, piecewise) = if may_split {
        let (limits, splits) = exec::beside(
            vec![()],
            settings.threads,
            || {
                // A character reference that names no XML character is reported by the
                // whole-file parse, which the pieces' parses would let through (see
                // `xml::first_bad_char_ref`).
                crate::pipeline::xml::first_bad_char_ref(text, prolog.skip).is_none()
                    && memchr::memmem::find(text.as_bytes(), suppress::MARKER.as_bytes()).is_none()
            },
            |()| crate::pipeline::xml_limits::piecewise(text),
        );
        (splits, splits && limits.first().copied().unwrap_or(false))
    } else {
        (false, false)
    };
    let mut scanned = false;
    if !piecewise {
        if let Some(e) = crate::pipeline::xml_limits::scan(text, prolog.skip) {
            out.push(r::input::xml_syntax::beyond_limit(e.span, e.limit));
            return (source, out, Walked::default());
        }
        scanned = true;
    }

    if splits {
        let (file_name, owned) = source.into_parts();
        match crate::pipeline::split::layout(owned, prolog.skip, settings.split_min) {
            Err(owned) => source = SourceFile::new(file_name, owned),
            Ok(mut layout) => {
                layout.scanned = scanned;
                let checked = check_split(&layout, settings, site);
                source = SourceFile::laid_out(file_name, layout);
                if let Some((diagnostics, found)) = checked {
                    out.extend(diagnostics);
                    return (source, out, found);
                }
            }
        }
    }
    let text = source.text();
    if !scanned {
        if let Some(e) = crate::pipeline::xml_limits::scan(text, prolog.skip) {
            out.push(r::input::xml_syntax::beyond_limit(e.span, e.limit));
            return (source, out, Walked::default());
        }
    }

    // Most files parse as they stand: then that tree is the one the rules see. Otherwise the XML
    // stage reports every error it can and, when it could patch them over, the patched text is
    // parsed once more.
    let mut parsed = None;
    let tree = match crate::pipeline::xml::parse_clean(text, &prolog) {
        Some(doc) => Some((doc, text)),
        None => {
            let mut problems = Vec::new();
            let fix_budget = if settings.fixing {
                crate::rule::MAX_FIXES_PER_RULE
            } else {
                0
            };
            let p = parsed.insert(crate::pipeline::xml::check_after_prolog(
                text,
                &prolog,
                fix_budget,
                &mut problems,
            ));
            r::input::xml_problems(problems, p.unreported, p.ok, &mut out);
            let parse_text: &str = p.patched.as_deref().unwrap_or(text);
            p.ok.then(|| {
                roxmltree::Document::parse_with_options(
                    &parse_text[prolog.skip..],
                    crate::pipeline::xml::options(),
                )
                .ok()
                .map(|doc| (doc, parse_text))
            })
            .flatten()
        }
    };
    if let Some((doc, parse_text)) = tree {
        let (diagnostics, found) = check_document(&doc, parse_text, prolog.skip, settings, site);
        walked = found;
        // A value that holds patched text (where an XML error was) or bytes that were not UTF-8
        // is not what the file says: judging it would repeat the error already reported.
        let garbled = |d: &Diagnostic| {
            (matches!(
                d.rule.category,
                Category::Url | Category::Date | Category::Value
            ) || crate::rules::schema::judges_header(d.rule))
                && (parsed
                    .as_ref()
                    .is_some_and(|p| p.touches_patch(&d.primary.span))
                    || decoded
                        .invalid_utf8
                        .iter()
                        .any(|(s, _)| same_text_run(text, s, &d.primary.span)))
        };
        out.extend(diagnostics.into_iter().filter(|d| !garbled(d)));
    }
    (source, out, walked)
}

/// Checks one document, parsed from `text[base..]`: the checks on the tree, the suppression
/// comments, the model and the rules.
fn check_document(
    doc: &Document<'_>,
    text: &str,
    base: usize,
    settings: &Settings,
    site: &mut FileSummary,
) -> (Vec<Diagnostic>, Walked) {
    let enabled = enabled_rules(settings);
    let mut head = Sitemap::head(doc, text, base);
    let children = RootChildren::build(doc, text, base, &head);
    head.site_origin = children.first_origin(head.namespace, text);
    let hooks = EntryHooks::new(&enabled);
    let mut walk = Walk::new(&head, &enabled, settings);
    walk.tree(doc, text, base, base);
    let suppressions = walk.arm(settings);
    let n = children.entries.len();
    // Tests lower `split_min` to check entries one per batch.
    let batch = BATCH.min(settings.split_min).max(1);
    if settings.threads <= 1 || n <= batch || text.len() < settings.split_min {
        // One entry, refilled for each: its allocations are reused.
        if let Some(mut entry) = children.entry(0, head.namespace) {
            for i in 0..n {
                if children.refill(&mut entry, i, head.namespace, head.source) {
                    run_entry_hooks(&head, &entry, &hooks, &mut walk.cx);
                    walk.entry(&head, &children, &entry);
                }
            }
        }
    } else {
        // The entry hooks run on several threads, a batch of entries at a time, while this
        // thread hands the checked entries to the collectors in document order.
        // Each thread works with its own copy of the head (see [`Sitemap`]).
        let entries = children.entries.as_slice();
        // The rules whose cap the batches consumed so far filled: later batches count their
        // findings and build none (see [`FullRules`]).
        let full = FullRules::default();
        exec::in_order(
            n.div_ceil(batch),
            settings.threads,
            || head.clone(),
            |head, b| {
                let mut bcx = Context::new(settings);
                bcx.set_suppressions(suppressions.clone());
                full.mark(&mut bcx);
                let range = b * batch..((b + 1) * batch).min(n);
                let done: Vec<_> = range
                    .filter_map(|i| check_entry(head, entries, i, &hooks, &mut bcx))
                    .collect();
                (done, bcx)
            },
            |(done, bcx)| {
                for entry in &done {
                    walk.entry(&head, &children, entry);
                }
                walk.cx.absorb(bcx);
                full.note(&walk.cx);
            },
        );
    }
    walk.end_piece(&head, &children);
    walk.retained.push(children);
    walk.finish(head, site)
}

/// The rules whose cap a file's context filled from the stretches of entries it absorbed so far
/// (pieces or batches, in document order): a stretch checked after that counts their findings
/// and builds none (issue 23: otherwise each stretch's own context builds up to the cap, and all
/// but the first stretches' findings are dropped).
#[derive(Default)]
struct FullRules(Mutex<Vec<&'static RuleMeta>>);

impl FullRules {
    /// Marks the rules known full in `cx`, the context of a stretch not yet absorbed.
    fn mark(&self, cx: &mut Context<'_>) {
        for rule in self.0.lock().unwrap_or_else(PoisonError::into_inner).iter() {
            cx.mark_full(rule);
        }
    }

    /// Adds the rules whose cap `cx` (the file's context, after an `absorb`) filled.
    fn note(&self, cx: &Context<'_>) {
        let mut full = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        for rule in cx.full_rules() {
            if !full.iter().any(|r| crate::rule::same_rule(r, rule)) {
                full.push(rule);
            }
        }
    }
}

/// Entry `i` of `entries` (the root's `<url>`/`<sitemap>` elements), built with its children and
/// through every enabled rule's entry hook.
fn check_entry<'d>(
    head: &Sitemap<'d>,
    entries: &[Element<'d>],
    i: usize,
    hooks: &EntryHooks,
    cx: &mut Context<'_>,
) -> Option<Entry<'d>> {
    let mut entry = Entry::new(entries.get(i)?.clone(), head.namespace);
    entry.fill(head.namespace, head.source);
    run_entry_hooks(head, &entry, hooks, cx);
    Some(entry)
}

/// The enabled rules' entry hooks, apart those that look only at the children of other
/// namespaces (extensions, `xhtml:link`; see [`Rule::entry_needs_foreign_children`]).
struct EntryHooks {
    every: Vec<&'static dyn Rule>,
    foreign: Vec<&'static dyn Rule>,
    /// `every` without the rules that have no entry check ([`Context::take_idle`]), found on the
    /// first entry checked (by whichever thread checks one first: every thread finds the same).
    active: OnceLock<Vec<&'static dyn Rule>>,
}

impl EntryHooks {
    fn new(enabled: &[&'static dyn Rule]) -> EntryHooks {
        let (foreign, every) = enabled
            .iter()
            .partition(|rule| rule.entry_needs_foreign_children());
        EntryHooks {
            every,
            foreign,
            active: OnceLock::new(),
        }
    }
}

/// Every enabled rule's entry hook on `entry` (those about other namespaces only when it has
/// such children; the report is sorted afterwards, so the order of the rules does not show).
fn run_entry_hooks(
    head: &Sitemap<'_>,
    entry: &Entry<'_>,
    hooks: &EntryHooks,
    cx: &mut Context<'_>,
) {
    if let Some(active) = hooks.active.get() {
        for rule in active {
            rule.check_entry(head, entry, cx);
        }
    } else {
        let mut active = Vec::with_capacity(hooks.every.len());
        for &rule in &hooks.every {
            // Cleared first: a default check called on this context elsewhere (a test, a later
            // path) must not make the next rule look idle.
            cx.take_idle();
            rule.check_entry(head, entry, cx);
            if !cx.take_idle() {
                active.push(rule);
            }
        }
        let _ = hooks.active.set(active);
    }
    if entry.children.iter().any(|c| c.kind == ChildKind::Foreign) {
        for rule in &hooks.foreign {
            rule.check_entry(head, entry, cx);
        }
    }
}

/// The rules the settings leave on.
fn enabled_rules(settings: &Settings) -> Vec<&'static dyn Rule> {
    r::ALL
        .iter()
        .copied()
        .filter(|rule| settings.severity_of(rule.meta()).is_some())
        .collect()
}

/// Entries checked per batch when the entries of a file parsed whole are checked on several
/// threads.
const BATCH: usize = 1_000;

/// The file-wide state of the one walk over the model: the rules' context and collectors, and
/// what the tree checks and the suppression comments found. It takes the documents a file was
/// parsed into (the whole file, or its pieces) one at a time, in order, their entries checked.
struct Walk<'s, 'c> {
    enabled: &'c [&'static dyn Rule],
    collectors: Vec<Box<dyn Collector<'s> + Send + 's>>,
    cx: Context<'c>,
    out: Vec<Diagnostic>,
    directives: Vec<Directive>,
    /// The suppression comments, once the rules' contexts ask them ([`Walk::arm`]).
    suppressions: Option<Arc<Suppressions>>,
    /// Whether suppression comments are still looked for (see [`suppress::merge`]).
    searching: bool,
    entry_count: usize,
    stray_text: Vec<Range<usize>>,
    /// The root's children of the documents that are kept to the end: those whose root holds
    /// other elements than entries, which [`Rule::check_sitemap`] looks at.
    retained: Vec<RootChildren<'s>>,
    /// The root's other children of the current document handed to the collectors so far.
    root_seen: usize,
    site: FileSummary,
}

impl<'s, 'c> Walk<'s, 'c> {
    fn new(head: &Sitemap<'s>, enabled: &'c [&'static dyn Rule], settings: &'c Settings) -> Self {
        Walk {
            enabled,
            collectors: enabled
                .iter()
                .filter_map(|rule| rule.collector(head))
                .collect(),
            cx: Context::new(settings),
            out: Vec::new(),
            directives: Vec::new(),
            suppressions: None,
            searching: true,
            entry_count: 0,
            stray_text: Vec::new(),
            retained: Vec::new(),
            root_seen: 0,
            site: FileSummary::default(),
        }
    }

    /// The checks on the tree and the suppression comments of a document parsed from
    /// `text[base..]`, whose own text starts at `own` (later pieces of a split file start with a copy of the
    /// root's start tag, checked with the first piece).
    fn tree(&mut self, doc: &Document<'_>, text: &str, base: usize, own: usize) {
        let (out, directives) = tree(doc, text, base, own, self.searching);
        self.add_tree(out, directives);
    }

    /// Hands the suppression comments found so far (all of them: a file that has any is parsed
    /// whole) to the walk's context, and returns them for the other contexts of the file.
    fn arm(&mut self, settings: &Settings) -> Option<Arc<dyn Suppress>> {
        let s = Arc::new(Suppressions::new(
            std::mem::take(&mut self.directives),
            settings,
        )?);
        self.suppressions = Some(s.clone());
        let s: Arc<dyn Suppress> = s;
        self.cx.set_suppressions(Some(s.clone()));
        Some(s)
    }

    fn add_tree(&mut self, out: Vec<Diagnostic>, directives: Vec<Directive>) {
        self.out.extend(out);
        if self.searching {
            self.searching = suppress::merge(&mut self.directives, directives);
        }
    }

    /// Hands a checked entry of `children` to the collectors, after the root's other children
    /// that come before it.
    fn entry(&mut self, head: &Sitemap<'s>, children: &RootChildren<'_>, entry: &Entry<'_>) {
        self.root_until(head, children, entry.element.span.start);
        for collector in &mut self.collectors {
            collector.entry(head, entry, &mut self.cx);
        }
        self.site.entry(
            head,
            entry,
            self.cx.settings.collect_set,
            self.cx.settings.collect_pages,
        );
    }

    fn root_until(&mut self, head: &Sitemap<'s>, children: &RootChildren<'_>, limit: usize) {
        while let Some(child) = children.other_children.get(self.root_seen) {
            if child.element.span.start >= limit {
                break;
            }
            self.root_seen += 1;
            for collector in &mut self.collectors {
                collector.root_child(head, child, &mut self.cx);
            }
        }
    }

    /// After the last entry of a document.
    fn end_piece(&mut self, head: &Sitemap<'s>, children: &RootChildren<'_>) {
        self.root_until(head, children, usize::MAX);
        self.root_seen = 0;
        self.entry_count += children.entries.len();
        self.stray_text.extend(children.stray_text.iter().cloned());
    }

    /// After the last document: the whole-file hooks, with the whole [`Sitemap`].
    fn finish(mut self, head: Sitemap<'s>, site: &mut FileSummary) -> (Vec<Diagnostic>, Walked) {
        let mut sitemap = head;
        sitemap.entry_count = self.entry_count;
        sitemap.stray_text = std::mem::take(&mut self.stray_text);
        for children in &self.retained {
            sitemap.add_other_children(children);
        }
        self.site.kind = sitemap.kind;
        for rule in self.enabled {
            rule.check_sitemap(&sitemap, &mut self.cx);
        }
        // The parts some collectors leave run beside the other collectors' `finish`, each into
        // a context of its own, whose findings are then taken in order.
        let (parted, plain): (Vec<_>, Vec<_>) =
            self.collectors.into_iter().partition(|c| c.has_parts());
        let mut parts = Vec::new();
        for collector in parted {
            parts.extend(collector.finish_parts(&sitemap, &mut self.cx));
        }
        let threads = self.cx.settings.threads;
        let forks: Vec<_> = parts.into_iter().map(|p| (p, self.cx.fork())).collect();
        let cx = &mut self.cx;
        let (forks, ()) = exec::beside(
            forks,
            threads,
            || {
                for collector in plain {
                    collector.finish(&sitemap, cx);
                }
            },
            |(part, mut fork)| {
                part(&mut fork);
                fork
            },
        );
        for fork in forks {
            self.cx.absorb(fork);
        }
        *site = self.site;
        let mut out = self.out;
        let gathered = self.cx.gather();
        out.extend(gathered.diagnostics);
        let walked = Walked {
            omitted: gathered.omitted,
            directives: self.directives,
            suppressions: self.suppressions,
        };
        (out, walked)
    }
}

/// Checks a text sitemap: every line goes through the rules' line hook, and every line that
/// holds a URL is an entry with a `<loc>` (see [`Sitemap::text`]), checked as an XML entry is.
fn check_text(
    text: &str,
    settings: &Settings,
    site: &mut FileSummary,
) -> (Vec<Diagnostic>, Walked) {
    let Ok(skeleton) = Document::parse(crate::pipeline::model::text::TEXT_SKELETON) else {
        return (Vec::new(), Walked::default());
    };
    let mut head = Sitemap::text(&skeleton, text);
    head.site_origin = text_sitemap::lines(text)
        .filter_map(|line| uri::origin(&text[line.url()?]).map(str::to_owned))
        .next();
    let enabled = enabled_rules(settings);
    let hooks = EntryHooks::new(&enabled);
    let mut walk = Walk::new(&head, &enabled, settings);
    let none = RootChildren::default();
    for line in text_sitemap::lines(text) {
        for rule in &enabled {
            rule.check_text_line(&head, &line, &mut walk.cx);
        }
        if let Some(entry) = line.url().and_then(|url| head.text_entry(line.span, url)) {
            run_entry_hooks(&head, &entry, &hooks, &mut walk.cx);
            walk.entry(&head, &none, &entry);
            walk.entry_count += 1;
        }
    }
    walk.finish(head, site)
}

/// The checks on the tree of a document parsed from `text[base..]` whose own text starts at
/// `own`, and (with `search`) its suppression comments.
fn tree(
    doc: &Document<'_>,
    text: &str,
    base: usize,
    own: usize,
    search: bool,
) -> (Vec<Diagnostic>, Vec<Directive>) {
    let piece = &text[..base + doc.root().range().end];
    let mut problems = Vec::new();
    crate::pipeline::xml::check_tree_from(doc, piece, base, own, &mut problems);
    let mut out = Vec::new();
    r::input::xml_problems(problems, 0, true, &mut out);
    let mut directives = Vec::new();
    if search {
        suppress::find_more(doc, piece, base, &mut directives);
    }
    (out, directives)
}

/// Parses the pieces of a split file and checks them, a piece at a time on each of
/// [`Settings::threads`] threads; the spans returned are the file's. `None` when a piece does not
/// parse (the caller then parses the file whole, which reports why).
///
/// A thread parses a piece, runs the tree checks and the entry hooks on it, then waits for its
/// turn to hand the entries to the collectors (in document order), and drops the piece's tree:
/// only the trees in flight are held, besides the first piece's (the root) and those whose root
/// holds other elements than entries (for [`Rule::check_sitemap`]).
fn check_split(
    layout: &crate::pipeline::split::Layout,
    settings: &Settings,
    site: &mut FileSummary,
) -> Option<(Vec<Diagnostic>, Walked)> {
    let text = layout.buf.as_str();
    let pieces = &layout.pieces;
    let n = pieces.len();
    let slots: Vec<OnceLock<Document<'_>>> = pieces.iter().map(|_| OnceLock::new()).collect();
    let parse = |k: usize| layout.parse_piece(k, crate::pipeline::xml::options());
    let _ = slots.first()?.set(parse(0)?);
    let mut head = Sitemap::head(slots[0].get()?, text, pieces[0].range.start);
    // Help texts complete relative URLs with the origin of the first clean `<loc>`, which
    // every entry's checks need: usually it is in the first piece. Otherwise all the pieces are
    // parsed (and kept) first, to find it.
    if head.kind != Kind::Other {
        let origin_in = |k: usize, head: &Sitemap<'_>| {
            let doc = slots[k].get()?;
            RootChildren::build(doc, text, pieces[k].range.start, head)
                .first_origin(head.namespace, text)
        };
        head.site_origin = origin_in(0, &head);
        if head.site_origin.is_none() && n > 1 {
            if !crate::pipeline::split::parse_into(
                layout,
                crate::pipeline::xml::options,
                settings.threads,
                &slots,
            ) {
                return None;
            }
            head.site_origin = (1..n).find_map(|k| origin_in(k, &head));
        }
    }
    let enabled = enabled_rules(settings);
    let hooks = EntryHooks::new(&enabled);
    let pipeline = Pipeline {
        text,
        layout,
        hooks: &hooks,
        settings,
        // A file with suppression comments is not split (see `run`): none to look for.
        searching: AtomicBool::new(false),
        full: FullRules::default(),
    };
    // Piece `k` parsed: `Some(Some(doc))` to drop after its turn, `Some(None)` when it is kept
    // in its slot to the end (its root holds other elements than entries), `None` when it does
    // not parse (everyone stops).
    let obtain = |k: usize| {
        if slots[k].get().is_some() {
            return Some(None);
        }
        let doc = parse(k)?;
        if has_other_children(&doc) {
            let _ = slots[k].set(doc);
            return Some(None);
        }
        Some(Some(doc))
    };
    // The root's children of a piece kept to the end, for the walk (built from the kept tree,
    // which lives as long as the walk).
    let kept = |k: usize, head: &Sitemap<'_>| {
        let doc = slots[k].get()?;
        Some(RootChildren::build(doc, text, pieces[k].range.start, head))
    };
    // Each thread works with its own copy of the head (see [`Sitemap`]): it takes a piece,
    // parses and checks it, and hands it over in its turn. One thread alone has every turn.
    let alone = settings.threads <= 1;
    let walk = exec::in_turns(
        n,
        settings.threads,
        // A file with suppression comments is not split (see `run`): none to look for.
        Walk {
            searching: false,
            ..Walk::new(&head, &enabled, settings)
        },
        || head.clone(),
        |head, turns| {
            let head = &head;
            // False when a piece does not parse (the file is then parsed whole instead) or the
            // work stopped.
            let done = 'pieces: {
                while let Some(k) = turns.take() {
                    let Some(fresh) = obtain(k) else {
                        break 'pieces false;
                    };
                    if alone {
                        let Some(doc) = fresh.as_ref().or_else(|| slots[k].get()) else {
                            break 'pieces false;
                        };
                        let keep = fresh.is_none().then(|| kept(k, head)).flatten();
                        if !pipeline.check_alone(turns, head, k, doc, keep) {
                            break 'pieces false;
                        }
                        continue;
                    }
                    let Some(prepared) = pipeline.prepare_parsed(head, k, &fresh, &slots[k]) else {
                        break 'pieces false;
                    };
                    // Not its turn yet: rather than wait, check the next piece meanwhile (one at
                    // most), then hand both over in order. A thread never waits for a turn while
                    // it holds an earlier piece, so the turns always move.
                    if !turns.is_turn(k) {
                        if let Some(k2) = turns.take() {
                            let Some(fresh2) = obtain(k2) else {
                                break 'pieces false;
                            };
                            let Some(prepared2) =
                                pipeline.prepare_parsed(head, k2, &fresh2, &slots[k2])
                            else {
                                break 'pieces false;
                            };
                            let keep = fresh.is_none().then(|| kept(k, head)).flatten();
                            let keep2 = fresh2.is_none().then(|| kept(k2, head)).flatten();
                            if !pipeline.hand_over(turns, head, prepared, keep)
                                || !pipeline.hand_over(turns, head, prepared2, keep2)
                            {
                                break 'pieces false;
                            }
                            continue;
                        }
                    }
                    let keep = fresh.is_none().then(|| kept(k, head)).flatten();
                    if !pipeline.hand_over(turns, head, prepared, keep) {
                        break 'pieces false;
                    }
                }
                true
            };
            if !done {
                turns.stop();
            }
        },
    )?;
    let (mut diagnostics, mut walked) = walk.finish(head, site);
    let map = |r: &mut Range<usize>| *r = layout.range_to_source(r);
    for d in &mut diagnostics {
        map(&mut d.primary.span);
        for l in &mut d.secondary {
            map(&mut l.span);
        }
        // The edits too: unmapped, `--fix` wrote them at offsets of the buffer, not the file.
        for e in d.fix.iter_mut().flat_map(|f| f.edits.iter_mut()) {
            map(&mut e.range);
        }
    }
    for d in &mut walked.directives {
        map(&mut d.comment);
        for n in &mut d.names {
            map(&mut n.span);
        }
        // `0..usize::MAX` (before the root: the whole file) stays as it is.
        if let Some(c) = d.covers.as_mut().filter(|c| c.end != usize::MAX) {
            map(c);
        }
        if let Some((span, _, _)) = &mut d.problem {
            map(span);
        }
    }
    for l in &mut site.locs {
        let r = layout.range_to_source(&(l.start as usize..l.end as usize));
        // Offsets in the file are never larger than in the buffer: they still fit.
        l.start = u32::try_from(r.start).unwrap_or(l.start);
        l.end = u32::try_from(r.end).unwrap_or(l.end);
    }
    for (_, span) in site.children.iter_mut().chain(site.pages.iter_mut()) {
        map(span);
    }
    site.alternates.map_spans(|r| layout.range_to_source(&r));
    Some((diagnostics, walked))
}

/// Whether the root of `doc` holds an element that is not a `<url>` or `<sitemap>`.
fn has_other_children(doc: &Document<'_>) -> bool {
    doc.root_element()
        .children()
        .any(|n| n.is_element() && !crate::pipeline::model::is_entry_name(n.tag_name().name()))
}

/// What the threads of [`check_split`] share, besides the [`Walk`] they take turns with.
struct Pipeline<'s, 'c> {
    text: &'s str,
    layout: &'s crate::pipeline::split::Layout,
    hooks: &'c EntryHooks,
    settings: &'c Settings,
    /// Whether suppression comments are still looked for (a hint: [`Walk`] decides).
    searching: AtomicBool,
    /// The rules whose cap the pieces handed over so far filled.
    full: FullRules,
}

/// A piece checked and waiting for its turn (see [`Pipeline::prepare`]); without entries, a
/// piece just opened ([`Pipeline::open_piece`]).
struct Prepared<'d, 'c> {
    k: usize,
    out: Vec<Diagnostic>,
    directives: Vec<Directive>,
    children: RootChildren<'d>,
    entries: Vec<Entry<'d>>,
    cx: Context<'c>,
}

impl<'s, 'c> Pipeline<'s, 'c> {
    /// Checks piece `k`, parsed as `doc`: the tree checks and every entry's rules, all that can
    /// run before its turn. `None` when there is no such piece.
    fn prepare<'d>(
        &self,
        head: &Sitemap<'s>,
        k: usize,
        doc: &'d Document<'d>,
    ) -> Option<Prepared<'d, 'c>>
    where
        's: 'd,
    {
        let mut p = self.open_piece(head, k, doc)?;
        let (children, cx) = (&p.children, &mut p.cx);
        p.entries.reserve(children.entries.len());
        p.entries.extend(
            (0..children.entries.len())
                .filter_map(|i| check_entry(head, &children.entries, i, self.hooks, cx)),
        );
        // The collectors run one piece at a time, under the turn; what they read of a `<loc>`
        // is computed here, while the other threads work too.
        for entry in &p.entries {
            if let Some(loc) = entry.loc() {
                loc.url_problems();
                loc.url_key();
            }
        }
        Some(p)
    }

    /// [`Pipeline::prepare`] of piece `k`, parsed as `fresh` or kept in `slot`.
    fn prepare_parsed<'d>(
        &self,
        head: &Sitemap<'s>,
        k: usize,
        fresh: &'d Option<Document<'s>>,
        slot: &'d OnceLock<Document<'s>>,
    ) -> Option<Prepared<'d, 'c>>
    where
        's: 'd,
    {
        self.prepare(head, k, fresh.as_ref().or_else(|| slot.get())?)
    }

    /// What every piece starts with: the checks on its tree (suppression comments looked for
    /// while the walk still does), its root's children, and the context its entries' rules report
    /// into; no entries yet. `None` when there is no piece `k`.
    fn open_piece<'d>(
        &self,
        head: &Sitemap<'s>,
        k: usize,
        doc: &'d Document<'d>,
    ) -> Option<Prepared<'d, 'c>>
    where
        's: 'd,
    {
        let piece = self.layout.pieces.get(k)?;
        let base = piece.range.start;
        let own = piece.body.start.max(base);
        let searching = self.searching.load(Ordering::Relaxed);
        let (out, directives) = tree(doc, self.text, base, own, searching);
        let children = RootChildren::build(doc, self.text, base, head);
        let mut cx = Context::new(self.settings);
        // Filled by pieces before this one (handed over in order, and this one is not yet).
        self.full.mark(&mut cx);
        Some(Prepared {
            k,
            out,
            directives,
            children,
            entries: Vec::new(),
            cx,
        })
    }

    /// A piece's tree findings and suppression comments to the walk, in its turn; the other
    /// threads stop looking for comments once the walk does.
    fn add_tree(&self, walk: &mut Walk<'s, 'c>, out: Vec<Diagnostic>, directives: Vec<Directive>) {
        walk.add_tree(out, directives);
        if !walk.searching {
            self.searching.store(false, Ordering::Relaxed);
        }
    }

    /// What every piece ends with, in its turn, after its entries went to the collectors: the
    /// root's other children after the last entry, the rules' findings of the piece (`cx`) into
    /// the walk's, the rules that filled their cap noted, and `keep` (see
    /// [`Pipeline::hand_over`]) kept.
    fn close_piece(
        &self,
        walk: &mut Walk<'s, 'c>,
        head: &Sitemap<'s>,
        children: &RootChildren<'_>,
        cx: Context<'c>,
        keep: Option<RootChildren<'s>>,
    ) {
        walk.end_piece(head, children);
        walk.cx.absorb(cx);
        self.full.note(&walk.cx);
        if let Some(children) = keep {
            walk.retained.push(children);
        }
    }

    /// [`Pipeline::prepare`] and [`Pipeline::hand_over`] at once, for a thread that works alone
    /// (`--jobs 1`), whose turn it always is: each entry goes to the collectors right after its
    /// rules, while its tree is still in the cache, and one entry's allocations serve every
    /// entry (as on the whole-file path), instead of a list of the piece's entries that waits
    /// for the turn. The findings are the same: the rules report into the piece's context, the
    /// collectors into the walk's, as in `prepare` and `hand_over`. False when the work stopped.
    fn check_alone<'d>(
        &self,
        turns: &Turns<Walk<'s, 'c>>,
        head: &Sitemap<'s>,
        k: usize,
        doc: &'d Document<'d>,
        keep: Option<RootChildren<'s>>,
    ) -> bool
    where
        's: 'd,
    {
        let Some(Prepared {
            out,
            directives,
            children,
            mut cx,
            ..
        }) = self.open_piece(head, k, doc)
        else {
            return false;
        };
        turns.in_turn(k, |walk| {
            self.add_tree(walk, out, directives);
            if let Some(mut entry) = children.entry(0, head.namespace) {
                for i in 0..children.entries.len() {
                    if children.refill(&mut entry, i, head.namespace, head.source) {
                        run_entry_hooks(head, &entry, self.hooks, &mut cx);
                        walk.entry(head, &children, &entry);
                    }
                }
            }
            self.close_piece(walk, head, &children, cx, keep);
        })
    }

    /// Waits for the turn of a prepared piece and hands it to the walk; `keep`, the root's
    /// children of a piece kept to the end, goes with the walk. False when the work stopped.
    fn hand_over<'d>(
        &self,
        turns: &Turns<Walk<'s, 'c>>,
        head: &Sitemap<'s>,
        p: Prepared<'d, 'c>,
        keep: Option<RootChildren<'s>>,
    ) -> bool
    where
        's: 'd,
    {
        turns.in_turn(p.k, |walk| {
            self.add_tree(walk, p.out, p.directives);
            for entry in &p.entries {
                walk.entry(head, &p.children, entry);
            }
            self.close_piece(walk, head, &p.children, p.cx, keep);
        })
    }
}

/// Whether `a` and `b` lie in the same run of character data (no tag between them).
fn same_text_run(text: &str, a: &Range<usize>, b: &Range<usize>) -> bool {
    let (lo, hi) = if a.start <= b.start {
        (a.end.min(text.len()), b.start.min(text.len()))
    } else {
        (b.end.min(text.len()), a.start.min(text.len()))
    };
    if lo >= hi {
        return true; // overlapping
    }
    text.get(lo..hi)
        .is_some_and(|between| !between.contains(['<', '>']))
}

/// A zero-width span at `at`.
pub fn point(at: usize) -> Range<usize> {
    at..at
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules that ask to be skipped on entries without children of other namespaces find
    /// nothing in any such entry of the project's corpus, with every rule on.
    #[test]
    fn rules_skipped_on_plain_entries_have_nothing_to_say_there() {
        let mut settings = Settings::default();
        for meta in r::metas() {
            settings
                .overrides
                .insert(meta.name, Some(meta.default_severity));
        }
        let skipped: Vec<&'static dyn Rule> = r::ALL
            .iter()
            .copied()
            .filter(|rule| rule.entry_needs_foreign_children())
            .collect();
        assert!(skipped.len() >= 10, "{}", skipped.len());
        let mut files = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/corpus"
        ))];
        let (mut plain, mut checked) = (0, 0);
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            if path.extension().is_none_or(|e| e != "xml") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let Ok(doc) = Document::parse_with_options(&text, crate::pipeline::xml::options())
            else {
                continue;
            };
            checked += 1;
            let model = crate::pipeline::model::Model::build(&doc, &text, 0);
            for i in 0..model.entries().len() {
                let Some(entry) = model.filled(i) else {
                    continue;
                };
                if entry.children.iter().any(|c| c.kind == ChildKind::Foreign) {
                    continue;
                }
                plain += 1;
                for rule in &skipped {
                    let mut cx = Context::new(&settings);
                    rule.check_entry(&model, &entry, &mut cx);
                    let found = cx.into_diagnostics();
                    assert!(
                        found.is_empty(),
                        "{}: {} in {}",
                        rule.meta().name,
                        found[0].message,
                        path.display()
                    );
                }
            }
        }
        assert!(
            checked > 300 && plain > 500,
            "{checked} files, {plain} plain entries"
        );
    }

    /// The default entry check says it did nothing, and only it: for every rule, its file
    /// defines `fn check_entry` exactly when a call leaves the context not idle.
    #[test]
    fn only_the_default_entry_check_is_idle() {
        let settings = Settings::default();
        let text = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>"#;
        let doc = Document::parse(text).unwrap();
        let model = crate::pipeline::model::Model::build(&doc, text, 0);
        let entry = model.filled(0).unwrap();
        let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/src/rules");
        let (mut idle, mut busy) = (0, 0);
        for rule in r::ALL {
            let module = rule.meta().name.replace('-', "_");
            let source = std::fs::read_dir(rules)
                .unwrap()
                .map(|family| family.unwrap().path().join(format!("{module}.rs")))
                .find(|path| path.exists())
                .map(|path| std::fs::read_to_string(path).unwrap())
                .unwrap_or_else(|| panic!("no file for {module}"));
            let mut cx = Context::new(&settings);
            rule.check_entry(&model, &entry, &mut cx);
            let was_idle = cx.take_idle();
            assert_eq!(was_idle, !source.contains("fn check_entry("), "{module}");
            assert!(!cx.take_idle(), "taken");
            if was_idle {
                idle += 1;
            } else {
                busy += 1;
            }
        }
        assert!(idle >= 20 && busy >= 20, "{idle} idle, {busy} busy");
    }

    /// The first entry finds the rules with an entry check; the others run only those, and find
    /// what all the rules find.
    #[test]
    fn entries_after_the_first_skip_the_rules_without_an_entry_check() {
        let settings = Settings::default();
        let text = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/ a</loc><priority>2</priority><changefreq>often</changefreq></url>
<url><loc>https://example.com/ a</loc><priority>2</priority><changefreq>often</changefreq></url>
</urlset>"#;
        let doc = Document::parse(text).unwrap();
        let model = crate::pipeline::model::Model::build(&doc, text, 0);
        let hooks = EntryHooks::new(r::ALL);
        let found = |i: usize, hooks: &EntryHooks| {
            let mut cx = Context::new(&settings);
            run_entry_hooks(&model, &model.filled(i).unwrap(), hooks, &mut cx);
            let found: Vec<_> = cx
                .into_diagnostics()
                .into_iter()
                .map(|d| (d.rule.name, d.message))
                .collect();
            found
        };
        assert!(hooks.active.get().is_none());
        // A stale mark, left on the context by a direct call of a default check, changes
        // nothing: the rules that report on the first entry go first here, so that the first
        // of them would be taken for idle and dropped.
        let entry = model.filled(0).unwrap();
        let reports = |rule: &&'static dyn Rule| {
            let mut probe = Context::new(&settings);
            rule.check_entry(&model, &entry, &mut probe);
            !probe.into_diagnostics().is_empty()
        };
        let idle_rule = r::ALL
            .iter()
            .find(|rule| {
                let mut probe = Context::new(&settings);
                rule.check_entry(&model, &entry, &mut probe);
                probe.take_idle()
            })
            .unwrap();
        let (mut ordered, rest): (Vec<&'static dyn Rule>, Vec<_>) =
            r::ALL.iter().copied().partition(reports);
        ordered.extend(rest);
        let fresh = EntryHooks::new(&ordered);
        let mut cx = Context::new(&settings);
        idle_rule.check_entry(&model, &entry, &mut cx);
        run_entry_hooks(&model, &entry, &fresh, &mut cx);
        let with_stale_mark = cx.into_diagnostics().len();
        let first = found(0, &hooks);
        assert_eq!(with_stale_mark, first.len());
        assert_eq!(
            fresh.active.get().map(Vec::len),
            hooks.active.get().map(Vec::len)
        );
        let active = hooks.active.get().unwrap();
        assert!(active.len() + 20 <= hooks.every.len(), "{}", active.len());
        let second = found(1, &hooks);
        assert_eq!(first.len(), second.len());
        assert!(first.len() >= 3, "{first:?}");
        for ((rule, a), (same, b)) in first.iter().zip(&second) {
            assert_eq!(rule, same);
            assert_eq!(a, b);
        }
    }
}
