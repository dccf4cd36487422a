//! Nothing from the input reaches a terminal or a CI log raw (issue 22, "Injection"): every C0
//! control (but tab), DEL, every C1 control, U+2028/U+2029 and the bidi controls go through file
//! names, `--stdin-filename`, quoted values (changefreq, priority, hreflang, suppression names)
//! and unreadable paths, in every output format and on stderr. Text formats (human, concise,
//! github, `--statistics`) show them as stand-ins and never start a line with `::` from input
//! text (the GitHub runner reads such a line as a workflow command); machine formats (JSON,
//! SARIF, GitLab, JUnit, Checkstyle) keep exact values and stay parseable.

mod support;

use std::path::Path;

use support::{bin, formats, run_cmd, stderr, stdout, TempDir, NS};

/// The characters no text output may carry raw.
fn hostile_chars() -> Vec<char> {
    let mut v: Vec<char> = (0u32..0x20)
        .filter(|&c| c != 0x09)
        .chain(std::iter::once(0x7f))
        .chain(0x80..0xa0)
        .chain([0x2028, 0x2029, 0x061c, 0x200e, 0x200f])
        .chain(0x202a..=0x202e)
        .chain(0x2066..=0x2069)
        .filter_map(char::from_u32)
        .collect();
    v.dedup();
    v
}

/// What a file name or value carries besides the controls: workflow commands after line breaks,
/// a terminal escape sequence (clear screen, set the title), a CSI written as C1.
const PAYLOAD: &str = "\n::warning title=pwned::injected\n::stop-commands::tok3n\r\n  ::error::x\u{1b}[2J\u{1b}]0;title\u{7}\u{9b}31m\u{202e}lmx.evil";

/// Every hostile character except NUL (impossible in a file name) and `/`, in groups small
/// enough for a file name (255 bytes).
fn name_groups() -> Vec<String> {
    let chars: Vec<char> = hostile_chars().into_iter().filter(|&c| c != '\0').collect();
    let mut groups: Vec<String> = chars
        .chunks(24)
        .map(|g| format!("n{}.xml", g.iter().collect::<String>()))
        .collect();
    groups.push(format!("{PAYLOAD}.xml"));
    groups.push("::warning title=x::lead.xml".to_string());
    groups.push(" ::notice::lead-space.xml".to_string());
    groups
}

/// A sitemap whose findings quote `value` in the changefreq, priority, hreflang and
/// suppression messages (and `<loc>` problems).
fn sitemap_quoting(value: &str) -> String {
    let v = value
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('\r', "&#13;");
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <!-- sitemap-lint: allow(loc-{v}) -->\n\
         <urlset xmlns=\"{NS}\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n\
         <url><loc>https://www.example.com/a</loc><changefreq>d{v}</changefreq><priority>0.{v}</priority>\n\
         <xhtml:link rel=\"alternate\" hreflang=\"e{v}\" href=\"https://www.example.com/a\"/>\n\
         <xhtml:link rel=\"alternate\" hreflang=\"x-default\" href=\"https://www.example.com/a\"/></url>\n\
         </urlset>\n"
    )
}

/// Text output: no hostile character but the line feeds between lines, and no line that opens a
/// workflow command except the github renderer's own annotations.
fn assert_inert(what: &str, text: &str) {
    let hostile = hostile_chars();
    for line in text.split('\n') {
        if let Some(c) = line.chars().find(|c| hostile.contains(c)) {
            panic!("{what}: raw U+{:04X} in {line:?}", c as u32);
        }
    }
    assert_no_command(what, text);
}

/// Any output (the GitHub runner reads every line a step prints, whatever the format): no line
/// opens a workflow command except the github renderer's own annotations.
fn assert_no_command(what: &str, text: &str) {
    for line in text.lines() {
        if line.trim_start().starts_with("::") {
            assert!(
                ["::error file=", "::warning file=", "::notice file="]
                    .iter()
                    .any(|own| line.starts_with(own)),
                "{what}: a line opens a workflow command: {line:?}"
            );
        }
    }
    assert!(
        !text.contains("\n::stop-commands") && !text.contains("\n::warning title=pwned"),
        "{what}: injected command"
    );
}

fn check_all_formats(dir: &Path, extra: &[&str], stdin: Option<&[u8]>, expect_names: &[String]) {
    for format in formats() {
        let mut args = vec!["check", "--format", format.as_str(), "--color", "never"];
        args.extend_from_slice(extra);
        let mut cmd = bin();
        cmd.current_dir(dir);
        let o = run_cmd(cmd, &args, stdin);
        let what = format!("--format {format} {extra:?}");
        assert!(o.status.code() != Some(101), "{what}: panicked");
        let out = stdout(&o);
        assert_inert(&format!("{what} (stderr)"), &stderr(&o));
        assert_no_command(&what, &out);
        match format.as_str() {
            "human" | "concise" | "github" => assert_inert(&what, &out),
            "json" | "sarif" | "gitlab" => {
                let doc: serde_json::Value =
                    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{what}: not JSON ({e})"));
                // Exact values: every name is there as it is.
                let flat = doc.to_string();
                for name in expect_names {
                    let quoted = serde_json::to_string(name).unwrap();
                    let inner = &quoted[1..quoted.len() - 1];
                    // SARIF URIs are percent-encoded; JSON and GitLab paths are exact.
                    assert!(
                        format == "sarif" || flat.contains(inner),
                        "{what}: {name:?} not exact in the output"
                    );
                }
            }
            "junit" | "checkstyle" => {
                roxmltree::Document::parse(&out)
                    .unwrap_or_else(|e| panic!("{what}: not XML ({e})"));
            }
            other => panic!("a format this test does not know: {other}"),
        }
        if matches!(format.as_str(), "human" | "concise" | "json") {
            args.push("--statistics");
            let mut cmd = bin();
            cmd.current_dir(dir);
            let o = run_cmd(cmd, &args, stdin);
            assert_inert(&format!("{what} --statistics (stderr)"), &stderr(&o));
            if format != "json" {
                assert_inert(&format!("{what} --statistics"), &stdout(&o));
            }
        }
    }
}

#[test]
fn control_and_bidi_characters_in_file_names_never_reach_text_output_raw() {
    let dir = TempDir::new("inject-names");
    let names = name_groups();
    for name in &names {
        dir.write(name, sitemap_quoting("x").as_bytes());
    }
    check_all_formats(dir.path(), &["."], None, &names);
    // Named one by one on the command line, too (the walk shows them the same way).
    let mut args: Vec<&str> = vec!["--"];
    args.extend(names.iter().map(String::as_str));
    check_all_formats(dir.path(), &args, None, &names);
}

#[test]
fn control_and_bidi_characters_in_values_never_reach_text_output_raw() {
    let dir = TempDir::new("inject-values");
    let chars = hostile_chars();
    // Raw in the file: XML cannot carry most C0 controls, which then become syntax errors that
    // quote them; the rest are legal XML characters and reach the rules' messages.
    for (i, group) in chars.chunks(8).enumerate() {
        let value: String = group.iter().collect();
        dir.write(&format!("v{i}.xml"), sitemap_quoting(&value).as_bytes());
    }
    dir.write("payload.xml", sitemap_quoting(PAYLOAD).as_bytes());
    check_all_formats(dir.path(), &["."], None, &[]);
}

#[test]
fn stdin_filename_and_unreadable_paths_are_shown_inert() {
    let dir = TempDir::new("inject-stdin");
    let name = format!("in{PAYLOAD}.xml");
    let xml = sitemap_quoting(PAYLOAD);
    check_all_formats(
        dir.path(),
        &["--stdin-filename", &name, "-"],
        Some(xml.as_bytes()),
        std::slice::from_ref(&name),
    );
    // `cannot read `…``: a dangling symlink whose name carries the payload.
    let link = dir.path().join(format!("gone{PAYLOAD}.xml"));
    std::os::unix::fs::symlink(dir.path().join("nowhere.xml"), &link).unwrap();
    let o = run_cmd(
        {
            let mut c = bin();
            c.current_dir(dir.path());
            c
        },
        &["check", "--", link.file_name().unwrap().to_str().unwrap()],
        None,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("gone␊::warning"), "{err}");
    assert_inert("cannot read", &err);
    // A configuration error names the file and quotes its values.
    let cfg_dir = TempDir::new("inject-config");
    cfg_dir.write(
        "sitemap-lint.toml",
        "preset = \"g\\u001b[2J\\n::warning::x\\u009b\\u202e\"\n".as_bytes(),
    );
    cfg_dir.write("s.xml", sitemap_quoting("x").as_bytes());
    let o = run_cmd(
        {
            let mut c = bin();
            c.current_dir(cfg_dir.path());
            c
        },
        &["check", "s.xml"],
        None,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("␛[2J␊::warning"), "{err}");
    assert_inert("config error", &err);
}

#[test]
fn sitemap_lint_config_shows_paths_and_values_inert() {
    let dir = TempDir::new("inject-config-show");
    let sub = format!("c{PAYLOAD}");
    dir.write(
        &format!("{sub}/sitemap-lint.toml"),
        "exclude = [\"a\\u009b\\u202e\\u007f\"]\n".as_bytes(),
    );
    let o = run_cmd(
        {
            let mut c = bin();
            c.current_dir(dir.path());
            c
        },
        &["config", "--", &sub],
        None,
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.contains("<U+009B><U+202E>␡"), "{out}");
    assert_inert("sitemap-lint config", &out);
    assert_inert("sitemap-lint config (stderr)", &stderr(&o));
}
