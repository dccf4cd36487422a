//! Property tests on stable Rust (proptest, fixed seed and case counts, so CI is deterministic):
//! arbitrary bytes, gzip-wrapped bytes, and mutations of valid sitemaps (byte flips, truncations,
//! inserted `&` `<` NUL and invalid UTF-8, deep nesting, huge attributes), plus exhaustive
//! truncation and substitution of one small file.
//!
//! Properties: no panic (the engine turns a panic into `internal-error`, which counts as a
//! failure here); every diagnostic span lies inside the decoded text and on character
//! boundaries; diagnostics are sorted; on the binary, the exit code is the one the report implies
//! (0, 1 or 2) and the output of every `--format` that `check --help` lists parses back.
//!
//! A longer run: `PROPTEST_CASES=20000 cargo test --release --test properties` (the count applies
//! to each property).

mod support;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use sitemap_lint::render::{self, Format, RenderOptions};
use sitemap_lint::{check_reader, FileReport, Settings};
use support::{assert_report_sane, TempDir, VALID_INDEX, VALID_SMALL, VALID_URLSET};

/// Runs `cases` cases of a property with a fixed seed (overridable with `PROPTEST_CASES`).
fn runner(cases: u32, seed: u64) -> TestRunner {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(cases);
    TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..Config::default()
    })
}

fn check(name: &str, bytes: &[u8]) -> FileReport {
    check_reader(name, bytes, &Settings::default()).expect("reading from a slice cannot fail")
}

fn show(bytes: &[u8]) -> String {
    let shown: String = String::from_utf8_lossy(&bytes[..bytes.len().min(600)])
        .escape_debug()
        .collect();
    format!("{} bytes: \"{shown}\"", bytes.len())
}

/// The library's renderers (the binary test covers whatever `check -h` lists).
const FORMATS: [(Format, &str); 8] = [
    (Format::Human, "human"),
    (Format::Json, "json"),
    (Format::Concise, "concise"),
    (Format::Sarif, "sarif"),
    (Format::Github, "github"),
    (Format::Gitlab, "gitlab"),
    (Format::Junit, "junit"),
    (Format::Checkstyle, "checkstyle"),
];

/// The library-level properties for one input: a sane report that renders (human and JSON) and
/// whose JSON agrees with the report.
fn library_properties(name: &str, bytes: &[u8]) -> Result<(), TestCaseError> {
    let what = || format!("{name}, {}", show(bytes));
    support::quietly(|| {
        let report = check(name, bytes);
        assert_report_sane(&report, &what);
        for (format, format_name) in FORMATS {
            let mut out = Vec::new();
            render::render(
                format,
                std::slice::from_ref(&report),
                &mut out,
                RenderOptions {
                    color: true,
                    ..RenderOptions::default()
                },
            )
            .unwrap();
            validate(format_name, &out, &report)
                .unwrap_or_else(|e| panic!("--format {format_name}: {e} on {}", what()));
        }
    })
    .map_err(TestCaseError::fail)
}

/// The JSON output parses, and its diagnostics are the report's, at the report's positions.
fn json_agrees(out: &[u8], report: &FileReport) -> Result<(), String> {
    let v: serde_json::Value =
        serde_json::from_slice(out).map_err(|e| format!("JSON does not parse: {e}"))?;
    let diags = v["files"][0]["diagnostics"]
        .as_array()
        .ok_or("no diagnostics array")?;
    if diags.len() != report.diagnostics.len() {
        return Err(format!(
            "{} JSON diagnostics for {}",
            diags.len(),
            report.diagnostics.len()
        ));
    }
    for (j, d) in diags.iter().zip(&report.diagnostics) {
        let start = report.source.position(d.primary.span.start);
        let js = &j["span"]["start"];
        if j["code"] != d.rule.name
            || js["offset"] != d.primary.span.start
            || js["line"] != start.line
            || js["column"] != start.column
        {
            return Err(format!("JSON diagnostic {j} does not match {d:?}"));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// inputs

/// Bytes that XML markup is made of, so that random input reaches past the first parser error.
fn xmlish_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        3 => prop::sample::select(b"<>/=\"'&;?!-[]x:#u \n\t\r\0".to_vec()),
        1 => any::<u8>(),
    ]
}

fn name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["sitemap.xml", "sitemap.xml.gz", "SITEMAP.XML.GZ", "-"])
}

/// Insertable fragments: markup breakers, invalid UTF-8, DTDs, declarations, references.
const FRAGMENTS: &[&[u8]] = &[
    b"&",
    b"<",
    b">",
    b"\0",
    b"\xFF",
    b"\xC3",
    b"\xE2\x82",
    b"\xED\xA0\x80",
    b"\xF4\x90\x80\x80",
    b"\xEF\xBB\xBF",
    b"\r",
    b"\"",
    b"'",
    b"]]>",
    b"<![CDATA[",
    b"<!--",
    b"-->",
    b"<!DOCTYPE urlset [<!ENTITY a \"]>\">]>",
    b"<!DOCTYPE urlset SYSTEM \"http://x/\">",
    b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
    b"<?xml version='1.1' encoding='latin1' standalone='YES'?>",
    b"<?XML?>",
    b"<?xml",
    b"&amp;",
    b"&#0;",
    b"&#x110000;",
    b"&#xD800;",
    b"&nbsp;",
    b"&a:b;",
    b"<x>",
    b"</x>",
    b"</url>",
    b"<url>",
    b"<loc>",
    b"</loc>",
    b"<image:image>",
    b"xmlns=\"\"",
    b" xmlns:a=\"\"",
    b" xmlns:xmlns=\"x\"",
    b"<:a/>",
    b"e\xCC\x81",
    b"\xF0\x9F\x98\x80",
    b"\x1f\x8b",
    b"\x00<\x00?\x00",
    b"<\x00?\x00x\x00",
    b"\t \t",
    b"\xE2\x80\xA8",
    b"%",
    b"\\",
    b"\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC",
    b"&amp;\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",
    b"&#233;\xC3\xA9",
];

#[derive(Debug, Clone)]
enum Mutation {
    Flip(Index, u8),
    Delete(Index, usize),
    Truncate(Index),
    Insert(Index, &'static [u8]),
    Duplicate(Index, usize, Index),
    /// `<a>` repeated, closed or not.
    Nest(Index, usize, bool),
    /// An attribute of this many bytes in the first start tag.
    HugeAttribute(usize, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<Index>(), 1..=255u8).prop_map(|(i, m)| Mutation::Flip(i, m)),
        2 => (any::<Index>(), 1..40usize).prop_map(|(i, n)| Mutation::Delete(i, n)),
        1 => any::<Index>().prop_map(Mutation::Truncate),
        6 => (any::<Index>(), prop::sample::select(FRAGMENTS)).prop_map(|(i, f)| Mutation::Insert(i, f)),
        1 => (any::<Index>(), 1..200usize, any::<Index>()).prop_map(|(i, n, t)| Mutation::Duplicate(i, n, t)),
        1 => (any::<Index>(), prop_oneof![1..50usize, 1000..30_000usize], any::<bool>())
            .prop_map(|(i, d, c)| Mutation::Nest(i, d, c)),
        1 => (prop_oneof![1..100usize, 10_000..300_000usize], any::<u8>())
            .prop_map(|(n, b)| Mutation::HugeAttribute(n, b)),
    ]
}

fn at(i: &Index, len: usize) -> usize {
    i.index(len + 1)
}

fn apply(mut v: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        match m {
            Mutation::Flip(i, mask) => {
                if !v.is_empty() {
                    let p = i.index(v.len());
                    v[p] ^= mask;
                }
            }
            Mutation::Delete(i, n) => {
                let p = at(i, v.len());
                let end = (p + n).min(v.len());
                v.drain(p..end);
            }
            Mutation::Truncate(i) => {
                let p = at(i, v.len());
                v.truncate(p);
            }
            Mutation::Insert(i, f) => {
                let p = at(i, v.len());
                v.splice(p..p, f.iter().copied());
            }
            Mutation::Duplicate(i, n, t) => {
                let p = at(i, v.len());
                let piece = v[p..(p + n).min(v.len())].to_vec();
                let to = at(t, v.len());
                v.splice(to..to, piece);
            }
            Mutation::Nest(i, depth, close) => {
                let p = at(i, v.len());
                let mut s = "<a>".repeat(*depth);
                if *close {
                    s.push_str(&"</a>".repeat(*depth));
                }
                v.splice(p..p, s.into_bytes());
            }
            Mutation::HugeAttribute(n, b) => {
                // After the first element name, or at the start.
                let p = v
                    .windows(2)
                    .position(|w| w[0] == b'<' && w[1].is_ascii_alphabetic())
                    .map_or(0, |p| {
                        p + 1
                            + v[p + 1..]
                                .iter()
                                .take_while(|c| c.is_ascii_alphanumeric())
                                .count()
                    });
                let mut attr = b" huge=\"".to_vec();
                let fill = if *b == b'"' || *b == b'<' || *b == b'&' {
                    b'v'
                } else {
                    *b
                };
                attr.resize(attr.len() + n, fill);
                attr.push(b'"');
                v.splice(p..p, attr);
            }
        }
    }
    v
}

/// Raw non-ASCII URLs (a warning) next to entities and CDATA: the value-to-source offset mapping
/// has to step over multi-byte characters.
const NON_ASCII_URLS: &str = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
  <url><loc>https://example.com/日本語?q=1&amp;r=東京&#x20;</loc><lastmod>2024-01-01</lastmod></url>\n\
  <url><loc><![CDATA[https://example.com/ü]]>&amp;€</loc></url>\n\
  <url><loc>https://example.com/caf&#233;/€€€?a&lt;b</loc></url>\n\
</urlset>\n";

/// The first four seeds are valid sitemaps; the others have warnings or another encoding.
fn seeds() -> Vec<Vec<u8>> {
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(VALID_INDEX.as_bytes());
    let utf16: Vec<u8> = VALID_SMALL
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    vec![
        VALID_URLSET.as_bytes().to_vec(),
        VALID_INDEX.as_bytes().to_vec(),
        VALID_SMALL.as_bytes().to_vec(),
        bom,
        utf16,
        NON_ASCII_URLS.as_bytes().to_vec(),
    ]
}

/// A mutated sitemap, gzip-compressed before or after the mutations, or not at all.
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(seeds()),
        prop::collection::vec(mutation(), 1..8),
        0..4u8,
    )
        .prop_map(|(seed, muts, gz)| match gz {
            0 => support::gzip(&apply(seed, &muts)),
            1 => apply(support::gzip(&seed), &muts),
            _ => apply(seed, &muts),
        })
}

// ---------------------------------------------------------------------------------------------
// library properties

#[test]
fn the_seeds_are_valid_sitemaps() {
    for seed in seeds().into_iter().take(4) {
        let report = check("sitemap.xml", &seed);
        assert!(
            report.diagnostics.is_empty(),
            "{}: {:?}",
            show(&seed),
            report.diagnostics
        );
    }
}

#[test]
fn arbitrary_bytes() {
    runner(256, 1)
        .run(
            &(name(), prop::collection::vec(any::<u8>(), 0..4096)),
            |(name, bytes)| library_properties(name, &bytes),
        )
        .unwrap();
}

#[test]
fn arbitrary_markup_like_bytes() {
    runner(256, 2)
        .run(
            &(name(), prop::collection::vec(xmlish_byte(), 0..4096)),
            |(name, bytes)| library_properties(name, &bytes),
        )
        .unwrap();
}

#[test]
fn arbitrary_bytes_gzip_wrapped() {
    runner(192, 3)
        .run(
            &(
                name(),
                prop::collection::vec(xmlish_byte(), 0..4096),
                prop::collection::vec(any::<u8>(), 0..64),
                any::<bool>(),
            ),
            |(name, bytes, tail, multi)| {
                // A gzip stream, maybe followed by a second member or by garbage.
                let mut gz = support::gzip(&bytes);
                if multi {
                    gz.extend(support::gzip(&tail));
                } else {
                    gz.extend_from_slice(&tail);
                }
                library_properties(name, &gz)?;
                // A gzip header followed by random bytes.
                let mut fake = vec![0x1f, 0x8b, 8, 0];
                fake.extend_from_slice(&bytes);
                library_properties(name, &fake)
            },
        )
        .unwrap();
}

#[test]
fn mutated_sitemaps() {
    runner(512, 4)
        .run(&(name(), mutated()), |(name, bytes)| {
            library_properties(name, &bytes)
        })
        .unwrap();
}

/// Fixing a mutated sitemap (safe fixes, or with the unsafe ones) never leaves more errors than
/// it had, and a second fix changes nothing (issue 19).
#[test]
fn fixing_mutated_sitemaps_never_adds_errors() {
    use sitemap_lint::fix::{fix_bytes, FixOptions};
    let settings = Settings::default();
    let load = |b: &[u8]| sitemap_lint::pipeline::input::load(b, settings.max_size).unwrap();
    runner(256, 11)
        .run(
            &(name(), mutated(), any::<bool>()),
            |(name, bytes, unsafe_fixes)| {
                let options = FixOptions { unsafe_fixes };
                let fixed = fix_bytes(name, load(&bytes), &settings, options);
                let after = fixed.report.count(sitemap_lint::Severity::Error);
                prop_assert!(
                    after <= fixed.errors_before,
                    "{} errors before, {after} after ({:?}): {}",
                    fixed.errors_before,
                    fixed.by_rule,
                    show(&bytes)
                );
                if let Some(content) = &fixed.content {
                    let again = fix_bytes(name, load(content), &settings, options);
                    prop_assert!(
                        again.content.is_none(),
                        "a second fix changes it again ({:?}): {}",
                        again.by_rule,
                        show(&bytes)
                    );
                }
                Ok(())
            },
        )
        .unwrap();
}

/// Every truncation of a small sitemap, plain and gzip: each is sane, and none that cuts into the
/// document passes without an error (a cut file must never look valid).
#[test]
fn every_truncation_of_a_small_sitemap() {
    let full = VALID_URLSET.as_bytes();
    let end_of_root = VALID_URLSET.rfind("</urlset>").unwrap() + "</urlset>".len();
    for cut in 0..=full.len() {
        let bytes = &full[..cut];
        library_properties("sitemap.xml", bytes).unwrap();
        let report = check("sitemap.xml", bytes);
        if cut < end_of_root {
            assert!(
                report.count(sitemap_lint::Severity::Error) > 0,
                "cut at {cut} passes: {}",
                show(bytes)
            );
        } else {
            assert!(
                report.diagnostics.is_empty(),
                "cut at {cut}: {:?}",
                report.diagnostics
            );
        }
    }
    let gz = support::gzip(full);
    for cut in 0..gz.len() {
        let bytes = &gz[..cut];
        library_properties("sitemap.xml.gz", bytes).unwrap();
        let report = check("sitemap.xml.gz", bytes);
        assert!(
            report.count(sitemap_lint::Severity::Error) > 0,
            "gzip cut at {cut} of {} passes",
            gz.len()
        );
    }
}

/// Every byte of a small sitemap replaced by each markup breaker and invalid byte in turn.
#[test]
fn every_single_byte_substitution_of_a_small_sitemap() {
    let full = VALID_SMALL.as_bytes();
    for at in 0..full.len() {
        for b in [b'<', b'&', b'>', b'"', 0, 0xFF, 0x80, b' '] {
            let mut v = full.to_vec();
            v[at] = b;
            library_properties("sitemap.xml", &v).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// the binary: exit codes and every output format

/// Why `out` is not valid output of `format` for `report` (formats unknown to this test must at
/// least be UTF-8 and name every rule reported).
fn validate(format: &str, out: &[u8], report: &FileReport) -> Result<(), String> {
    let text = std::str::from_utf8(out).map_err(|e| format!("not UTF-8: {e}"))?;
    let n = report.diagnostics.len();
    for d in &report.diagnostics {
        if !text.contains(d.rule.name) {
            return Err(format!("rule {} is not named in the output", d.rule.name));
        }
    }
    let json = || serde_json::from_str::<serde_json::Value>(text).map_err(|e| format!("JSON: {e}"));
    match format {
        "json" => json_agrees(out, report),
        "sarif" => {
            let v = json()?;
            if v["version"] != "2.1.0" {
                return Err("SARIF version is not 2.1.0".into());
            }
            let results = v["runs"][0]["results"]
                .as_array()
                .ok_or("no runs[0].results")?;
            if results.len() != n {
                return Err(format!(
                    "{} SARIF results for {n} diagnostics",
                    results.len()
                ));
            }
            for r in results {
                if r["message"]["text"].as_str().is_none_or(str::is_empty) {
                    return Err(format!("SARIF result without message.text: {r}"));
                }
                if let Some(region) = r["locations"][0]["physicalLocation"].get("region") {
                    if region["startLine"].as_u64().is_some_and(|l| l == 0) {
                        return Err(format!("SARIF startLine 0: {r}"));
                    }
                }
            }
            Ok(())
        }
        "gitlab" => {
            let v = json()?;
            let items = v.as_array().ok_or("GitLab report is not an array")?;
            if items.len() != n {
                return Err(format!("{} GitLab items for {n} diagnostics", items.len()));
            }
            let mut fingerprints = std::collections::HashSet::new();
            for i in items {
                for key in ["description", "check_name", "fingerprint", "severity"] {
                    if i[key].as_str().is_none_or(str::is_empty) {
                        return Err(format!("GitLab item without {key}: {i}"));
                    }
                }
                if i["location"]["path"].as_str().is_none() {
                    return Err(format!("GitLab item without location.path: {i}"));
                }
                if !fingerprints.insert(i["fingerprint"].as_str().unwrap_or("").to_string()) {
                    return Err(format!("duplicate GitLab fingerprint: {i}"));
                }
            }
            Ok(())
        }
        "junit" | "checkstyle" => {
            let doc = roxmltree::Document::parse(text).map_err(|e| format!("XML: {e}"))?;
            let root = doc.root_element().tag_name().name();
            let expected_root: &[&str] = if format == "junit" {
                &["testsuites", "testsuite"]
            } else {
                &["checkstyle"]
            };
            if !expected_root.contains(&root) {
                return Err(format!("root element `{root}`"));
            }
            if format == "checkstyle" {
                let errors = doc
                    .descendants()
                    .filter(|e| e.has_tag_name("error"))
                    .count();
                if errors != n {
                    return Err(format!("{errors} checkstyle errors for {n} diagnostics"));
                }
            }
            Ok(())
        }
        "github" => {
            for line in text.lines().filter(|l| l.starts_with("::")) {
                let cmd = &line[2..];
                let name_end = cmd.find([' ', ':']).unwrap_or(cmd.len());
                let name = &cmd[..name_end];
                if !["error", "warning", "notice", "group", "endgroup"].contains(&name) {
                    return Err(format!("unknown workflow command: {line}"));
                }
                if !cmd[name_end..].contains("::") && name != "endgroup" {
                    return Err(format!("workflow command without `::`: {line}"));
                }
                if let Some(props) = cmd[name_end..].strip_prefix(' ') {
                    let props = &props[..props.find("::").unwrap_or(props.len())];
                    for p in props.split(',') {
                        if !p.contains('=') {
                            return Err(format!("bad property `{p}` in {line}"));
                        }
                    }
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// File names that need escaping in every format.
const NAMES: &[&str] = &[
    "sitemap.xml",
    "sitemap.xml.gz",
    "we&ird <na]]>me> \"q\" 'x'.xml",
    "comma,colon:percent%25.xml",
    "line\nbreak.xml",
    "ünï cödé.xml",
];

#[test]
fn the_binary_exit_code_and_every_output_format() {
    let formats = support::formats();
    eprintln!("formats: {formats:?}");
    let dir = TempDir::new("props-bin");
    runner(40, 5)
        .run(
            &(prop::sample::select(NAMES), mutated()),
            |(name, bytes)| {
                let path = dir.write(name, &bytes);
                let report = check(name, &bytes);
                let expected = support::expected_exit(&[&report]);
                for format in &formats {
                    let o = support::bin()
                        .args(["check", "--color", "always", "--format", format])
                        .arg(&path)
                        .stdin(std::process::Stdio::null())
                        .output()
                        .unwrap();
                    let err = String::from_utf8_lossy(&o.stderr);
                    prop_assert!(!err.contains("panicked"), "--format {format}: {err}");
                    prop_assert_eq!(
                        o.status.code(),
                        Some(expected),
                        "--format {} on {}: {}",
                        format,
                        show(&bytes),
                        err
                    );
                    if let Err(e) = validate(format, &o.stdout, &report) {
                        let mut shown = String::from_utf8_lossy(&o.stdout).into_owned();
                        shown.truncate(3000);
                        return Err(TestCaseError::fail(format!(
                            "--format {format} on {name:?}, {}: {e}\n{shown}",
                            show(&bytes)
                        )));
                    }
                }
                Ok(())
            },
        )
        .unwrap();
}

/// Several files in one run: the exit code is the worst of them.
#[test]
fn exit_code_of_several_files_is_the_worst() {
    let dir = TempDir::new("props-several");
    let clean = dir.write("clean.xml", VALID_URLSET.as_bytes());
    let mut broken = VALID_URLSET.as_bytes().to_vec();
    broken.truncate(broken.len() / 2);
    let broken = dir.write("broken.xml", &broken);
    for (paths, code) in [
        (vec![&clean], 0),
        (vec![&clean, &broken], 1),
        (vec![&broken, &clean], 1),
    ] {
        let o = support::bin()
            .arg("check")
            .args(&paths)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(code), "{paths:?}");
    }
}

/// Regression (found by `mutated_sitemaps`): on a line longer than 200 bytes, the human renderer
/// cut a label window inside a multi-byte character and panicked, killing the whole run (exit
/// 101) — for any `<loc>` with about 70 or more CJK or `€` characters.
#[test]
fn a_long_non_ascii_loc_renders_in_every_format() {
    let xml = format!(
        "<urlset xmlns=\"{}\"><url><loc>https://example.com/{}</loc></url></urlset>",
        support::NS,
        "€".repeat(100)
    );
    library_properties("sitemap.xml", xml.as_bytes()).unwrap();
    let dir = TempDir::new("props-long-non-ascii");
    let path = dir.write("sitemap.xml", xml.as_bytes());
    for format in support::formats() {
        let o = support::bin()
            .args(["check", "--color", "never", "--format", &format])
            .arg(&path)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "--format {format}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Regression (found by `cargo fuzz`): mapping a value offset back to the source sliced the text
/// 12 bytes after an entity without looking for a character boundary, so `&amp;` followed by
/// multi-byte characters in a `<loc>` made `loc-not-ascii` panic (an internal error, exit 2).
#[test]
fn entities_followed_by_multibyte_characters_in_a_value() {
    let ns = support::NS;
    for (reference, chars) in [
        ("&amp;", "€€€"),
        ("&amp;", "日本語"),
        ("&#233;", "é€😀"),
        ("&lt;", "ü€"),
        ("&#x20;", "€€€€"),
    ] {
        for pad in 0..4 {
            let xml = format!(
                "<urlset xmlns=\"{ns}\"><url><loc>https://example.com/?a{}{reference}{chars}</loc></url></urlset>",
                "x".repeat(pad)
            );
            library_properties("sitemap.xml", xml.as_bytes()).unwrap();
        }
    }
    let o = support::bin()
        .args(["check", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(
                format!("<urlset xmlns=\"{ns}\"><url><loc>https://example.com/?a&amp;€€€</loc></url></urlset>")
                    .as_bytes(),
            )?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "a warning only: {}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// Hosts and paths mixing ASCII with multi-byte characters (`例え.jp`, `éé.com`, `www.` prefixes
/// of every length), as a `<loc>` and as `--sitemap-url`: the scope rules compare and cut them by
/// byte counts, which once fell inside a character (issue 22). Never an internal error.
#[test]
fn non_ascii_hosts_against_a_sitemap_url() {
    let piece = prop::sample::select(vec![
        "w", "ww", "www.", "WWW.", "e", ".", "-", "例", "え", "é", "ß", "1", "xn--", ":8080",
    ]);
    let host = prop::collection::vec(piece, 1..8).prop_map(|v| v.concat());
    let path = prop::sample::select(vec!["", "a/", "例/", "é/b/", "%C3%A9/"]);
    // Half the cases pair a host with an ASCII one exactly 4 bytes shorter (`例え.jp` and
    // `e.com`), either way round: where a `www.` test cuts.
    runner(512, 11)
        .run(
            &(host.clone(), host, path.clone(), path, any::<bool>(), 0..4u8),
            |(loc_host, base_host, loc_dir, base_dir, is_index, pairing)| {
                let shorter = |h: &str| "e".repeat(h.len().saturating_sub(4).max(1));
                let (loc_host, base_host) = match pairing {
                    0 => (loc_host.clone(), shorter(&loc_host)),
                    1 => (shorter(&base_host), base_host),
                    _ => (loc_host, base_host),
                };
                let (root, entry) = if is_index {
                    ("sitemapindex", "sitemap")
                } else {
                    ("urlset", "url")
                };
                let xml = format!(
                    "<{root} xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><{entry}><loc>https://{loc_host}/{loc_dir}p</loc></{entry}></{root}>"
                );
                let settings = Settings {
                    sitemap_url: Some(format!("https://{base_host}/{base_dir}sitemap.xml")),
                    ..Settings::default()
                };
                let what = || format!("{xml} served at {:?}", settings.sitemap_url);
                support::quietly(|| {
                    let report = check_reader("sitemap.xml", xml.as_bytes(), &settings).unwrap();
                    assert_report_sane(&report, &what);
                })
                .map_err(TestCaseError::fail)
            },
        )
        .unwrap();
}
