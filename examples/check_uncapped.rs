//! `sitemap-lint check` through the library with the 52,428,800-byte cap raised to the file's size,
//! for measuring how time and memory scale on inputs beyond the protocol's limit (the CLI keeps the
//! cap: such a file is reported as `input-too-large` and not read further).
//!
//! `cargo run --release --example check_uncapped -- FILE...` prints one line per file with the
//! number of findings per severity, and exits 1 if any file has a finding other than
//! `too-many-entries` (which every file beyond the protocol's limits is expected to have).

use std::process::ExitCode;

use sitemap_lint::{Settings, Severity};

/// The allocator of the `sitemap-lint` binary (see `src/main.rs`), so that the scaling measured
/// here is the binary's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut findings = false;
    for path in std::env::args_os().skip(1) {
        let path = std::path::PathBuf::from(path);
        let name = path.to_string_lossy().into_owned();
        let settings = Settings {
            max_size: std::fs::metadata(&path).map_or(u64::MAX, |m| m.len().max(1) * 64),
            ..Settings::default()
        };
        match sitemap_lint::check_path(&path, &name, &settings) {
            Ok(report) => {
                let (e, w) = (
                    report.count(Severity::Error),
                    report.count(Severity::Warning),
                );
                println!(
                    "{name}: {e} errors, {w} warnings, {} findings",
                    report.diagnostics.len()
                );
                for d in report.diagnostics.iter().take(5) {
                    eprintln!("  {}: {}", d.rule.name, d.message);
                }
                findings |= report
                    .diagnostics
                    .iter()
                    .any(|d| d.rule.name != "too-many-entries");
            }
            Err(e) => {
                eprintln!("{name}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if findings {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
