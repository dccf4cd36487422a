//! Fuzzes the entry point the property tests use (`tests/properties.rs`): `check_reader` on any
//! bytes, plain or gzip, then every renderer. A panic anywhere, an `internal-error` (a panic the
//! engine caught), a span outside the decoded text or off a character boundary, or JSON output
//! that does not parse is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sitemap_lint::render::{self, Format, RenderOptions};
use sitemap_lint::{check_reader, Settings};

const FORMATS: [Format; 8] = [
    Format::Human,
    Format::Json,
    Format::Concise,
    Format::Sarif,
    Format::Github,
    Format::Gitlab,
    Format::Junit,
    Format::Checkstyle,
];

fuzz_target!(|data: &[u8]| {
    // The first byte picks the file name (the `.gz` name check) and the output format.
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let name = if selector & 1 == 0 {
        "sitemap.xml"
    } else {
        "sitemap.xml.gz"
    };
    let format = FORMATS[usize::from(selector >> 1) % FORMATS.len()];
    let report = check_reader(name, bytes, &Settings::default()).expect("a slice reads");
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
    let mut out = Vec::new();
    render::render(
        format,
        std::slice::from_ref(&report),
        &mut out,
        RenderOptions {
            color: true,
            ..RenderOptions::default()
        },
    )
    .expect("rendering to a Vec cannot fail");
    if matches!(format, Format::Json | Format::Sarif | Format::Gitlab) {
        serde_json::from_slice::<serde_json::Value>(&out).expect("JSON output parses");
    }
});
