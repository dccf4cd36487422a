//! Runs one input through the stages (bytes → text → XML → model → rules) and applies severities and ordering.

use std::io::Read;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::diagnostic::{Diagnostic, Severity};
use crate::encoding::{self, Detected};
use crate::input::{self, Bytes, GzipProblem};
use crate::model::{Entry, Part, Sitemap};
use crate::rule::{Category, Context, Rule, RuleMeta};
use crate::rules::{self as r};
use crate::source::SourceFile;
use crate::suppress::{self, Directive};
use crate::xml_decl;
use crate::Settings;

/// The result of checking one input.
#[derive(Debug)]
pub struct FileReport {
    pub source: SourceFile,
    /// Sorted by position, then rule name; severities already applied, disabled rules removed.
    pub diagnostics: Vec<Diagnostic>,
    /// Kind, entry count and (with [`Settings::collect_set`]) fingerprints, for the totals and
    /// the check across files ([`crate::site_set`]).
    pub site: crate::site_set::FileSummary,
}

impl FileReport {
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// Whether the checker failed on this file (see the `internal-error` rule).
    pub fn internal_error(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.rule == &r::internal_error::META)
    }
}

/// Checks what `reader` yields, named `name` (used for messages and the `.gz` name check).
pub fn check_reader(
    name: &str,
    reader: impl Read,
    settings: &Settings,
) -> std::io::Result<FileReport> {
    let bytes = input::load(reader, settings.max_size)?;
    Ok(check_bytes(name, bytes, settings))
}

/// Checks bytes already read (see [`input::load`]). Never panics: a panic inside is reported as
/// an `internal-error` diagnostic.
pub fn check_bytes(name: &str, bytes: Bytes, settings: &Settings) -> FileReport {
    let mut site = crate::site_set::FileSummary::default();
    let site_out = &mut site;
    let result = catch_unwind(AssertUnwindSafe(move || {
        run(name, bytes, settings, site_out)
    }));
    let (source, diagnostics, directives) = match result {
        Ok(out) => out,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            let d = Diagnostic::new(
                &r::internal_error::META,
                0..0,
                "internal error: sitemap-lint failed while checking this file",
            )
            .with_note(format!("panic: {what}"))
            .with_help("this is a bug in sitemap-lint, not in the file; please report it with the file attached");
            site = crate::site_set::FileSummary::default();
            (SourceFile::new(name, ""), vec![d], Vec::new())
        }
    };
    let mut report = finish(source, diagnostics, &directives, settings);
    report.site = site;
    report
}

/// Applies inline suppressions, configured severities, drops disabled rules, clamps spans and sorts.
fn finish(
    source: SourceFile,
    mut diagnostics: Vec<Diagnostic>,
    directives: &[Directive],
    settings: &Settings,
) -> FileReport {
    if !directives.is_empty() {
        suppress::apply(&mut diagnostics, directives, settings);
    }
    diagnostics.retain_mut(|d| match settings.severity_of(d.rule) {
        Some(sev) => {
            d.severity = sev;
            d.primary.span = source.clamp_range(d.primary.span.clone());
            for l in &mut d.secondary {
                l.span = source.clamp_range(l.span.clone());
            }
            true
        }
        None => false,
    });
    diagnostics.sort_by(|a, b| {
        (a.primary.span.start, a.primary.span.end, a.rule.name).cmp(&(
            b.primary.span.start,
            b.primary.span.end,
            b.rule.name,
        ))
    });
    FileReport {
        source,
        diagnostics,
        site: crate::site_set::FileSummary::default(),
    }
}

/// What [`run`] found: the text, the diagnostics, and the suppression comments.
type RunOutput = (SourceFile, Vec<Diagnostic>, Vec<Directive>);

fn run(
    name: &str,
    bytes: Bytes,
    settings: &Settings,
    site: &mut crate::site_set::FileSummary,
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
    let mut directives = Vec::new();
    let named_gz = name.to_ascii_lowercase().ends_with(".gz");

    if bytes.too_large {
        let what = if bytes.gzip {
            "decompressed content"
        } else {
            "file"
        };
        out.push(
            Diagnostic::new(
                &r::input_too_large::META,
                0..0,
                format!(
                    "the {what} is larger than {} bytes (50 MiB)",
                    group(settings.max_size)
                ),
            )
            .with_note(format!(
                "reading stopped at {} bytes; the file was not checked further",
                group(settings.max_size)
            ))
            .with_help("split it into several sitemaps of at most 50,000 URLs and 50 MiB each, listed in a sitemap index"),
        );
        return (SourceFile::new(name, ""), out, Vec::new());
    }

    let gzip_twice = bytes.gzip && bytes.data.starts_with(&[0x1f, 0x8b]);
    // The bytes become the text in place: a large file is not held twice.
    let mut decoded = encoding::decode_owned(bytes.data);
    let mut source = SourceFile::new(name, std::mem::take(&mut decoded.text));
    let text = source.text();

    if let Some(problem) = &bytes.gzip_problem {
        report_gzip_problem(problem, text.len(), &mut out);
        if text.is_empty() {
            // Nothing came out: there is no text to check.
            return (source, out, Vec::new());
        }
    }
    if gzip_twice {
        out.push(
            Diagnostic::new(
                &r::gzip_invalid::META,
                0..0,
                "the file is gzip-compressed twice",
            )
            .with_note("after one decompression the data is gzip again, so it was not checked")
            .with_help("compress the XML once: `gzip -9 -c sitemap.xml > sitemap.xml.gz`"),
        );
        return (source, out, Vec::new());
    }
    if named_gz && !bytes.gzip && !text.is_empty() {
        let first = text.chars().next().map_or(0, char::len_utf8);
        out.push(
            Diagnostic::new(
                &r::gzip_extension_mismatch::META,
                0..first,
                "the file name ends in `.gz` but the content is not gzip-compressed",
            )
            .with_label("plain content starts here")
            .with_help("compress it (`gzip -9 -c sitemap.xml > sitemap.xml.gz`) or drop `.gz` from the name"),
        );
    }

    if decoded.undecodable {
        out.push(
            Diagnostic::new(
                &r::encoding_not_utf8::META,
                0..0,
                format!(
                    "the file is encoded in {}, not UTF-8",
                    decoded.detected.name()
                ),
            )
            .with_help("convert the file to UTF-8; it cannot be checked further"),
        );
        return (source, out, Vec::new());
    }
    let not_utf8 = decoded.detected != Detected::Utf8;
    if not_utf8 {
        let how = if decoded.bom {
            "with a byte-order mark"
        } else {
            "detected from its first bytes"
        };
        out.push(
            Diagnostic::new(
                &r::encoding_not_utf8::META,
                0..0,
                format!(
                    "the file is encoded in {} ({how}), but sitemaps must be UTF-8",
                    decoded.detected.name()
                ),
            )
            .with_label("the file starts here")
            .with_note("the file was decoded anyway; positions refer to the decoded text")
            .with_help(format!(
                "convert it: `iconv -f {} -t UTF-8 FILE`, and declare `encoding=\"UTF-8\"`",
                decoded.detected.name()
            )),
        );
    }
    for (span, raw) in &decoded.invalid_utf8 {
        out.push(invalid_utf8_diagnostic(span.clone(), raw));
    }
    if decoded.invalid_utf8_more > 0 {
        if let Some((span, _)) = decoded.invalid_utf8.last() {
            out.push(Diagnostic::new(
                &r::invalid_utf8::META,
                span.clone(),
                format!(
                    "{} more invalid UTF-8 sequences were not reported one by one",
                    decoded.invalid_utf8_more
                ),
            ));
        }
    }
    if decoded.bom && text.is_empty() {
        out.push(
            Diagnostic::new(&r::xml_syntax::META, 0..0, "the file contains only a byte-order mark")
                .with_help("a sitemap is a `<urlset>` element, or a sitemap index a `<sitemapindex>` element, in the namespace `http://www.sitemaps.org/schemas/sitemap/0.9`"),
        );
        return (source, out, Vec::new());
    }

    let prolog = xml_decl::check_prolog(text);
    for p in &prolog.problems {
        let meta: &'static RuleMeta = match p.kind {
            xml_decl::ProblemKind::LeadingWhitespace => &r::leading_whitespace::META,
            xml_decl::ProblemKind::Encoding => {
                if not_utf8 {
                    continue; // already reported by encoding-not-utf8
                }
                &r::xml_declaration_encoding::META
            }
            _ => &r::xml_declaration::META,
        };
        // Whitespace is invisible when underlined: point at the declaration it displaces.
        let leading = p.kind == xml_decl::ProblemKind::LeadingWhitespace;
        let span = if leading {
            prolog.skip..(prolog.skip + 5).min(text.len())
        } else {
            p.range.clone()
        };
        let mut d = Diagnostic::new(meta, span, p.message.clone()).with_help_opt(p.help.clone());
        if leading {
            d = d.with_label("must be the first thing in the file");
        }
        out.push(d);
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
                out.push(
                    Diagnostic::new(&r::doctype_not_allowed::META, start..end, "DOCTYPE declarations are not allowed in sitemaps")
                        .with_help("delete the `<!DOCTYPE …>`: sitemaps are defined by an XML Schema, not a DTD, and DTDs enable entity-expansion attacks"),
                );
            }
        }
    }

    // A large file that parses in pieces is parsed and checked on several threads (see
    // `split`). Its text is laid out as the pieces in place meanwhile, so it is not held twice.
    let clean_prolog = prolog.blank.as_ref().is_none_or(|r| r.is_empty());
    if clean_prolog
        && decoded.invalid_utf8.is_empty()
        && settings.threads > 1
        && text.len() >= settings.split_min
    {
        let (file_name, owned) = source.into_parts();
        match crate::split::layout(owned, prolog.skip, settings.split_min) {
            Err(owned) => source = SourceFile::new(file_name, owned),
            Ok(layout) => {
                let checked = check_split(&layout, settings, site);
                source = SourceFile::new(file_name, layout.into_source());
                if let Some((diagnostics, directives)) = checked {
                    out.extend(diagnostics);
                    return (source, out, directives);
                }
            }
        }
    }
    let text = source.text();

    // Most files parse as they stand: then that tree is the one the rules see. Otherwise the XML
    // stage reports every error it can and, when it could patch them over, the patched text is
    // parsed once more.
    let mut parsed = None;
    let tree = match crate::xml::parse_clean(text, &prolog) {
        Some(doc) => Some((doc, text)),
        None => {
            let p = parsed.insert(crate::xml::check_after_prolog(text, &prolog, &mut out));
            let parse_text: &str = p.patched.as_deref().unwrap_or(text);
            p.ok.then(|| {
                roxmltree::Document::parse_with_options(
                    &parse_text[prolog.skip..],
                    crate::xml::options(),
                )
                .ok()
                .map(|doc| (doc, parse_text))
            })
            .flatten()
        }
    };
    if let Some((doc, parse_text)) = tree {
        let part = Part {
            doc: &doc,
            base: prolog.skip,
            own: prolog.skip,
        };
        let (diagnostics, found) = check_parts(part, &[], parse_text, settings, site);
        directives = found;
        // A value that holds patched text (where an XML error was) or bytes that were not UTF-8
        // is not what the file says: judging it would repeat the error already reported.
        let garbled = |d: &Diagnostic| {
            matches!(
                d.rule.category,
                Category::Url | Category::Date | Category::Value
            ) && (parsed
                .as_ref()
                .is_some_and(|p| p.touches_patch(&d.primary.span))
                || decoded
                    .invalid_utf8
                    .iter()
                    .any(|(s, _)| same_text_run(text, s, &d.primary.span)))
        };
        out.extend(diagnostics.into_iter().filter(|d| !garbled(d)));
    }
    (source, out, directives)
}

/// Parses the pieces of a split file and checks them; the spans returned are the file's. `None`
/// when a piece does not parse (the caller then parses the file whole, which reports why).
fn check_split(
    layout: &crate::split::Layout,
    settings: &Settings,
    site: &mut crate::site_set::FileSummary,
) -> Option<(Vec<Diagnostic>, Vec<Directive>)> {
    let docs = crate::split::parse(layout, crate::xml::options, settings.threads)?;
    let parts: Vec<Part<'_>> = docs
        .iter()
        .zip(&layout.pieces)
        .map(|(doc, piece)| Part {
            doc,
            base: piece.range.start,
            own: piece.body.start.max(piece.range.start),
        })
        .collect();
    let (first, rest) = parts.split_first()?;
    let (mut diagnostics, mut directives) = check_parts(*first, rest, &layout.buf, settings, site);
    drop(parts);
    drop(docs);
    let map = |r: &mut Range<usize>| *r = layout.range_to_source(r);
    for d in &mut diagnostics {
        map(&mut d.primary.span);
        for l in &mut d.secondary {
            map(&mut l.span);
        }
    }
    for d in &mut directives {
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
    for (_, span) in &mut site.children {
        map(span);
    }
    Some((diagnostics, directives))
}

/// Checks the parsed documents of a file (one, or the pieces of a split file, in order) against
/// `text`, which all their spans index into: the checks on the tree, the suppression comments,
/// the model and the rules.
fn check_parts(
    first: Part<'_>,
    rest: &[Part<'_>],
    text: &str,
    settings: &Settings,
    site: &mut crate::site_set::FileSummary,
) -> (Vec<Diagnostic>, Vec<Directive>) {
    let mut out = Vec::new();
    let mut directives = Vec::new();
    let mut searching = true;
    for part in std::iter::once(&first).chain(rest) {
        let piece = &text[..part.base + part.doc.root().range().end];
        crate::xml::check_tree_from(part.doc, piece, part.base, part.own, &mut out);
        searching = searching && suppress::find_more(part.doc, piece, part.base, &mut directives);
    }
    let mut cx = Context::new(settings);
    let sitemap = Sitemap::build_parts(first, rest, text);
    check_rules(&sitemap, &mut cx, settings, site);
    out.extend(cx.into_diagnostics());
    (out, directives)
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

fn report_gzip_problem(problem: &GzipProblem, end: usize, out: &mut Vec<Diagnostic>) {
    let recovered = if end == 0 {
        "nothing could be decompressed"
    } else {
        "the text decompressed before the problem was checked"
    };
    let (msg, help) = match problem {
        GzipProblem::Truncated => (
            "the gzip data ends unexpectedly: the file is truncated".to_string(),
            format!("recreate the file (`gzip -9 sitemap.xml`) and check it with `gzip -t`; {recovered}"),
        ),
        GzipProblem::Checksum => (
            "the gzip checksum does not match the data: the file is corrupt".to_string(),
            format!("recreate the file with `gzip -9` and upload it in binary mode; {recovered}"),
        ),
        GzipProblem::Corrupt(e) => (
            format!("the gzip data is corrupt ({e})"),
            format!("recreate the file with `gzip -9` and upload it in binary mode; {recovered}"),
        ),
        GzipProblem::TrailingGarbage { bytes } => (
            format!("{bytes} bytes that are not gzip data follow the compressed data"),
            "remove what was appended after the gzip stream; recreate the file with `gzip -9`".to_string(),
        ),
    };
    let label = if end == 0 {
        "no text could be decompressed"
    } else {
        "decompressed text ends here"
    };
    out.push(
        Diagnostic::new(&r::gzip_invalid::META, end..end, msg)
            .with_label(label)
            .with_help(help),
    );
}

fn invalid_utf8_diagnostic(span: Range<usize>, raw: &[u8]) -> Diagnostic {
    let hex: Vec<String> = raw.iter().map(|b| format!("{b:02X}")).collect();
    let (hint, help) = match raw {
        [b @ 0x80..=0x9F] => (
            format!(
                " (in Windows-1252 this byte is `{}`)",
                encoding_rs::WINDOWS_1252.decode_without_bom_handling(&[*b]).0
            ),
            "the text was saved as Windows-1252: convert it with `iconv -f WINDOWS-1252 -t UTF-8`",
        ),
        [b @ 0xA0..=0xFF] => (
            format!(" (in Latin-1 this byte is `{}`)", char::from(*b)),
            "the text was saved as Latin-1 or Windows-1252: convert it with `iconv -f WINDOWS-1252 -t UTF-8`",
        ),
        [0xED, 0xA0..=0xBF, ..] => (
            " (an encoded UTF-16 surrogate, as CESU-8 or Java's modified UTF-8 write)".to_string(),
            "encode characters outside the BMP as one 4-byte UTF-8 sequence, not as two surrogates",
        ),
        _ => (
            String::new(),
            "save the file as UTF-8 (for example `iconv -f WINDOWS-1252 -t UTF-8`)",
        ),
    };
    Diagnostic::new(
        &r::invalid_utf8::META,
        span,
        format!(
            "invalid UTF-8: byte{} {}{hint}",
            if raw.len() == 1 { "" } else { "s" },
            hex.join(" ")
        ),
    )
    .with_label("shown as U+FFFD")
    .with_help(help)
}

/// Entries checked per batch when a file's entries are checked on several threads.
const BATCH: usize = 1_000;

/// The one walk over the model: every enabled rule's sitemap hook, then each entry through every
/// enabled rule's entry hook and every collector, in document order.
///
/// An entry's children (and the values and caches they hold) are built just before the rules see
/// it and released right after, so memory does not grow with the number of entries. With
/// [`Settings::threads`] above 1 and more than one batch of entries, the entry hooks run on that
/// many threads, a batch of (at most) [`BATCH`] entries at a time, while this thread hands the checked
/// entries to the collectors in document order.
fn check_rules<'a>(
    sitemap: &Sitemap<'a>,
    cx: &mut Context<'_>,
    settings: &Settings,
    site: &mut crate::site_set::FileSummary,
) {
    site.kind = sitemap.kind;
    let enabled: Vec<&dyn Rule> = r::ALL
        .iter()
        .copied()
        .filter(|rule| settings.severity_of(rule.meta()).is_some())
        .collect();
    for rule in &enabled {
        rule.check_sitemap(sitemap, cx);
    }
    let mut collectors: Vec<_> = enabled
        .iter()
        .filter_map(|rule| rule.collector(sitemap))
        .collect();
    // Entry `i`, built with its children and through every rule's entry hook.
    let check = |i: usize, cx: &mut Context<'_>| {
        let mut entry = sitemap.entry(i)?;
        entry.fill(sitemap.namespace, sitemap.source);
        for rule in &enabled {
            rule.check_entry(sitemap, &entry, cx);
        }
        Some(entry)
    };
    // What sees the checked entries in document order, on this thread.
    let mut collect = |entry: &Entry<'a>, cx: &mut Context<'_>| {
        for collector in &mut collectors {
            collector.entry(sitemap, entry, cx);
        }
        site.entry(sitemap, entry, settings.collect_set);
    };
    let n = sitemap.entries.len();
    // Tests lower `split_min` to check entries one per batch.
    let batch = BATCH.min(settings.split_min).max(1);
    if settings.threads <= 1 || n <= batch || sitemap.source.len() < settings.split_min {
        for i in 0..n {
            if let Some(entry) = check(i, cx) {
                collect(&entry, cx);
            }
        }
    } else {
        let batches = n.div_ceil(batch);
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            let (tx, rx) = std::sync::mpsc::sync_channel(settings.threads);
            for _ in 0..settings.threads.min(batches) {
                let tx = tx.clone();
                let (next, check) = (&next, &check);
                s.spawn(move || loop {
                    let b = next.fetch_add(1, Ordering::Relaxed);
                    if b >= batches {
                        return;
                    }
                    let mut bcx = Context::new(settings);
                    let range = b * batch..((b + 1) * batch).min(n);
                    let done: Vec<_> = range.filter_map(|i| check(i, &mut bcx)).collect();
                    if tx.send((b, done, bcx)).is_err() {
                        return;
                    }
                });
            }
            drop(tx);
            // Batches arrive in any order; the collectors take them in document order.
            let mut waiting = std::collections::BTreeMap::new();
            let mut want = 0;
            for (b, done, bcx) in rx {
                waiting.insert(b, (done, bcx));
                while let Some((done, bcx)) = waiting.remove(&want) {
                    for entry in &done {
                        collect(entry, cx);
                    }
                    cx.absorb(bcx);
                    want += 1;
                }
            }
        });
    }
    for collector in collectors {
        collector.finish(sitemap, cx);
    }
}

/// `52428800` → `52,428,800`.
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A zero-width span at `at`.
pub fn point(at: usize) -> Range<usize> {
    at..at
}
