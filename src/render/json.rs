//! The `--format json` renderer: a versioned document whose fields may grow but never disappear.

use std::io::{self, Write};

use serde::Serialize;

use crate::diagnostic::Elsewhere;
use crate::pipeline::source::SourceFile;
use crate::render::{Checked, Renderer, Summary};

#[derive(Serialize)]
struct File<'a> {
    path: &'a str,
    diagnostics: Vec<Diag<'a>>,
}

#[derive(Serialize)]
struct Diag<'a> {
    code: &'a str,
    severity: &'a str,
    category: &'a str,
    message: &'a str,
    span: Span,
    /// Text under the primary underline ("" when none).
    label: &'a str,
    help: Option<&'a str>,
    notes: &'a [String],
    labels: Vec<SecondaryLabel<'a>>,
    /// Labels in other files of the set (a cross-file finding); left out when none.
    #[serde(skip_serializing_if = "<[Elsewhere]>::is_empty")]
    elsewhere: &'a [Elsewhere],
    /// The repair `--fix` applies (`null` when none), as ruff's JSON gives it.
    fix: Option<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    applicability: &'static str,
    message: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    start: Point,
    end: Point,
    content: &'a str,
}

#[derive(Serialize)]
struct SecondaryLabel<'a> {
    message: &'a str,
    span: Span,
}

#[derive(Serialize)]
struct Span {
    start: Point,
    end: Point,
}

#[derive(Serialize)]
struct Point {
    line: usize,
    column: usize,
    offset: usize,
}

#[derive(Serialize)]
struct JsonSummary {
    files: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
    urls: usize,
}

fn span(source: &SourceFile, range: &std::ops::Range<usize>) -> Span {
    let point = |offset: usize| {
        let p = source.position(offset);
        Point {
            line: p.line,
            column: p.column,
            offset,
        }
    };
    Span {
        start: point(range.start),
        end: point(range.end),
    }
}

/// Writes `{"version":1,"files":[` lazily, then one object per file, then the summary.
#[derive(Default)]
pub struct Json {
    started: bool,
}

impl Renderer for Json {
    fn file(&mut self, file: &Checked<'_>, out: &mut dyn Write) -> io::Result<()> {
        let r = file.report;
        out.write_all(if self.started {
            b","
        } else {
            b"{\"version\":1,\"files\":["
        })?;
        self.started = true;
        let file = File {
            path: r.source.name(),
            diagnostics: r
                .diagnostics
                .iter()
                .map(|d| Diag {
                    code: d.rule.name,
                    severity: d.severity.as_str(),
                    category: d.rule.category.as_str(),
                    message: &d.message,
                    span: span(&r.source, &d.primary.span),
                    label: &d.primary.message,
                    help: d.help.as_deref(),
                    notes: &d.notes,
                    labels: d
                        .secondary
                        .iter()
                        .map(|l| SecondaryLabel {
                            message: &l.message,
                            span: span(&r.source, &l.span),
                        })
                        .collect(),
                    elsewhere: &d.elsewhere,
                    fix: d.fix.as_ref().map(|f| JsonFix {
                        applicability: f.applicability.as_str(),
                        message: &f.message,
                        edits: f
                            .edits
                            .iter()
                            .map(|e| {
                                let Span { start, end } = span(&r.source, &e.range);
                                JsonEdit {
                                    start,
                                    end,
                                    content: &e.replacement,
                                }
                            })
                            .collect(),
                    }),
                })
                .collect(),
        };
        serde_json::to_writer(&mut *out, &file).map_err(io::Error::other)
    }

    fn finish(&mut self, summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        if !self.started {
            out.write_all(b"{\"version\":1,\"files\":[")?;
        }
        out.write_all(b"],\"summary\":")?;
        let s = JsonSummary {
            files: summary.files,
            errors: summary.errors,
            warnings: summary.warnings,
            infos: summary.infos,
            urls: summary.urls,
        };
        serde_json::to_writer(&mut *out, &s).map_err(io::Error::other)?;
        writeln!(out, "}}")
    }
}
