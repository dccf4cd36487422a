//! What rules see when they run ([`Context`]) and how they are called ([`Rule`]). What a rule is
//! (its metadata and docs, [`RuleMeta`]) and what it reports live in [`crate::diagnostic`].

use std::any::Any;
use std::ops::Range;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
pub use crate::diagnostic::{Category, RuleMeta};
use crate::pipeline::model::{Child, Entry, Sitemap};
use crate::pipeline::text_sitemap::TextLine;

/// Diagnostics one rule reports per file at most; the rest are counted in a note on the last one,
/// so that a file with millions of the same mistake gives a readable report in bounded memory.
/// Findings past the cap cost a counter: see [`Context::report_with`].
pub const MAX_REPORTS_PER_RULE: usize = 1_000;

/// Diagnostics with a fix one rule keeps per file beyond [`MAX_REPORTS_PER_RULE`] when the
/// settings ask for fixes ([`crate::Settings::fixing`]): `--fix` then repairs up to this many per
/// pass instead of a thousand (10,000 raw `&` take one pass, not ten), in bounded memory. Such a
/// finding is built for its fix, marked [`Diagnostic::is_beyond_cap`] and counted with the ones
/// the cap left out, never shown.
pub const MAX_FIXES_PER_RULE: usize = 200_000;

/// Whether an inline suppression comment covers a finding of `rule` starting at offset `at` of
/// the text the rules see. Implemented by [`crate::suppress::Suppressions`]; a [`Context`] asks
/// it before a finding counts against the cap, so that the findings kept are the first
/// [`MAX_REPORTS_PER_RULE`] that are not suppressed, and suppressed ones are never built.
pub trait Suppress: Send + Sync {
    /// True when a directive covers it (and that directive's name is then counted as used).
    fn suppresses(&self, rule: &'static RuleMeta, at: usize) -> bool;
}

/// Findings of one rule a [`Context`] kept and left out.
#[derive(Debug, Clone, Copy)]
pub struct RuleCount {
    pub rule: &'static RuleMeta,
    /// Built and kept (at most [`MAX_REPORTS_PER_RULE`]).
    pub kept: usize,
    /// Found past the cap: counted, and built only to be kept for its fix (see
    /// [`MAX_FIXES_PER_RULE`]).
    pub omitted: usize,
    /// Past the cap, kept for their fix (at most [`MAX_FIXES_PER_RULE`], counted in `omitted`).
    pub for_fix: usize,
}

/// What a [`Context`] gathered: the diagnostics kept (in the order reported, notes on the caps
/// attached) and, per rule, how many findings the cap left out.
#[derive(Debug, Default)]
pub struct Gathered {
    pub diagnostics: Vec<Diagnostic>,
    pub omitted: Vec<(&'static RuleMeta, usize)>,
}

/// What a rule sees and where it reports.
pub struct Context<'a> {
    pub settings: &'a crate::Settings,
    diagnostics: Vec<Diagnostic>,
    /// Per rule that reported: kept and omitted (a few rules report in a file: a short list).
    counts: Vec<RuleCount>,
    /// The file's suppression comments, when it has any.
    suppress: Option<Arc<dyn Suppress>>,
    /// The last URLs found clean by [`crate::values::uri::check_http_url`], oldest overwritten first.
    clean_urls: [String; CLEAN_URLS],
    clean_next: usize,
    /// What a family of rules computed once for an entry and shares (the extension walk, see
    /// [`Context::entry_memo`]): the entry's span and the value.
    entry_memo: Option<(Range<usize>, Box<dyn Any + Send>)>,
    /// Set by the default [`Rule::check_entry`], which does nothing: see [`Context::take_idle`].
    idle: bool,
}

/// Whether `a` and `b` are the same rule: each rule has one static [`RuleMeta`], so the address
/// decides at once; the names otherwise (a copy of the metadata, in tests).
pub fn same_rule(a: &'static RuleMeta, b: &'static RuleMeta) -> bool {
    std::ptr::eq(a, b) || a.name == b.name
}

/// Clean URLs a [`Context`] remembers: the alternates of an hreflang cluster are listed again in
/// each of its pages, which follow each other.
const CLEAN_URLS: usize = 16;

impl<'a> Context<'a> {
    pub fn new(settings: &'a crate::Settings) -> Self {
        Context {
            settings,
            diagnostics: Vec::new(),
            counts: Vec::new(),
            suppress: None,
            clean_urls: Default::default(),
            clean_next: 0,
            entry_memo: None,
            idle: false,
        }
    }

    /// Whether the [`Rule::check_entry`] just called was the default one, which does nothing
    /// (and clears that). The engine calls every enabled rule on the first entry of a file and
    /// only the others on the rest: some 40 rules have no entry check, and calling each through
    /// the table for every entry cost 2 M calls on 50,000 entries.
    pub fn take_idle(&mut self) -> bool {
        std::mem::take(&mut self.idle)
    }

    /// A context for more findings of the same file: the same settings and suppression
    /// comments, nothing reported yet (see [`Collector::finish_parts`]).
    pub fn fork(&self) -> Context<'a> {
        let mut cx = Context::new(self.settings);
        cx.suppress = self.suppress.clone();
        cx
    }

    /// Checks the findings reported from now on against the file's suppression comments.
    pub fn set_suppressions(&mut self, s: Option<Arc<dyn Suppress>>) {
        self.suppress = s;
    }

    /// Whether `url` was recently found without any problem by [`crate::values::uri::check_http_url`]
    /// (see [`Context::remember_clean_url`]): a memo for values that repeat from entry to entry.
    pub fn is_known_clean_url(&self, url: &str) -> bool {
        !url.is_empty() && self.clean_urls.iter().any(|u| u == url)
    }

    /// Remembers that [`crate::values::uri::check_http_url`] finds no problem in `url`.
    pub fn remember_clean_url(&mut self, url: &str) {
        let slot = &mut self.clean_urls[self.clean_next % CLEAN_URLS];
        slot.clear();
        slot.push_str(url);
        self.clean_next = self.clean_next.wrapping_add(1);
    }

    /// The value `make` computes for `entry`, made on the first call for that entry and kept
    /// until another entry asks: the way several rules share one costly look at an entry (one
    /// extension walk serves the extension rules). Rules run entry by entry, so one slot is enough.
    /// `None` only if the slot held another type and could not take this one, which cannot happen.
    pub fn entry_memo<T: Any + Send>(
        &mut self,
        entry: &Entry<'_>,
        make: impl FnOnce() -> T,
    ) -> Option<&T> {
        let span = &entry.element.span;
        let fresh = self
            .entry_memo
            .as_ref()
            .is_some_and(|(at, memo)| at == span && memo.is::<T>());
        if !fresh {
            self.entry_memo = Some((span.clone(), Box::new(make())));
        }
        self.entry_memo.as_ref()?.1.downcast_ref::<T>()
    }

    fn count(&mut self, rule: &'static RuleMeta) -> &mut RuleCount {
        let i = match self.counts.iter().position(|c| same_rule(c.rule, rule)) {
            Some(i) => i,
            None => {
                self.counts.push(RuleCount {
                    rule,
                    kept: 0,
                    omitted: 0,
                    for_fix: 0,
                });
                self.counts.len() - 1
            }
        };
        &mut self.counts[i]
    }

    /// Tells this context (of a later stretch of a file's entries, see [`Context::absorb`]) that
    /// the stretches before it kept [`MAX_REPORTS_PER_RULE`] findings of `rule` already: its
    /// findings of `rule` are then past the cap, counted and not built (unless wanted for their
    /// fix). Call before anything is reported.
    pub fn mark_full(&mut self, rule: &'static RuleMeta) {
        let count = self.count(rule);
        count.kept = count.kept.max(MAX_REPORTS_PER_RULE);
    }

    /// The rules of which this context kept [`MAX_REPORTS_PER_RULE`] findings.
    pub fn full_rules(&self) -> impl Iterator<Item = &'static RuleMeta> + '_ {
        self.counts
            .iter()
            .filter(|c| c.kept >= MAX_REPORTS_PER_RULE)
            .map(|c| c.rule)
    }

    /// Reports a finding of `rule` whose primary span starts at `at`, built by `build` only if it
    /// is kept: a suppressed finding is dropped (its suppression counts as used), one past the
    /// cap ([`MAX_REPORTS_PER_RULE`]) costs a counter. Rules that may find something in every
    /// entry report this way, so that a file where every entry has the same mistake costs about
    /// as much as a clean one. The findings kept are the first unsuppressed ones in the order
    /// reported (document order for the entry hooks).
    ///
    /// When the settings ask for fixes ([`crate::Settings::fixing`]), a finding past the cap of a
    /// rule that declares a fix is built all the same, and kept for its fix if it has one (up to
    /// [`MAX_FIXES_PER_RULE`], marked [`Diagnostic::is_beyond_cap`]); it is counted as left out
    /// either way, so the counts are those of a check.
    pub fn report_with(
        &mut self,
        rule: &'static RuleMeta,
        at: usize,
        build: impl FnOnce() -> Diagnostic,
    ) {
        if self
            .suppress
            .as_ref()
            .is_some_and(|s| s.suppresses(rule, at))
        {
            return;
        }
        let wants_fix = self.wants_fix(rule);
        let count = self.count(rule);
        let kept = count.kept < MAX_REPORTS_PER_RULE;
        if kept {
            count.kept += 1;
        } else {
            count.omitted += 1;
            if !wants_fix {
                return;
            }
        }
        let d = build();
        debug_assert!(
            d.rule.name == rule.name && d.primary.span.start == at,
            "`report_with` for `{}` at {at}: the diagnostic is `{}` at {}",
            rule.name,
            d.rule.name,
            d.primary.span.start
        );
        if kept {
            self.diagnostics.push(d);
        } else if d.fix.is_some() {
            self.keep_for_fix(d.keep_beyond_cap());
        }
    }

    /// Whether a finding of `rule` past the cap is still built, for its fix: the settings ask for
    /// fixes, the rule declares some, and fewer than [`MAX_FIXES_PER_RULE`] were kept.
    fn wants_fix(&self, rule: &'static RuleMeta) -> bool {
        self.settings.fixing
            && rule.fix.is_some()
            && self
                .counts
                .iter()
                .find(|c| same_rule(c.rule, rule))
                .is_none_or(|c| c.for_fix < MAX_FIXES_PER_RULE)
    }

    /// Keeps `d`, marked [`Diagnostic::is_beyond_cap`] and already counted as left out, for its
    /// fix, up to [`MAX_FIXES_PER_RULE`] per rule.
    fn keep_for_fix(&mut self, d: Diagnostic) {
        let count = self.count(d.rule);
        if count.for_fix < MAX_FIXES_PER_RULE {
            count.for_fix += 1;
            self.diagnostics.push(d);
        }
    }

    /// Whether a finding of `rule` at `at` will not be kept (suppressed, or past the cap and not
    /// wanted for its fix, see [`Context::report_with`]): it is then counted as such, and the
    /// caller builds nothing. Otherwise the caller builds it and reports it with
    /// [`Context::report`], which counts it. For rules whose findings take several statements to
    /// build; [`Context::report_with`] where one closure can.
    pub fn skip(&mut self, rule: &'static RuleMeta, at: usize) -> bool {
        if self
            .suppress
            .as_ref()
            .is_some_and(|s| s.suppresses(rule, at))
        {
            return true;
        }
        if self.wants_fix(rule) {
            return false;
        }
        let count = self.count(rule);
        if count.kept < MAX_REPORTS_PER_RULE {
            return false;
        }
        count.omitted += 1;
        true
    }

    /// [`Context::report_with`] for a finding whose primary span is `span`: `build` gets it back.
    pub fn report_at(
        &mut self,
        rule: &'static RuleMeta,
        span: Range<usize>,
        build: impl FnOnce(Range<usize>) -> Diagnostic,
    ) {
        self.report_with(rule, span.start, || build(span));
    }

    /// [`Context::report_with`] for a diagnostic already built (a finding that is rare, or
    /// that a helper builds anyway).
    pub fn report(&mut self, diagnostic: Diagnostic) {
        let (rule, at) = (diagnostic.rule, diagnostic.primary.span.start);
        self.report_with(rule, at, || diagnostic);
    }

    /// Takes over what `other` (a context of the same file, for a later stretch of its entries)
    /// reported, within the same per-rule cap: the kept ones are the first in document order.
    /// Suppressions were applied by `other` already.
    pub fn absorb(&mut self, other: Context<'_>) {
        for c in &other.counts {
            self.count(c.rule).omitted += c.omitted;
        }
        for d in other.diagnostics {
            if d.is_beyond_cap() {
                // Counted in `other`'s omitted, added above.
                self.keep_for_fix(d);
                continue;
            }
            let count = self.count(d.rule);
            if count.kept < MAX_REPORTS_PER_RULE {
                count.kept += 1;
                self.diagnostics.push(d);
            } else {
                count.omitted += 1;
                if self.settings.fixing && d.fix.is_some() {
                    self.keep_for_fix(d.keep_beyond_cap());
                }
            }
        }
    }

    /// Adds `n` findings of `rule` that were counted but not built (see [`MAX_REPORTS_PER_RULE`]).
    pub fn count_unreported(&mut self, rule: &'static RuleMeta, n: usize) {
        if n > 0 {
            self.count(rule).omitted += n;
        }
    }

    /// What was reported, with a note on the last kept finding of each rule the cap cut.
    pub fn gather(mut self) -> Gathered {
        let mut omitted = Vec::new();
        for c in &self.counts {
            if c.omitted == 0 {
                continue;
            }
            let (name, n) = (c.rule.name, c.omitted);
            omitted.push((c.rule, n));
            if let Some(last) = self
                .diagnostics
                .iter_mut()
                .rev()
                .find(|d| d.rule.name == name && !d.is_beyond_cap())
            {
                last.notes.push(format!(
                    "{n} more `{name}` diagnostics in this file were not reported (at most {MAX_REPORTS_PER_RULE} per rule and file)"
                ));
            }
        }
        Gathered {
            diagnostics: std::mem::take(&mut self.diagnostics),
            omitted,
        }
    }

    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.gather().diagnostics
    }
}

/// Declares a rule: its metadata (a `static` [`RuleMeta`]), whose `///` lines become the docs
/// printed by `sitemap-lint explain` and docs/rules.md, and the rule's type `Check`, whose
/// [`Declared::meta`] returns it. The rule file then implements [`Rule`] for `Check` with the
/// checks it makes.
///
/// ```ignore
/// declare_rule! {
///     /// ## What it does
///     /// ...
///     pub static META = {
///         name: "changefreq-invalid",
///         category: Value,
///         severity: Error,
///         fix: Safe, // or Unsafe, or Mixed; left out when the rule fixes nothing
///         // defers_to: ["other-rule"], // the rules it leaves findings to when on (RuleMeta::defers_to)
///         summary: "`<changefreq>` is not one of the seven allowed values",
///     }
/// }
/// ```
#[macro_export]
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        $vis:vis static $ident:ident = {
            name: $name:literal,
            category: $cat:ident,
            severity: $sev:ident,
            $(opt_in: $opt_in:literal,)?
            $(fix: $fix:ident,)?
            $(defers_to: [$($defer:literal),* $(,)?],)?
            summary: $summary:literal $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        $vis static $ident: $crate::diagnostic::RuleMeta = $crate::diagnostic::RuleMeta {
            name: $name,
            category: $crate::diagnostic::Category::$cat,
            default_severity: $crate::diagnostic::Severity::$sev,
            opt_in: false $(|| $opt_in)?,
            fix: $crate::declare_rule!(@fix $($fix)?),
            defers_to: &[$($($defer),*)?],
            summary: $summary,
            raw_docs: concat!($($doc, "\n"),*),
            source: concat!(file!(), ":", line!()),
        };

        /// The rule's check; its metadata and docs are the `static` beside it.
        pub struct Check;

        impl $crate::rule::Declared for Check {
            fn meta(&self) -> &'static $crate::diagnostic::RuleMeta {
                &$ident
            }
        }
    };
    (@fix) => { None };
    (@fix $fix:ident) => { Some($crate::diagnostic::FixKind::$fix) };
}

/// What [`declare_rule!`] gives a rule: its metadata.
pub trait Declared {
    fn meta(&self) -> &'static RuleMeta;
}

/// A check over the sitemap model. Hooks default to doing nothing, so a rule writes only the ones it
/// needs; rules that belong to the input pipeline (gzip, encoding, XML) implement only `meta`.
///
/// The engine walks the model once: `check_entry` for every entry and rule (on several threads
/// for a large file), every [`Collector`] sees the entries and the root's other children in
/// document order, then `check_sitemap` for every rule (with the whole [`Sitemap`]: entry count,
/// the root's other children and stray text) and every collector's `finish`.
pub trait Rule: Declared + Sync {
    /// Once per file, after the entries.
    fn check_sitemap(&self, _sitemap: &Sitemap<'_>, _cx: &mut Context<'_>) {}

    /// Once per entry. The [`Sitemap`] it gets holds the root only: entries are checked before
    /// the file's totals are known. The default does nothing and says so to the engine
    /// ([`Context::take_idle`]), which then stops calling it for the file.
    fn check_entry(&self, _sitemap: &Sitemap<'_>, _entry: &Entry<'_>, cx: &mut Context<'_>) {
        cx.idle = true;
    }

    /// Once per line of a text sitemap (a run of blank lines is one [`TextLine`]), in order,
    /// before the line's entry (when it holds a URL) goes through [`Rule::check_entry`].
    fn check_text_line(&self, _sitemap: &Sitemap<'_>, _line: &TextLine, _cx: &mut Context<'_>) {}

    /// Whether [`Rule::check_entry`] looks only at children in other namespaces than the
    /// sitemap's (extensions, `xhtml:link`): the engine then skips it for entries without any,
    /// most entries of most sitemaps. A rule that says so must find nothing in such an entry.
    fn entry_needs_foreign_children(&self) -> bool {
        false
    }

    /// A fresh per-file state for a rule that compares entries with each other (duplicates, one
    /// host per file, hreflang return links). Rules themselves are stateless statics; the engine
    /// asks each enabled rule for a collector once per file, with the [`Sitemap`]'s root only.
    fn collector<'a>(&self, _sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        None
    }
}

/// The per-file state of a rule that looks across entries.
///
/// An entry's children are released once every rule has seen it, and the document it was parsed
/// from once its entries are checked (a large file is parsed in pieces, see [`crate::pipeline::split`]): a
/// collector keeps only what it needs, as compactly as it can (source ranges, hashes, slices of
/// the source text made with [`crate::pipeline::model::detach`]), and reports in `finish`.
pub trait Collector<'a> {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, cx: &mut Context<'_>);

    /// A child element of the root that is not an entry, in document order among the entries.
    fn root_child(&mut self, _sitemap: &Sitemap<'a>, _child: &Child<'_>, _cx: &mut Context<'_>) {}

    /// After every entry, with the whole [`Sitemap`].
    fn finish(self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>);

    /// Whether [`Collector::finish_parts`] may leave parts (then the engine calls it before the
    /// other collectors' `finish`, so that the parts run beside them).
    fn has_parts(&self) -> bool {
        false
    }

    /// [`Collector::finish`] with the long work left as independent [`Part`]s, which the engine
    /// runs on the executor's threads, each into a [`Context::fork`] of its own, and then takes
    /// their findings in order ([`Context::absorb`]). One rule's findings come from one part, so
    /// that its cap keeps the same ones as [`Collector::finish`] would.
    fn finish_parts(self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) -> Vec<Part<'a>> {
        self.finish(sitemap, cx);
        Vec::new()
    }
}

/// Work a collector leaves for the end of the file that may run beside other work (see
/// [`Collector::finish_parts`]).
pub type Part<'a> = Box<dyn FnOnce(&mut Context<'_>) + Send + 'a>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::lastmod::lastmod_future;
    use crate::rules::value::changefreq_invalid;

    fn finding(rule: &'static RuleMeta, at: usize, fixed: bool) -> Diagnostic {
        let d = Diagnostic::new(rule, at..at + 1, "finding");
        if fixed {
            d.with_fix(crate::diagnostic::Fix::safe(
                "fix",
                vec![crate::diagnostic::Edit::delete(at..at + 1)],
            ))
        } else {
            d
        }
    }

    /// Past the cap a finding costs a counter: never built in a check, built with fixes wanted
    /// only for a rule that declares a fix, and then kept (marked) only when it has one.
    #[test]
    fn past_the_cap_findings_are_built_only_for_a_fix() {
        for fixing in [false, true] {
            let settings = crate::Settings {
                fixing,
                ..crate::Settings::default()
            };
            let mut cx = Context::new(&settings);
            let (fixable, plain) = (&changefreq_invalid::META, &lastmod_future::META);
            for at in 0..MAX_REPORTS_PER_RULE {
                cx.report_with(fixable, at, || finding(fixable, at, true));
                cx.report_with(plain, at, || finding(plain, at, false));
            }
            let mut built = 0;
            for at in 10_000..10_010 {
                cx.report_with(plain, at, || {
                    unreachable!("`{}` built past the cap", plain.name)
                });
                cx.report_with(fixable, at, || {
                    built += 1;
                    finding(fixable, at, at % 2 == 0)
                });
                assert!(cx.skip(plain, at));
            }
            assert_eq!(built, if fixing { 10 } else { 0 });
            let gathered = cx.gather();
            let beyond = gathered.diagnostics.iter().filter(|d| d.is_beyond_cap());
            assert_eq!(beyond.count(), if fixing { 5 } else { 0 });
            let omitted = |rule: &RuleMeta| {
                gathered
                    .omitted
                    .iter()
                    .find(|(r, _)| r.name == rule.name)
                    .map(|(_, n)| *n)
            };
            assert_eq!(omitted(fixable), Some(10));
            assert_eq!(omitted(plain), Some(20));
            // The note is on the last finding shown, not on one kept for its fix.
            let last = gathered
                .diagnostics
                .iter()
                .rev()
                .find(|d| d.rule.name == fixable.name && !d.is_beyond_cap())
                .unwrap();
            assert_eq!(last.notes.len(), 1);
        }
    }
}
