//! A file checked in pieces, on one thread or several, gives exactly the report of the file
//! checked whole.
//!
//! Every file of `corpus/` and of `../shared/corpus` (real sitemaps and peers' fixtures; skipped
//! with a notice when absent, never with `CI=true`) is checked three times: on one thread, parsed
//! whole (`split_min` at its largest); and with `split_min` at 1 byte, which cuts the file after
//! every entry (up to 256 pieces, see `src/pipeline/split.rs`), on one thread (the pieces in
//! turn, as `--jobs 1` does) and on three (its entries one per batch when it is not split). Diagnostics (rule,
//! severity, message, every span, label, note and help), the per-file summary and the text must be
//! the same. A mutated copy of each file (an entry's end tag broken in the middle of the file)
//! checks the fallback: pieces that do not parse fall back to the whole-file parse.

use std::fs;
use std::path::{Path, PathBuf};

use sitemap_lint::pipeline::input;
use sitemap_lint::{check_reader, engine, report, rules, FileReport, Settings};

/// "Now" for every file (as in tests/corpus.rs): 2024-11-21T12:00:00Z.
const NOW: i64 = 1_732_190_400;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
            continue;
        }
        let name = p.file_name().unwrap_or_default().to_string_lossy();
        if [".expected", ".args", ".md", ".tsv", ".xsd"]
            .iter()
            .any(|s| name.ends_with(s))
        {
            continue;
        }
        out.push(p);
    }
}

fn settings(path: &Path) -> Settings {
    let mut settings = Settings {
        now: NOW,
        threads: 1,
        // Parsed whole, whatever its size.
        split_min: usize::MAX,
        ..Settings::default()
    };
    // Every rule on, the opt-in ones too.
    for meta in rules::ALL.iter().map(|r| r.meta()).filter(|m| m.opt_in) {
        settings
            .overrides
            .insert(meta.name, Some(meta.default_severity));
    }
    if let Ok(args) = fs::read_to_string(format!("{}.args", path.display())) {
        if let ["--sitemap-url", url] = args.split_whitespace().collect::<Vec<_>>()[..] {
            settings.sitemap_url = Some(url.to_string());
        }
    }
    settings
}

/// Everything of a report that a renderer can show.
fn dump(report: &FileReport) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        out.push_str(&format!(
            "{} {:?} {:?} {:?} {:?} {:?} {:?} {:?}\n",
            d.rule.name,
            d.severity,
            d.message,
            d.primary.span,
            d.primary.message,
            d.secondary
                .iter()
                .map(|l| (l.span.clone(), l.message.clone()))
                .collect::<Vec<_>>(),
            d.notes,
            d.help
        ));
    }
    for o in &report.omitted {
        out.push_str(&format!(
            "omitted {} {:?} {}\n",
            o.rule.name, o.severity, o.count
        ));
    }
    out.push_str(&format!("{:?}\n", report.site));
    out
}

/// Compares the whole file with its pieces on one and on three threads, on `bytes`; returns a
/// description of the first difference.
fn compare(name: &str, bytes: &[u8], base: &Settings) -> Option<String> {
    let whole = check_reader(name, bytes, base).ok()?;
    let a = dump(&whole);
    [1, 3].into_iter().find_map(|threads| {
        let split = Settings {
            threads,
            split_min: 1,
            ..base.clone()
        };
        let pieces = check_reader(name, bytes, &split).ok()?;
        if whole.source.text() != pieces.source.text() {
            return Some(format!("{name}: the text differs ({threads} threads)"));
        }
        let b = dump(&pieces);
        (a != b).then(|| format!("{name}:\n--- whole\n{a}--- in pieces on {threads} threads\n{b}"))
    })
}

/// `bytes` with the `</url>` (or `</sitemap>`) nearest the middle broken, when there is one.
fn broken_in_the_middle(bytes: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mid = text.len() / 2;
    let at = text
        .match_indices("</url>")
        .chain(text.match_indices("</sitemap>"))
        .map(|(i, _)| i)
        .min_by_key(|&i| i.abs_diff(mid))?;
    let mut out = bytes.to_vec();
    out[at + 2] = b'!';
    Some(out)
}

fn check_all(dir: &Path, label: &str) {
    let mut all = Vec::new();
    files(dir, &mut all);
    all.sort();
    assert!(!all.is_empty(), "no files under {}", dir.display());
    let mut failures = Vec::new();
    for path in &all {
        let bytes = fs::read(path).unwrap();
        let name = path.to_string_lossy();
        let settings = settings(path);
        failures.extend(compare(&name, &bytes, &settings));
        if let Some(broken) = broken_in_the_middle(&bytes) {
            failures.extend(compare(&format!("{name} (broken)"), &broken, &settings));
        }
    }
    println!("{label}: {} files checked whole and in pieces", all.len());
    assert!(
        failures.is_empty(),
        "{} of {} files differ:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn pieces_match_the_whole_file_on_the_project_corpus() {
    check_all(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"),
        "corpus/",
    );
}

#[test]
fn pieces_match_the_whole_file_on_the_shared_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !dir.is_dir() {
        assert!(
            !std::env::var("CI").is_ok_and(|v| v == "true"),
            "../shared/corpus is missing, and CI=true forbids skipping"
        );
        println!("notice: ../shared/corpus not found; skipping");
        return;
    }
    check_all(&dir, "../shared/corpus");
}

#[test]
fn a_large_generated_file_matches_too() {
    // 3,000 entries with extensions and a few findings, at the default piece size of the
    // library's split (about 1 MiB), so that the pieces are the ones a user's file gets.
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n        xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"\n        xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    for i in 0..3_000 {
        let lang = ["en", "de", "fr"][i % 3];
        let group = i / 3;
        xml.push_str(&format!(
            "  <url>\n    <loc>https://www.example.com/{lang}/p/{group}</loc>\n    <lastmod>2024-0{}-1{}</lastmod>\n",
            i % 9 + 1,
            i % 10
        ));
        for l in ["en", "de", "fr"] {
            xml.push_str(&format!(
                "    <xhtml:link rel=\"alternate\" hreflang=\"{l}\" href=\"https://www.example.com/{l}/p/{group}\"/>\n"
            ));
        }
        if i % 700 == 5 {
            xml.push_str("    <priority>2.0</priority>\n    <image:image><image:loc>/relative.jpg</image:loc></image:image>\n");
        }
        xml.push_str(&format!(
            "    <image:image><image:loc>https://cdn.example.com/{i}.jpg</image:loc></image:image>\n  </url>\n"
        ));
        if i == 1_500 {
            xml.push_str(&" ".repeat(1 << 20));
            xml.push('\n');
        }
    }
    xml.push_str("</urlset>\n");
    let base = Settings {
        now: NOW,
        threads: 1,
        split_min: usize::MAX,
        ..Settings::default()
    };
    let whole = check_reader("big.xml", xml.as_bytes(), &base).unwrap();
    assert!(!whole.diagnostics.is_empty());
    assert_eq!(whole.source.text(), xml);
    // In pieces at the default size, on two threads and on one (`--jobs 1`).
    for threads in [2, 1] {
        let pieces = check_reader(
            "big.xml",
            xml.as_bytes(),
            &Settings {
                threads,
                split_min: Settings::default().split_min,
                ..base.clone()
            },
        )
        .unwrap();
        assert_eq!(dump(&whole), dump(&pieces), "{threads} threads");
        assert_eq!(pieces.source.text(), xml);
    }
}

/// The report of `xml` parsed whole, and on one, two and three threads, each at the default piece
/// size and with a piece per entry: all the same (issue 18: a verdict must not depend on `--jobs`).
fn same_in_every_mode(name: &str, xml: &str) -> FileReport {
    let base = Settings {
        now: NOW,
        threads: 1,
        // Parsed whole, whatever its size.
        split_min: usize::MAX,
        // The pages `--check-urls` would request, with their spans, are compared too.
        collect_pages: true,
        ..Settings::default()
    };
    let whole = check_reader(name, xml.as_bytes(), &base).unwrap();
    let expected = dump(&whole);
    for threads in [1, 2, 3] {
        for split_min in [Settings::default().split_min, 1] {
            let settings = Settings {
                threads,
                split_min,
                ..base.clone()
            };
            let report = check_reader(name, xml.as_bytes(), &settings).unwrap();
            assert_eq!(
                dump(&report),
                expected,
                "{name}: {threads} threads, split_min {split_min}"
            );
        }
    }
    whole
}

#[test]
fn findings_past_the_cap_in_every_entry_are_counted_alike_in_every_mode() {
    // Issue 23: every entry lacks its hreflang self-link, has a deprecated image tag and a
    // lastmod after `now`. Stretches of entries checked after a rule's cap is full build none of
    // its findings, but count them: the kept findings and the counts must be those of the whole
    // file. With suppression comments (two entries' `lastmod-future`) the file is not split but
    // checked in batches of entries, the same way.
    let entries = 2_600;
    for suppressed in [vec![], vec![3, 1_800]] {
        let mut xml = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n        xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"\n        xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
        );
        for i in 0..entries {
            if suppressed.contains(&i) {
                xml.push_str("  <!-- sitemap-lint: allow(lastmod-future) -->\n");
            }
            xml.push_str(&format!(
                "  <url>\n    <loc>https://www.example.com/en/{i}</loc>\n    <lastmod>2031-01-01</lastmod>\n    <xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"https://www.example.com/de/{i}\"/>\n    <image:image><image:loc>https://cdn.example.com/{i}.jpg</image:loc><image:caption>c</image:caption></image:image>\n  </url>\n"
            ));
        }
        xml.push_str("</urlset>\n");
        let whole = same_in_every_mode("every-entry.xml", &xml);
        for (rule, found) in [
            ("hreflang-self-missing", entries),
            ("extension-deprecated", entries),
            ("lastmod-future", entries - suppressed.len()),
        ] {
            let kept = whole
                .diagnostics
                .iter()
                .filter(|d| d.rule.name == rule)
                .count();
            let omitted: usize = whole
                .omitted
                .iter()
                .filter(|o| o.rule.name == rule)
                .map(|o| o.count)
                .sum();
            assert_eq!(kept, 1_000, "{rule}");
            assert_eq!(
                kept + omitted,
                found,
                "{rule}: {kept} kept, {omitted} omitted"
            );
        }
    }
}

#[test]
fn each_verdict_class_near_piece_boundaries() {
    // The classes of issue 18, each planted in entries spread over the file, so that with a piece
    // per entry, and at the default piece size, some sit at a piece's start or end.
    let planted = [
        // 1: character references beyond Unicode, in text and in an attribute.
        "<url><loc>https://www.example.com/r&#x110000;</loc></url>",
        "<url><loc>https://www.example.com/t</loc><xhtml:link rel=\"alternate\" hreflang=\"de&#99999999999;\" href=\"https://www.example.com/t\"/></url>",
        // 4: values made of text and CDATA segments.
        "<url><loc>https://www.example.com/<![CDATA[a b]]></loc><lastmod>2024-<![CDATA[13]]>-01</lastmod></url>",
        // 5: lone CR line ends.
        "<url>\r<loc>https://www.example.com/cr\rx</loc>\r</url>",
        // 6: xsi:nil, xsi:type, an unknown xsi: name.
        "<url xsi:type=\"tLoc\"><loc xsi:nil=\"true\">https://www.example.com/x</loc><priority xsi:foo=\"1\">0.5</priority></url>",
        // 7: unusual hosts.
        "<url><loc>https://www.ex%41mple.com/h</loc></url>",
        // 8: placeholders and leaked objects.
        "<url><loc>https://www.example.com/p</loc><lastmod>{{ .Lastmod }}</lastmod><priority>page.priority</priority><image:image><image:loc>{\"url\": \"https://www.example.com/i.png\"}</image:loc></image:image></url>",
    ];
    let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
    // Without the bad references (a file with one is parsed whole, see below), then with them.
    for with_refs in [false, true] {
        let mut xml = String::from(head);
        for i in 0..2_000 {
            if i % 97 == 3 {
                let k = (i / 97) % planted.len();
                if with_refs || k > 1 {
                    xml.push_str(planted[k]);
                    xml.push('\n');
                    continue;
                }
            }
            xml.push_str(&format!(
                "<url><loc>https://www.example.com/page/{i}</loc><lastmod>2024-01-01</lastmod></url>\n"
            ));
            if i == 1_000 {
                // Past the default piece size, so that the default splits the file too.
                xml.push_str(&" ".repeat(1 << 20));
                xml.push('\n');
            }
        }
        // 6: a foreign element after the entries.
        xml.push_str(
            "<meta:generated xmlns:meta=\"urn:example:meta\">x</meta:generated>\n</urlset>\n",
        );
        let report = same_in_every_mode("planted.xml", &xml);
        let codes: std::collections::BTreeSet<&str> =
            report.diagnostics.iter().map(|d| d.rule.name).collect();
        for code in [
            "loc-invalid",
            "lastmod-invalid",
            "unexpected-attribute",
            "element-order",
            "loc-unusual-host",
            "priority-invalid",
            "extension-url",
        ] {
            assert!(codes.contains(code), "{code} missing: {codes:?}");
        }
        assert_eq!(codes.contains("xml-syntax"), with_refs, "{codes:?}");
    }
}

#[test]
fn namespace_binding_limits_are_reported_alike_in_every_mode() {
    // Class 2: more distinct bindings than roxmltree takes in one document, one per entry.
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for i in 0..70_000 {
        xml.push_str(&format!(
            "<url xmlns:e=\"urn:example:{i}\"><loc>https://www.example.com/{i}</loc></url>\n"
        ));
    }
    xml.push_str("</urlset>\n");
    let report = same_in_every_mode("bindings.xml", &xml);
    let syntax: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.name == "xml-syntax")
        .collect();
    assert_eq!(syntax.len(), 1, "{syntax:?}");
    assert!(syntax[0].message.contains("distinct namespace bindings"));
    // At the declaration beyond the limit, not at 1:1.
    assert!(syntax[0].primary.span.start > 1_000);
}

/// Class 10 of issue 18: hreflang links between the files of a set, both files large enough to be
/// cut in pieces, the broken links spread over them: the set's findings (and each file's summary)
/// are the same whole and in pieces, on one thread and several.
#[test]
fn hreflang_across_files_near_piece_boundaries() {
    let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
    let link = |lang: &str, href: String| {
        format!("<xhtml:link rel=\"alternate\" hreflang=\"{lang}\" href=\"{href}\"/>")
    };
    let url = |lang: &str, i: usize| format!("https://www.example.com/{lang}/{i}");
    let (mut de, mut en) = (String::from(head), String::from(head));
    for i in 0..2_000 {
        // de: every 97th page does not list its en page back; every 89th calls itself de-DE.
        let own = if i % 89 == 5 { "de-DE" } else { "de" };
        de.push_str(&format!(
            "<url><loc>{}</loc>{}",
            url("de", i),
            link(own, url("de", i))
        ));
        if i % 97 != 3 {
            de.push_str(&link("en", url("en", i)));
        }
        de.push_str("</url>\n");
        en.push_str(&format!(
            "<url><loc>{}</loc>{}{}</url>\n",
            url("en", i),
            link("en", url("en", i)),
            link("de", url("de", i))
        ));
        if i == 1_000 {
            // Past the default piece size, so that the default splits the files too.
            for text in [&mut de, &mut en] {
                text.push_str(&" ".repeat(1 << 20));
                text.push('\n');
            }
        }
    }
    de.push_str("</urlset>\n");
    en.push_str("</urlset>\n");
    let files = [("de.xml", de), ("en.xml", en)];
    let run = |threads: usize, split_min: usize| {
        let paths: Vec<Option<&Path>> = files.iter().map(|(n, _)| Some(Path::new(*n))).collect();
        let site = sitemap_lint::site_set::Site::new(None, None, &paths);
        let names: Vec<String> = files.iter().map(|(n, _)| n.to_string()).collect();
        let mut set = sitemap_lint::site_set::SetCheck::new(
            &site,
            names,
            files.iter().map(|(n, _)| Some(PathBuf::from(n))).collect(),
        );
        let settings = Settings {
            now: NOW,
            threads,
            split_min,
            collect_set: true,
            ..Settings::default()
        };
        let mut out = String::new();
        for (i, (name, xml)) in files.iter().enumerate() {
            // As the command line does: one finalize for the file's findings and those across.
            let bytes = input::load(xml.as_bytes(), settings.max_size).unwrap();
            let found = engine::find(name, bytes, &settings);
            let across = set.file(i, &found.site, &found.source, &settings, &|rule, at| {
                found.suppresses(rule, at)
            });
            let report = report::finalize(found, across, &settings, false);
            out.push_str(&dump(&report));
            for d in &report.diagnostics {
                out.push_str(&format!("{:?}\n", d.elsewhere));
            }
        }
        out
    };
    let expected = run(1, usize::MAX);
    for code in ["hreflang-return-link", "hreflang-cluster-mismatch"] {
        assert_eq!(
            expected.matches(&format!("{code} Warning")).count(),
            if code == "hreflang-return-link" {
                21
            } else {
                23
            },
            "{code}"
        );
    }
    for threads in [1, 2, 3] {
        for split_min in [Settings::default().split_min, 1] {
            let got = run(threads, split_min);
            // The first line that differs, cut short: a summary's line is long.
            let first = got
                .lines()
                .zip(expected.lines())
                .find(|(a, b)| a != b)
                .map(|(a, b)| {
                    let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
                    let cut =
                        |s: &str| s[at.saturating_sub(200)..(at + 200).min(s.len())].to_owned();
                    (cut(a), cut(b))
                });
            assert!(
                got == expected,
                "{threads} threads, split_min {split_min}: {first:?}"
            );
        }
    }
}
