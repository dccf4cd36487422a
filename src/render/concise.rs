//! The `--format concise` renderer: one GNU-style line per finding, `path:line:col: severity: message [rule]`.
//!
//! Vim's and Emacs's default error formats and the common `$gcc` problem-matcher regex
//! (`^(.*):(\d+):(\d+):\s+(?:fatal\s+)?(warning|error):\s+(.*)$`) read it. Never coloured.
//! Positions are exact, also for `.gz` input (where they refer to the decompressed text, as in
//! editors that open gzip files transparently).

use std::io::{self, Write};

use crate::diagnostic::Diagnostic;
use crate::pipeline::source::SourceFile;
use crate::render::{line_start_name, visible, Checked, Renderer, Summary};

/// One line per finding.
pub struct Concise;

impl Renderer for Concise {
    fn file(&mut self, file: &Checked<'_>, out: &mut dyn Write) -> io::Result<()> {
        for d in file.diagnostics() {
            writeln!(out, "{}", line(file.source(), d))?;
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

/// `path:line:col: severity: message [rule]`, without a line break; the name and the message go
/// through [`visible`] (the name through [`line_start_name`]: the line never starts with `::`).
pub fn line(source: &SourceFile, d: &Diagnostic) -> String {
    let p = source.position(d.primary.span.start);
    format!(
        "{}:{}:{}: {}: {} [{}]",
        line_start_name(source.name()),
        p.line,
        p.column,
        d.severity,
        visible(&d.message),
        d.rule.name
    )
}
