//! What rules see when they run ([`Context`]) and how they are called ([`Rule`]). What a rule is
//! (its metadata and docs, [`RuleMeta`]) and what it reports live in [`crate::diagnostic`].

use std::any::Any;
use std::ops::Range;

use crate::diagnostic::Diagnostic;
pub use crate::diagnostic::{Category, RuleMeta};
use crate::pipeline::model::{Child, Entry, Sitemap};
use crate::pipeline::text_sitemap::TextLine;

/// Diagnostics one rule reports per file at most; the rest are counted in a note on the last one,
/// so that a file with millions of the same mistake gives a readable report in bounded memory.
pub const MAX_REPORTS_PER_RULE: usize = 1_000;

/// Diagnostics with a fix one rule keeps per file beyond [`MAX_REPORTS_PER_RULE`] when the
/// settings ask for fixes ([`crate::Settings::fixing`]): `--fix` then repairs up to this many per
/// pass instead of a thousand (10,000 raw `&` take one pass, not ten), in bounded memory.
pub const MAX_FIXES_PER_RULE: usize = 200_000;

/// What a rule sees and where it reports.
pub struct Context<'a> {
    pub settings: &'a crate::Settings,
    diagnostics: Vec<Diagnostic>,
    /// Per rule: (reported, not reported because of the cap).
    counts: std::collections::HashMap<&'static str, (usize, usize)>,
    /// Per rule: diagnostics beyond the cap kept for their fix (see [`Diagnostic::is_beyond_cap`]).
    kept_for_fix: std::collections::HashMap<&'static str, usize>,
    /// The last URLs found clean by [`crate::values::uri::check_http_url`], oldest overwritten first.
    clean_urls: [String; CLEAN_URLS],
    clean_next: usize,
    /// What a family of rules computed once for an entry and shares (the extension walk, see
    /// [`Context::entry_memo`]): the entry's span and the value.
    entry_memo: Option<(Range<usize>, Box<dyn Any + Send>)>,
}

/// Clean URLs a [`Context`] remembers: the alternates of an hreflang cluster are listed again in
/// each of its pages, which follow each other.
const CLEAN_URLS: usize = 16;

impl<'a> Context<'a> {
    pub fn new(settings: &'a crate::Settings) -> Self {
        Context {
            settings,
            diagnostics: Vec::new(),
            counts: std::collections::HashMap::new(),
            kept_for_fix: std::collections::HashMap::new(),
            clean_urls: Default::default(),
            clean_next: 0,
            entry_memo: None,
        }
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

    pub fn report(&mut self, diagnostic: Diagnostic) {
        if diagnostic.is_beyond_cap() {
            // Kept for its fix by another context of the file (see `absorb`): its count is there.
            self.keep_for_fix(diagnostic);
            return;
        }
        let count = self.counts.entry(diagnostic.rule.name).or_default();
        if count.0 < MAX_REPORTS_PER_RULE {
            count.0 += 1;
            self.diagnostics.push(diagnostic);
        } else {
            count.1 += 1;
            if self.settings.fixing && diagnostic.fix.is_some() {
                self.keep_for_fix(diagnostic.keep_beyond_cap());
            }
        }
    }

    /// Keeps a diagnostic beyond the cap for its fix, up to [`MAX_FIXES_PER_RULE`] per rule.
    fn keep_for_fix(&mut self, diagnostic: Diagnostic) {
        let kept = self.kept_for_fix.entry(diagnostic.rule.name).or_default();
        if *kept < MAX_FIXES_PER_RULE {
            *kept += 1;
            self.diagnostics.push(diagnostic);
        }
    }

    /// Takes over what `other` (a context of the same file, for a later stretch of its entries)
    /// reported, within the same per-rule cap.
    pub fn absorb(&mut self, other: Context<'_>) {
        for (name, (_, omitted)) in other.counts {
            self.counts.entry(name).or_default().1 += omitted;
        }
        for d in other.diagnostics {
            self.report(d);
        }
    }

    /// Whether `rule` has reported its [`MAX_REPORTS_PER_RULE`] findings in this file: a rule
    /// that may find something on every line counts the rest with [`Context::count_unreported`]
    /// rather than build findings that are dropped.
    pub fn is_full(&self, rule: &RuleMeta) -> bool {
        self.counts
            .get(rule.name)
            .is_some_and(|c| c.0 >= MAX_REPORTS_PER_RULE)
    }

    /// Adds `n` findings of `rule` that were counted but not built (see [`MAX_REPORTS_PER_RULE`]).
    pub fn count_unreported(&mut self, rule: &'static RuleMeta, n: usize) {
        if n > 0 {
            self.counts.entry(rule.name).or_default().1 += n;
        }
    }

    pub fn into_diagnostics(mut self) -> Vec<Diagnostic> {
        for (name, (_, omitted)) in &self.counts {
            if *omitted == 0 {
                continue;
            }
            if let Some(last) = self
                .diagnostics
                .iter_mut()
                .rev()
                .find(|d| d.rule.name == *name && !d.is_beyond_cap())
            {
                last.notes.push(format!(
                    "{omitted} more `{name}` diagnostics in this file were not reported (at most {MAX_REPORTS_PER_RULE} per rule and file)"
                ));
            }
        }
        self.diagnostics
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
    /// the file's totals are known.
    fn check_entry(&self, _sitemap: &Sitemap<'_>, _entry: &Entry<'_>, _cx: &mut Context<'_>) {}

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
}
