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

use sitemap_lint::fix::{fix_found, unified_diff, FixOptions, Fixed};
use sitemap_lint::pipeline::files::{describe_io, AtomicFile};
use sitemap_lint::pipeline::input::Bytes;
use sitemap_lint::render::{plural, visible, Format, Summary};
use sitemap_lint::report::Found;
use sitemap_lint::Settings;

use super::walk::{Source, Target};

/// What the fix flags ask for.
#[derive(Debug, Clone, Copy)]
pub struct Mode {
    /// `--diff`: print the changes, write nothing.
    pub diff: bool,
    pub options: FixOptions,
}

impl Mode {
    /// What the flags of `args` ask for (`None`: neither `--fix` nor `--diff`), or the usage
    /// error of a combination they cannot work with.
    /// `remote`: the run has http(s) arguments, which have no file to write back.
    pub fn of(
        args: &super::CheckArgs,
        format: Format,
        remote: bool,
    ) -> Result<Option<Mode>, &'static str> {
        if remote && (args.fix || args.diff) {
            return Err(
                "--fix and --diff work on files and stdin, not on http(s) URLs: there is \
                        no file to write back; download the sitemap, fix the file, upload it",
            );
        }
        let output_file = args.output_file.is_some();
        if let Some(message) = usage(args.fix, args.diff, format, output_file, args.statistics) {
            return Err(message);
        }
        Ok((args.fix || args.diff).then_some(Mode {
            diff: args.diff,
            options: FixOptions {
                unsafe_fixes: args.unsafe_fixes,
            },
        }))
    }
}

/// What the summary line adds: `; fixed 3 findings in 1 file`, ` after the fixes; 3 fixes would
/// be applied by --fix` (`--diff`), and the findings still fixable (`; 2 fixable with --fix`).
pub fn summary_part(
    fixing: Option<Mode>,
    (applied, files): (usize, usize),
    summary: &Summary,
    unsafe_fixes: bool,
) -> String {
    let mut line = match fixing {
        Some(m) if m.diff => format!(
            " after the fixes; {} would be applied by --fix{}",
            if applied == 1 {
                "1 fix".to_string()
            } else {
                format!("{applied} fixes")
            },
            if m.options.unsafe_fixes {
                " --unsafe-fixes"
            } else {
                ""
            }
        ),
        Some(_) => format!(
            "; fixed {} in {}",
            plural(applied, "finding"),
            plural(files, "file")
        ),
        None => String::new(),
    };
    if fixing.is_none_or(|m| !m.diff) {
        if let Some(fixable) = summary.fix_line(unsafe_fixes) {
            line.push_str(&format!("; {fixable}"));
        }
    }
    line
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

impl Done {
    /// Prints what fixing one input gives: the document for stdin on `doc_out`, the diff (with
    /// `--diff`) on `out`, a warning on stderr.
    pub fn emit(
        &self,
        fixing: Option<Mode>,
        doc_out: &mut Option<&mut dyn Write>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if let (Some(doc), Some(w)) = (&self.stdout, doc_out.as_mut()) {
            w.write_all(doc)?;
            w.flush()?;
        }
        if fixing.is_some_and(|m| m.diff) {
            out.write_all(self.diff.as_bytes())?;
        }
        if let Some(warning) = &self.warning {
            out.flush()?;
            eprintln!("sitemap-lint: warning: {}", visible(warning));
        }
        Ok(())
    }
}

/// Fixes one input's `bytes` (for stdin, `raw` holds the input as it came, to give it back when
/// nothing changes), writing a file back unless `--diff`. What remains is given as found, for
/// the caller to finalize with the findings across files.
pub fn run(
    target: &Target,
    bytes: Bytes,
    raw: Option<Vec<u8>>,
    settings: &Settings,
    mode: Mode,
) -> (Found, Done) {
    let gzip = bytes.gzip;
    let original = mode.diff.then(|| bytes.data.clone());
    let fixed = fix_found(&target.display, bytes, settings, mode.options);
    let mut done = Done {
        applied: fixed.applied(),
        warning: warning(&target.display, &fixed, settings, mode.options),
        ..Done::default()
    };
    if let (Some(original), Some(content)) = (&original, &fixed.content) {
        done.diff = unified_diff(
            &target.display,
            &String::from_utf8_lossy(original),
            &String::from_utf8_lossy(content),
        );
    }
    // Every kind of input is matched here on purpose: a remote one (a URL) has no file to write
    // back, and must be refused before the run (docs/fixes.md), not silently left unfixed.
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
fn warning(
    name: &str,
    fixed: &Fixed<Found>,
    settings: &Settings,
    options: FixOptions,
) -> Option<String> {
    if let Some(why) = &fixed.unfixable {
        let wanted = fixed.remaining(settings, options);
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
