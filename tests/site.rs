//! The site checks through the CLI: `--sitemap-url` mismatches of each kind, and an index checked
//! with its children as a set (`--site-root`, name matching, totals in human and JSON output).

use std::path::Path;
use std::process::Output;

mod support;
use support::{stderr, stdout, TempDir};

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
const NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";

fn urlset(locs: &[&str]) -> String {
    let mut s = format!("{HEAD}<urlset xmlns=\"{NS}\">\n");
    for l in locs {
        s.push_str(&format!("  <url><loc>{l}</loc></url>\n"));
    }
    s + "</urlset>\n"
}

fn index(locs: &[&str]) -> String {
    let mut s = format!("{HEAD}<sitemapindex xmlns=\"{NS}\">\n");
    for l in locs {
        s.push_str(&format!("  <sitemap><loc>{l}</loc></sitemap>\n"));
    }
    s + "</sitemapindex>\n"
}

/// A fresh temporary directory for one test, removed when the test drops it.
fn tempdir(name: &str) -> TempDir {
    TempDir::new(&format!("site-{name}"))
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["check", "--color", "never", "--now", "2024-11-21T12:00:00Z"];
    all.extend_from_slice(args);
    support::run_in(dir, &all, None)
}

#[test]
fn sitemap_url_names_each_kind_of_mismatch() {
    let d = tempdir("scope");
    write(
        &d,
        "sitemap.xml",
        &urlset(&[
            "https://www.example.com/catalog/ok.html",
            "https://www.example.com/top.html",
            "https://www.example.com/images/a.html",
            "https://example.com/catalog/b.html",
            "http://www.example.com/catalog/c.html",
            "https://www.example.com:8443/catalog/d.html",
            "https://cdn.example.net/catalog/e.html",
        ]),
    );
    let o = run_in(
        &d,
        &[
            "--sitemap-url",
            "https://www.example.com/catalog/sitemap.xml",
            "sitemap.xml",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let s = stdout(&o);
    for kind in [
        "a higher level than the sitemap's folder `/catalog/`",
        "a sibling folder of the sitemap's folder `/catalog/`",
        "`www.` missing from the host",
        "`http` instead of `https`",
        "another port (8443, not 443)",
        "another host (`cdn.example.net`, not `www.example.com`)",
    ] {
        assert!(s.contains(kind), "{kind}: {s}");
    }
    assert_eq!(s.matches("error[loc-outside-scope]").count(), 6, "{s}");
    assert!(
        !s.contains("loc-mixed-hosts"),
        "the scope rule replaces it: {s}"
    );

    // `www.` added, and an index listing a sitemap on another site.
    write(&d, "idx.xml", &index(&["https://www.example.com/s.xml"]));
    let o = run_in(
        &d,
        &["--sitemap-url", "https://example.com/idx.xml", "idx.xml"],
    );
    let s = stdout(&o);
    assert!(
        s.contains("a sitemap on another site: `www.` added to the host"),
        "{s}"
    );
    assert!(s.contains("Path mismatch: Includes www"), "{s}");

    // A URL that is not http(s) is a usage error.
    let o = run_in(&d, &["--sitemap-url", "example.com/x.xml", "idx.xml"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// An index in `public/` with children in `public/sitemaps/`: one nested index, one missing, one
/// the index itself, and a URL in two children.
fn site(name: &str) -> TempDir {
    let d = tempdir(name);
    write(
        &d,
        "public/sitemap_index.xml",
        &index(&[
            "https://example.com/sitemaps/a.xml",
            "https://example.com/sitemaps/b.xml.gz",
            "https://example.com/sitemaps/nested.xml",
            "https://example.com/sitemaps/missing.xml",
            "https://example.com/sitemap_index.xml",
            "https://other.example/sitemaps/elsewhere.xml",
        ]),
    );
    write(
        &d,
        "public/sitemaps/a.xml",
        &urlset(&["https://example.com/one", "https://example.com/two"]),
    );
    let b = urlset(&["https://EXAMPLE.com:443/two", "https://example.com/three"]);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, b.as_bytes()).unwrap();
    std::fs::write(d.join("public/sitemaps/b.xml.gz"), gz.finish().unwrap()).unwrap();
    write(
        &d,
        "public/sitemaps/nested.xml",
        &index(&["https://example.com/sitemaps/a.xml"]),
    );
    d
}

#[test]
fn site_root_links_an_index_to_its_children() {
    let d = site("root");
    let o = run_in(&d, &["--site-root", "public", "public"]);
    assert_eq!(o.status.code(), Some(1));
    let s = stdout(&o);
    assert!(
        s.contains("nested sitemap index: `public/sitemaps/nested.xml` is an index too"),
        "{s}"
    );
    assert!(
        s.contains("the listed sitemap is missing locally: no file `"),
        "{s}"
    );
    assert!(s.contains("no file `public/sitemaps/missing.xml`"), "{s}");
    assert!(
        s.contains("the index lists itself (`https://example.com/sitemap_index.xml`)"),
        "{s}"
    );
    assert_eq!(s.matches("error[index-child]").count(), 3, "{s}");
    assert!(
        !s.contains("elsewhere.xml`"),
        "another site is not looked for locally: {s}"
    );
    assert!(
        s.contains("duplicate URL: also listed in `public/sitemaps/a.xml` of this set"),
        "{s}"
    );
    assert!(
        s.contains("public/sitemaps/b.xml.gz:3:13"),
        "in the later file, decompressed: {s}"
    );
    // Each file appears once, its set findings among its own.
    let j = run_in(&d, &["--site-root", "public", "--format", "json", "public"]);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    let paths: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "public/sitemap_index.xml",
            "public/sitemaps/a.xml",
            "public/sitemaps/b.xml.gz",
            "public/sitemaps/nested.xml"
        ]
    );
    assert_eq!(
        stderr(&o),
        "sitemap-lint: error: 4 errors, 1 warning in 4 files; set of 2 indexes and 2 sitemaps: 4 URLs\n"
    );
    // The same run twice gives the same output.
    assert_eq!(
        stdout(&run_in(&d, &["--site-root", "public", "-j", "1", "public"])),
        s
    );

    let o = run_in(&d, &["--site-root", "public", "--format", "json", "public"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["files"], 4);
    assert_eq!(v["summary"]["urls"], 4);
    assert_eq!(
        v["summary"]["errors"], 4,
        "3 index-child, 1 loc-mixed-hosts"
    );
    assert_eq!(v["summary"]["warnings"], 1);

    // --quiet keeps the set's errors and drops its warning.
    let o = run_in(&d, &["--site-root", "public", "--quiet", "public"]);
    assert!(!stdout(&o).contains("duplicate-loc"));
    assert!(
        stderr(&o).starts_with("sitemap-lint: error: 4 errors in 4 files"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn without_flags_children_link_by_file_name() {
    let d = site("names");
    let o = run_in(&d, &["public"]);
    let s = stdout(&o);
    assert!(s.contains("nested sitemap index"), "{s}");
    assert!(s.contains("the index lists itself"), "{s}");
    assert!(!s.contains("missing locally"), "only with --site-root: {s}");
    assert!(s.contains("also listed in"), "{s}");
    assert!(
        stderr(&o).contains("; set of 2 indexes and 2 sitemaps: 4 URLs"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn sitemap_url_of_the_index_locates_the_site_root() {
    let d = site("url");
    // The index's URL gives the root (`public/`), so children map by path, and each child is
    // checked as served from its own URL: its pages are above `/sitemaps/`.
    let o = run_in(
        &d,
        &[
            "--sitemap-url",
            "https://example.com/sitemap_index.xml",
            "public",
        ],
    );
    let s = stdout(&o);
    assert!(s.contains("the index lists itself"), "{s}");
    assert!(s.contains("nested sitemap index"), "{s}");
    assert!(
        s.contains(
            "outside the sitemap's location: a higher level than the sitemap's folder `/sitemaps/`"
        ),
        "{s}"
    );
    assert_eq!(
        s.matches("the index lists itself").count(),
        1,
        "reported once: {s}"
    );
}

#[test]
fn a_single_file_has_no_set_totals() {
    let d = tempdir("single");
    write(&d, "a.xml", &urlset(&["https://example.com/"]));
    let o = run_in(&d, &["a.xml"]);
    assert_eq!(stderr(&o), "sitemap-lint: ok: no problems in 1 file\n");
    let o = run_in(&d, &["--format", "json", "a.xml"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["urls"], 1);
}

/// Issue 22: a child URL never makes the checker look outside `--site-root`. Before, `%2e%2e`
/// passed the `..` test (made before percent-decoding) and a symlink below the root was followed
/// out of it: a file outside the root was then `stat`ed, and whether it existed showed in the
/// report (`missing locally: no file `public/../gone.xml``). Now such children are refused
/// (treated like a child on another site): the report is the same whether the files outside
/// exist or not, and names none of them. Symlinks that stay below the root still work.
#[test]
fn site_root_children_never_reach_outside_the_root() {
    let d = tempdir("traversal");
    write(
        &d,
        "public/sitemap_index.xml",
        &index(&[
            "https://example.com/%2e%2e/secret.xml",
            "https://example.com/%2E%2E/gone.xml",
            "https://example.com/sitemaps/%2e%2e/%2e%2e/secret.xml",
            "https://example.com/sitemaps/.%2e/%2e./gone.xml",
            "https://example.com/..%5Cgone.xml",
            "https://example.com/%2Fgone.xml",
            "https://example.com/out/secret.xml",
            "https://example.com/out/gone.xml",
            "https://example.com/abs/secret.xml",
            "https://example.com/alias/inside-missing.xml",
            "https://example.com/sitemaps/missing.xml",
        ]),
    );
    write(
        &d,
        "public/sitemaps/a.xml",
        &urlset(&["https://example.com/one"]),
    );
    // `out` leads out of the root (relative link), `abs` too (absolute link); `alias` stays in.
    std::os::unix::fs::symlink("..", d.join("public/out")).unwrap();
    std::os::unix::fs::symlink(&d, d.join("public/abs")).unwrap();
    std::os::unix::fs::symlink("sitemaps", d.join("public/alias")).unwrap();
    let run = || {
        stdout(&run_in(
            &d,
            &["--site-root", "public", "--format", "concise", "public"],
        ))
    };
    let without = run();
    write(&d, "secret.xml", &urlset(&["https://example.com/secret"]));
    write(&d, "gone.xml", &urlset(&["https://example.com/gone"]));
    let with = run();
    assert_eq!(without, with, "files outside the root changed the report");
    assert!(
        !with.contains("secret") && !with.contains("gone"),
        "a child outside the root was looked for: {with}"
    );
    assert!(
        with.contains("no file `public/sitemaps/missing.xml`"),
        "{with}"
    );
    assert!(
        with.contains("no file `public/alias/inside-missing.xml`"),
        "{with}"
    );
    assert_eq!(with.matches("[index-child]").count(), 2, "{with}");
}

/// A sitemap per language (issue 18, class 10): the hreflang links between the files of a set are
/// followed, each finding in the later file with a label at the place in the other, the same on
/// one thread and several; each file alone reports nothing.
#[test]
fn hreflang_links_between_the_files_of_a_set_are_followed() {
    let d = tempdir("hreflang");
    let page = |loc: &str, links: &[(&str, &str)]| {
        let mut s = format!("  <url><loc>https://www.example.com/{loc}</loc>\n");
        for (lang, href) in links {
            s.push_str(&format!(
                "    <xhtml:link rel=\"alternate\" hreflang=\"{lang}\" href=\"https://www.example.com/{href}\"/>\n"
            ));
        }
        s + "  </url>\n"
    };
    let file = |pages: &[String]| {
        format!(
            "{HEAD}<urlset xmlns=\"{NS}\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n{}</urlset>\n",
            pages.concat()
        )
    };
    write(
        &d,
        "sitemap-de.xml",
        &file(&[
            page("de/a", &[("de", "de/a"), ("en", "en/a")]),
            page("de/b", &[("de", "de/b")]),
        ]),
    );
    write(
        &d,
        "sitemap-en.xml",
        &file(&[
            page("en/a", &[("en", "en/a")]),
            page("en/b", &[("en", "en/b"), ("de", "de/b")]),
        ]),
    );
    for f in ["sitemap-de.xml", "sitemap-en.xml"] {
        let o = run_in(&d, &[f]);
        assert!(
            !stdout(&o).contains("hreflang"),
            "{f} alone: {}",
            stdout(&o)
        );
    }
    let o = run_in(&d, &["sitemap-de.xml", "sitemap-en.xml"]);
    let s = stdout(&o);
    // en/a does not list de/a back; en/b lists de/b, which does not list it back.
    assert_eq!(s.matches("warning[hreflang-return-link]").count(), 2, "{s}");
    assert!(
        s.contains("`https://www.example.com/en/a` does not link back to `https://www.example.com/de/a`, which lists it as an alternate in `sitemap-de.xml`"),
        "{s}"
    );
    assert!(s.contains("┌─ sitemap-en.xml:3:13"), "{s}");
    assert!(
        s.contains("= sitemap-de.xml:5:53: `en` alternate of"),
        "{s}"
    );
    assert!(
        s.contains("alternate `https://www.example.com/de/b` (listed in `sitemap-de.xml`) does not link back to `https://www.example.com/en/b`"),
        "{s}"
    );
    assert!(s.contains("= sitemap-de.xml:7:13: the `<url>` of"), "{s}");
    for jobs in ["1", "2"] {
        assert_eq!(
            stdout(&run_in(
                &d,
                &["-j", jobs, "sitemap-de.xml", "sitemap-en.xml"]
            )),
            s
        );
    }
    let o = run_in(
        &d,
        &["--format", "json", "sitemap-de.xml", "sitemap-en.xml"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let found = &v["files"][1]["diagnostics"][0];
    assert_eq!(found["code"], "hreflang-return-link");
    assert_eq!(found["elsewhere"][0]["file"], "sitemap-de.xml");
    assert_eq!(found["elsewhere"][0]["line"], 5);
    assert_eq!(found["elsewhere"][0]["column"], 53);
    assert!(v["files"][0]["diagnostics"][0].get("elsewhere").is_none());
    // SARIF: the place in the other file is a related location of the result.
    let o = run_in(
        &d,
        &["--format", "sarif", "sitemap-de.xml", "sitemap-en.xml"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    let found = results
        .iter()
        .find(|r| {
            r["ruleId"] == "hreflang-return-link"
                && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    == "sitemap-en.xml"
        })
        .unwrap();
    let related = found["relatedLocations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["physicalLocation"]["artifactLocation"]["uri"] == "sitemap-de.xml")
        .unwrap();
    assert_eq!(related["physicalLocation"]["region"]["startLine"], 5);
    assert_eq!(related["physicalLocation"]["region"]["startColumn"], 53);
    assert!(related["message"]["text"]
        .as_str()
        .unwrap()
        .contains("alternate of"));
}
