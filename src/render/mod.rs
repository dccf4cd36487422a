//! Output formats: one renderer per file in this folder, chosen by [`Format`]; all write to a caller-supplied writer.

use std::io::{self, Write};

use crate::engine::FileReport;
use crate::Severity;

pub mod human;
pub mod json;

/// The output formats of `sitemap-lint check --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// rustc-style diagnostics with the offending text underlined (default).
    Human,
    /// The versioned JSON document described in README ("JSON output").
    Json,
}

/// Options that affect rendering.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderOptions {
    /// Emit ANSI colour codes (human format only).
    pub color: bool,
}

/// Totals over all files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

impl Summary {
    pub fn of(reports: &[FileReport]) -> Summary {
        let mut s = Summary {
            files: reports.len(),
            ..Summary::default()
        };
        for r in reports {
            s.errors += r.count(Severity::Error);
            s.warnings += r.count(Severity::Warning);
            s.infos += r.count(Severity::Info);
        }
        s
    }

    /// `2 errors, 1 warning in 3 files` (or `no problems in 3 files`).
    pub fn line(&self) -> String {
        fn plural(n: usize, word: &str) -> String {
            format!("{n} {word}{}", if n == 1 { "" } else { "s" })
        }
        let mut parts = Vec::new();
        if self.errors > 0 {
            parts.push(plural(self.errors, "error"));
        }
        if self.warnings > 0 {
            parts.push(plural(self.warnings, "warning"));
        }
        if self.infos > 0 {
            parts.push(plural(self.infos, "info"));
        }
        let what = if parts.is_empty() {
            "no problems".to_string()
        } else {
            parts.join(", ")
        };
        format!("{what} in {}", plural(self.files, "file"))
    }
}

impl Summary {
    /// Adds one file's counts.
    pub fn add(&mut self, report: &FileReport) {
        self.files += 1;
        self.errors += report.count(Severity::Error);
        self.warnings += report.count(Severity::Warning);
        self.infos += report.count(Severity::Info);
    }
}

/// Streams a report: files are written as they are checked, so only one file's text is held.
pub trait Renderer {
    /// Called once per file, in output order.
    fn file(&mut self, report: &FileReport, out: &mut dyn Write) -> io::Result<()>;
    /// Called once at the end with the totals.
    fn finish(&mut self, summary: &Summary, out: &mut dyn Write) -> io::Result<()>;
}

/// The renderer for `format`.
pub fn renderer(format: Format, options: RenderOptions) -> Box<dyn Renderer> {
    match format {
        Format::Human => Box::new(human::Human { options }),
        Format::Json => Box::new(json::Json::default()),
    }
}

/// Renders complete reports in one go (convenient for tests).
pub fn render(
    format: Format,
    reports: &[FileReport],
    out: &mut dyn Write,
    options: RenderOptions,
) -> io::Result<()> {
    let mut r = renderer(format, options);
    for report in reports {
        r.file(report, out)?;
    }
    r.finish(&Summary::of(reports), out)
}
