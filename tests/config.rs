//! The configuration file, presets, command-line severity flags, inline suppressions and `sitemap-lint config`, end to end through the binary.

use std::path::{Path, PathBuf};
use std::process::Output;

mod support;
use support::{run_in, stderr, stdout, TempDir};

/// A fragment (`loc-fragment`, warning by default) and a W3C-only date (`lastmod-w3c-only`,
/// warning by default): exit 0 with defaults.
const TWO_WARNINGS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/docs#install</loc><lastmod>2024-05</lastmod></url>
</urlset>
"#;

/// A fresh repository folder (with `.git`) for one test, inside a fresh outer folder (removed
/// when the test drops it).
fn repo(name: &str) -> (TempDir, PathBuf) {
    let outer = TempDir::new(&format!("config-{name}"));
    let dir = outer.join("repo");
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    (outer, dir)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

/// `path:line:col: severity: message [rule]` lines of a concise report.
fn findings(o: &Output) -> Vec<String> {
    stdout(o).lines().map(str::to_string).collect()
}

fn has(o: &Output, severity: &str, rule: &str) -> bool {
    findings(o)
        .iter()
        .any(|l| l.contains(&format!(": {severity}: ")) && l.ends_with(&format!("[{rule}]")))
}

#[test]
fn the_nearest_file_up_to_the_repository_root_applies() {
    let (_outer_dir, dir) = repo("discovery");
    write(
        &dir,
        "sitemap-lint.toml",
        "[rules]\nloc-fragment = \"error\"\n",
    );
    write(&dir, "a/b/sitemap.xml", TWO_WARNINGS);
    // A nearer file wins for the files below it.
    write(
        &dir,
        "c/sitemap-lint.toml",
        "[rules]\nloc-fragment = \"off\"\n",
    );
    write(&dir, "c/sitemap.xml", TWO_WARNINGS);
    // Above the repository root: never read, even when broken.
    write(
        dir.parent().unwrap(),
        "sitemap-lint.toml",
        "not toml at all [",
    );

    let o = run_in(&dir, &["check", "--format", "concise", "."], None);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let lines = findings(&o);
    assert!(
        lines.iter().any(|l| l.starts_with("a/b/sitemap.xml:3:")
            && l.contains(": error: ")
            && l.ends_with("[loc-fragment]")),
        "{lines:?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("c/") && l.ends_with("[loc-fragment]")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("c/sitemap.xml") && l.ends_with("[lastmod-w3c-only]")),
        "{lines:?}"
    );

    // A repository without a file: defaults, and nothing above the root is read.
    let (_outer_bare, bare) = repo("discovery-bare");
    write(
        bare.parent().unwrap(),
        "sitemap-lint.toml",
        "not toml at all [",
    );
    write(&bare, "sitemap.xml", TWO_WARNINGS);
    let o = run_in(
        &bare,
        &["check", "--format", "concise", "sitemap.xml"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(has(&o, "warning", "loc-fragment"));
}

#[test]
fn stdin_uses_the_current_directory() {
    let (_outer_dir, dir) = repo("stdin");
    write(
        &dir,
        "sitemap-lint.toml",
        "[rules]\nlastmod-w3c-only = \"error\"\n",
    );
    let o = run_in(
        &dir,
        &["check", "--format", "concise", "-"],
        Some(TWO_WARNINGS.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(has(&o, "error", "lastmod-w3c-only"), "{}", stdout(&o));
}

#[test]
fn config_flag_and_isolated() {
    let (_outer_dir, dir) = repo("explicit");
    write(
        &dir,
        "sitemap-lint.toml",
        "[rules]\nloc-fragment = \"error\"\n",
    );
    write(
        &dir,
        "other.toml",
        "[rules]\nlastmod-w3c-only = \"error\"\nloc-fragment = \"off\"\n",
    );
    write(&dir, "sub/sitemap.xml", TWO_WARNINGS);
    write(&dir, "sub/sitemap-lint.toml", "preset = \"nope\"\n");

    // --config replaces discovery for every file (the broken sub/sitemap-lint.toml is not read).
    let o = run_in(
        &dir,
        &[
            "check",
            "--format",
            "concise",
            "--config",
            "other.toml",
            "sub",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(has(&o, "error", "lastmod-w3c-only"));
    assert!(!has(&o, "warning", "loc-fragment") && !has(&o, "error", "loc-fragment"));

    // --isolated: defaults only.
    let o = run_in(
        &dir,
        &["check", "--format", "concise", "--isolated", "sub"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(has(&o, "warning", "loc-fragment") && has(&o, "warning", "lastmod-w3c-only"));

    // Without either, the broken file is found and reported.
    let o = run_in(&dir, &["check", "sub"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("sub/sitemap-lint.toml:1:10: invalid value \"nope\" for `preset`"),
        "{}",
        stderr(&o)
    );
    assert!(
        stdout(&o).is_empty(),
        "nothing is checked with a broken configuration"
    );

    let o = run_in(
        &dir,
        &["check", "--config", "other.toml", "--isolated", "sub"],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    let o = run_in(&dir, &["check", "--config", "missing.toml", "sub"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("missing.toml: cannot read the configuration file: no such file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn command_line_beats_the_file_and_later_flags_win() {
    let (_outer_dir, dir) = repo("precedence");
    write(
        &dir,
        "sitemap-lint.toml",
        "[rules]\nurl = \"error\"\ndate = \"off\"\n",
    );
    write(&dir, "sitemap.xml", TWO_WARNINGS);
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "--format", "concise"];
        args.extend_from_slice(extra);
        args.push("sitemap.xml");
        run_in(&dir, &args, None)
    };
    let o = check(&[]);
    assert!(has(&o, "error", "loc-fragment") && !stdout(&o).contains("lastmod-w3c-only"));
    let o = check(&["--warn", "loc-fragment", "--error", "date"]);
    assert!(
        has(&o, "warning", "loc-fragment") && has(&o, "error", "lastmod-w3c-only"),
        "{}",
        stdout(&o)
    );
    // In command-line order: the later flag wins, whatever its kind.
    let o = check(&["--allow", "loc-fragment", "--error", "url"]);
    assert!(has(&o, "error", "loc-fragment"));
    let o = check(&["--error", "url", "--allow", "loc-fragment"]);
    assert!(!stdout(&o).contains("loc-fragment"));
    // `all` and categories are selectors too.
    let o = check(&["--allow", "all"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let o = check(&["--warn", "all"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(has(&o, "warning", "loc-fragment") && has(&o, "warning", "lastmod-w3c-only"));
    // Unknown names are usage errors with a suggestion.
    let o = check(&["--error", "loc-fragmen"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown rule or category `loc-fragmen`; did you mean `loc-fragment`?"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn within_the_file_a_rule_beats_its_category_whatever_the_order() {
    let (_outer_dir, dir) = repo("specific");
    write(
        &dir,
        "sitemap-lint.toml",
        "[rules]\nloc-fragment = \"info\"\nurl = \"error\"\nall = \"off\"\n",
    );
    write(&dir, "sitemap.xml", TWO_WARNINGS);
    let o = run_in(&dir, &["check", "--format", "concise", "sitemap.xml"], None);
    assert!(has(&o, "info", "loc-fragment"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("lastmod-w3c-only"));
}

fn long_url_sitemap(len: usize) -> String {
    let base = "https://www.example.com/";
    let url = format!("{base}{}", "a".repeat(len - base.len()));
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n  <url><loc>{url}</loc></url>\n</urlset>\n")
}

#[test]
fn presets_change_limits_and_severities() {
    let (_outer_dir, dir) = repo("presets");
    write(&dir, "long.xml", &long_url_sitemap(1100));
    write(&dir, "dates.xml", TWO_WARNINGS);

    let o = run_in(&dir, &["check", "--format", "concise", "long.xml"], None);
    assert_eq!(
        o.status.code(),
        Some(0),
        "1,100 characters are fine for the protocol: {}",
        stdout(&o)
    );

    write(&dir, "sitemap-lint.toml", "preset = \"yandex\"\n");
    let o = run_in(&dir, &["check", "--format", "concise", "long.xml"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains(
            "`<loc>` is 1,100 characters long, over the configured limit of 1,024 [loc-length]"
        ),
        "{}",
        stdout(&o)
    );

    // `max-url-length` beats the preset's limit.
    write(
        &dir,
        "sitemap-lint.toml",
        "preset = \"yandex\"\nmax-url-length = 1200\n",
    );
    let o = run_in(&dir, &["check", "--format", "concise", "long.xml"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));

    write(&dir, "sitemap-lint.toml", "preset = \"strict-xsd\"\n");
    let o = run_in(&dir, &["check", "--format", "concise", "dates.xml"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        has(&o, "error", "lastmod-w3c-only") && has(&o, "warning", "loc-fragment"),
        "{}",
        stdout(&o)
    );

    write(&dir, "sitemap-lint.toml", "preset = \"google\"\n");
    let o = run_in(
        &dir,
        &["check", "--format", "concise", "dates.xml", "long.xml"],
        None,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "google is the defaults: {}",
        stdout(&o)
    );

    write(&dir, "sitemap-lint.toml", "preset = \"bing\"\n");
    let o = run_in(&dir, &["check", "--format", "concise", "dates.xml"], None);
    assert!(has(&o, "error", "lastmod-w3c-only"), "{}", stdout(&o));
}

#[test]
fn errors_name_file_line_column_and_the_valid_choices() {
    let (_outer_dir, dir) = repo("errors");
    write(&dir, "sitemap.xml", TWO_WARNINGS);
    let cases: &[(&str, &str)] = &[
        ("presett = \"google\"\n", "sitemap-lint.toml:1:1: unknown key `presett`\n  help: did you mean `preset`? the valid keys are `preset`, `max-url-length`, `sitemap-url`, `site-root`, `exclude`, `rules`"),
        ("\n[rules]\nloc-lenght = \"error\"\n", "sitemap-lint.toml:3:1: unknown rule or category `loc-lenght` in `[rules]`\n  help: did you mean `loc-length`?"),
        ("[rules]\nloc-length = \"fatal\"\n", "sitemap-lint.toml:2:14: invalid value \"fatal\" for `loc-length`\n  help: the valid values are \"off\", \"info\", \"warning\", \"error\""),
        ("[rules]\nloc-length = true\n", "sitemap-lint.toml:2:14: `loc-length` must be a string, not a boolean"),
        ("preset = \"strict\"\n", "sitemap-lint.toml:1:10: invalid value \"strict\" for `preset`\n  help: did you mean \"strict-xsd\"? the valid values are \"google\", \"yandex\", \"bing\", \"strict-xsd\""),
        ("max-url-length = 4096\n", "sitemap-lint.toml:1:18: `max-url-length` must be from 12 to 2048, not 4096"),
        ("site-root = \"missing\"\n", "sitemap-lint.toml:1:13: `site-root` \"missing\" is not a directory"),
        ("exclude = [\"ok\", 3]\n", "sitemap-lint.toml:1:18: `exclude` must be a string, not an integer"),
        ("[rules\n", "sitemap-lint.toml:1:"),
    ];
    for (toml, expected) in cases {
        write(&dir, "sitemap-lint.toml", toml);
        for cmd in [
            &["check", "sitemap.xml"][..],
            &["config", "sitemap.xml"][..],
        ] {
            let o = run_in(&dir, cmd, None);
            assert_eq!(o.status.code(), Some(2), "{toml:?}");
            assert!(
                stderr(&o).contains(&format!("sitemap-lint: error: {expected}")),
                "{toml:?}: {}",
                stderr(&o)
            );
        }
    }
}

#[test]
fn exclude_globs_are_anchored_at_the_config_folder() {
    let (_outer_dir, dir) = repo("exclude");
    write(
        &dir,
        "site/sitemap-lint.toml",
        "exclude = [\"drafts\", \"old/*.xml\"]\n",
    );
    write(&dir, "site/sitemap.xml", TWO_WARNINGS);
    write(&dir, "site/drafts/a.xml", TWO_WARNINGS);
    write(&dir, "site/old/b.xml", TWO_WARNINGS);
    write(&dir, "old/c.xml", TWO_WARNINGS);
    let o = run_in(&dir, &["check", "--format", "concise", "."], None);
    let text = stdout(&o);
    assert!(text.contains("site/sitemap.xml:"), "{text}");
    assert!(
        text.contains("old/c.xml:"),
        "outside the config's folder: {text}"
    );
    assert!(
        !text.contains("drafts/") && !text.contains("site/old/"),
        "{text}"
    );
    // A named file is checked, unless --force-exclude.
    let o = run_in(
        &dir,
        &["check", "--format", "concise", "site/drafts/a.xml"],
        None,
    );
    assert!(stdout(&o).contains("site/drafts/a.xml:"));
    let o = run_in(
        &dir,
        &[
            "check",
            "--format",
            "concise",
            "--force-exclude",
            "site/drafts/a.xml",
            "site/sitemap.xml",
        ],
        None,
    );
    assert!(
        !stdout(&o).contains("drafts") && stdout(&o).contains("site/sitemap.xml:"),
        "{}",
        stdout(&o)
    );
}

const SUPPRESSED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <!-- sitemap-lint: allow(loc-fragment, date) -->
  <url><loc>https://www.example.com/docs#install</loc><lastmod>2024-05</lastmod></url>
  <url><loc>https://www.example.com/faq#top</loc></url>
  <!-- sitemap-lint: allow(loc-not-ascii, lastmod-w3c-only) -->
  <url><loc>https://www.example.com/café</loc></url>
</urlset>
"#;

#[test]
fn suppressions_cover_the_next_element_and_report_mistakes() {
    let (_outer_dir, dir) = repo("suppress");
    write(&dir, "sitemap.xml", SUPPRESSED);
    let o = run_in(&dir, &["check", "--format", "concise", "sitemap.xml"], None);
    assert_eq!(
        findings(&o),
        [
            "sitemap.xml:5:40: warning: fragment `#top` is ignored by crawlers [loc-fragment]",
            "sitemap.xml:6:43: warning: unused suppression: no `lastmod-w3c-only` finding in the element that follows [unused-suppression]",
        ],
        "{}",
        stderr(&o)
    );
    // A suppressed rule that is turned off does not make the suppression unused.
    let o = run_in(
        &dir,
        &[
            "check",
            "--format",
            "concise",
            "--allow",
            "date",
            "sitemap.xml",
        ],
        None,
    );
    assert_eq!(findings(&o).len(), 1, "{}", stdout(&o));
    // The suppression rules are configured like any other.
    let o = run_in(
        &dir,
        &[
            "check",
            "--format",
            "concise",
            "--allow",
            "suppression",
            "sitemap.xml",
        ],
        None,
    );
    assert!(!stdout(&o).contains("unused-suppression"));

    // Before the root: the whole file, the prolog included.
    let file_wide = SUPPRESSED.replacen(
        "<urlset",
        "<!-- sitemap-lint: allow(url, unknown-thing) -->\n<urlset",
        1,
    );
    write(&dir, "file.xml", &file_wide);
    let o = run_in(&dir, &["check", "--format", "concise", "file.xml"], None);
    let lines = findings(&o);
    assert!(
        !lines.iter().any(|l| l.ends_with("[loc-fragment]")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("file.xml:2:31:") && l.contains("unknown rule or category `unknown-thing` in a suppression [suppression-invalid]")), "{lines:?}");
    // `loc-not-ascii` inside covered both ways: the inner suppression is used.
    assert!(
        lines
            .iter()
            .any(|l| l.contains("no `lastmod-w3c-only` finding")),
        "{lines:?}"
    );
}

#[test]
fn config_prints_the_effective_configuration_with_sources() {
    let (_outer_dir, dir) = repo("show");
    std::fs::create_dir_all(dir.join("site/public")).unwrap();
    write(
        &dir,
        "site/sitemap-lint.toml",
        "preset = \"yandex\"\nsitemap-url = \"https://www.example.com/sitemap.xml\"\nsite-root = \"public\"\nexclude = [\"drafts\"]\n\n[rules]\nurl = \"info\"\n",
    );
    write(&dir, "site/sitemap.xml", TWO_WARNINGS);
    let o = run_in(
        &dir,
        &["config", "site/sitemap.xml", "--warn", "loc-fragment"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    for expected in [
        "# effective sitemap-lint configuration for `site/sitemap.xml`",
        "# configuration file: site/sitemap-lint.toml",
        "preset = \"yandex\"",
        "max-url-length = 1024",
        "# preset yandex",
        "sitemap-url = \"https://www.example.com/sitemap.xml\"",
        "# site/sitemap-lint.toml:2",
        "site-root = \"site/public\"",
        "exclude = [\"drafts\"]",
        "[rules]",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    let line = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{name} = ")))
            .unwrap_or_else(|| panic!("no line for {name}:\n{text}"))
            .to_string()
    };
    assert!(
        line("loc-fragment").contains("\"warning\"")
            && line("loc-fragment").ends_with("# --warn loc-fragment")
    );
    assert!(
        line("loc-invalid").contains("\"info\"")
            && line("loc-invalid").ends_with("# site/sitemap-lint.toml:7")
    );
    assert!(line("xml-syntax").contains("\"error\"") && line("xml-syntax").ends_with("# default"));

    // A folder is looked up from inside it; JSON is available.
    let o = run_in(&dir, &["config", "site", "--format", "json"], None);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["config_file"], "site/sitemap-lint.toml");
    assert_eq!(v["max_url_length"]["value"], 1024);
    assert_eq!(v["max_url_length"]["source"], "preset yandex");
    let rules = v["rules"].as_array().unwrap();
    let loc = rules.iter().find(|r| r["name"] == "loc-length").unwrap();
    assert_eq!(loc["severity"], "info");

    let o = run_in(&dir, &["config", "--isolated"], None);
    assert!(
        stdout(&o).contains("# configuration file: none (--isolated)"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("loc-fragment = \"warning\""));
}

/// Issue 22: `sitemap-url` from the file reaches `loc-outside-scope`, which once sliced the
/// host `例え.jp` (9 bytes) at byte 4 when comparing it with `e.com` (5 bytes) and panicked.
#[test]
fn a_non_ascii_host_against_the_configured_sitemap_url_is_reported_not_a_panic() {
    let (_outer_dir, dir) = repo("non-ascii-host");
    write(
        &dir,
        "sitemap-lint.toml",
        "sitemap-url = \"https://e.com/sitemap.xml\"\n",
    );
    write(
        &dir,
        "sitemap.xml",
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://例え.jp/</loc></url></urlset>\n",
    );
    let o = run_in(&dir, &["check", "--format", "concise", "sitemap.xml"], None);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(has(&o, "error", "loc-outside-scope"), "{}", stdout(&o));
    assert!(!has(&o, "error", "internal-error"), "{}", stdout(&o));
}
