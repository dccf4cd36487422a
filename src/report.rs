//! One file's report: what the engine found ([`Found`]), what the check across files adds, and
//! the one [`finalize`] that turns both into the [`FileReport`] the renderers print.
//!
//! Finalizing happens once per file, for the findings of the file and those across files alike:
//! inline suppressions, configured severities (rules turned off dropped), spans clamped, the
//! order (position, then rule name), `--quiet`. The caps ([`crate::rule::MAX_REPORTS_PER_RULE`])
//! were applied as the findings were made, after suppressions: what a cap left out is counted in
//! [`FileReport::omitted`], so totals stay exact.

use std::sync::Arc;

use crate::diagnostic::{Diagnostic, RuleMeta, Severity};
use crate::pipeline::source::SourceFile;
use crate::rule::{Gathered, Suppress};
use crate::rules as r;
use crate::site_set::FileSummary;
use crate::suppress::Suppressions;
use crate::Settings;

/// What the engine found in one input, before [`finalize`].
pub struct Found {
    pub source: SourceFile,
    /// Unsorted, severities not applied yet.
    pub diagnostics: Vec<Diagnostic>,
    /// Per rule, findings a cap left out (counted, never built).
    pub omitted: Vec<(&'static RuleMeta, usize)>,
    /// The file's suppression comments, if it has any.
    pub suppressions: Option<Arc<Suppressions>>,
    /// Kind, entry count and (with [`Settings::collect_set`]) fingerprints, for the totals and
    /// the check across files ([`crate::site_set`]).
    pub site: FileSummary,
}

impl Found {
    /// Whether a suppression comment of this file covers a finding of `rule` at `at` (for the
    /// findings across files, asked before they count against their cap).
    pub fn suppresses(&self, rule: &'static RuleMeta, at: usize) -> bool {
        self.suppressions
            .as_ref()
            .is_some_and(|s| s.suppresses(rule, at))
    }

    /// Whether `d`, one of [`Found::diagnostics`], is kept by [`finalize`] (suppressions and
    /// severities apart from `--quiet`): what `--fix` applies fixes of (see [`crate::fix`]).
    pub fn reports(&self, d: &Diagnostic, settings: &Settings) -> bool {
        settings.severity_of(d.rule).is_some() && !self.suppresses(d.rule, d.primary.span.start)
    }
}

/// Findings the cap left out, for one rule, at its configured severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Omitted {
    pub rule: &'static RuleMeta,
    pub severity: Severity,
    pub count: usize,
}

/// The result of checking one input.
#[derive(Debug)]
pub struct FileReport {
    pub source: SourceFile,
    /// Sorted by position, then rule name; severities already applied, disabled rules removed.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings not in `diagnostics` because of a cap, per rule (noted on the last one shown).
    pub omitted: Vec<Omitted>,
    /// Kind, entry count and (with [`Settings::collect_set`]) fingerprints, for the totals and
    /// the check across files ([`crate::site_set`]).
    pub site: FileSummary,
}

impl FileReport {
    /// Findings of `severity`, those a cap left out included (once: a finding kept past the cap
    /// for its fix, [`Diagnostic::is_beyond_cap`], is one of them).
    pub fn count(&self, severity: Severity) -> usize {
        let shown = self
            .diagnostics
            .iter()
            .filter(|d| d.severity == severity && !d.is_beyond_cap())
            .count();
        let left_out: usize = self
            .omitted
            .iter()
            .filter(|o| o.severity == severity)
            .map(|o| o.count)
            .sum();
        shown + left_out
    }

    /// Whether the checker failed on this file (see the `internal-error` rule).
    pub fn internal_error(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.rule == &r::input::internal_error::META)
    }
}

/// Applies inline suppressions and configured severities, drops disabled rules, clamps spans,
/// sorts, and with `quiet` keeps the errors only: once, over the findings of the file and those
/// across files. Findings kept past a cap for their fix only ([`Diagnostic::is_beyond_cap`]) are
/// dropped: they were counted with those the cap left out.
pub fn finalize(found: Found, across: Gathered, settings: &Settings, quiet: bool) -> FileReport {
    let Found {
        source,
        mut diagnostics,
        mut omitted,
        suppressions,
        site,
    } = found;
    diagnostics.retain(|d| !d.is_beyond_cap());
    diagnostics.extend(across.diagnostics);
    omitted.extend(across.omitted);
    if let Some(s) = &suppressions {
        s.apply(&mut diagnostics);
        let about = s.findings();
        diagnostics.extend(about.diagnostics);
        omitted.extend(about.omitted);
    }
    diagnostics.retain_mut(|d| match settings.severity_of(d.rule) {
        Some(sev) if !quiet || sev == Severity::Error => {
            d.severity = d.at_most.map_or(sev, |most| sev.min(most));
            d.primary.span = source.clamp_range(d.primary.span.clone());
            for l in &mut d.secondary {
                l.span = source.clamp_range(l.span.clone());
            }
            true
        }
        _ => false,
    });
    diagnostics.sort_by(|a, b| {
        (a.primary.span.start, a.primary.span.end, a.rule.name).cmp(&(
            b.primary.span.start,
            b.primary.span.end,
            b.rule.name,
        ))
    });
    let mut left_out: Vec<Omitted> = Vec::new();
    for (rule, count) in omitted {
        let Some(severity) = settings.severity_of(rule) else {
            continue;
        };
        if count == 0 || (quiet && severity != Severity::Error) {
            continue;
        }
        match left_out.iter_mut().find(|o| o.rule.name == rule.name) {
            Some(o) => o.count += count,
            None => left_out.push(Omitted {
                rule,
                severity,
                count,
            }),
        }
    }
    left_out.sort_by_key(|o| o.rule.name);
    FileReport {
        source,
        diagnostics,
        omitted: left_out,
        site,
    }
}
