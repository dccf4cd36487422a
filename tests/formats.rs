//! Every output format, end to end: a byte-for-byte snapshot of `sitemap-lint check --format F .`
//! run in `tests/fixtures/formats/` (errors, warnings, a `.gz` file, a text sitemap, a non-ASCII
//! path, a name with `,` and a space), plus what each consumer needs: parseable JSON/XML, GitHub's
//! SARIF properties, escaping, stable unique fingerprints, and validation by Microsoft's SARIF
//! Multitool.
//!
//! Regenerate the snapshots after a reviewed change with
//! `UPDATE_EXPECT=formats cargo test --test formats` (`UPDATE_EXPECT=1` or `all` work too).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use sitemap_lint::render::sarif::what_it_does;
use sitemap_lint::rules;

mod support;

const FORMATS: [&str; 8] = [
    "human",
    "json",
    "concise",
    "sarif",
    "github",
    "gitlab",
    "junit",
    "checkstyle",
];

/// Findings in the fixture folder: 8 errors and 6 warnings in 6 files (one clean).
const FINDINGS: usize = 14;

/// Stands for the SARIF `rules` array in the snapshot (it is checked against the rule metadata
/// by `sarif_rules_come_from_the_rule_metadata`, so rule doc edits do not touch the snapshot).
const RULES_PLACEHOLDER: &str =
    "\"rules\": \"<every rule, see sarif_rules_come_from_the_rule_metadata>\"";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A copy of `tests/fixtures/formats/` with an empty `.git` directory, so that it is its own
/// repository root (code-host formats name files relative to the repository root): the output
/// is the same in a git checkout and in an unpacked source archive.
fn fixture_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!(
            "sitemap-lint-formats-{}-fixtures",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        copy_dir(&root().join("tests/fixtures/formats"), &dir);
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        dir
    })
    .clone()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// Stands for the absolute `file://` URI of the fixture copy (SARIF `%SRCROOT%`) in snapshots.
const ROOT_PLACEHOLDER: &str = "file:///<fixtures>/";

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sitemap-lint"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn render(format: &str) -> String {
    let o = run_in(
        &fixture_dir(),
        &["check", "--format", format, "--color", "never", "."],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{format}: errors exit 1; stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The SARIF output with the `rules` array replaced by [`RULES_PLACEHOLDER`].
fn without_rules(sarif: &str) -> String {
    let start = sarif.find("\"rules\": [").expect("a rules array");
    let indent = sarif[..start].rsplit('\n').next().unwrap().len();
    let close = format!("\n{}]", " ".repeat(indent));
    let end = start
        + sarif[start..]
            .find(&close)
            .expect("the end of the rules array")
        + close.len();
    format!("{}{RULES_PLACEHOLDER}{}", &sarif[..start], &sarif[end..])
}

fn update_requested() -> bool {
    std::env::var("UPDATE_EXPECT")
        .map(|v| v == "1" || v == "all" || v.split(',').any(|p| p.trim() == "formats"))
        .unwrap_or(false)
}

/// The lines that differ between `a` and `b` (a longest-common-subsequence diff), with their
/// line numbers in `b`.
fn line_diff(a: &str, b: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_str(&format!("{:>5} - {}\n", j + 1, a[i]));
            i += 1;
        } else {
            out.push_str(&format!("{:>5} + {}\n", j + 1, b[j]));
            j += 1;
        }
    }
    out
}

#[test]
fn every_format_matches_its_snapshot() {
    let dir = root().join("tests/snapshots/formats");
    let mut failures = Vec::new();
    for format in FORMATS {
        let mut actual = render(format);
        if format == "sarif" {
            actual = without_rules(&actual).replace(
                &format!("file://{}/", fixture_dir().display()),
                ROOT_PLACEHOLDER,
            );
        }
        let path = dir.join(format!("{format}.expected"));
        if update_requested() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!(
                "{format}: output differs from {} (- expected, + actual; after a reviewed change run `UPDATE_EXPECT=formats cargo test --test formats`)\n{}",
                path.display(),
                line_diff(&expected, &actual)
            )),
            Err(_) => failures.push(format!(
                "{format}: missing {} (review the output, then run `UPDATE_EXPECT=formats cargo test --test formats`)\n{actual}",
                path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn output_is_identical_across_runs_and_job_counts() {
    for format in ["concise", "sarif", "gitlab"] {
        let one = run_in(
            &fixture_dir(),
            &["check", "--format", format, "-j", "1", "."],
        );
        let many = run_in(
            &fixture_dir(),
            &["check", "--format", format, "-j", "4", "."],
        );
        assert_eq!(one.stdout, many.stdout, "{format}");
        assert_eq!(render(format), render(format), "{format}");
    }
}

#[test]
fn concise_lines_are_gnu_style_and_never_coloured() {
    let out = render("concise");
    let o = run_in(
        &fixture_dir(),
        &["check", "--format", "concise", "--color", "always", "."],
    );
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        out,
        "no colour even when asked"
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), FINDINGS);
    for line in lines {
        // The `$gcc` problem matcher: ^(.*):(\d+):(\d+):\s+(?:fatal\s+)?(warning|error):\s+(.*)$
        let (head, rest) = line
            .split_once(": error: ")
            .or_else(|| line.split_once(": warning: "))
            .unwrap_or_else(|| panic!("no severity: {line}"));
        let mut parts = head.rsplitn(3, ':');
        let col = parts.next().unwrap();
        let row = parts.next().unwrap();
        let path = parts.next().unwrap();
        assert!(
            col.parse::<usize>().is_ok() && row.parse::<usize>().is_ok(),
            "{line}"
        );
        assert!(Path::new(&fixture_dir()).join(path).is_file(), "{line}");
        assert!(rest.ends_with(']') && rest.contains(" ["), "{line}");
    }
    assert!(out.contains("café/plan-été.xml:3:40: warning: "), "{out}");
    assert!(
        out.contains("sitemap-index.xml.gz:5:22: error: "),
        "exact decompressed position: {out}"
    );
}

#[test]
fn json_keeps_its_contract() {
    let v: serde_json::Value = serde_json::from_str(&render("json")).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["summary"]["files"], 6);
    assert_eq!(v["summary"]["errors"], 8);
    assert_eq!(v["summary"]["warnings"], 6);
    let paths: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "café/plan-été.xml",
            "clean.xml",
            "errors.xml",
            "news, 2024.xml",
            "sitemap-index.xml.gz",
            "urls-sitemap.txt"
        ]
    );
}

#[test]
fn sarif_has_what_github_code_scanning_reads() {
    let v: serde_json::Value = serde_json::from_str(&render("sarif")).unwrap();
    assert_eq!(v["version"], "2.1.0");
    assert!(v["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let run = &v["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "sitemap-lint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert!(driver["informationUri"]
        .as_str()
        .unwrap()
        .starts_with("https://"));
    let rules = driver["rules"].as_array().unwrap();
    for r in rules {
        let id = r["id"].as_str().unwrap();
        assert_eq!(
            r["helpUri"],
            format!("https://github.com/sitemap-lint/sitemap-lint/blob/main/docs/rules.md#{id}"),
            "every rule links to its section of the generated rules document"
        );
    }
    assert_eq!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        format!("file://{}/", fixture_dir().display()),
        "%SRCROOT% is the repository root"
    );
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    assert!(
        run["invocations"][0]["toolExecutionNotifications"].is_null(),
        "nothing was left out"
    );
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), FINDINGS);
    let mut prints = HashSet::new();
    for r in results {
        let id = r["ruleId"].as_str().unwrap();
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], id, "ruleIndex points at the rule");
        assert!(["error", "warning", "note"].contains(&r["level"].as_str().unwrap()));
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let locations = r["locations"].as_array().unwrap();
        assert_eq!(locations.len(), 1);
        let loc = &locations[0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
        assert!(
            uri.is_ascii() && !uri.contains(' ') && !uri.starts_with('/'),
            "{uri}"
        );
        assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        for key in ["startLine", "startColumn", "endLine", "endColumn"] {
            assert!(loc["region"][key].as_u64().unwrap() >= 1, "{key} in {r}");
        }
        let print = r["partialFingerprints"]["sitemapLint/v2"].as_str().unwrap();
        assert!(prints.insert(print.to_string()), "fingerprints are unique");
    }
    let uris: HashSet<&str> = results
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert!(
        uris.contains("caf%C3%A9/plan-%C3%A9t%C3%A9.xml"),
        "{uris:?}"
    );
    assert!(uris.contains("news%2C%202024.xml"), "{uris:?}");
    // gzip: a coarse region, the decompressed position in the message.
    let gz = results
        .iter()
        .find(|r| r["ruleId"] == "lastmod-invalid")
        .unwrap();
    assert_eq!(
        gz["locations"][0]["physicalLocation"]["region"],
        serde_json::json!({"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1})
    );
    assert!(gz["message"]["text"]
        .as_str()
        .unwrap()
        .contains("(decompressed line 5, column 22)"));
    // A secondary label becomes a related location.
    let dup = results
        .iter()
        .find(|r| r["ruleId"] == "duplicate-element")
        .unwrap();
    let related = &dup["relatedLocations"][0];
    assert_eq!(related["physicalLocation"]["region"]["startLine"], 13);
    assert!(!related["message"]["text"].as_str().unwrap().is_empty());
    // An exact region elsewhere: the end column is the one after the last character.
    let space = results
        .iter()
        .find(|r| r["ruleId"] == "loc-invalid")
        .unwrap();
    assert_eq!(
        space["locations"][0]["physicalLocation"]["region"],
        serde_json::json!({"startLine": 4, "startColumn": 40, "endLine": 4, "endColumn": 41})
    );
}

#[test]
fn sarif_rules_come_from_the_rule_metadata() {
    let v: serde_json::Value = serde_json::from_str(&render("sarif")).unwrap();
    let rules = v["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    let metas: Vec<_> = rules::metas().collect();
    assert_eq!(rules.len(), metas.len(), "every rule is listed");
    for (r, m) in rules.iter().zip(metas) {
        assert_eq!(r["id"], m.name);
        assert_ne!(
            r["name"].as_str().map(str::to_ascii_lowercase).as_deref(),
            Some(m.name),
            "a name equal to the id is left out"
        );
        let short = r["shortDescription"]["text"].as_str().unwrap();
        assert_eq!(short, m.summary);
        assert!(!short.is_empty() && short.chars().count() <= 1024);
        assert_eq!(r["fullDescription"]["text"], what_it_does(m));
        assert_eq!(r["help"]["text"], m.docs());
        assert_eq!(r["help"]["markdown"], m.docs());
        let level = match m.default_severity.as_str() {
            "info" => "note",
            other => other,
        };
        assert_eq!(r["defaultConfiguration"]["level"], level);
        assert_eq!(r["properties"]["tags"][0], m.category.as_str());
    }
}

#[test]
fn github_annotations_are_escaped_and_followed_by_the_plain_report() {
    let out = render("github");
    let lines: Vec<&str> = out.lines().collect();
    let (annotations, rest) = lines.split_at(FINDINGS);
    for a in annotations {
        assert!(
            a.starts_with("::error file=") || a.starts_with("::warning file="),
            "{a}"
        );
        let (props, message) = a.split_once("::").unwrap().1.split_once("::").unwrap();
        assert!(!message.contains('\n') && !message.contains('\r'));
        for prop in props.split_once(' ').unwrap().1.split(',') {
            let (key, value) = prop.split_once('=').unwrap();
            assert!(
                ["file", "line", "col", "endLine", "endColumn", "title"].contains(&key),
                "{key}"
            );
            assert!(!value.contains(':'), "`:` is escaped in {prop}");
        }
    }
    assert!(out.contains("::error file=news%2C 2024.xml,line=3,col=59,endLine=3,endColumn=68,title=sitemap-lint (changefreq-invalid)::`sometimes` is not a valid `<changefreq>`%0Ahelp: "), "{out}");
    assert!(
        out.contains("help: percent-encode it as `%2520`"),
        "`%` is escaped: {out}"
    );
    assert!(out.contains("::error file=sitemap-index.xml.gz,line=1,title=sitemap-lint (lastmod-invalid)::day `30` does not exist: February 2024 has 29 days (decompressed line 5, column 22)"), "{out}");
    assert_eq!(
        rest[..FINDINGS].join("\n") + "\n",
        render("concise"),
        "the concise report follows"
    );
    assert_eq!(
        rest[FINDINGS],
        "sitemap-lint: 8 errors, 6 warnings in 6 files"
    );
}

#[test]
fn github_says_when_annotations_are_cut() {
    let dir = support::TempDir::new("formats-many");
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for i in 0..12 {
        xml.push_str(&format!(
            "<url><loc>https://www.example.com/{i} x</loc></url>\n"
        ));
    }
    xml.push_str("</urlset>\n");
    std::fs::write(dir.join("sitemap.xml"), xml).unwrap();
    let o = run_in(&dir, &["check", "--format", "github", "sitemap.xml"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.ends_with("sitemap-lint: 12 errors in 1 file (GitHub shows at most 10 error and 10 warning annotations per step; all findings are listed above)\n"), "{out}");
}

#[test]
fn gitlab_code_quality_has_the_required_fields_and_unique_fingerprints() {
    let v: serde_json::Value = serde_json::from_str(&render("gitlab")).unwrap();
    let issues = v.as_array().unwrap();
    assert_eq!(issues.len(), FINDINGS);
    let mut prints = HashSet::new();
    for i in issues {
        let check = i["check_name"].as_str().unwrap();
        assert!(i["description"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{check}: ")));
        assert!(["major", "minor", "info"].contains(&i["severity"].as_str().unwrap()));
        assert!(i["location"]["lines"]["begin"].as_u64().unwrap() >= 1);
        assert!(!i["location"]["path"].as_str().unwrap().is_empty());
        let print = i["fingerprint"].as_str().unwrap();
        assert_eq!(print.len(), 32);
        assert!(prints.insert(print.to_string()), "unique fingerprints");
    }
    let gz = issues
        .iter()
        .find(|i| i["check_name"] == "lastmod-invalid")
        .unwrap();
    assert_eq!(gz["location"]["path"], "sitemap-index.xml.gz");
    assert_eq!(gz["location"]["lines"]["begin"], 1);
    assert!(gz["description"]
        .as_str()
        .unwrap()
        .ends_with("(decompressed line 5, column 22)"));
    // Empty report: an empty array.
    let clean = run_in(
        &fixture_dir(),
        &["check", "--format", "gitlab", "clean.xml"],
    );
    assert_eq!(clean.status.code(), Some(0));
    assert_eq!(String::from_utf8(clean.stdout).unwrap(), "[]\n");
}

#[test]
fn gitlab_fingerprints_survive_edits_above_and_different_directories() {
    let dir = support::TempDir::new("formats-edit");
    std::fs::create_dir_all(dir.join("public")).unwrap();
    let errors = std::fs::read_to_string(fixture_dir().join("errors.xml")).unwrap();
    let prints = |dir: &Path, arg: &str| -> Vec<String> {
        let o = run_in(dir, &["check", "--format", "gitlab", arg]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| i["fingerprint"].as_str().unwrap().to_string())
            .collect()
    };
    std::fs::write(dir.join("public/sitemap.xml"), &errors).unwrap();
    let before = prints(&dir, "public/sitemap.xml");
    // Same file named differently (absolute path, `./`): same repository path, same fingerprints.
    let abs = dir.join("public/sitemap.xml");
    assert_eq!(before, prints(&dir, abs.to_str().unwrap()));
    assert_eq!(before, prints(&dir, "./public/sitemap.xml"));
    // Lines inserted above keep every fingerprint.
    let edited = errors.replacen("<url>", "<!-- a comment -->\n\n<url>", 1);
    std::fs::write(dir.join("public/sitemap.xml"), edited).unwrap();
    assert_eq!(before, prints(&dir, "public/sitemap.xml"));
    // So do entries inserted above with the same problems as the entries below (by occurrence
    // number alone, every finding below would take the print of the one before it).
    let entry = |loc: &str| {
        format!("<url><loc>https://www.example.com/{loc}</loc><changefreq>sometimes</changefreq><priority>2.0</priority></url>\n")
    };
    let doc = |locs: &[&str]| {
        let body: String = locs.iter().map(|l| entry(l)).collect();
        format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{body}</urlset>\n")
    };
    std::fs::write(dir.join("public/sitemap.xml"), doc(&["a", "b", "c"])).unwrap();
    let before = prints(&dir, "public/sitemap.xml");
    assert_eq!(before.len(), 6);
    std::fs::write(dir.join("public/sitemap.xml"), doc(&["new", "a", "b", "c"])).unwrap();
    let after = prints(&dir, "public/sitemap.xml");
    assert_eq!(after.len(), 8);
    assert_eq!(
        after[2..],
        before[..],
        "the old entries keep their fingerprints"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A git repository in a temporary directory with `public/sitemap.xml` (one error).
fn repo_with_a_sitemap(name: &str) -> support::TempDir {
    let dir = support::TempDir::new(&format!("formats-{name}"));
    std::fs::create_dir_all(dir.join("site/public")).unwrap();
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::fs::write(
        dir.join("site/public/sitemap.xml"),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://www.example.com/</loc><priority>2</priority></url>\n</urlset>\n",
    )
    .unwrap();
    dir
}

#[test]
fn code_host_paths_are_relative_to_the_repository_root() {
    let dir = repo_with_a_sitemap("subdir");
    let site = dir.join("site");
    let o = run_in(&site, &["check", "--format", "gitlab", "public"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["location"]["path"], "site/public/sitemap.xml");
    let o = run_in(&site, &["check", "--format", "github", "public"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("file=site/public/sitemap.xml,"), "{out}");
    let o = run_in(&site, &["check", "--format", "sarif", "public/sitemap.xml"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let run = &v["runs"][0];
    let location = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(location["uri"], "site/public/sitemap.xml");
    assert_eq!(location["uriBaseId"], "%SRCROOT%");
    assert_eq!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        format!("file://{}/", dir.display())
    );
    // The human report still shows the path as given.
    let o = run_in(&site, &["check", "--format", "concise", "public"]);
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .starts_with("public/sitemap.xml:"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn junit_infos_are_not_failures() {
    let dir = repo_with_a_sitemap("junit-info");
    // An info (`lastmod-before-1990`) beside the error.
    std::fs::write(
        dir.join("site/public/info.xml"),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://www.example.com/old</loc><lastmod>1980-01-01</lastmod></url>\n</urlset>\n",
    )
    .unwrap();
    let o = run_in(&dir, &["check", "--format", "junit", "site/public"]);
    let out = String::from_utf8(o.stdout).unwrap();
    let doc = parse_xml(&out);
    let root = doc.root_element();
    let suite = |name: &str| {
        root.children()
            .find(|n| n.attribute("name") == Some(name))
            .unwrap_or_else(|| panic!("no suite {name}: {out}"))
    };
    let info = suite("site/public/info.xml");
    assert!(info.attribute("tests").unwrap().parse::<usize>().unwrap() >= 1);
    assert_eq!(info.attribute("failures"), Some("0"), "{out}");
    assert!(!info.descendants().any(|n| n.has_tag_name("failure")));
    let out_text: String = info
        .descendants()
        .filter(|n| n.has_tag_name("system-out"))
        .filter_map(|n| n.text())
        .collect();
    assert!(out_text.contains("info: "), "the info is shown: {out}");
    assert_eq!(
        suite("site/public/sitemap.xml").attribute("failures"),
        Some("1")
    );
    assert_eq!(root.attribute("failures"), Some("1"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `files` sitemaps of 1,000 entries, each entry with an error (`priority-invalid`), a warning
/// (`loc-fragment`) and an info (`lastmod-before-1990`): 3,000 findings a file, 1,000 per rule (the
/// most a rule reports in one file), plus one `lastmod-all-identical` info a file.
fn many_findings(dir: &Path, files: usize) {
    for f in 0..files {
        let body: String = (0..1000)
            .map(|i| format!("<url><loc>https://www.example.com/{f}/{i}#top</loc><lastmod>1980-01-01</lastmod><priority>2.0</priority></url>\n"))
            .collect();
        std::fs::write(
            dir.join(format!("sitemap-{f:02}.xml")),
            format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{body}</urlset>\n"),
        )
        .unwrap();
    }
}

#[test]
fn sarif_keeps_at_most_25000_results_errors_first_and_says_what_it_left_out() {
    let dir = support::TempDir::new("formats-many");
    many_findings(&dir, 10);
    // 30,010 findings: 10,000 errors, 10,000 warnings, 10,010 infos.
    let o = run_in(&dir, &["check", "--format", "json", "--statistics", "."]);
    let stats: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let total: u64 = stats
        .as_array()
        .map(|a| a.iter().map(|r| r["count"].as_u64().unwrap()).sum())
        .unwrap_or_else(|| panic!("{stats}"));
    assert_eq!(total, 30_010, "{stats}");
    let o = run_in(&dir, &["check", "--format", "sarif", "."]);
    assert_eq!(o.status.code(), Some(1));
    let sarif = String::from_utf8(o.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let run = &v["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 25_000);
    let count = |level: &str| results.iter().filter(|r| r["level"] == level).count();
    assert_eq!(count("error"), 10_000, "every error is kept");
    assert_eq!(count("warning"), 10_000, "then every warning");
    assert_eq!(count("note"), 5_000, "then infos, up to the limit");
    // In report order: by file, then position.
    let keys: Vec<(String, u64)> = results
        .iter()
        .map(|r| {
            let l = &r["locations"][0]["physicalLocation"];
            (
                l["artifactLocation"]["uri"].as_str().unwrap().to_string(),
                l["region"]["startLine"].as_u64().unwrap() * 1_000_000
                    + l["region"]["startColumn"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] <= w[1]),
        "results stay in report order"
    );
    let notes = run["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    assert_eq!(notes.len(), 1);
    let text = notes[0]["message"]["text"].as_str().unwrap();
    assert!(
        text.starts_with("5010 of 30010 results were left out (5010 infos)"),
        "{text}"
    );
    assert!(text.contains("25000"), "{text}");
    if let Some(tool) = sarif_multitool() {
        let problems = multitool_problems(&tool, &dir, "many.sarif", &sarif);
        assert!(problems.is_empty(), "{problems:#?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Parses XML with roxmltree and returns the document's text for queries.
fn parse_xml(text: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("not well-formed: {e}\n{text}"))
}

#[test]
fn junit_is_well_formed_and_counts_tests() {
    let out = render("junit");
    let doc = parse_xml(&out);
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(
        root.attribute("tests"),
        Some("15"),
        "14 findings + 1 clean file"
    );
    assert_eq!(root.attribute("failures"), Some("14"));
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 6);
    for s in &suites {
        let cases: Vec<_> = s
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(s.attribute("tests"), Some(cases.len().to_string().as_str()));
        let failures = cases
            .iter()
            .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
            .count();
        assert_eq!(s.attribute("failures"), Some(failures.to_string().as_str()));
        for c in cases {
            assert_eq!(c.attribute("classname"), s.attribute("name"));
        }
    }
    let cafe = suites
        .iter()
        .find(|s| s.attribute("name") == Some("café/plan-été.xml"))
        .unwrap();
    let failure = cafe
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    assert_eq!(failure.attribute("type"), Some("warning"));
    assert!(failure
        .text()
        .unwrap()
        .starts_with("café/plan-été.xml:3:40: warning: "));
}

#[test]
fn checkstyle_is_well_formed_and_lists_every_file() {
    let out = render("checkstyle");
    let doc = parse_xml(&out);
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "checkstyle");
    assert_eq!(root.attribute("version"), Some("4.3"));
    let files: Vec<_> = root.children().filter(|n| n.has_tag_name("file")).collect();
    assert_eq!(files.len(), 6);
    let errors: Vec<_> = root
        .descendants()
        .filter(|n| n.has_tag_name("error"))
        .collect();
    assert_eq!(errors.len(), FINDINGS);
    for e in errors {
        assert!(["error", "warning", "info"].contains(&e.attribute("severity").unwrap()));
        assert!(e.attribute("source").unwrap().starts_with("sitemap-lint."));
        assert!(e.attribute("line").unwrap().parse::<usize>().is_ok());
        assert!(e.attribute("column").unwrap().parse::<usize>().is_ok());
    }
    let changefreq = root
        .descendants()
        .find(|n| n.attribute("source") == Some("sitemap-lint.changefreq-invalid"))
        .unwrap();
    assert_eq!(
        changefreq.attribute("message"),
        Some("`Daily` is not a valid `<changefreq>`"),
        "markup in messages is escaped and round-trips"
    );
}

#[test]
fn output_file_gets_the_report_and_the_terminal_a_summary() {
    let dir = support::TempDir::new("formats-out");
    let report = dir.join("report.sarif");
    for flag in ["-o", "--output-file"] {
        let o = run_in(
            &fixture_dir(),
            &[
                "check",
                "--output-format",
                "sarif",
                flag,
                report.to_str().unwrap(),
                ".",
            ],
        );
        assert_eq!(o.status.code(), Some(1));
        assert!(o.stdout.is_empty(), "nothing on stdout");
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(
            err,
            format!(
                "sitemap-lint: error: 8 errors, 6 warnings in 6 files; 6 fixable with --fix (3 more with --unsafe-fixes); report written to {}\n",
                report.display()
            )
        );
        assert_eq!(std::fs::read_to_string(&report).unwrap(), render("sarif"));
    }
    let o = run_in(
        &fixture_dir(),
        &["check", "-o", "/nonexistent/dir/report.json", "."],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("cannot write `/nonexistent/dir/report.json`")
    );
}

/// Where the SARIF Multitool is, installing it with npm into `target/sarif-tool` if needed.
/// `None` (with a notice) when it cannot be had and CI is not `true`; with `CI=true` that fails.
fn sarif_multitool() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SARIF_MULTITOOL") {
        return Some(PathBuf::from(p));
    }
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let prefix = target.join("sarif-tool");
    let tool = prefix.join("node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");
    if !tool.is_file() {
        let _ = std::fs::create_dir_all(&prefix);
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&prefix)
            .arg("@microsoft/sarif-multitool-linux@5.7.0")
            .stdout(Stdio::null())
            .status();
        if !status.is_ok_and(|s| s.success()) || !tool.is_file() {
            let why = "the SARIF Multitool is not installed and `npm install @microsoft/sarif-multitool-linux` failed";
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("{why}");
            }
            eprintln!("NOTICE: skipping SARIF Multitool validation: {why}");
            return None;
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut perm = std::fs::metadata(&tool).unwrap().permissions();
        if perm.mode() & 0o100 == 0 {
            perm.set_mode(perm.mode() | 0o755);
            std::fs::set_permissions(&tool, perm).unwrap();
        }
    }
    Some(tool)
}

/// The Multitool's configuration (`validate --config`): the rule that fetches URLs, off.
const MULTITOOL_POLICY: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<Properties>
  <Properties Key="SARIF2006.UrisShouldBeReachable.Options">
    <Property Key="RuleEnabled" Value="Disabled" />
  </Properties>
</Properties>
"#;

/// Validates `sarif` with the Multitool and returns its error and warning results.
fn multitool_problems(tool: &Path, dir: &Path, name: &str, sarif: &str) -> Vec<String> {
    let input = dir.join(name);
    std::fs::write(&input, sarif).unwrap();
    let output = dir.join(format!("{name}.validation.sarif"));
    let _ = std::fs::remove_file(&output);
    // SARIF2006 (`UrisShouldBeReachable`) fetches every rule's `helpUri` from the network, one
    // request per rule (the URLs differ by their fragment, so its cache never hits): about 15 s a
    // run here, where github.com cannot be reached and lookups time out. It reports at the note
    // level only, which this test leaves out anyway; disabled, a run on the clean log takes 2.0 s
    // instead of 16.5 s, and the binary 36 s instead of 64 s.
    let policy = dir.join("multitool-policy.xml");
    std::fs::write(&policy, MULTITOOL_POLICY).unwrap();
    let o = Command::new(tool)
        .args(["validate", "--config"])
        .arg(&policy)
        .args([
            "--rule-kind",
            "Sarif;Gh",
            "--level",
            "Error;Warning",
            // The 25,000-result log is about 30 MB; the default limit is 10 MB.
            "--max-file-size-in-kb",
            "102400",
            "--output",
        ])
        .arg(&output)
        .arg(&input)
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .output()
        .unwrap();
    let console = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "the Multitool failed: {console}");
    let log: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&output).unwrap_or_else(|e| panic!("{e}: {console}")),
    )
    .unwrap();
    let empty = Vec::new();
    let results = log["runs"][0]["results"].as_array().unwrap_or(&empty);
    // A result without `level` is a warning; notes are style suggestions.
    results
        .iter()
        .filter(|r| r["level"] != "note" && r["level"] != "none")
        .map(|r| format!("{} {}\n{console}", r["ruleId"], r["message"]))
        .collect()
}

#[test]
fn sarif_validates_with_microsofts_multitool() {
    let Some(tool) = sarif_multitool() else {
        return;
    };
    let dir = support::TempDir::new("formats-multitool");
    let findings = multitool_problems(&tool, &dir, "findings.sarif", &render("sarif"));
    assert!(findings.is_empty(), "{findings:#?}");
    let clean = run_in(&fixture_dir(), &["check", "--format", "sarif", "clean.xml"]);
    let clean = multitool_problems(
        &tool,
        &dir,
        "clean.sarif",
        &String::from_utf8(clean.stdout).unwrap(),
    );
    assert!(clean.is_empty(), "{clean:#?}");
}

/// A file with fixable findings: a raw `&` (in a file that is otherwise well-formed), an
/// encoding spelled `utf8`, Google's old namespace and whitespace before `<?xml`.
const FIXABLE: &str = "\n <?xml version=\"1.0\" encoding=\"utf8\"?>\n<urlset xmlns=\"http://www.google.com/schemas/sitemap/0.84\">\n  <url><loc>https://www.example.com/?a=1&b=2</loc></url>\n</urlset>\n";

#[test]
fn fixes_are_in_json_and_sarif_and_sarif_fixes_validate() {
    let dir = support::TempDir::new("formats-fixable");
    std::fs::write(dir.join("fixable.xml"), FIXABLE).unwrap();
    // JSON: the `fix` object with edits positioned as spans are.
    let o = run_in(&dir, &["check", "--format", "json", "fixable.xml"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let diags = v["files"][0]["diagnostics"].as_array().unwrap();
    let amp = diags
        .iter()
        .find(|d| d["message"] == "unescaped `&`")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(amp["fix"]["applicability"], "safe");
    assert_eq!(amp["fix"]["message"], "escape `&` as `&amp;`");
    let edit = &amp["fix"]["edits"][0];
    assert_eq!(edit["content"], "&amp;");
    assert_eq!(edit["start"], amp["span"]["start"], "{amp}");
    assert_eq!(edit["end"], amp["span"]["end"], "{amp}");
    let fixes = diags.iter().filter(|d| d["fix"].is_object()).count();
    assert_eq!(fixes, 4, "{v}");
    assert!(
        diags.iter().all(|d| d.get("fix").is_some()),
        "`fix` is always there (null when none)"
    );
    // SARIF: fixes[].artifactChanges[].replacements.
    let o = run_in(&dir, &["check", "--format", "sarif", "fixable.xml"]);
    let sarif = String::from_utf8(o.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    let with_fixes: Vec<&serde_json::Value> = results
        .iter()
        .filter(|r| r.get("fixes").is_some())
        .collect();
    assert_eq!(with_fixes.len(), 4, "{sarif}");
    for r in &with_fixes {
        let change = &r["fixes"][0]["artifactChanges"][0];
        assert_eq!(
            change["artifactLocation"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]
        );
        let rep = &change["replacements"][0];
        assert!(
            rep["deletedRegion"]["startLine"].as_u64().unwrap() >= 1,
            "{r}"
        );
        assert!(rep["insertedContent"]["text"].is_string(), "{r}");
    }
    if let Some(tool) = sarif_multitool() {
        let problems = multitool_problems(&tool, &dir, "fixable.sarif", &sarif);
        assert!(problems.is_empty(), "{problems:#?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
