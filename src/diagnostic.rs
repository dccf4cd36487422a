//! The diagnostic type every stage and rule produces: a message on a primary span, labels, notes and help.

use std::fmt;
use std::ops::Range;

use crate::rule::RuleMeta;

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

/// A byte range in the decoded text with an optional message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Range<usize>,
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
    pub notes: Vec<String>,
    /// How to fix it.
    pub help: Option<String>,
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
            notes: Vec::new(),
            help: None,
        }
    }

    /// Text shown under the primary underline.
    pub fn with_label(mut self, message: impl Into<String>) -> Self {
        self.primary.message = message.into();
        self
    }

    /// A related place, labelled.
    pub fn with_secondary(mut self, span: Range<usize>, message: impl Into<String>) -> Self {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
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
