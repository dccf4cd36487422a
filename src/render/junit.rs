//! The `--format junit` renderer: JUnit XML as CI servers read it (GitLab `artifacts: reports: junit:`, Jenkins).
//!
//! `<testsuites>` holds one `<testsuite>` per checked file; every finding is a `<testcase>`: an
//! error or a warning with a `<failure>` (as ESLint's and ruff's JUnit output do; `type` tells the
//! severity), an info a passing one with the finding in `<system-out>` (an info is not a failure:
//! it must not turn a CI test report red), and a file without findings is one passing `<testcase>`. The totals go into the
//! opening tag, so the (small) per-file output is kept until the end; source text is not.

use std::io::{self, Write};

use crate::render::{concise, visible, xml_escape, xml_text, Checked, Renderer, Summary};
use crate::Severity;

/// Test suites collected as text, written at the end.
#[derive(Default)]
pub struct Junit {
    suites: String,
    tests: usize,
    failures: usize,
}

impl Renderer for Junit {
    fn file(&mut self, file: &Checked<'_>, _out: &mut dyn Write) -> io::Result<()> {
        let name = xml_escape(file.source().name());
        let n = file.diagnostics().len();
        let tests = n.max(1);
        let failures = file
            .diagnostics()
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .count();
        self.tests += tests;
        self.failures += failures;
        self.suites.push_str(&format!(
            "  <testsuite name=\"{name}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">\n"
        ));
        if n == 0 {
            self.suites.push_str(&format!(
                "    <testcase name=\"sitemap-lint\" classname=\"{name}\" file=\"{name}\"/>\n"
            ));
        }
        for d in file.diagnostics() {
            let p = file.source().position(d.primary.span.start);
            // The body is the text report (concise line and help, through `visible`): its line
            // breaks are the renderer's own, so no line of it starts with input text.
            let mut body = concise::line(file.source(), d);
            if let Some(help) = &d.help {
                body.push_str("\nhelp: ");
                body.push_str(&visible(help));
            }
            let outcome = if d.severity == Severity::Info {
                format!("<system-out>{}</system-out>", xml_text(&body))
            } else {
                format!(
                    "<failure message=\"{}\" type=\"{}\">{}</failure>",
                    xml_escape(&d.message),
                    d.severity,
                    xml_text(&body),
                )
            };
            self.suites.push_str(&format!(
                "    <testcase name=\"{} at {}:{}\" classname=\"{name}\" file=\"{name}\" line=\"{}\">\n      {outcome}\n    </testcase>\n",
                d.rule.name, p.line, p.column, p.line,
            ));
        }
        self.suites.push_str("  </testsuite>\n");
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
        writeln!(
            out,
            "<testsuites name=\"sitemap-lint\" tests=\"{}\" failures=\"{}\" errors=\"0\">",
            self.tests, self.failures
        )?;
        out.write_all(self.suites.as_bytes())?;
        writeln!(out, "</testsuites>")
    }
}
