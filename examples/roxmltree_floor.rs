//! The floor for a DOM design: read each file, gunzip it when it starts with the gzip magic bytes,
//! check UTF-8 and parse it with `roxmltree` using the options of `src/xml.rs`, and nothing else.
//!
//! Used by `bench/run.py` as the reference every `sitemap-lint check` time is compared with:
//! `cargo run --release --example roxmltree_floor -- FILE...` (exit 1 if a file does not parse).

use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut nodes = 0usize;
    let mut failed = false;
    for path in std::env::args_os().skip(1) {
        let raw = match std::fs::read(&path) {
            Ok(raw) => raw,
            Err(e) => {
                eprintln!("{}: {e}", path.to_string_lossy());
                return ExitCode::from(2);
            }
        };
        let data = if raw.starts_with(&[0x1f, 0x8b]) {
            let mut out = Vec::new();
            if let Err(e) = flate2::read::MultiGzDecoder::new(&raw[..]).read_to_end(&mut out) {
                eprintln!("{}: {e}", path.to_string_lossy());
                return ExitCode::from(2);
            }
            out
        } else {
            raw
        };
        let text = match String::from_utf8(data) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{}: {e}", path.to_string_lossy());
                failed = true;
                continue;
            }
        };
        // The same options as `sitemap_lint::pipeline::xml::options()`: DTDs off, defaults otherwise.
        let options = roxmltree::ParsingOptions {
            allow_dtd: false,
            ..roxmltree::ParsingOptions::default()
        };
        match roxmltree::Document::parse_with_options(&text, options) {
            // Touch the tree so the parse cannot be optimised away.
            Ok(doc) => nodes += doc.descendants().len(),
            Err(e) => {
                eprintln!("{}: {e}", path.to_string_lossy());
                failed = true;
            }
        }
    }
    println!("{nodes} nodes");
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
