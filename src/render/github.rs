//! The `--format github` renderer: GitHub Actions workflow commands (`::error file=…::message`), then the concise report.
//!
//! GitHub turns each command into an annotation on the file, but shows at most 10 error and 10
//! warning annotations per step (50 per job), so the plain concise report follows, with a
//! summary line. Text from the input first goes through [`visible`] (no control, line break or
//! bidi character stays), then the escaping of `@actions/core`: `%`, CR and LF in messages; also
//! `:` and `,` in property values. The concise lines never start with `::` (see
//! [`crate::render::line_start_name`]), so no input text can open a workflow command. Paths are repository-relative. Findings in gzip-compressed files point at
//! line 1 and name the decompressed line and column in the message.

use std::io::{self, Write};

use crate::render::{concise, visible, Checked, Renderer, Summary};
use crate::Severity;

/// The per-step annotation limit for each of errors and warnings.
pub const ANNOTATION_LIMIT: usize = 10;

/// Annotations as files come, the concise lines at the end.
#[derive(Default)]
pub struct Github {
    /// The concise report, one line per finding (small: no source text).
    plain: Vec<String>,
}

impl Renderer for Github {
    fn file(&mut self, file: &Checked<'_>, out: &mut dyn Write) -> io::Result<()> {
        for d in file.diagnostics() {
            let command = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let r = file.host_region(&d.primary.span);
            let mut props = format!("file={}", escape_property(&visible(file.repo_path)));
            if file.compressed {
                props.push_str(&format!(",line={}", r.start.line));
            } else {
                props.push_str(&format!(
                    ",line={},col={},endLine={},endColumn={}",
                    r.start.line, r.start.column, r.end.line, r.end.column
                ));
            }
            props.push_str(&format!(
                ",title={}",
                escape_property(&format!("sitemap-lint ({})", d.rule.name))
            ));
            let mut message = format!(
                "{}{}",
                visible(&d.message),
                file.decompressed_note(&d.primary.span)
            );
            if let Some(help) = &d.help {
                message.push_str("\nhelp: ");
                message.push_str(&visible(help));
            }
            writeln!(out, "::{command} {props}::{}", escape_data(&message))?;
            self.plain.push(concise::line(file.source(), d));
        }
        Ok(())
    }

    fn finish(&mut self, summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        for line in &self.plain {
            writeln!(out, "{line}")?;
        }
        let mut line = format!("sitemap-lint: {}", summary.line());
        if summary.errors > ANNOTATION_LIMIT || summary.warnings > ANNOTATION_LIMIT {
            line.push_str(&format!(
                " (GitHub shows at most {ANNOTATION_LIMIT} error and {ANNOTATION_LIMIT} warning annotations per step; all findings are listed above)"
            ));
        }
        writeln!(out, "{line}")
    }
}

/// Escapes a command's message: `%`, CR and LF.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value: as [`escape_data`], plus `:` and `,`.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_actions_core() {
        assert_eq!(escape_data("100% a\r\nb:c,d"), "100%25 a%0D%0Ab:c,d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
