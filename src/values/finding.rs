//! What every check reports before a rule and a severity are attached: a [`Finding`] (a message on
//! a span, labels, help) and, where the repair is certain enough, a [`Fix`] made of [`Edit`]s.
//!
//! Fixes follow ruff's model: a [`Fix`] is [`Applicability::Safe`] when the meaning the writer
//! intended is certain (a raw `&` escaped, a timezone offset's missing colon), and
//! [`Applicability::Unsafe`] when it changes what the document says (a priority clamped, a
//! duplicate removed): only safe fixes are applied unless the user asks for more.

use std::ops::Range;

/// A byte range in the decoded text with an optional message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Range<usize>,
    pub message: String,
}

/// Whether a fix may be applied without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Applicability {
    /// Changes what the document says: applied only with `--unsafe-fixes`.
    Unsafe,
    /// Keeps the meaning the writer intended: applied by `--fix`.
    Safe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// One replacement: the bytes of `range` in the decoded text become `replacement` (an empty
/// range inserts, an empty replacement deletes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub replacement: String,
}

impl Edit {
    pub fn replace(range: Range<usize>, replacement: impl Into<String>) -> Edit {
        Edit {
            range,
            replacement: replacement.into(),
        }
    }

    pub fn insert(at: usize, text: impl Into<String>) -> Edit {
        Edit::replace(at..at, text)
    }

    pub fn delete(range: Range<usize>) -> Edit {
        Edit::replace(range, "")
    }
}

/// A repair: edits that never overlap, applied together or not at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    /// What the fix does, in the imperative: "escape `&` as `&amp;`".
    pub message: String,
    /// Sorted by position, not overlapping.
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn safe(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix::new(Applicability::Safe, message, edits)
    }

    pub fn unsafe_(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix::new(Applicability::Unsafe, message, edits)
    }

    /// A safe fix when `certain`, else an unsafe one.
    pub fn safe_if(certain: bool, message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        let applicability = if certain {
            Applicability::Safe
        } else {
            Applicability::Unsafe
        };
        Fix::new(applicability, message, edits)
    }

    /// A fix of `edits`, sorted by position. Overlapping edits are a bug of the caller: such a
    /// fix keeps only the edits that do not overlap an earlier one.
    pub fn new(
        applicability: Applicability,
        message: impl Into<String>,
        mut edits: Vec<Edit>,
    ) -> Fix {
        edits.sort_by_key(|e| (e.range.start, e.range.end));
        let mut end = 0;
        edits.retain(|e| {
            let keep = e.range.start >= end || (e.range.is_empty() && e.range.start == end);
            if keep {
                end = e.range.end.max(end);
            }
            keep
        });
        Fix {
            applicability,
            message: message.into(),
            edits,
        }
    }

    /// The bytes the fix touches, from its first edit's start to its last edit's end.
    pub fn range(&self) -> Option<Range<usize>> {
        Some(self.edits.first()?.range.start..self.edits.last()?.range.end)
    }
}

/// A check's report on one place in the text, before a rule and a severity are attached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The offending text; `label` is shown under its underline.
    pub range: Range<usize>,
    pub message: String,
    pub label: String,
    /// Related places ("first defined here").
    pub labels: Vec<Label>,
    /// How to fix it, in words.
    pub help: Option<String>,
    pub fix: Option<Fix>,
}

impl Finding {
    pub fn new(range: Range<usize>, message: impl Into<String>) -> Finding {
        Finding {
            range,
            message: message.into(),
            label: String::new(),
            labels: Vec::new(),
            help: None,
            fix: None,
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Finding {
        self.label = label.into();
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Finding {
        self.help = Some(help.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Finding {
        self.fix = Some(fix);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_are_sorted_and_never_overlap() {
        let fix = Fix::safe(
            "x",
            vec![
                Edit::replace(5..8, "b"),
                Edit::insert(0, "a"),
                Edit::replace(6..9, "overlaps"),
                Edit::insert(8, "c"),
            ],
        );
        let ranges: Vec<_> = fix.edits.iter().map(|e| e.range.clone()).collect();
        assert_eq!(ranges, vec![0..0, 5..8, 8..8]);
        assert_eq!(fix.range(), Some(0..8));
        assert_eq!(fix.applicability.as_str(), "safe");
    }
}
