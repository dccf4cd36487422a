//! The guarantees of `check --fix` (docs/fixes.md), each held here: bytes outside the edits stay
//! byte-identical (CRLF, indentation, comments, the declaration); a second `--fix` changes nothing;
//! writes are atomic, keep permissions, go through symlinks and keep `.gz` compressed; a file that
//! cannot be fixed is left untouched; `--fix -` gives the document back on stdout; `--diff` writes
//! nothing; usage errors exit 2; and, as a property over every file of `corpus/` and
//! `../shared/corpus` (skipped with a notice when absent, never with `CI=true`), fixing never
//! leaves more errors than there were.

mod support;

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use sitemap_lint::fix::{fix_bytes, FixOptions};
use sitemap_lint::pipeline::input;
use sitemap_lint::{Settings, Severity};
use support::{run_in, stderr, stdout, TempDir};

/// Raw `&` twice, CRLF line ends, tabs, a comment and a declaration spelled `utf8`.
const BROKEN: &str = "<?xml version=\"1.0\" encoding=\"utf8\"?>\r\n<!-- generated & checked -->\r\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\r\n\t<url>\r\n\t\t<loc>https://www.example.com/?a=1&b=2</loc>\r\n\t</url>\r\n  <url><loc>https://www.example.com/x&y</loc></url>\r\n</urlset>\r\n";

/// [`BROKEN`] with exactly the three fixes applied, nothing else changed.
const FIXED: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- generated & checked -->\r\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\r\n\t<url>\r\n\t\t<loc>https://www.example.com/?a=1&amp;b=2</loc>\r\n\t</url>\r\n  <url><loc>https://www.example.com/x&amp;y</loc></url>\r\n</urlset>\r\n";

#[test]
fn fix_in_place_keeps_every_other_byte_and_a_second_fix_changes_nothing() {
    let dir = TempDir::new("fix-in-place");
    let path = dir.write("sitemap.xml", BROKEN.as_bytes());
    let o = run_in(dir.path(), &["check", "--fix", "sitemap.xml"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&path).unwrap(), FIXED);
    assert!(
        stderr(&o).contains("fixed 3 findings in 1 file"),
        "{}",
        stderr(&o)
    );
    let o = run_in(dir.path(), &["check", "--fix", "sitemap.xml"], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("fixed 0 findings"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&path).unwrap(), FIXED);
    // Nothing left behind in the folder (the temporary file was renamed).
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn the_exit_code_comes_from_what_remains() {
    let dir = TempDir::new("fix-exit");
    // A raw `&` (fixed) and a priority out of range (not fixed here: an error remains).
    let text = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://e.com/?a&b</loc><priority>7</priority></url></urlset>";
    let path = dir.write("s.xml", text.as_bytes());
    let o = run_in(
        dir.path(),
        &["check", "--fix", "--allow", "priority-invalid", "s.xml"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(fs::read_to_string(&path).unwrap().contains("?a&amp;b"));
    let path = dir.write("t.xml", text.as_bytes());
    let o = run_in(
        dir.path(),
        &["check", "--fix", "--format", "json", "t.xml"],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(fs::read_to_string(&path).unwrap().contains("?a&amp;b"));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let codes: Vec<&str> = v["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(!codes.contains(&"xml-syntax"), "{codes:?}");
    assert!(codes.contains(&"priority-invalid"), "{codes:?}");
}

#[cfg(unix)]
#[test]
fn writes_keep_permissions_go_through_symlinks_and_keep_gzip() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("fix-files");
    let target = dir.write("real.xml", BROKEN.as_bytes());
    fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
    std::os::unix::fs::symlink("real.xml", dir.path().join("link.xml")).unwrap();
    let gz = dir.write("s.xml.gz", &support::gzip(BROKEN.as_bytes()));
    let o = run_in(
        dir.path(),
        &["check", "--fix", "link.xml", "s.xml.gz"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&target).unwrap(), FIXED);
    let link = dir.path().join("link.xml");
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        fs::metadata(&target).unwrap().permissions().mode() & 0o777,
        0o640
    );
    let raw = fs::read(&gz).unwrap();
    assert_eq!(&raw[..2], &[0x1f, 0x8b], "written back gzip-compressed");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, FIXED);
}

#[test]
fn a_file_that_cannot_be_fixed_is_left_untouched() {
    let dir = TempDir::new("fix-untouched");
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(BROKEN.encode_utf16().flat_map(|u| u.to_le_bytes()))
        .collect();
    let a = dir.write("utf16.xml", &utf16);
    let mut latin1 = BROKEN.as_bytes().to_vec();
    let at = BROKEN.find("checked").unwrap();
    latin1.splice(at..at, [0xE9]);
    let b = dir.write("latin1.xml", &latin1);
    let o = run_in(
        dir.path(),
        &["check", "--fix", "utf16.xml", "latin1.xml"],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(fs::read(&a).unwrap(), utf16);
    assert_eq!(fs::read(&b).unwrap(), latin1);
    let err = stderr(&o);
    assert!(err.contains("`utf16.xml` was not fixed"), "{err}");
    assert!(err.contains("`latin1.xml` was not fixed"), "{err}");
}

#[test]
fn stdin_comes_back_fixed_on_stdout_with_the_report_on_stderr() {
    let dir = TempDir::new("fix-stdin");
    let o = run_in(
        dir.path(),
        &["check", "--fix", "-"],
        Some(BROKEN.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), FIXED);
    assert!(stderr(&o).contains("fixed 3 findings"), "{}", stderr(&o));
    // Nothing to fix: the document comes back as it was; the report still goes to stderr.
    let o = run_in(
        dir.path(),
        &["check", "--fix", "--format", "json", "-"],
        Some(FIXED.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), FIXED);
    assert!(stderr(&o).contains("\"version\":1"), "{}", stderr(&o));
    // A document that cannot be fixed comes back byte for byte.
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(BROKEN.encode_utf16().flat_map(|u| u.to_le_bytes()))
        .collect();
    let o = run_in(dir.path(), &["check", "--fix", "-"], Some(&utf16));
    assert_eq!(o.stdout, utf16);
}

#[test]
fn diff_writes_nothing_and_fails_when_there_is_something_to_fix() {
    let dir = TempDir::new("fix-diff");
    let path = dir.write("s.xml", BROKEN.as_bytes());
    let o = run_in(dir.path(), &["check", "--diff", "s.xml"], None);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&path).unwrap(), BROKEN);
    let diff = stdout(&o);
    assert!(diff.starts_with("--- a/s.xml\n+++ b/s.xml\n@@ "), "{diff}");
    assert!(
        diff.contains("+\t\t<loc>https://www.example.com/?a=1&amp;b=2</loc>\r\n"),
        "{diff}"
    );
    assert!(
        stderr(&o).contains("3 fixes would be applied by --fix"),
        "{}",
        stderr(&o)
    );
    fs::write(&path, FIXED).unwrap();
    let o = run_in(dir.path(), &["check", "--diff", "s.xml"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
}

#[test]
fn fix_with_output_file_or_another_format_is_a_usage_error() {
    let dir = TempDir::new("fix-usage");
    let path = dir.write("s.xml", BROKEN.as_bytes());
    for args in [
        &["check", "--fix", "-o", "r.txt", "s.xml"][..],
        &["check", "--fix", "--format", "concise", "s.xml"],
        &["check", "--fix", "--format", "github", "s.xml"],
        &["check", "--diff", "--format", "json", "s.xml"],
        &["check", "--diff", "-o", "r.txt", "s.xml"],
    ] {
        let o = run_in(dir.path(), args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("error: --"), "{args:?}: {}", stderr(&o));
        assert_eq!(fs::read_to_string(&path).unwrap(), BROKEN, "{args:?}");
    }
    assert!(!dir.path().join("r.txt").exists());
}

#[test]
fn unsafe_fixes_wait_for_the_flag() {
    let dir = TempDir::new("fix-unsafe");
    let text = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"https://www.sitemaps.org/schemas/sitemap/0.9 http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd\"><url><loc>https://e.com/</loc></url></urlset>";
    let path = dir.write("s.xml", text.as_bytes());
    let o = run_in(dir.path(), &["check", "s.xml"], None);
    let err = stderr(&o);
    assert!(
        stdout(&o).contains("[*] fixable with --fix --unsafe-fixes"),
        "{}",
        stdout(&o)
    );
    assert!(err.contains("1 fixable with --fix --unsafe-fixes"), "{err}");
    let o = run_in(dir.path(), &["check", "--fix", "s.xml"], None);
    assert!(stderr(&o).contains("fixed 0 findings"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
    let o = run_in(
        dir.path(),
        &["check", "--fix", "--unsafe-fixes", "s.xml"],
        None,
    );
    assert!(stderr(&o).contains("fixed 1 finding "), "{}", stderr(&o));
    assert!(fs::read_to_string(&path)
        .unwrap()
        .contains("schemaLocation=\"http://www.sitemaps.org/schemas/sitemap/0.9 "));
}

/// "Now" for the property, as in the corpus tests.
const NOW: i64 = 1_732_190_400;

fn sitemap_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sitemap_files(&path, out);
        } else if path.is_file() {
            // Snapshots and notes beside the fixtures are not inputs.
            let name = path.to_string_lossy();
            let notes = [".expected", ".fixed", ".diff", ".md", ".args", ".tsv"];
            if !notes.iter().any(|n| name.ends_with(n)) {
                out.push(path);
            }
        }
    }
}

/// Totals of the property, for the closing note.
#[derive(Default, Debug)]
struct Figures {
    files: usize,
    fixed_files: usize,
    fixes: usize,
    errors_before: usize,
    errors_after: usize,
}

/// Fixes every file under `dir` (safe, then with unsafe fixes) and checks that no file ends with
/// more errors than it had, and that a second fix changes nothing.
fn property_over(dir: &Path, options: FixOptions, failures: &mut Vec<String>) -> Figures {
    let mut files = Vec::new();
    sitemap_files(dir, &mut files);
    let settings = Settings {
        now: NOW,
        ..Settings::default()
    };
    let mut f = Figures::default();
    for path in files {
        let Ok(raw) = fs::read(&path) else { continue };
        let name = path.to_string_lossy().into_owned();
        let bytes = input::load(&raw[..], settings.max_size).unwrap();
        let fixed = fix_bytes(&name, bytes, &settings, options);
        let after = fixed
            .report
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        f.files += 1;
        f.fixes += fixed.applied();
        f.errors_before += fixed.errors_before;
        f.errors_after += after;
        if after > fixed.errors_before {
            failures.push(format!(
                "{name}: {} errors before fixing, {after} after ({:?})",
                fixed.errors_before, fixed.by_rule
            ));
        }
        let Some(content) = fixed.content else {
            continue;
        };
        f.fixed_files += 1;
        let again = fix_bytes(
            &name,
            input::load(&content[..], settings.max_size).unwrap(),
            &settings,
            options,
        );
        if again.content.is_some() {
            failures.push(format!(
                "{name}: a second fix changes it again ({:?})",
                again.by_rule
            ));
        }
    }
    f
}

#[test]
fn fixing_never_leaves_more_errors_over_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/corpus");
    let mut dirs = vec![root.join("corpus")];
    if shared.is_dir() {
        dirs.push(shared);
    } else if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("../shared/corpus is missing, and CI=true forbids skipping");
    } else {
        println!("notice: ../shared/corpus not found; the fix property runs over corpus/ only");
    }
    let mut failures = Vec::new();
    for dir in &dirs {
        for options in [FixOptions::default(), FixOptions { unsafe_fixes: true }] {
            let f = property_over(dir, options, &mut failures);
            println!(
                "fix property over {} ({}): {} files, {} fixed, {} fixes applied, errors {} before, {} after",
                dir.display(),
                if options.unsafe_fixes { "safe and unsafe" } else { "safe" },
                f.files,
                f.fixed_files,
                f.fixes,
                f.errors_before,
                f.errors_after
            );
            assert!(f.files > 50, "{f:?}");
            if dir.ends_with("corpus") && !options.unsafe_fixes {
                assert!(f.fixes > 0, "the corpus has fixable files: {f:?}");
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
