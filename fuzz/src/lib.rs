//! What every fuzz target checks once it has a report: the invariants of `check_reader` and of
//! the renderers. A panic anywhere, an `internal-error` (a panic the engine caught), a span
//! outside the decoded text or off a character boundary, JSON or XML output that does not parse,
//! a raw control or bidi character in a text format, or a line that opens a GitHub workflow
//! command from input text is a crash.

use sitemap_lint::render::{
    self, stand_in, statistics::Statistics, Checked, Format, RenderOptions,
};
use sitemap_lint::{check_reader, FileReport, Settings};

pub const FORMATS: [Format; 8] = [
    Format::Human,
    Format::Json,
    Format::Concise,
    Format::Sarif,
    Format::Github,
    Format::Gitlab,
    Format::Junit,
    Format::Checkstyle,
];

/// The file name for selector bit 0: `.xml` or `.xml.gz`.
pub fn name_for(selector: u8) -> &'static str {
    if selector & 1 == 0 {
        "sitemap.xml"
    } else {
        "sitemap.xml.gz"
    }
}

/// Checks `bytes` as `name` with `settings`, asserts the report's invariants, and renders it in
/// the format `selector` picks (bits 1–3), plus `--statistics`.
pub fn check_and_render(name: &str, bytes: &[u8], settings: &Settings, selector: u8) -> FileReport {
    let report = check_reader(name, bytes, settings).expect("a slice reads");
    assert!(
        !report.internal_error(),
        "internal error: {:?}",
        report.diagnostics
    );
    let text = report.source.text();
    for d in &report.diagnostics {
        for span in std::iter::once(&d.primary.span).chain(d.secondary.iter().map(|l| &l.span)) {
            assert!(
                span.start <= span.end && span.end <= text.len(),
                "{span:?} outside the text"
            );
            assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
        }
    }
    let format = FORMATS[usize::from(selector >> 1) % FORMATS.len()];
    let mut out = Vec::new();
    render::render(
        format,
        std::slice::from_ref(&report),
        &mut out,
        RenderOptions { color: false },
    )
    .expect("rendering to a Vec cannot fail");
    let out = String::from_utf8(out).expect("output is UTF-8");
    match format {
        Format::Json | Format::Sarif | Format::Gitlab => {
            serde_json::from_str::<serde_json::Value>(&out).expect("JSON output parses");
        }
        Format::Junit | Format::Checkstyle => {
            roxmltree::Document::parse(&out).expect("XML output parses");
        }
        Format::Human | Format::Concise | Format::Github => assert_plain_text(&out),
    }
    let mut stats = Statistics::new(false);
    let mut out = Vec::new();
    let checked = Checked::new(&report);
    render::Renderer::file(&mut stats, &checked, &mut out).expect("to a Vec");
    render::Renderer::finish(
        &mut stats,
        &render::Summary::of(std::slice::from_ref(&report)),
        &mut out,
    )
    .expect("to a Vec");
    assert_plain_text(&String::from_utf8(out).expect("UTF-8"));
    report
}

/// Text output: no character a terminal or CI log would act on except the line feeds between
/// lines, and no line that the GitHub runner would read as a workflow command unless it is one of
/// the github renderer's own annotations.
pub fn assert_plain_text(out: &str) {
    for line in out.split('\n') {
        if let Some(c) = line.chars().find(|&c| stand_in(c).is_some()) {
            panic!("raw U+{:04X} in text output: {line:?}", c as u32);
        }
        let t = line.trim_start();
        if t.starts_with("::") {
            assert!(
                ["::error file=", "::warning file=", "::notice file="]
                    .iter()
                    .any(|own| line.starts_with(own)),
                "a line opens a workflow command: {line:?}"
            );
        }
    }
}
