//! Cross-check of the project's schemas: every sitemap in `corpus/` is validated with xmllint against
//! `schemas/` and against the official XSDs in ../shared/corpus/xsd, and compared with sitemap-lint's
//! own verdict. The verdicts are committed in `corpus/xsd-verdicts.tsv`; every row where the three
//! disagree carries the reason. Regenerate with `UPDATE_EXPECT=xsd cargo test --test xsd` (reasons of
//! existing rows are kept; new disagreements get `TODO`, which fails until explained).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use sitemap_lint::{check_reader, Settings, Severity};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

fn xmllint_available() -> bool {
    Command::new("xmllint").arg("--version").output().is_ok()
}

/// `valid` or `invalid` from `xmllint --noout --nonet --schema XSD FILE`.
fn xmllint(schema: &Path, file: &Path) -> &'static str {
    let out = Command::new("xmllint")
        .args(["--noout", "--nonet", "--schema"])
        .arg(schema)
        .arg(file)
        .output()
        .expect("xmllint runs");
    if out.status.success() {
        "valid"
    } else {
        "invalid"
    }
}

/// Every fixture under corpus/ (rules and cases), sorted.
fn corpus_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root().join("corpus")];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let n = p.file_name().unwrap().to_string_lossy().into_owned();
                if n.ends_with(".xml") || n.ends_with(".xml.gz") {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

/// Root element of a well-formed UTF-8 XML file (gzip decoded), or None when it is not one that an
/// XSD verdict makes sense for (not well-formed, not UTF-8, DOCTYPE, other roots).
fn sitemap_root(bytes: &[u8]) -> Option<&'static str> {
    let data = sitemap_lint::input::decode(bytes.to_vec(), sitemap_lint::input::MAX_UNCOMPRESSED);
    if data.gzip_problem.is_some() || data.too_large {
        return None;
    }
    let text = std::str::from_utf8(&data.data).ok()?;
    let doc = roxmltree::Document::parse(text.strip_prefix('\u{FEFF}').unwrap_or(text)).ok()?;
    match doc.root_element().tag_name().name() {
        "urlset" => Some("urlset"),
        "sitemapindex" => Some("sitemapindex"),
        _ => None,
    }
}

#[test]
fn schemas_agree_with_the_official_xsds_and_the_checker() {
    if !xmllint_available() {
        assert!(
            !in_ci(),
            "xmllint is missing and CI=true: install libxml2-utils"
        );
        println!("notice: xmllint not found; skipping the schema cross-check");
        return;
    }
    let official_dir = root().join("../shared/corpus/xsd");
    let have_official = official_dir.join("sitemap.xsd").is_file();
    if !have_official {
        assert!(!in_ci(), "../shared/corpus/xsd is missing and CI=true");
        println!(
            "notice: ../shared/corpus/xsd not found; comparing schemas/ with sitemap-lint only"
        );
    }
    let table_path = root().join("corpus/xsd-verdicts.tsv");
    let old = fs::read_to_string(&table_path).unwrap_or_default();
    let mut reasons: BTreeMap<String, String> = BTreeMap::new();
    for line in old.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let cols: Vec<&str> = line.splitn(5, '\t').collect();
        if cols.len() == 5 {
            reasons.insert(cols[0].to_string(), cols[4].to_string());
        }
    }

    let mut rows = Vec::new();
    let mut failures = Vec::new();
    for file in corpus_files() {
        let rel = file
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = fs::read(&file).unwrap();
        let Some(root_name) = sitemap_root(&bytes) else {
            continue;
        };
        let (ours_xsd, official_xsd) = match root_name {
            "urlset" => ("schemas/sitemap.xsd", "ours-combined.xsd"),
            _ => ("schemas/siteindex.xsd", "siteindex.xsd"),
        };
        let ours = xmllint(&root().join(ours_xsd), &file);
        let official = if have_official {
            xmllint(&official_dir.join(official_xsd), &file)
        } else {
            "-"
        };
        let report = check_reader(&rel, &bytes[..], &Settings::default()).unwrap();
        let lint = if report
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            "error"
        } else {
            "clean"
        };
        let agrees =
            (official == "-" || official == ours) && ((ours == "invalid") == (lint == "error"));
        let reason = if agrees {
            String::new()
        } else {
            reasons
                .get(&rel)
                .cloned()
                .unwrap_or_else(|| "TODO".to_string())
        };
        if !agrees && (reason.is_empty() || reason == "TODO") {
            failures.push(format!("{rel}: official {official}, schemas/ {ours}, sitemap-lint {lint}: explain the disagreement in corpus/xsd-verdicts.tsv"));
        }
        rows.push(format!("{rel}\t{official}\t{ours}\t{lint}\t{reason}"));
    }
    let table = format!(
        "# file\tofficial XSD\tschemas/\tsitemap-lint\treason (required where they disagree)\n{}\n",
        rows.join("\n")
    );
    if std::env::var("UPDATE_EXPECT").is_ok_and(|v| v == "xsd" || v == "1" || v == "all") {
        fs::write(&table_path, &table).unwrap();
    } else if have_official && table != old {
        failures.push("corpus/xsd-verdicts.tsv is out of date: run `UPDATE_EXPECT=xsd cargo test --test xsd` and review the diff".into());
    }
    assert!(!rows.is_empty(), "no sitemap found under corpus/");
    assert!(
        failures.is_empty(),
        "{} problem(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
