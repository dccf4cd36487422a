//! `check --fix`, `--unsafe-fixes` and `--diff`: what the flags allow, and fixing one input
//! (the passes themselves are the library's, [`sitemap_lint::fix`]).
//!
//! - A file is rewritten in place, atomically ([`AtomicFile`]: a temporary file beside it, then a
//!   rename; its permissions kept; a symlink written through), gzip-compressed again when it was.
//!   A file that cannot be fixed (not UTF-8, damaged gzip, over the size cap) is left untouched.
//! - stdin (`check --fix -`) gets the whole document back on stdout, fixed or not, with the
//!   report on stderr: paste a broken sitemap, get a fixed one back.
//! - Only the inputs of the run are written: files named on the command line or found by the
//!   walk. A sitemap an index names is never written unless it is one of them.
//! - `--diff` writes nothing: it prints what `--fix` would change as a unified diff.

use std::io::{self, Write};
use std::path::Path;

use sitemap_lint::fix::{fix_bytes, unified_diff, FixOptions, Fixed};
use sitemap_lint::pipeline::files::{describe_io, AtomicFile};
use sitemap_lint::pipeline::input::Bytes;
use sitemap_lint::render::Format;
use sitemap_lint::{FileReport, Settings};

use super::walk::{Source, Target};

/// What the fix flags ask for.
#[derive(Debug, Clone, Copy)]
pub struct Mode {
    /// `--diff`: print the changes, write nothing.
    pub diff: bool,
    pub options: FixOptions,
}

/// The usage error of a combination of flags `--fix`/`--diff` cannot work with, if any.
pub fn usage(
    fix: bool,
    diff: bool,
    format: Format,
    output_file: bool,
    statistics: bool,
) -> Option<&'static str> {
    if !(fix || diff) {
        return None;
    }
    if output_file {
        return Some(
            "--fix and --diff cannot be used with -o: the fixed files are the output (the report \
             goes to stdout, or to stderr for `--fix -`)",
        );
    }
    if diff && (format != Format::Human || statistics) {
        return Some(
            "--diff prints a unified diff, not a report: leave out --format and --statistics",
        );
    }
    if !matches!(format, Format::Human | Format::Json | Format::Sarif) {
        return Some("--fix works with --format human, json or sarif");
    }
    None
}

/// What fixing one input did, for the output and the summary.
#[derive(Debug, Default)]
pub struct Done {
    /// Fixes applied (or, with `--diff`, that would be).
    pub applied: usize,
    /// The document for stdout (`--fix -`): the fixed text, or the input as it came.
    pub stdout: Option<Vec<u8>>,
    /// The diff for `--diff` (empty when nothing would change).
    pub diff: String,
    /// Something to say on stderr: why the file was not fixed, or fixed only partly.
    pub warning: Option<String>,
    /// The fixed file could not be written (exit 2).
    pub write_failed: bool,
}

/// Fixes one input's `bytes` (for stdin, `raw` holds the input as it came, to give it back when
/// nothing changes), writing a file back unless `--diff`.
pub fn run(
    target: &Target,
    bytes: Bytes,
    raw: Option<Vec<u8>>,
    settings: &Settings,
    mode: Mode,
) -> (FileReport, Done) {
    let gzip = bytes.gzip;
    let original = mode.diff.then(|| bytes.data.clone());
    let fixed = fix_bytes(&target.display, bytes, settings, mode.options);
    let mut done = Done {
        applied: fixed.applied(),
        warning: warning(&target.display, &fixed, mode.options),
        ..Done::default()
    };
    if let (Some(original), Some(content)) = (&original, &fixed.content) {
        done.diff = unified_diff(
            &target.display,
            &String::from_utf8_lossy(original),
            &String::from_utf8_lossy(content),
        );
    }
    match &target.source {
        Source::Stdin => {
            done.stdout = match (&fixed.content, raw) {
                (Some(content), _) if !mode.diff => Some(encode(content, gzip)),
                (_, raw) => raw,
            };
        }
        Source::File(path) => {
            if let (Some(content), false) = (&fixed.content, mode.diff) {
                if let Err(e) = write_back(path, content, gzip) {
                    done.warning = Some(format!(
                        "cannot write the fixes to `{}`: {}; it was left as it was",
                        target.display,
                        describe_io(&e)
                    ));
                    done.write_failed = true;
                }
            }
        }
    }
    (fixed.report, done)
}

/// What to say about a file `--fix` could not (fully) fix.
fn warning(name: &str, fixed: &Fixed, options: FixOptions) -> Option<String> {
    if let Some(why) = &fixed.unfixable {
        let wanted = fixed.remaining(options);
        return (wanted > 0).then(|| {
            format!(
                "`{name}` was not fixed ({wanted} fixable {}): {why}",
                if wanted == 1 { "finding" } else { "findings" }
            )
        });
    }
    (!fixed.converged).then(|| {
        format!(
            "fixing `{name}` did not settle after {} passes; what the last pass made is kept \
             (this is a bug in sitemap-lint: please report it with the file)",
            sitemap_lint::fix::MAX_PASSES
        )
    })
}

/// `content`, gzip-compressed when the input was.
fn encode(content: &[u8], gzip: bool) -> Vec<u8> {
    if !gzip {
        return content.to_vec();
    }
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a `Vec` cannot fail.
    let _ = enc.write_all(content);
    enc.finish().unwrap_or_default()
}

/// Replaces the file at `path` (through symlinks, keeping its permissions) with `content`,
/// gzip-compressed when `gzip`, atomically: a failure leaves the file as it was.
pub fn write_back(path: &Path, content: &[u8], gzip: bool) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    if gzip {
        let mut enc = flate2::write::GzEncoder::new(&mut file, flate2::Compression::default());
        enc.write_all(content)?;
        enc.finish()?;
    } else {
        file.write_all(content)?;
    }
    file.commit()
}
