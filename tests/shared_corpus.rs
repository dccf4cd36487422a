//! Agreement with xmllint over ../shared/corpus (real sitemaps and peers' fixtures): no panic on any
//! file; every file the official XSDs reject (or that is not XML) gets at least one error; files they
//! accept get no error. Each disagreement is listed, with its reason, in
//! `tests/shared_corpus_expectations.tsv`, and the list must match exactly (no stale entries).
//!
//! A second test does the same with this project's own schemas (`schemas/sitemap.xsd`, which loads
//! `schemas/sitemap-{image,video,news,mobile}.xsd`, and `schemas/siteindex.xsd`), which state what
//! sitemap-lint reports as errors: its disagreements are listed in
//! `tests/shared_corpus_schema_expectations.tsv`.
//!
//! Both tests cover `MANIFEST.tsv` (whose `xsd_verdict` column was computed once) and the second
//! harvest in `wild2/` (listed in `wild2/SOURCES.tsv`), whose verdicts are computed here with
//! xmllint by the manifest's own procedure (README.md of the corpus): not well-formed is
//! `not-xml`; a `sitemapindex` is validated with `xsd/siteindex.xsd`, anything else with
//! `xsd/ours-combined.xsd`.
//!
//! The corpus sits beside the project root; on a user's clone it is absent and the test prints a
//! notice and passes, but with `CI=true` its absence is a failure.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use sitemap_lint::{check_reader, Settings, Severity};

fn shared_corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.join("MANIFEST.tsv").is_file() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("../shared/corpus is missing, and CI=true forbids skipping");
    }
    println!("notice: ../shared/corpus not found; skipping the shared-corpus agreement test");
    None
}

/// One file of the corpus: its path below the corpus, its root element's local name and the
/// official XSDs' verdict (`valid`, `invalid:…` or `not-xml`).
struct Row {
    file: String,
    root_element: String,
    verdict: String,
}

fn xmllint_available() -> bool {
    let found = Command::new("xmllint").arg("--version").output().is_ok();
    assert!(
        found || !std::env::var("CI").is_ok_and(|v| v == "true"),
        "xmllint is missing and CI=true: install libxml2-utils"
    );
    found
}

/// The rows of `MANIFEST.tsv`, then those of `wild2/` (when xmllint is there to judge them),
/// computed once for both tests.
fn rows(dir: &Path) -> &'static [Row] {
    static ROWS: std::sync::OnceLock<Vec<Row>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| compute_rows(dir))
}

fn compute_rows(dir: &Path) -> Vec<Row> {
    let manifest = fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    let mut rows: Vec<Row> = manifest
        .lines()
        .skip(1)
        .map(|row| {
            let cols: Vec<&str> = row.split('\t').collect();
            Row {
                file: cols[0].to_string(),
                root_element: cols[5].to_string(),
                verdict: cols[7].to_string(),
            }
        })
        .collect();
    let sources = dir.join("wild2/SOURCES.tsv");
    if !sources.is_file() {
        return rows;
    }
    if !xmllint_available() {
        println!("notice: xmllint not found; wild2/ is left out of the corpus agreement tests");
        return rows;
    }
    let sources = fs::read_to_string(sources).unwrap();
    for line in sources.lines().skip(1) {
        let name = line.split('\t').next().unwrap();
        let file = format!("wild2/{name}");
        let path = dir.join(&file);
        let xmllint = |args: &[&str]| {
            Command::new("xmllint")
                .args(["--noout", "--nonet"])
                .args(args)
                .arg(&path)
                .output()
                .unwrap()
        };
        let (root_element, verdict) = if !xmllint(&[]).status.success() {
            ("unparseable".to_string(), "not-xml".to_string())
        } else {
            let bytes = fs::read(&path).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            let root = roxmltree::Document::parse_with_options(
                &text,
                roxmltree::ParsingOptions {
                    allow_dtd: true,
                    ..Default::default()
                },
            )
            .map(|d| d.root_element().tag_name().name().to_string())
            .unwrap_or_default();
            let schema = if root == "sitemapindex" {
                "siteindex.xsd"
            } else {
                "ours-combined.xsd"
            };
            let xsd = dir.join("xsd").join(schema);
            let out = xmllint(&["--schema", xsd.to_str().unwrap()]);
            let verdict = match out.status.code() {
                Some(0) => "valid".to_string(),
                Some(1 | 3) => format!(
                    "invalid:{}",
                    String::from_utf8_lossy(&out.stderr)
                        .lines()
                        .next()
                        .unwrap_or("")
                ),
                _ => panic!(
                    "xmllint could not load {schema} for {file}: {}",
                    String::from_utf8_lossy(&out.stderr)
                ),
            };
            (root, verdict)
        };
        rows.push(Row {
            file,
            root_element,
            verdict,
        });
    }
    rows
}

/// How sitemap-lint's verdict differs from xmllint's for one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Disagreement {
    /// The official XSDs accept the file; sitemap-lint reports an error.
    ErrorOnXsdValid,
    /// The official XSDs reject the file (or it is not XML); sitemap-lint reports no error.
    NoErrorOnXsdInvalid,
}

impl Disagreement {
    fn parse(s: &str) -> Disagreement {
        match s {
            "error-on-xsd-valid" => Disagreement::ErrorOnXsdValid,
            "no-error-on-xsd-invalid" => Disagreement::NoErrorOnXsdInvalid,
            other => panic!("unknown disagreement kind `{other}` in the expectations file"),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Disagreement::ErrorOnXsdValid => "error-on-xsd-valid",
            Disagreement::NoErrorOnXsdInvalid => "no-error-on-xsd-invalid",
        }
    }
}

/// The listed disagreements of `tests/NAME` (`file<TAB>kind<TAB>reason`, `#` comments), by file.
fn expectations(name: &str) -> BTreeMap<String, (Disagreement, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name);
    let text = fs::read_to_string(&path).unwrap();
    let mut expected = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut cols = line.splitn(3, '\t');
        let (Some(file), Some(kind), Some(reason)) = (cols.next(), cols.next(), cols.next()) else {
            panic!("expectations line needs file<TAB>kind<TAB>reason: {line}");
        };
        assert!(
            !reason.trim().is_empty(),
            "{file}: a listed disagreement needs a reason"
        );
        expected.insert(
            file.to_string(),
            (Disagreement::parse(kind), reason.to_string()),
        );
    }
    expected
}

#[test]
fn agrees_with_xmllint_on_the_shared_corpus() {
    let Some(dir) = shared_corpus() else { return };
    let expected = expectations("shared_corpus_expectations.tsv");

    let mut actual: BTreeMap<String, (Disagreement, String)> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut files, mut agree) = (0usize, 0usize);
    for row in rows(&dir) {
        let (file, verdict) = (row.file.as_str(), row.verdict.as_str());
        files += 1;
        let bytes = fs::read(dir.join(file)).unwrap();
        let name = file.rsplit('/').next().unwrap();
        let report = check_reader(name, &bytes[..], &Settings::default()).unwrap();
        if report.internal_error() {
            failures.push(format!(
                "{file}: internal error (panic) {:?}",
                report.diagnostics[0].notes
            ));
            continue;
        }
        let errors: Vec<String> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| {
                let p = report.source.position(d.primary.span.start);
                format!("{}:{}: {} [{}]", p.line, p.column, d.message, d.rule.name)
            })
            .collect();
        let xsd_valid = verdict == "valid";
        match (xsd_valid, errors.is_empty()) {
            (true, false) => {
                actual.insert(
                    file.to_string(),
                    (Disagreement::ErrorOnXsdValid, errors[0].clone()),
                );
            }
            (false, true) => {
                actual.insert(
                    file.to_string(),
                    (Disagreement::NoErrorOnXsdInvalid, verdict.to_string()),
                );
            }
            _ => agree += 1,
        }
    }
    for (file, (kind, detail)) in &actual {
        match expected.get(file) {
            Some((k, _)) if k == kind => {}
            _ => failures.push(format!(
                "{file}: unlisted disagreement {} ({detail}); fix sitemap-lint, or list it with a reason",
                kind.name()
            )),
        }
    }
    for (file, (kind, reason)) in &expected {
        if !actual.contains_key(file) {
            failures.push(format!(
                "{file}: listed as {} ({reason}) but sitemap-lint now agrees with xmllint: remove the line",
                kind.name()
            ));
        }
    }
    println!(
        "shared corpus: {files} files, {agree} agree with xmllint, {} listed disagreements",
        actual.len()
    );
    assert!(
        failures.is_empty(),
        "{} problem(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `valid` or `invalid` from xmllint with this project's schema for `root_element`, or `None` for
/// files that are not a `urlset` or `sitemapindex` (not XML, other roots) or when xmllint is missing.
fn our_schema_verdict(file: &Path, root_element: &str) -> Option<&'static str> {
    let schema = match root_element {
        "urlset" => "schemas/sitemap.xsd",
        "sitemapindex" => "schemas/siteindex.xsd",
        _ => return None,
    };
    let out = Command::new("xmllint")
        .args(["--noout", "--nonet", "--schema"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(schema))
        .arg(file)
        .output()
        .ok()?;
    match out.status.code() {
        Some(0) => Some("valid"),
        Some(1 | 3) => Some("invalid"),
        _ => panic!(
            "xmllint could not load {schema} for {}: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

#[test]
fn agrees_with_the_project_schemas_on_the_shared_corpus() {
    let Some(dir) = shared_corpus() else { return };
    if !xmllint_available() {
        println!("notice: xmllint not found; skipping the project-schema comparison");
        return;
    }
    let expected = expectations("shared_corpus_schema_expectations.tsv");

    let mut actual: BTreeMap<String, (Disagreement, String)> = BTreeMap::new();
    let (mut files, mut agree, mut same_as_official) = (0usize, 0usize, 0usize);
    for row in rows(&dir) {
        let (file, root_element, official) = (
            row.file.as_str(),
            row.root_element.as_str(),
            row.verdict.as_str(),
        );
        let Some(ours) = our_schema_verdict(&dir.join(file), root_element) else {
            continue;
        };
        files += 1;
        if (ours == "valid") == (official == "valid") {
            same_as_official += 1;
        }
        let bytes = fs::read(dir.join(file)).unwrap();
        let name = file.rsplit('/').next().unwrap();
        let report = check_reader(name, &bytes[..], &Settings::default()).unwrap();
        let first_error = report
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
            .map(|d| {
                let p = report.source.position(d.primary.span.start);
                format!("{}:{}: {} [{}]", p.line, p.column, d.message, d.rule.name)
            });
        match (ours, first_error) {
            ("valid", Some(error)) => {
                actual.insert(file.to_string(), (Disagreement::ErrorOnXsdValid, error));
            }
            ("invalid", None) => {
                actual.insert(
                    file.to_string(),
                    (
                        Disagreement::NoErrorOnXsdInvalid,
                        "schemas/ rejects it".into(),
                    ),
                );
            }
            _ => agree += 1,
        }
    }
    let mut failures = Vec::new();
    for (file, (kind, detail)) in &actual {
        match expected.get(file) {
            Some((k, _)) if k == kind => {}
            _ => failures.push(format!(
                "{file}: unlisted disagreement with schemas/ {} ({detail}); fix sitemap-lint or the schemas, or list it with a reason",
                kind.name()
            )),
        }
    }
    for (file, (kind, reason)) in &expected {
        if !actual.contains_key(file) {
            failures.push(format!(
                "{file}: listed as {} ({reason}) but sitemap-lint now agrees with schemas/: remove the line",
                kind.name()
            ));
        }
    }
    println!(
        "shared corpus vs schemas/: {files} files, {agree} agree with sitemap-lint, {} listed disagreements; schemas/ and the official XSDs agree on {same_as_official}",
        actual.len()
    );
    assert!(
        failures.is_empty(),
        "{} problem(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
