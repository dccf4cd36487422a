//! sitemap-lint for the web page (web/): one entry point that checks the bytes of one input on
//! the calling thread and returns the `--format json` document, so that the page shows the same
//! rules and messages as `sitemap-lint check --format json`.

#![forbid(unsafe_code)]

use sitemap_lint::fix::{fix_bytes, FixOptions};
use sitemap_lint::pipeline::input;
use sitemap_lint::render::{self, Checked as RenderChecked, Format, RenderOptions, Summary};
use sitemap_lint::{check_bytes, Settings};
use wasm_bindgen::prelude::*;

/// The result of [`check`]: the JSON report and the text its spans point into.
#[wasm_bindgen]
pub struct Checked {
    json: String,
    text: String,
}

#[wasm_bindgen]
impl Checked {
    /// The report, byte for byte what `sitemap-lint check --format json NAME` prints.
    pub fn json(&self) -> String {
        self.json.clone()
    }

    /// The decoded text of the input (decompressed when it was gzip): the report's byte offsets
    /// are offsets into its UTF-8 encoding.
    pub fn text(&self) -> String {
        self.text.clone()
    }
}

/// Checks `bytes` (raw: gzip is recognised by its magic bytes and decompressed by the library's
/// own stage) named `name` (the name decides, as for a file, what the library checks it as), with
/// "now" at `now_ms` milliseconds since the Unix epoch (the browser's clock).
#[wasm_bindgen]
pub fn check(name: &str, bytes: Vec<u8>, now_ms: f64) -> Checked {
    let settings = Settings {
        now: (now_ms / 1000.0).floor() as i64,
        threads: 1,
        ..Settings::default()
    };
    check_with(name, bytes, &settings)
}

/// [`check`] with the settings given (tests fix the time).
pub fn check_with(name: &str, bytes: Vec<u8>, settings: &Settings) -> Checked {
    let bytes = input::decode(bytes, settings.max_size);
    let report = check_bytes(name, bytes, settings);
    let mut out = Vec::new();
    let mut renderer = render::renderer(Format::Json, RenderOptions::default());
    // Writing into a Vec cannot fail.
    let _ = renderer.file(&RenderChecked::new(&report), &mut out);
    let _ = renderer.finish(&Summary::of(std::slice::from_ref(&report)), &mut out);
    let json = String::from_utf8(out).unwrap_or_default();
    let (_, text) = report.source.into_parts();
    Checked { json, text }
}

/// The rules document; a rule's section is at `#` followed by the rule's name.
#[wasm_bindgen]
pub fn rules_doc_url() -> String {
    sitemap_lint::docs::RULES_DOC_URL.to_string()
}

/// The result of [`fix`]: the document with the safe fixes applied, and how many there were.
#[wasm_bindgen]
pub struct FixedDocument {
    text: String,
    applied: usize,
    unfixable: String,
}

#[wasm_bindgen]
impl FixedDocument {
    /// The fixed document (decompressed, as UTF-8 text); the input's text when nothing applied.
    pub fn text(&self) -> String {
        self.text.clone()
    }

    /// The fixes applied, over every pass.
    pub fn applied(&self) -> usize {
        self.applied
    }

    /// Why the input cannot be fixed (empty when it can), as `check --fix` says it.
    pub fn unfixable(&self) -> String {
        self.unfixable.clone()
    }
}

/// Applies the safe fixes to `bytes` as `sitemap-lint check --fix` does (the same passes and
/// limits), with "now" at `now_ms`: what the page's "Apply safe fixes" button shows.
#[wasm_bindgen]
pub fn fix(name: &str, bytes: Vec<u8>, now_ms: f64) -> FixedDocument {
    let settings = Settings {
        now: (now_ms / 1000.0).floor() as i64,
        threads: 1,
        ..Settings::default()
    };
    let decoded = input::decode(bytes, settings.max_size);
    let fixed = fix_bytes(
        name,
        decoded,
        &settings,
        FixOptions {
            unsafe_fixes: false,
        },
    );
    let applied = fixed.applied();
    let unfixable = fixed.unfixable.clone().unwrap_or_default();
    let text = match fixed.content {
        Some(content) => String::from_utf8_lossy(&content).into_owned(),
        None => fixed.report.source.into_parts().1,
    };
    FixedDocument {
        text,
        applied,
        unfixable,
    }
}
