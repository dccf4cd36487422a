//! The `--format gitlab` renderer: GitLab Code Quality JSON (a subset of the Code Climate spec), for `artifacts: reports: codequality:`.
//!
//! One object per finding: `description` (the rule name first, since GitLab does not show
//! `check_name`), `check_name`, `fingerprint` (unique, stable across runs: see
//! [`Fingerprints`]), `severity` (`major` for errors, `minor` for warnings, `info`) and
//! `location.path` (repository-relative) with `location.lines.begin`. Findings in
//! gzip-compressed files point at line 1 and name the decompressed position in the description.

use std::io::{self, Write};

use serde::Serialize;

use crate::render::{Checked, Fingerprints, Renderer, Summary};
use crate::Severity;

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'a str,
    fingerprint: String,
    severity: &'static str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
}

/// Streams a JSON array, one finding per line.
#[derive(Default)]
pub struct Gitlab {
    started: bool,
}

/// The Code Quality severity of a finding.
pub fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

impl Renderer for Gitlab {
    fn file(&mut self, file: &Checked<'_>, out: &mut dyn Write) -> io::Result<()> {
        let mut prints = Fingerprints::default();
        for d in file.diagnostics() {
            let issue = Issue {
                description: format!(
                    "{}: {}{}",
                    d.rule.name,
                    d.message,
                    file.decompressed_note(&d.primary.span)
                ),
                check_name: d.rule.name,
                fingerprint: prints.next(file.repo_path, file.source(), d),
                severity: severity(d.severity),
                location: Location {
                    path: file.repo_path,
                    lines: Lines {
                        begin: file.host_region(&d.primary.span).start.line,
                    },
                },
            };
            out.write_all(if self.started { b",\n" } else { b"[\n" })?;
            self.started = true;
            serde_json::to_writer(&mut *out, &issue).map_err(io::Error::other)?;
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        if self.started {
            out.write_all(b"\n]\n")
        } else {
            out.write_all(b"[]\n")
        }
    }
}
