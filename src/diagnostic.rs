//! What a rule is and what it reports: [`RuleMeta`] (declared with [`declare_rule!`], docs
//! included), [`Severity`], and the [`Diagnostic`] every stage and rule produces: a message on a
//! primary span, labels, notes, help and, where the repair is certain enough, a [`Fix`].

use std::fmt;
use std::ops::Range;

pub use crate::values::finding::{Applicability, Edit, Finding, Fix, Label};

/// How serious a finding is. The engine assigns it from the rule's default and the configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// Parses `info`, `warning` (or `warn`) and `error`.
    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "info" => Some(Severity::Info),
            "warning" | "warn" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Groups of rules, for listing and for turning whole groups on or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Reading the bytes: size, gzip.
    Input,
    /// Character encoding and the XML declaration.
    Encoding,
    /// XML well-formedness.
    Xml,
    /// Root, namespace, elements, order, attributes.
    Structure,
    /// `<loc>` URLs.
    Url,
    /// `<lastmod>` dates.
    Date,
    /// `<changefreq>`, `<priority>` and value formatting.
    Value,
    /// The protocol's count limits.
    Limits,
    /// The site as served: HTTP answers, robots.txt, the pages listed (live checks).
    Http,
    /// Inline suppression comments.
    Suppression,
    /// Failures of the checker itself.
    Internal,
}

impl Category {
    pub const ALL: [Category; 11] = [
        Category::Input,
        Category::Encoding,
        Category::Xml,
        Category::Structure,
        Category::Url,
        Category::Date,
        Category::Value,
        Category::Limits,
        Category::Http,
        Category::Suppression,
        Category::Internal,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Input => "input",
            Category::Encoding => "encoding",
            Category::Xml => "xml",
            Category::Structure => "structure",
            Category::Url => "url",
            Category::Date => "date",
            Category::Value => "value",
            Category::Limits => "limits",
            Category::Http => "http",
            Category::Suppression => "suppression",
            Category::Internal => "internal",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which fixes a rule offers (its `fix:` in [`declare_rule!`](crate::declare_rule)): shown by
/// `sitemap-lint rules`, `explain` and docs/rules.md, and held by tests (a rule's fixes have the
/// applicability it declares; a rule that declares none offers none). A fixable rule may still
/// leave a finding unfixed when the intended value is not certain; its `## Fix` section says when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FixKind {
    /// Every fix it offers is [`Applicability::Safe`]: applied by `--fix`.
    Safe,
    /// Every fix it offers is [`Applicability::Unsafe`]: applied only with `--unsafe-fixes`.
    Unsafe,
    /// Some fixes are safe, others unsafe, depending on the finding.
    Mixed,
}

impl FixKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FixKind::Safe => "safe",
            FixKind::Unsafe => "unsafe",
            FixKind::Mixed => "safe or unsafe",
        }
    }

    /// Whether a fix of `applicability` agrees with what the rule declares.
    pub fn allows(self, applicability: Applicability) -> bool {
        match self {
            FixKind::Safe => applicability == Applicability::Safe,
            FixKind::Unsafe => applicability == Applicability::Unsafe,
            FixKind::Mixed => true,
        }
    }
}

/// Everything known about a rule without running it. Built by [`declare_rule!`](crate::declare_rule).
#[derive(Debug)]
pub struct RuleMeta {
    /// Kebab-case name: the rule's only identifier (`--format json` calls it `code`).
    pub name: &'static str,
    pub category: Category,
    pub default_severity: Severity,
    /// Off unless configuration turns it on (its severity is then `default_severity`).
    pub opt_in: bool,
    /// The fixes it offers (`None`: it fixes nothing; its docs say why).
    pub fix: Option<FixKind>,
    /// The rules it leaves findings to when they are on (`defers_to: [..]` in `declare_rule!`):
    /// what both would report is reported once, by the other; with the other off this rule
    /// reports it, so that nothing is lost. The only way a rule's findings depend on which other
    /// rules are on ([`crate::Settings::is_on`]); `tests/corpus.rs` checks that every rule's
    /// findings are the same with all rules on as with this rule and these alone
    /// ([`crate::Settings::only_with_deferred`]), and that each hand-over declared here is used.
    pub defers_to: &'static [&'static str],
    /// One line, used in `sitemap-lint rules`, docs/rules.md and SARIF `shortDescription`.
    pub summary: &'static str,
    /// The `///` comment of the declaration, verbatim (one leading space per line included).
    pub raw_docs: &'static str,
    /// `file:line` of the declaration.
    pub source: &'static str,
}

impl PartialEq for RuleMeta {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for RuleMeta {}

impl RuleMeta {
    /// The rule's documentation as Markdown.
    pub fn docs(&self) -> String {
        let mut out = String::with_capacity(self.raw_docs.len());
        for line in self.raw_docs.lines() {
            out.push_str(line.strip_prefix(' ').unwrap_or(line));
            out.push('\n');
        }
        out
    }
}

/// Labels one finding shows at most, its primary one included; [`Diagnostic::with_secondary`]
/// counts the rest in a note, so that a value with millions of problems makes a readable finding
/// in bounded memory.
pub const MAX_LABELS: usize = 100;

/// Characters of input a message quotes at most (see [`shown`]).
pub const MAX_QUOTED: usize = 200;

/// `text` as a message quotes it: whole up to [`MAX_QUOTED`] characters, else cut there and
/// ended with `…`, so that a 26 MB element name or value is not copied into every message that
/// names it. The one place messages shorten quoted input.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_QUOTED) {
        None => std::borrow::Cow::Borrowed(text),
        Some((cut, _)) => std::borrow::Cow::Owned(format!("{}…", &text[..cut])),
    }
}

/// A label in another file than the finding's (see [`Diagnostic::elsewhere`]): that file's text
/// is not at hand when the finding is rendered, so the place is kept as a position.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Elsewhere {
    /// The file as the run names it.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    pub message: String,
}

/// One finding. Rules build it with [`Diagnostic::new`]; the engine sets `severity`.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub rule: &'static RuleMeta,
    pub severity: Severity,
    pub message: String,
    /// The offending text. Its message is shown under the underline.
    pub primary: Label,
    /// Related places ("first defined here").
    pub secondary: Vec<Label>,
    /// Related places in other files of the set (a cross-file finding, see
    /// [`crate::site_set`]): shown with that file's name and position.
    pub elsewhere: Vec<Elsewhere>,
    pub notes: Vec<String>,
    /// How to fix it.
    pub help: Option<String>,
    /// The edits that fix it, when the repair is certain enough to offer (see [`Fix`]).
    pub fix: Option<Fix>,
    /// The most this finding is reported at, whatever its rule's severity (a redirect answered
    /// to `--check-urls` is a warning of `url-status`, whose errors are 4xx and 5xx).
    pub at_most: Option<Severity>,
    /// Secondary labels dropped beyond [`MAX_LABELS`], and the note that counts them.
    unlabelled: Option<(usize, usize)>,
    /// Kept beyond the per-rule report cap only for its fix (see [`Diagnostic::is_beyond_cap`]).
    beyond_cap: bool,
}

impl Diagnostic {
    pub fn new(rule: &'static RuleMeta, span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity: rule.default_severity,
            message: message.into(),
            primary: Label {
                span,
                message: String::new(),
            },
            secondary: Vec::new(),
            elsewhere: Vec::new(),
            notes: Vec::new(),
            help: None,
            fix: None,
            at_most: None,
            unlabelled: None,
            beyond_cap: false,
        }
    }

    /// Whether the diagnostic lies beyond the per-rule report cap
    /// ([`crate::rule::MAX_REPORTS_PER_RULE`]) and was kept only for its fix, because the settings
    /// ask for fixes ([`crate::Settings::fixing`]): counted in the note on the last reported one,
    /// never shown itself.
    pub fn is_beyond_cap(&self) -> bool {
        self.beyond_cap
    }

    /// Marks the diagnostic as kept beyond the cap, for its fix only.
    pub(crate) fn keep_beyond_cap(mut self) -> Self {
        self.beyond_cap = true;
        self
    }

    /// The diagnostic of `rule` for a check's [`Finding`].
    pub fn from_finding(rule: &'static RuleMeta, finding: Finding) -> Self {
        let mut d = Diagnostic::new(rule, finding.range, finding.message).with_label(finding.label);
        for label in finding.labels {
            d = d.with_secondary(label.span, label.message);
        }
        d.help = finding.help;
        d.fix = finding.fix;
        d
    }

    /// Reports this finding at `severity` at most (see [`Diagnostic::at_most`]).
    pub fn at_most(mut self, severity: Severity) -> Self {
        self.at_most = Some(severity);
        self
    }

    /// Offers `fix` (see [`Fix`]).
    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    /// Offers `fix`, if there is one.
    pub fn with_fix_opt(mut self, fix: Option<Fix>) -> Self {
        if fix.is_some() {
            self.fix = fix;
        }
        self
    }

    /// Text shown under the primary underline.
    pub fn with_label(mut self, message: impl Into<String>) -> Self {
        self.primary.message = message.into();
        self
    }

    /// A related place, labelled; beyond [`MAX_LABELS`] labels it is only counted in a note.
    pub fn with_secondary(mut self, span: Range<usize>, message: impl Into<String>) -> Self {
        if self.secondary.len() + 1 < MAX_LABELS {
            self.secondary.push(Label {
                span,
                message: message.into(),
            });
            return self;
        }
        self.with_unlabelled(1)
    }

    /// A related place in another file of the set, labelled: `file` as the run names it, at a
    /// 1-based line and character column.
    pub fn with_elsewhere(
        mut self,
        file: impl Into<String>,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Self {
        if self.secondary.len() + self.elsewhere.len() + 1 < MAX_LABELS {
            self.elsewhere.push(Elsewhere {
                file: file.into(),
                line,
                column,
                message: message.into(),
            });
            return self;
        }
        self.with_unlabelled(1)
    }

    /// Counts `more` places in the note of places not labelled, as [`Diagnostic::with_secondary`]
    /// does past [`MAX_LABELS`]: for a finder that stops building labels at the cap.
    pub fn with_unlabelled(mut self, more: usize) -> Self {
        if more == 0 {
            return self;
        }
        let (count, note) = match self.unlabelled {
            Some((count, note)) => (count + more, note),
            None => {
                self.notes.push(String::new());
                (more, self.notes.len() - 1)
            }
        };
        self.unlabelled = Some((count, note));
        if let Some(text) = self.notes.get_mut(note) {
            use std::fmt::Write;
            text.clear();
            let _ = write!(
                text,
                "{count} more {} not labelled (at most {MAX_LABELS} labels per finding)",
                if count == 1 { "place" } else { "places" }
            );
        }
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_help_opt(mut self, help: Option<String>) -> Self {
        if help.is_some() {
            self.help = help;
        }
        self
    }

    pub fn code(&self) -> &'static str {
        self.rule.name
    }
}

#[cfg(test)]
mod limit_tests {
    use super::*;

    #[test]
    fn labels_are_capped_and_counted() {
        let mut d = Diagnostic::new(&crate::rules::input::xml_syntax::META, 0..1, "m");
        for i in 0..1_000 {
            d = d.with_secondary(i..i + 1, "and this");
        }
        assert_eq!(d.secondary.len() + 1, MAX_LABELS);
        assert_eq!(
            d.notes,
            ["901 more places not labelled (at most 100 labels per finding)"]
        );
    }

    #[test]
    fn quoted_text_is_cut_at_200_characters() {
        assert_eq!(shown("short"), "short");
        let exact = "é".repeat(MAX_QUOTED);
        assert_eq!(shown(&exact), exact);
        let long = "é".repeat(MAX_QUOTED + 1);
        assert_eq!(shown(&long), format!("{}…", "é".repeat(MAX_QUOTED)));
    }
}
