//! Applying the fixes diagnostics carry (`check --fix`, `--diff`), in passes as ruff does: check,
//! apply every wanted fix that does not overlap one applied before it in the pass, check again,
//! until nothing is left to apply or [`MAX_PASSES`] is reached. The text between edits is kept
//! byte for byte (line endings, indentation, comments, the declaration).
//!
//! Fixes are edits of the decoded text, so only an input whose decoded text *is* its bytes can be
//! fixed: UTF-8 without invalid sequences (a UTF-8 byte-order mark is kept). Anything else (UTF-16,
//! a truncated gzip stream, a file over the size cap) is left as it is, with the reason in
//! [`Fixed::unfixable`]. Compressing a fixed `.gz` input again is the caller's business.

use std::collections::BTreeMap;

use crate::diagnostic::{Applicability, Diagnostic, Fix, Severity};
use crate::engine::find;
use crate::pipeline::encoding::{self, Detected};
use crate::pipeline::input::Bytes;
use crate::report::{finalize, FileReport, Found};
use crate::Settings;

/// Checks a file's fixes may take at most (ruff's limit): a fix whose result needs another fix
/// takes a pass each, and a pair of fixes that undo each other would otherwise never end.
pub const MAX_PASSES: usize = 100;

/// Which fixes to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FixOptions {
    /// Apply [`Applicability::Unsafe`] fixes too (`--unsafe-fixes`).
    pub unsafe_fixes: bool,
}

impl FixOptions {
    /// Whether `fix` is applied with these options.
    pub fn wants(&self, fix: &Fix) -> bool {
        fix.applicability == Applicability::Safe || self.unsafe_fixes
    }
}

/// One pass of fixes over a text (see [`apply`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub text: String,
    /// Fixes applied, per rule (a fix identical to one applied in the same place counts once
    /// more, as its finding is fixed too).
    pub by_rule: BTreeMap<&'static str, usize>,
    /// Fixes left for the next pass: they overlap a fix applied before them.
    pub deferred: usize,
    /// Fixes never applicable: an edit outside the text or off a character boundary (a bug of
    /// the rule; counted so tests can see it).
    pub invalid: usize,
}

impl Applied {
    pub fn count(&self) -> usize {
        self.by_rule.values().sum()
    }
}

/// Applies the fixes of `fixes` (a rule name with each) to `text` in one pass: in the order of
/// their first edit, each fix whole or not at all, skipping a fix that overlaps one applied
/// before it (it waits for the next pass, after a new check). Two insertions at the same place
/// overlap; an insertion right after a replacement does not.
pub fn apply<'f>(text: &str, fixes: impl IntoIterator<Item = (&'static str, &'f Fix)>) -> Applied {
    let mut fixes: Vec<(&'static str, &Fix)> = fixes
        .into_iter()
        .filter(|(_, f)| !f.edits.is_empty())
        .collect();
    fixes.sort_by(|(ra, a), (rb, b)| {
        let key = |f: &Fix| f.edits.first().map(|e| (e.range.start, e.range.end));
        key(a).cmp(&key(b)).then(ra.cmp(rb))
    });
    let mut out = String::with_capacity(text.len());
    let mut by_rule = BTreeMap::new();
    let (mut deferred, mut invalid) = (0, 0);
    // Where the text is copied up to, and whether the last edit was an insertion there.
    let mut copied = 0usize;
    let mut inserted_at_end = false;
    let mut last: Option<&Fix> = None;
    for (rule, fix) in fixes {
        let valid = fix.edits.iter().all(|e| {
            e.range.start <= e.range.end
                && text.is_char_boundary(e.range.start)
                && text.is_char_boundary(e.range.end)
        }) && fix
            .edits
            .windows(2)
            .all(|w| w[0].range.end <= w[1].range.start);
        if !valid {
            invalid += 1;
            continue;
        }
        if last.is_some_and(|l| l.edits == fix.edits) {
            // The same repair offered twice (two rules, or two findings of one place).
            *by_rule.entry(rule).or_insert(0) += 1;
            continue;
        }
        let first = &fix.edits[0].range;
        if first.start < copied || (first.start == copied && first.is_empty() && inserted_at_end) {
            deferred += 1;
            continue;
        }
        for edit in &fix.edits {
            out.push_str(&text[copied..edit.range.start]);
            out.push_str(&edit.replacement);
            copied = edit.range.end;
            inserted_at_end = edit.range.is_empty();
        }
        *by_rule.entry(rule).or_insert(0) += 1;
        last = Some(fix);
    }
    out.push_str(&text[copied..]);
    Applied {
        text: out,
        by_rule,
        deferred,
        invalid,
    }
}

/// What fixing one input did.
#[derive(Debug)]
pub struct Fixed<R = FileReport> {
    /// The report on the text as fixed (or as it was, when nothing was applied): what remains.
    /// Diagnostics kept beyond the report cap for their fix only are not in it. With
    /// [`fix_found`], the findings on that text before [`finalize`].
    pub report: R,
    /// The fixed content (the byte-order mark included, not compressed), when it differs from
    /// the input.
    pub content: Option<Vec<u8>>,
    /// Fixes applied, per rule, over all passes.
    pub by_rule: BTreeMap<&'static str, usize>,
    /// Checks made (1 when there was nothing to fix).
    pub passes: usize,
    /// False when [`MAX_PASSES`] checks still left fixes to apply.
    pub converged: bool,
    /// Why the input cannot be fixed (its fixes are then not applied).
    pub unfixable: Option<String>,
    /// Errors reported before any fix.
    pub errors_before: usize,
}

impl<R> Fixed<R> {
    pub fn applied(&self) -> usize {
        self.by_rule.values().sum()
    }
}

impl Fixed {
    /// The diagnostics of the final report whose fix these options would apply: what `--fix`
    /// still has to do when `content` is not written (`--diff`), or could not do.
    pub fn remaining(&self, options: FixOptions) -> usize {
        self.report
            .diagnostics
            .iter()
            .filter(|d| d.fix.as_ref().is_some_and(|f| options.wants(f)))
            .count()
    }
}

impl Fixed<Found> {
    /// [`Fixed::remaining`] before the report is made: the findings that will be shown (not
    /// suppressed, their rule on, not kept past the cap for their fix only) with a fix these
    /// options would apply.
    pub fn remaining(&self, settings: &Settings, options: FixOptions) -> usize {
        self.report
            .diagnostics
            .iter()
            .filter(|d| !d.is_beyond_cap() && is_fixable(d, options))
            .filter(|d| self.report.reports(d, settings))
            .count()
    }
}

/// Why `bytes` cannot be fixed in place, if so.
fn unfixable(bytes: &Bytes) -> Option<String> {
    if bytes.too_large {
        return Some("it is larger than the size limit, so it was not read whole".into());
    }
    if bytes.gzip_problem.is_some() {
        return Some("its gzip data is damaged".into());
    }
    if bytes.gzip && bytes.data.starts_with(&[0x1f, 0x8b]) {
        return Some("it is gzip-compressed twice".into());
    }
    let (detected, bom) = encoding::detect(&bytes.data);
    if detected != Detected::Utf8 {
        return Some(format!(
            "it is encoded in {}: fixes apply to UTF-8 files only",
            detected.name()
        ));
    }
    if std::str::from_utf8(&bytes.data[bom..]).is_err() {
        return Some("it holds bytes that are not UTF-8, which a rewrite would not keep".into());
    }
    None
}

/// Checks `bytes` (named `name`) and applies the fixes `options` want, in passes, until nothing
/// is left to apply (see the module docs). Never panics; the final report is the one to show.
pub fn fix_bytes(name: &str, bytes: Bytes, settings: &Settings, options: FixOptions) -> Fixed {
    let fixed = fix_found(name, bytes, settings, options);
    let report = finalize(fixed.report, Default::default(), settings, false);
    Fixed {
        // With one pass the report is that of the text as it was.
        errors_before: if fixed.passes > 1 {
            fixed.errors_before
        } else {
            errors(&report)
        },
        report,
        content: fixed.content,
        by_rule: fixed.by_rule,
        passes: fixed.passes,
        converged: fixed.converged,
        unfixable: fixed.unfixable,
    }
}

/// [`fix_bytes`] whose final findings are not made a report yet: for a caller that adds the
/// findings across files before [`finalize`] (the command line). `errors_before` is only
/// counted when the text was checked again (`passes > 1`): with one pass they are the errors of
/// the report made from `report`.
pub fn fix_found(
    name: &str,
    bytes: Bytes,
    settings: &Settings,
    options: FixOptions,
) -> Fixed<Found> {
    let settings = Settings {
        fixing: true,
        ..settings.clone()
    };
    let why = unfixable(&bytes);
    let bom = if why.is_none() {
        bytes.data[..encoding::detect(&bytes.data).1].to_vec()
    } else {
        Vec::new()
    };
    let (gzip, raw_len) = (bytes.gzip, bytes.raw_len);
    let mut report = find(name, bytes, &settings);
    let mut errors_before = 0;
    let mut by_rule = BTreeMap::new();
    let mut passes = 1;
    let mut converged = true;
    let mut changed = false;
    if why.is_none() {
        loop {
            // Those of the findings shown and of the ones kept past the cap for their fix.
            let wanted: Vec<(&'static str, &Fix)> = report
                .diagnostics
                .iter()
                .filter(|d| report.reports(d, &settings))
                .filter_map(|d| Some((d.rule.name, d.fix.as_ref()?)))
                .filter(|(_, f)| options.wants(f))
                .collect();
            // Nothing to apply: the text is not touched (a large file checked in pieces is not
            // even put back together), so that --fix costs what check costs.
            if wanted.is_empty() {
                break;
            }
            let applied = apply(report.source.text(), wanted);
            if applied.count() == 0 || applied.text == report.source.text() {
                break;
            }
            if passes == MAX_PASSES {
                converged = false;
                break;
            }
            for (rule, n) in applied.by_rule {
                *by_rule.entry(rule).or_insert(0) += n;
            }
            let mut data = Vec::with_capacity(bom.len() + applied.text.len());
            data.extend_from_slice(&bom);
            data.extend_from_slice(applied.text.as_bytes());
            drop(applied.text);
            let before = std::mem::replace(
                &mut report,
                find(
                    name,
                    Bytes {
                        data,
                        gzip,
                        raw_len,
                        too_large: false,
                        gzip_problem: None,
                    },
                    &settings,
                ),
            );
            if passes == 1 {
                errors_before = errors(&finalize(before, Default::default(), &settings, false));
            }
            passes += 1;
            changed = true;
        }
    }
    let content = changed.then(|| {
        let mut data = bom;
        data.extend_from_slice(report.source.text().as_bytes());
        data
    });
    Fixed {
        report,
        content,
        by_rule,
        passes,
        converged,
        unfixable: why,
        errors_before,
    }
}

/// Errors in `report`, those a cap left out included.
fn errors(report: &FileReport) -> usize {
    report.count(Severity::Error)
}

/// Whether `d` offers a fix these options apply.
pub fn is_fixable(d: &Diagnostic, options: FixOptions) -> bool {
    d.fix.as_ref().is_some_and(|f| options.wants(f))
}

/// A unified diff of `old` to `new` (three lines of context), headed `--- a/NAME` and
/// `+++ b/NAME`, as `git diff` and `ruff --diff` print it; empty when they are equal. Lines
/// are compared with similar's Myers, which bounds its work on large, much changed texts.
pub fn unified_diff(name: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Edit;

    fn safe(edits: Vec<Edit>) -> Fix {
        Fix::safe("f", edits)
    }

    #[test]
    fn edits_apply_in_order_and_keep_the_rest() {
        let text = "a\r\nb&c\td";
        let amp = safe(vec![Edit::replace(4..5, "&amp;")]);
        let tab = safe(vec![Edit::delete(6..7)]);
        let head = safe(vec![Edit::insert(0, "<?xml?>")]);
        let applied = apply(text, [("x", &amp), ("y", &tab), ("z", &head)]);
        assert_eq!(applied.text, "<?xml?>a\r\nb&amp;cd");
        assert_eq!((applied.count(), applied.deferred), (3, 0));
        // A fix whose edits surround another's goes first; the other waits.
        let both = safe(vec![Edit::insert(0, "<?xml?>"), Edit::delete(6..7)]);
        let applied = apply(text, [("x", &amp), ("y", &both)]);
        assert_eq!(applied.text, "<?xml?>a\r\nb&cd");
        assert_eq!((applied.count(), applied.deferred), (1, 1));
    }

    #[test]
    fn overlapping_fixes_wait_for_the_next_pass() {
        let text = "0123456789";
        let a = safe(vec![Edit::replace(2..5, "x")]);
        let b = safe(vec![Edit::replace(4..6, "y")]);
        let c = safe(vec![Edit::replace(5..6, "z")]);
        let d = safe(vec![Edit::insert(6, "i")]);
        let e = safe(vec![Edit::insert(6, "j")]);
        let applied = apply(
            text,
            [("b", &b), ("a", &a), ("c", &c), ("d", &d), ("e", &e)],
        );
        assert_eq!(applied.text, "01xzi6789");
        assert_eq!(applied.count(), 3);
        assert_eq!(applied.deferred, 2);
    }

    #[test]
    fn identical_fixes_apply_once_and_bad_edits_never() {
        let a = safe(vec![Edit::replace(1..2, "X")]);
        let off = safe(vec![Edit::replace(1..2, "Y")]);
        let outside = safe(vec![Edit::replace(5..9, "Z")]);
        let split = safe(vec![Edit::replace(3..4, "Z")]);
        let applied = apply(
            "abé",
            [("r", &a), ("s", &a), ("t", &outside), ("u", &split)],
        );
        assert_eq!(applied.text, "aXé");
        assert_eq!(applied.count(), 2);
        assert_eq!(applied.invalid, 2);
        assert_eq!(apply("abé", [("r", &off), ("s", &a)]).deferred, 1);
    }

    #[test]
    fn diff_is_unified() {
        let d = unified_diff("s.xml", "a\nb\nc\n", "a\nB\nc\n");
        assert_eq!(
            d,
            "--- a/s.xml\n+++ b/s.xml\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
        );
        assert_eq!(unified_diff("s.xml", "a", "a"), "");
    }
}
