//! Text sitemaps (issue 20): which inputs are one (name, declared `text/plain`, content), the
//! `<loc>` rules on every line at the URL's span, the limits, encodings and gzip, the line rules
//! and their fixes, across files and under an index, and every output format.

mod support;

use std::collections::BTreeSet;

use sitemap_lint::pipeline::input::{self, Bytes};
use sitemap_lint::{check_input, check_reader, FileReport, InputOptions, Settings};
use support::{gzip, run_in, stdout, TempDir};

fn check(name: &str, bytes: &[u8]) -> FileReport {
    check_with(name, bytes, &Settings::default())
}

fn check_with(name: &str, bytes: &[u8], settings: &Settings) -> FileReport {
    let report = check_reader(name, bytes, settings).unwrap();
    support::assert_report_sane(&report, &|| name.to_string());
    report
}

fn rules(report: &FileReport) -> BTreeSet<&'static str> {
    report.diagnostics.iter().map(|d| d.rule.name).collect()
}

/// `(rule, the text its primary span covers)` of every finding.
fn spans(report: &FileReport) -> Vec<(&'static str, String)> {
    let text = report.source.text();
    report
        .diagnostics
        .iter()
        .map(|d| (d.rule.name, text[d.primary.span.clone()].to_string()))
        .collect()
}

fn loaded(bytes: &[u8]) -> Bytes {
    input::load(bytes, Settings::default().max_size).unwrap()
}

const CLEAN: &str = "https://www.example.com/\nhttps://www.example.com/about\n";

#[test]
fn a_txt_file_of_urls_is_a_text_sitemap_and_a_clean_one_has_no_finding() {
    for name in ["sitemap.txt", "urls.TXT", "dir/sitemap.txt.gz"] {
        let bytes = if name.ends_with(".gz") {
            gzip(CLEAN.as_bytes())
        } else {
            CLEAN.as_bytes().to_vec()
        };
        let report = check(name, &bytes);
        assert!(
            report.diagnostics.is_empty(),
            "{name}: {:?}",
            spans(&report)
        );
        assert_eq!(report.site.urls(), 2, "{name}");
    }
    // Every rule on, opt-in ones included: none mistakes the lines for XML.
    let mut all = Settings::default();
    for meta in sitemap_lint::rules::metas() {
        all.overrides.insert(meta.name, Some(meta.default_severity));
    }
    let report = check_with("sitemap.txt", CLEAN.as_bytes(), &all);
    assert!(report.diagnostics.is_empty(), "{:?}", spans(&report));
}

#[test]
fn the_name_or_a_declared_text_type_decides_and_xml_content_stays_xml() {
    // Text under another name: today's finding, with a hint at the name.
    let report = check("sitemap.xml", CLEAN.as_bytes());
    assert_eq!(rules(&report), BTreeSet::from(["xml-syntax"]));
    let help = report.diagnostics[0].help.as_deref().unwrap_or("");
    assert!(help.contains("`*.txt`"), "{help}");
    // Declared `text/plain` (what the HTTP stage passes): a text sitemap whatever the name.
    let declared = InputOptions {
        declared_text: true,
    };
    let report = check_input(
        "https://www.example.com/urls",
        loaded(CLEAN.as_bytes()),
        &Settings::default(),
        declared,
    );
    assert!(report.diagnostics.is_empty(), "{:?}", spans(&report));
    assert_eq!(report.site.urls(), 2);
    // A URL's query does not hide its `.txt` name.
    let report = check_input(
        "https://www.example.com/sitemap.txt?v=3",
        loaded(b"https://www.example.com/ x\n"),
        &Settings::default(),
        InputOptions::default(),
    );
    assert_eq!(rules(&report), BTreeSet::from(["text-line-invalid"]));
    // XML named `.txt` (or declared text) is checked as XML.
    let xml = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://www.example.com/ x</loc></url></urlset>\n";
    for report in [
        check("sitemap.txt", xml.as_bytes()),
        check_input("u", loaded(xml.as_bytes()), &Settings::default(), declared),
    ] {
        assert_eq!(rules(&report), BTreeSet::from(["loc-invalid"]));
    }
}

#[test]
fn loc_rules_judge_each_line_at_the_url() {
    let text = "https://www.example.com/\n/about\nhttp://localhost:3000/x\nhttps://www.example.com/\nhttps://www.example.com/caf\u{e9}\nhttps://www.example.com/a#top\n";
    let mut settings = Settings::default();
    settings
        .overrides
        .insert("loc-fragment", Some(sitemap_lint::Severity::Warning));
    let found = spans(&check_with("sitemap.txt", text.as_bytes(), &settings));
    for want in [
        ("loc-invalid", "/about"),
        ("loc-private-host", "localhost"),
        ("loc-mixed-hosts", "localhost"),
        ("duplicate-loc", "https://www.example.com/"),
        ("loc-not-ascii", "\u{e9}"),
        ("loc-fragment", "#top"),
    ] {
        assert!(
            found.iter().any(|(r, s)| *r == want.0 && s == want.1),
            "{want:?} not in {found:?}"
        );
    }
    // The duplicate is the fourth line, not the first.
    let report = check_with("sitemap.txt", text.as_bytes(), &settings);
    let dup = report
        .diagnostics
        .iter()
        .find(|d| d.rule.name == "duplicate-loc")
        .unwrap();
    assert_eq!(report.source.position(dup.primary.span.start).line, 4);
    // Scope, with the sitemap's URL; length, with the configured limit.
    settings.sitemap_url = Some("https://www.example.com/shop/sitemap.txt".into());
    settings.max_url_length = 30;
    let found = spans(&check_with(
        "sitemap.txt",
        b"https://www.example.com/shop/a\nhttps://www.example.com/blog\nhttps://www.example.com/shop/a-long-one\n",
        &settings,
    ));
    assert!(
        found
            .iter()
            .any(|(r, s)| *r == "loc-outside-scope" && s == "/blog"),
        "{found:?}"
    );
    assert!(found.iter().any(|(r, _)| *r == "loc-length"), "{found:?}");
}

#[test]
fn line_rules_and_what_is_normal() {
    // A final newline, CRLF, CR line ends and a byte-order mark are normal.
    for text in [
        "https://www.example.com/\n",
        "https://www.example.com/",
        "\u{feff}https://www.example.com/\r\nhttps://www.example.com/b\r\n",
        "https://www.example.com/\rhttps://www.example.com/b\r",
    ] {
        let report = check("sitemap.txt", text.as_bytes());
        assert!(
            report.diagnostics.is_empty(),
            "{text:?}: {:?}",
            spans(&report)
        );
    }
    let report = check(
        "sitemap.txt",
        b"# list\nhttps://www.example.com/ 2024-01-01\n\n\n  https://www.example.com/b\t\n\n",
    );
    let found = spans(&report);
    assert_eq!(
        found,
        [
            ("text-line-invalid", "# list".to_string()),
            (
                "text-line-invalid",
                "https://www.example.com/ 2024-01-01".to_string()
            ),
            ("text-blank-line", String::new()),
            ("text-line-whitespace", "  ".to_string()),
            ("text-blank-line", String::new()),
        ]
    );
    let lines: Vec<usize> = report
        .diagnostics
        .iter()
        .map(|d| report.source.position(d.primary.span.start).line)
        .collect();
    assert_eq!(lines, [1, 2, 3, 5, 6]);
    assert!(report.diagnostics[2].message.contains("2 blank lines"));
    // Only blank lines: empty; lines that are not URLs: malformed, not empty.
    assert_eq!(
        rules(&check("sitemap.txt", b"\n\n")),
        BTreeSet::from(["empty-sitemap", "text-blank-line"])
    );
    assert_eq!(
        rules(&check("sitemap.txt", b"")),
        BTreeSet::from(["empty-sitemap"])
    );
    assert_eq!(
        rules(&check("sitemap.txt", b"not a url\n")),
        BTreeSet::from(["text-line-invalid"])
    );
}

/// The text with every fix of `report` applied (edits of one fix never overlap another's here).
fn fixed(report: &FileReport, unsafe_too: bool) -> String {
    let mut edits: Vec<_> = report
        .diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .filter(|f| unsafe_too || f.applicability == sitemap_lint::diagnostic::Applicability::Safe)
        .flat_map(|f| f.edits.iter().cloned())
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.range.start));
    let mut text = report.source.text().to_string();
    for e in edits {
        text.replace_range(e.range.clone(), &e.replacement);
    }
    text
}

#[test]
fn fixes_leave_a_clean_text_sitemap() {
    let text = "# generated\r\n\r\n  https://www.example.com/\t\r\nhttps://www.example.com/a https://www.example.com/b\r\n\r\n";
    let report = check("sitemap.txt", text.as_bytes());
    assert_eq!(
        fixed(&report, false),
        "https://www.example.com/\r\nhttps://www.example.com/a https://www.example.com/b\r\n"
    );
    let all = fixed(&report, true);
    assert_eq!(
        all,
        "https://www.example.com/\r\nhttps://www.example.com/a\r\nhttps://www.example.com/b\r\n"
    );
    assert!(check("sitemap.txt", all.as_bytes()).diagnostics.is_empty());
}

#[test]
fn limits_encodings_and_gzip_apply_to_text_sitemaps() {
    // 50,001 URLs: `too-many-entries` at the 50,001st line.
    let many: String = (1..=50_001)
        .map(|i| format!("https://www.example.com/p{i}\n"))
        .collect();
    let report = check("sitemap.txt.gz", &gzip(many.as_bytes()));
    let found = spans(&report);
    assert_eq!(
        found,
        [(
            "too-many-entries",
            "https://www.example.com/p50001".to_string()
        )]
    );
    assert_eq!(
        report
            .source
            .position(report.diagnostics[0].primary.span.start)
            .line,
        50_001
    );
    // The size cap (here lowered) and its finding.
    let settings = Settings {
        max_size: 1_000,
        ..Settings::default()
    };
    let report = check_with("sitemap.txt", many.as_bytes(), &settings);
    assert_eq!(rules(&report), BTreeSet::from(["input-too-large"]));
    // Bytes that are not UTF-8: one finding, not also the URL rules' on that line.
    let report = check(
        "sitemap.txt",
        b"https://www.example.com/\nhttps://www.example.com/caf\xe9\n",
    );
    assert_eq!(rules(&report), BTreeSet::from(["invalid-utf8"]));
    // UTF-16 is decoded and reported once.
    let utf16: Vec<u8> = "\u{feff}https://www.example.com/\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_eq!(
        rules(&check("sitemap.txt", &utf16)),
        BTreeSet::from(["encoding-not-utf8"])
    );
    // gzip twice, and a plain file named `.gz`.
    let twice = gzip(&gzip(CLEAN.as_bytes()));
    assert_eq!(
        rules(&check("sitemap.txt.gz", &twice)),
        BTreeSet::from(["gzip-invalid"])
    );
    assert_eq!(
        rules(&check("sitemap.txt.gz", CLEAN.as_bytes())),
        BTreeSet::from(["gzip-extension-mismatch"])
    );
}

#[test]
fn duplicates_across_files_and_index_children_named_txt() {
    let dir = TempDir::new("text-set");
    dir.write(
        "index.xml",
        b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n  <sitemap><loc>https://www.example.com/sitemap-pages.txt</loc></sitemap>\n  <sitemap><loc>https://www.example.com/sitemap-posts.xml</loc></sitemap>\n</sitemapindex>\n",
    );
    // A markup line must not make the child look like an index (it is sniffed before it is
    // checked: it comes after `index.xml` in output order).
    dir.write(
        "sitemap-pages.txt",
        b"https://www.example.com/\nhttps://www.example.com/about\n<sitemapindex>\n",
    );
    dir.write(
        "sitemap-posts.xml",
        b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n  <url><loc>https://www.example.com/about</loc></url>\n</urlset>\n",
    );
    let o = run_in(dir.path(), &["check", "--format", "concise", "."], None);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("sitemap-pages.txt:3:1: error: markup in a text sitemap"),
        "{out}"
    );
    assert!(
        out.contains("sitemap-posts.xml:3:13: warning: duplicate URL: also listed in `sitemap-pages.txt` of this set [duplicate-loc]"),
        "{out}"
    );
    assert!(!out.contains("[index-child]"), "{out}");
    // With `--site-root`, a `.txt` child missing locally is reported like any other.
    dir.write(
        "index.xml",
        b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n  <sitemap><loc>https://www.example.com/sitemap-gone.txt</loc></sitemap>\n</sitemapindex>\n",
    );
    let o = run_in(
        dir.path(),
        &[
            "check",
            "--format",
            "concise",
            "--site-root",
            ".",
            "index.xml",
        ],
        None,
    );
    assert!(stdout(&o).contains("[index-child]"), "{}", stdout(&o));
}

#[test]
fn stdin_is_a_text_sitemap_by_its_name() {
    let dir = TempDir::new("text-stdin");
    let input = b"https://www.example.com/\n# note\n";
    let o = run_in(
        dir.path(),
        &[
            "check",
            "--format",
            "concise",
            "--stdin-filename",
            "urls.txt",
            "-",
        ],
        Some(input),
    );
    assert!(
        stdout(&o).contains("urls.txt:2:1: error: comment in a text sitemap"),
        "{}",
        stdout(&o)
    );
    let o = run_in(
        dir.path(),
        &["check", "--format", "concise", "-"],
        Some(input),
    );
    assert!(stdout(&o).contains("[xml-syntax]"), "{}", stdout(&o));
}

#[test]
fn every_output_format_reports_text_sitemap_lines() {
    let dir = TempDir::new("text-formats");
    dir.write("sitemap.txt", b"https://www.example.com/\n\n# note\n");
    for format in support::formats() {
        let o = run_in(dir.path(), &["check", "--format", &format, "."], None);
        assert_eq!(o.status.code(), Some(1), "{format}");
        let out = stdout(&o);
        for rule in ["text-blank-line", "text-line-invalid"] {
            assert!(out.contains(rule), "{format}: {rule} missing:\n{out}");
        }
        assert!(out.contains("sitemap.txt"), "{format}:\n{out}");
    }
}
