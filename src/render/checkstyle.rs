//! The `--format checkstyle` renderer: Checkstyle 4.3 XML, as Jenkins (Warnings NG), reviewdog and Sonar read it.
//!
//! `<checkstyle version="4.3">` with one `<file name=…>` per checked file (files without
//! findings included, as Checkstyle does) and one `<error line column severity message source>`
//! per finding; `source` is `sitemap-lint.<rule>`. Streams file by file.

use std::io::{self, Write};

use crate::render::{xml_escape, Checked, Renderer, Summary};

/// Writes the header before the first file.
#[derive(Default)]
pub struct Checkstyle {
    started: bool,
}

impl Checkstyle {
    fn start(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if !self.started {
            self.started = true;
            writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
            writeln!(out, "<checkstyle version=\"4.3\">")?;
        }
        Ok(())
    }
}

impl Renderer for Checkstyle {
    fn file(&mut self, file: &Checked<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.start(out)?;
        let name = xml_escape(file.source().name());
        if file.diagnostics().is_empty() {
            return writeln!(out, "  <file name=\"{name}\"/>");
        }
        writeln!(out, "  <file name=\"{name}\">")?;
        for d in file.diagnostics() {
            let p = file.source().position(d.primary.span.start);
            writeln!(
                out,
                "    <error line=\"{}\" column=\"{}\" severity=\"{}\" message=\"{}\" source=\"sitemap-lint.{}\"/>",
                p.line,
                p.column,
                d.severity,
                xml_escape(&d.message),
                d.rule.name
            )?;
        }
        writeln!(out, "  </file>")
    }

    fn finish(&mut self, _summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        self.start(out)?;
        writeln!(out, "</checkstyle>")
    }
}
