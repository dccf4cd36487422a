//! Snapshot tests over `corpus/`: every rule's `fail_*` fixtures must trigger it (output compared with
//! the `.expected` file beside it), its `pass_*` fixtures must not; `corpus/cases/` files are
//! whole-sitemap cases compared the same way.
//!
//! Update the expected files after a reviewed change with `UPDATE_EXPECT=1 cargo test --test corpus`
//! (or `UPDATE_EXPECT=rule-a,rule-b` for some rule folders only, `UPDATE_EXPECT=cases` for the cases).

use std::fs;
use std::path::{Path, PathBuf};

use sitemap_lint::render::{self, Format, RenderOptions};
use sitemap_lint::{check_reader, rules, FileReport, Settings};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Fixture files of a folder (everything except `.expected` and README files), sorted.
fn fixtures(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            p.is_file() && !name.ends_with(".expected") && !name.ends_with(".md")
        })
        .collect();
    files.sort();
    files
}

fn check(path: &Path) -> FileReport {
    let name = path
        .strip_prefix(corpus())
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/");
    let bytes = fs::read(path).unwrap();
    check_reader(&name, &bytes[..], &settings()).unwrap()
}

/// 2024-11-21T12:00:00Z: the fixed "now" of every fixture, so that date rules (news older than
/// two days, dates in the future) give the same output on every day.
const NOW: i64 = 1_732_190_400;

fn settings() -> Settings {
    Settings {
        now: NOW,
        ..Settings::default()
    }
}

fn rendered(report: FileReport) -> String {
    let mut out = Vec::new();
    render::render(Format::Human, &[report], &mut out, RenderOptions::default()).unwrap();
    String::from_utf8(out).unwrap()
}

/// Whether UPDATE_EXPECT asks to rewrite this fixture's expected output: `1` (or `all`) rewrites
/// every one, a comma-separated list of rule names (or `cases`) only those folders.
fn update_requested(fixture: &Path) -> bool {
    let Some(v) = std::env::var_os("UPDATE_EXPECT") else {
        return false;
    };
    let v = v.to_string_lossy();
    if v == "1" || v == "all" {
        return true;
    }
    let folder = fixture
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    v.split(',').any(|name| name.trim() == folder)
}

/// Compares `actual` with `<fixture>.expected`, or rewrites it when asked (see `update_requested`).
fn compare(fixture: &Path, actual: &str, failures: &mut Vec<String>) {
    let expected_path = PathBuf::from(format!("{}.expected", fixture.display()));
    if update_requested(fixture) {
        fs::write(&expected_path, actual).unwrap();
        return;
    }
    match fs::read_to_string(&expected_path) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => failures.push(format!(
            "{}: output differs from {}\n--- expected\n{expected}\n--- actual\n{actual}",
            fixture.display(),
            expected_path.display()
        )),
        Err(_) => failures.push(format!(
            "{}: missing {} (review the output, then run `UPDATE_EXPECT=1 cargo test --test corpus`)\n{actual}",
            fixture.display(),
            expected_path.display()
        )),
    }
}

#[test]
fn every_rule_has_fixtures_and_they_behave() {
    let mut failures = Vec::new();
    for meta in rules::metas() {
        let dir = corpus().join("rules").join(meta.name);
        if !dir.is_dir() {
            failures.push(format!(
                "rule `{}` has no fixture folder corpus/rules/{}/ (add pass_*.xml and fail_*.xml)",
                meta.name, meta.name
            ));
            continue;
        }
        let files = fixtures(&dir);
        let name = |p: &PathBuf| p.file_name().unwrap().to_string_lossy().into_owned();
        let fails: Vec<_> = files
            .iter()
            .filter(|p| name(p).starts_with("fail_"))
            .collect();
        let passes: Vec<_> = files
            .iter()
            .filter(|p| name(p).starts_with("pass_"))
            .collect();
        // internal-error cannot be triggered by any input: it would be a bug.
        if fails.is_empty() && meta.name != "internal-error" {
            failures.push(format!("rule `{}` has no fail_* fixture", meta.name));
        }
        if passes.is_empty() {
            failures.push(format!("rule `{}` has no pass_* fixture", meta.name));
        }
        for f in files
            .iter()
            .filter(|p| !name(p).starts_with("fail_") && !name(p).starts_with("pass_"))
        {
            failures.push(format!(
                "{}: fixture names start with fail_ or pass_",
                f.display()
            ));
        }
        for f in fails {
            let report = check(f);
            if !report.diagnostics.iter().any(|d| d.rule.name == meta.name) {
                failures.push(format!(
                    "{}: expected a `{}` diagnostic, got none",
                    f.display(),
                    meta.name
                ));
            }
            compare(f, &rendered(report), &mut failures);
        }
        for p in passes {
            let report = check(p);
            let hits: Vec<_> = report
                .diagnostics
                .iter()
                .filter(|d| d.rule.name == meta.name)
                .map(|d| d.message.clone())
                .collect();
            if !hits.is_empty() {
                failures.push(format!(
                    "{}: expected no `{}` diagnostic, got {hits:?}",
                    p.display(),
                    meta.name
                ));
            }
        }
    }
    // Folders must belong to a rule.
    for entry in fs::read_dir(corpus().join("rules")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if rules::find(&name).is_none() {
            failures.push(format!("corpus/rules/{name}/ does not name a rule"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problem(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn whole_file_cases_match_their_expected_output() {
    let mut failures = Vec::new();
    let files = fixtures(&corpus().join("cases"));
    assert!(!files.is_empty(), "corpus/cases/ is empty");
    for f in files {
        compare(&f, &rendered(check(&f)), &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} problem(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
