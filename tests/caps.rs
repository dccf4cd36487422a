//! Caps, suppressions and summary counts (issues 17, 18 class 3, 23): a rule keeps at most
//! `MAX_REPORTS_PER_RULE` findings per file and counts the rest, the findings kept are the first
//! unsuppressed ones in document order, and the counts are exact. The same large file gives the
//! same report in every mode: one thread or several, split into pieces or parsed whole, a file or
//! stdin, text or JSON.

use std::path::Path;

use sitemap_lint::fix::{fix_bytes, FixOptions};
use sitemap_lint::rule::MAX_REPORTS_PER_RULE;
use sitemap_lint::{check_bytes, pipeline::input, FileReport, Settings, Severity};

mod support;
use support::{run_in, stdout, TempDir};

/// 2024-11-21T12:00:00Z, as in tests/corpus.rs.
const NOW: i64 = 1_732_190_400;
const NOW_ARG: &str = "2024-11-21T12:00:00Z";

const IMAGE_NS: &str = "http://www.google.com/schemas/sitemap-image/1.1";
const XHTML_NS: &str = "http://www.w3.org/1999/xhtml";

/// `n` entries, each with three findings: no hreflang self-link (`hreflang-self-missing`), a
/// deprecated `<image:caption>` (`extension-deprecated`) and a lastmod after [`NOW`]
/// (`lastmod-future`). With `suppressed`, the first `suppressed` entries carry a comment that
/// suppresses `lastmod-future`.
fn findings_file(n: usize, suppressed: usize) -> String {
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"{}\" xmlns:image=\"{IMAGE_NS}\" xmlns:xhtml=\"{XHTML_NS}\">\n",
        support::NS
    );
    for i in 0..n {
        if i < suppressed {
            s.push_str("  <!-- sitemap-lint: allow(lastmod-future) generated ahead -->\n");
        }
        s.push_str(&format!(
            "  <url>\n    <loc>https://www.example.com/en/p{i}</loc>\n    <lastmod>2030-01-{:02}</lastmod>\n    \
             <xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"https://www.example.com/de/p{i}\"/>\n    \
             <image:image><image:loc>https://www.example.com/i{i}.jpg</image:loc><image:caption>c</image:caption></image:image>\n  </url>\n",
            i % 28 + 1
        ));
    }
    s + "</urlset>\n"
}

fn settings(threads: usize, split_min: usize) -> Settings {
    Settings {
        now: NOW,
        threads,
        split_min,
        ..Settings::default()
    }
}

fn check(text: &str, settings: &Settings) -> FileReport {
    let bytes = input::load(text.as_bytes(), settings.max_size).unwrap();
    check_bytes("findings.xml", bytes, settings)
}

/// Everything a renderer can show of a report, and its counts.
fn dump(r: &FileReport) -> String {
    let mut out = String::new();
    for d in &r.diagnostics {
        out.push_str(&format!(
            "{} {:?} {:?} {:?} {:?} {:?} {:?}\n",
            d.rule.name, d.severity, d.message, d.primary.span, d.secondary, d.notes, d.help
        ));
    }
    for o in &r.omitted {
        out.push_str(&format!(
            "omitted {} {:?} {}\n",
            o.rule.name, o.severity, o.count
        ));
    }
    out.push_str(&format!(
        "errors {} warnings {} infos {}\n",
        r.count(Severity::Error),
        r.count(Severity::Warning),
        r.count(Severity::Info)
    ));
    out
}

fn shown(r: &FileReport, rule: &str) -> usize {
    r.diagnostics.iter().filter(|d| d.rule.name == rule).count()
}

fn omitted(r: &FileReport, rule: &str) -> usize {
    r.omitted
        .iter()
        .filter(|o| o.rule.name == rule)
        .map(|o| o.count)
        .sum()
}

/// One thread parsing whole; threads over batches of the whole parse (a file with a suppression
/// comment is not split); pieces on several threads, one entry each at the smallest.
fn modes() -> Vec<(&'static str, Settings)> {
    vec![
        ("one thread", settings(1, usize::MAX)),
        ("one thread, split_min 1", settings(1, 1)),
        ("three threads, split_min 1", settings(3, 1)),
        ("three threads, split_min 64 KiB", settings(3, 64 << 10)),
        (
            "two threads, default split",
            settings(2, Settings::default().split_min),
        ),
    ]
}

#[test]
fn past_the_cap_findings_are_counted_exactly_and_the_same_in_every_mode() {
    let n = 2_500;
    let text = findings_file(n, 0);
    let mut first: Option<(String, String)> = None;
    for (mode, settings) in modes() {
        let r = check(&text, &settings);
        for rule in [
            "hreflang-self-missing",
            "extension-deprecated",
            "lastmod-future",
        ] {
            assert_eq!(shown(&r, rule), MAX_REPORTS_PER_RULE, "{mode}: {rule}");
            assert_eq!(
                omitted(&r, rule),
                n - MAX_REPORTS_PER_RULE,
                "{mode}: {rule}"
            );
        }
        // The kept ones are the first in document order, and the last one notes the rest.
        let lastmods: Vec<_> = r
            .diagnostics
            .iter()
            .filter(|d| d.rule.name == "lastmod-future")
            .collect();
        assert!(lastmods[0].message.contains("2030-01-01"), "{mode}");
        let note = format!(
            "{} more `lastmod-future` diagnostics in this file were not reported",
            n - MAX_REPORTS_PER_RULE
        );
        assert!(
            lastmods
                .last()
                .unwrap()
                .notes
                .iter()
                .any(|x| x.starts_with(&note)),
            "{mode}: {:?}",
            lastmods.last().unwrap().notes
        );
        // Counts: everything found, shown or not.
        assert_eq!(r.count(Severity::Warning), 2 * n, "{mode}");
        assert_eq!(r.count(Severity::Info), n, "{mode}");
        let d = dump(&r);
        match &first {
            None => first = Some((mode.to_string(), d)),
            Some((m0, d0)) => assert!(d == *d0, "{mode} differs from {m0}"),
        }
    }
}

#[test]
fn suppressed_findings_do_not_count_against_the_cap_in_any_mode() {
    let (n, suppressed) = (1_500, 10);
    let text = findings_file(n, suppressed);
    let mut first: Option<(String, String)> = None;
    for (mode, settings) in modes() {
        let r = check(&text, &settings);
        // The first 1,000 findings that are not suppressed: entries 11 to 1,010.
        assert_eq!(shown(&r, "lastmod-future"), MAX_REPORTS_PER_RULE, "{mode}");
        assert_eq!(
            omitted(&r, "lastmod-future"),
            n - suppressed - MAX_REPORTS_PER_RULE,
            "{mode}"
        );
        let first_lastmod = r
            .diagnostics
            .iter()
            .find(|d| d.rule.name == "lastmod-future")
            .unwrap();
        let at = text.find("<loc>https://www.example.com/en/p10<").unwrap();
        assert!(first_lastmod.primary.span.start > at, "{mode}");
        assert!(
            !r.diagnostics
                .iter()
                .any(|d| d.rule.name == "unused-suppression"),
            "{mode}: every suppression was used"
        );
        assert_eq!(r.count(Severity::Info), n - suppressed, "{mode}");
        let d = dump(&r);
        match &first {
            None => first = Some((mode.to_string(), d)),
            Some((m0, d0)) => assert!(d == *d0, "{mode} differs from {m0}"),
        }
    }
}

#[test]
fn a_suppression_that_only_covers_findings_past_the_cap_is_used() {
    // 1,200 entries; the comment stands before the last one, whose `lastmod-future` lies past
    // the cap: it is suppressed (not counted), and the suppression is not reported as unused.
    let n = 1_200;
    let mut text = findings_file(n, 0);
    let last = text.rfind("  <url>").unwrap();
    text.insert_str(last, "  <!-- sitemap-lint: allow(lastmod-future) -->\n");
    for (mode, settings) in modes() {
        let r = check(&text, &settings);
        assert_eq!(
            omitted(&r, "lastmod-future"),
            n - 1 - MAX_REPORTS_PER_RULE,
            "{mode}"
        );
        assert!(
            !r.diagnostics
                .iter()
                .any(|d| d.rule.name == "unused-suppression"),
            "{mode}"
        );
    }
}

/// A fresh temporary directory for one test, removed when the test drops it.
fn tempdir(name: &str) -> TempDir {
    TempDir::new(&format!("caps-{name}"))
}

fn cli(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> (String, String, Option<i32>) {
    let mut all = vec!["check", "--color", "never", "--now", NOW_ARG];
    all.extend_from_slice(args);
    let o = run_in(dir, &all, stdin);
    (stdout(&o), support::stderr(&o), o.status.code())
}

#[test]
fn the_cli_prints_and_counts_the_same_for_every_jobs_stdin_and_format() {
    let d = tempdir("modes");
    // Large enough to be split (1 MiB) on several threads.
    let n = 4_000;
    let text = findings_file(n, 0);
    assert!(text.len() > 1 << 20);
    std::fs::write(d.join("findings.xml"), &text).unwrap();
    let name = ["--stdin-filename", "findings.xml", "-"];
    for format in ["human", "json"] {
        let runs = [
            (
                "default",
                cli(&d, &["--format", format, "findings.xml"], None),
            ),
            (
                "--jobs 1",
                cli(
                    &d,
                    &["--format", format, "--jobs", "1", "findings.xml"],
                    None,
                ),
            ),
            (
                "--jobs 3",
                cli(
                    &d,
                    &["--format", format, "--jobs", "3", "findings.xml"],
                    None,
                ),
            ),
            (
                "stdin",
                cli(
                    &d,
                    &[&["--format", format][..], &name[..]].concat(),
                    Some(text.as_bytes()),
                ),
            ),
        ];
        let (_, (out0, err0, code0)) = &runs[0];
        assert_eq!(*code0, Some(0), "{format}: warnings and infos only: {err0}");
        for (mode, (out, err, code)) in &runs[1..] {
            assert!(
                out == out0,
                "{format}: {mode} prints otherwise than the default"
            );
            assert_eq!(err, err0, "{format}: {mode}");
            assert_eq!(code, code0, "{format}: {mode}");
        }
        if format == "json" {
            let v: serde_json::Value = serde_json::from_str(out0).unwrap();
            assert_eq!(
                v["summary"]["warnings"],
                2 * n,
                "counts include what the cap left out"
            );
            assert_eq!(v["summary"]["infos"], n);
            assert_eq!(
                v["files"][0]["diagnostics"].as_array().unwrap().len(),
                3 * MAX_REPORTS_PER_RULE
            );
        }
        if format == "human" {
            assert!(
                err0.contains(&format!("{} warnings, {n} infos", 2 * n)),
                "{err0}"
            );
        }
    }
    // --quiet: the errors only (there are none), the counts too.
    let (out, err, code) = cli(&d, &["--quiet", "--format", "json", "findings.xml"], None);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["summary"]["warnings"], 0);
    assert_eq!(v["summary"]["infos"], 0);
}

#[test]
fn an_inline_comment_silences_a_duplicate_loc_across_files() {
    let d = tempdir("dup");
    let head = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"{}\">\n",
        support::NS
    );
    std::fs::write(
        d.join("a.xml"),
        format!("{head}  <url><loc>https://www.example.com/shared</loc></url>\n  <url><loc>https://www.example.com/a</loc></url>\n</urlset>\n"),
    )
    .unwrap();
    let b = |comment: &str| {
        format!("{head}  <url><loc>https://www.example.com/b</loc></url>\n{comment}  <url><loc>https://www.example.com/shared</loc></url>\n</urlset>\n")
    };
    // Without the comment: reported in b.xml.
    std::fs::write(d.join("b.xml"), b("")).unwrap();
    let (out, err, _) = cli(&d, &["--format", "concise", "a.xml", "b.xml"], None);
    assert!(
        out.contains("b.xml:4:") && out.contains("[duplicate-loc]"),
        "{out}{err}"
    );
    // With it: silenced, and the suppression counts as used.
    std::fs::write(
        d.join("b.xml"),
        b("  <!-- sitemap-lint: allow(duplicate-loc) listed in a.xml on purpose -->\n"),
    )
    .unwrap();
    for jobs in ["1", "2"] {
        let (out, err, code) = cli(
            &d,
            &["--format", "concise", "--jobs", jobs, "a.xml", "b.xml"],
            None,
        );
        assert!(!out.contains("duplicate-loc"), "{out}{err}");
        assert!(!out.contains("unused-suppression"), "{out}{err}");
        assert_eq!(code, Some(0), "{out}{err}");
    }
    // A comment that names another rule leaves the finding, and is itself unused.
    std::fs::write(
        d.join("b.xml"),
        b("  <!-- sitemap-lint: allow(loc-length) -->\n"),
    )
    .unwrap();
    let (out, err, _) = cli(&d, &["--format", "concise", "a.xml", "b.xml"], None);
    assert!(out.contains("[duplicate-loc]"), "{out}{err}");
    assert!(out.contains("[unused-suppression]"), "{out}{err}");
}

/// `n` entries, each with two fixable findings: `<changefreq>Daily</changefreq>`
/// (`changefreq-invalid`, an error, fixed to `daily`) and a lastmod without seconds
/// (`lastmod-w3c-only`, a warning, fixed by adding `:00`).
fn fixable_file(n: usize) -> String {
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"{}\">\n",
        support::NS
    );
    for i in 0..n {
        s.push_str(&format!(
            "  <url>\n    <loc>https://www.example.com/p{i}</loc>\n    \
             <lastmod>2024-01-01T10:00Z</lastmod>\n    <changefreq>Daily</changefreq>\n  </url>\n"
        ));
    }
    s + "</urlset>\n"
}

/// With fixes wanted (`Settings::fixing`, as `--fix` checks), findings past the cap of a rule
/// with a fix are built for it, but the report and its counts are those of a plain check, in
/// every mode; `--fix` then repairs them all in one pass.
#[test]
fn fixes_past_the_cap_are_applied_and_the_counts_stay_those_of_a_check() {
    let n = 2_500;
    let text = fixable_file(n);
    let mut first: Option<(String, String)> = None;
    for (mode, base) in modes() {
        for fixing in [false, true] {
            let settings = Settings {
                fixing,
                ..base.clone()
            };
            let r = check(&text, &settings);
            assert!(
                r.diagnostics.iter().all(|d| !d.is_beyond_cap()),
                "{mode}, fixing {fixing}: a finding kept for its fix only is in the report"
            );
            for rule in ["changefreq-invalid", "lastmod-w3c-only"] {
                assert_eq!(shown(&r, rule), MAX_REPORTS_PER_RULE, "{mode}: {rule}");
                assert_eq!(
                    omitted(&r, rule),
                    n - MAX_REPORTS_PER_RULE,
                    "{mode}: {rule}"
                );
            }
            assert_eq!(r.count(Severity::Error), n, "{mode}, fixing {fixing}");
            assert_eq!(r.count(Severity::Warning), n, "{mode}, fixing {fixing}");
            let d = dump(&r);
            let label = format!("{mode}, fixing {fixing}");
            match &first {
                None => first = Some((label, d)),
                Some((m0, d0)) => assert!(d == *d0, "{label} differs from {m0}"),
            }
        }
        let bytes = input::load(text.as_bytes(), base.max_size).unwrap();
        let fixed = fix_bytes("findings.xml", bytes, &base, FixOptions::default());
        assert_eq!(fixed.by_rule.get("changefreq-invalid"), Some(&n), "{mode}");
        assert_eq!(fixed.by_rule.get("lastmod-w3c-only"), Some(&n), "{mode}");
        assert_eq!(fixed.passes, 2, "{mode}: every fix in one pass");
        assert_eq!(fixed.errors_before, n, "{mode}");
        assert_eq!(
            fixed.report.count(Severity::Error) + fixed.report.count(Severity::Warning),
            0,
            "{mode}: {}",
            dump(&fixed.report)
        );
        let content = String::from_utf8(fixed.content.unwrap()).unwrap();
        assert_eq!(content.matches("<changefreq>daily</changefreq>").count(), n);
        assert_eq!(content.matches("T10:00:00Z").count(), n);
    }
}
