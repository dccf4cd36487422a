//! `--statistics`: instead of the findings, how many there are per rule (most frequent first), as a text table or JSON.
//!
//! The table shows only rule names, severities and the rules' own summaries, never text from the
//! input; anything from the input it ever shows must go through [`crate::render::visible`].

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use crate::render::{Checked, Renderer, Summary};
use crate::rule::RuleMeta;
use crate::Severity;

/// Counts per (rule, severity); written at the end.
pub struct Statistics {
    json: bool,
    counts: BTreeMap<(&'static str, Severity), (usize, &'static RuleMeta)>,
}

#[derive(Serialize)]
struct Row<'a> {
    code: &'a str,
    severity: &'a str,
    count: usize,
    summary: &'a str,
}

impl Statistics {
    /// A text table (`json == false`) or a JSON array of `{code, severity, count, summary}`.
    pub fn new(json: bool) -> Statistics {
        Statistics {
            json,
            counts: BTreeMap::new(),
        }
    }

    /// Rows sorted by count (descending), then rule name and severity.
    fn rows(&self) -> Vec<(usize, Severity, &'static RuleMeta)> {
        let mut rows: Vec<_> = self
            .counts
            .iter()
            .map(|(&(_, sev), &(n, meta))| (n, sev, meta))
            .collect();
        rows.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then(a.2.name.cmp(b.2.name))
                .then(b.1.cmp(&a.1))
        });
        rows
    }
}

impl Renderer for Statistics {
    fn file(&mut self, file: &Checked<'_>, _out: &mut dyn Write) -> io::Result<()> {
        for d in file.diagnostics() {
            self.counts
                .entry((d.rule.name, d.severity))
                .or_insert((0, d.rule))
                .0 += 1;
        }
        // What a cap left out counts too, as in the summary.
        for o in &file.report.omitted {
            self.counts
                .entry((o.rule.name, o.severity))
                .or_insert((0, o.rule))
                .0 += o.count;
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        let rows = self.rows();
        if self.json {
            let rows: Vec<Row<'_>> = rows
                .iter()
                .map(|(n, sev, meta)| Row {
                    code: meta.name,
                    severity: sev.as_str(),
                    count: *n,
                    summary: meta.summary,
                })
                .collect();
            serde_json::to_writer(&mut *out, &rows).map_err(io::Error::other)?;
            return writeln!(out);
        }
        let count_width = rows
            .iter()
            .map(|r| r.0.to_string().len())
            .max()
            .unwrap_or(1);
        let name_width = rows.iter().map(|r| r.2.name.len()).max().unwrap_or(0);
        for (n, sev, meta) in rows {
            writeln!(
                out,
                "{n:>count_width$}  {:<7}  {:<name_width$}  {}",
                sev.as_str(),
                meta.name,
                meta.summary
            )?;
        }
        Ok(())
    }
}
