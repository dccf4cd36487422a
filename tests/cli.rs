//! End-to-end tests of the `sitemap-lint` binary: inputs (files, directories, stdin, gzip), the JSON
//! contract, exit codes, colour, `rules`/`explain`, and a closed stdout pipe.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const GOOD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/</loc><lastmod>2024-11-21</lastmod></url>
</urlset>
"#;

const BAD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/a b</loc><changefreq>Daily</changefreq></url>
</urlset>
"#;

const WARN_ONLY: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/</loc><lastmod>2024-05</lastmod></url>
</urlset>
"#;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sitemap-lint"));
    c.env_remove("NO_COLOR");
    c
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = bin();
    cmd.args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh temporary directory for one test.
fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sitemap-lint-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, bytes).unwrap();
    p
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn clean_file_exits_zero_with_summary_on_stderr() {
    let d = tempdir("clean");
    let f = write(&d, "sitemap.xml", GOOD.as_bytes());
    let o = run(&["check", f.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("no problems in 1 file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn errors_exit_one_and_underline_the_value() {
    let d = tempdir("errors");
    let f = write(&d, "sitemap.xml", BAD.as_bytes());
    let o = run(&["check", "--color", "never", f.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("error[loc-invalid]"), "{out}");
    assert!(out.contains("sitemap.xml:3:38"), "{out}");
    assert!(out.contains("error[changefreq-invalid]"), "{out}");
    assert!(out.contains("^^^^^ did you mean `daily`?"), "{out}");
    assert!(!out.contains('\x1b'), "no colour when asked for none");
}

#[test]
fn warnings_alone_exit_zero() {
    let o = run(&["check", "-"], Some(WARN_ONLY.as_bytes()));
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("warning[lastmod-w3c-only]"));
}

#[test]
fn stdin_is_read_only_for_dash_and_named_by_flag() {
    let o = run(
        &["check", "--stdin-filename", "pasted.xml", "-"],
        Some(BAD.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("pasted.xml:3:"), "{}", stdout(&o));
    let o = run(&["check", "-"], Some(BAD.as_bytes()));
    assert!(stdout(&o).contains("<stdin>:3:"), "{}", stdout(&o));
}

#[test]
fn json_output_has_the_documented_shape() {
    let o = run(&["check", "--format", "json", "-"], Some(BAD.as_bytes()));
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["version"], 1);
    let file = &v["files"][0];
    assert_eq!(file["path"], "<stdin>");
    let d = &file["diagnostics"][0];
    assert_eq!(d["code"], "loc-invalid");
    assert_eq!(d["severity"], "error");
    assert!(d["message"].as_str().unwrap().contains("space"));
    assert_eq!(d["span"]["start"]["line"], 3);
    assert_eq!(d["span"]["start"]["column"], 38);
    assert_eq!(d["span"]["end"]["column"], 39);
    let start = d["span"]["start"]["offset"].as_u64().unwrap() as usize;
    assert_eq!(&BAD[start..start + 1], " ");
    assert!(d["help"].as_str().unwrap().contains("%20"));
    assert_eq!(v["summary"]["files"], 1);
    assert_eq!(v["summary"]["errors"], 2);
    assert_eq!(v["summary"]["warnings"], 0);
    // Nothing but JSON on stdout.
    assert!(stdout(&o).trim_end().ends_with('}'));
}

#[test]
fn json_columns_count_characters_and_offsets_bytes() {
    let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://www.example.com/ü ö</loc></url></urlset>\n";
    let o = run(&["check", "--format", "json", "-"], Some(xml.as_bytes()));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let diags = v["files"][0]["diagnostics"].as_array().unwrap();
    let space = diags.iter().find(|d| d["code"] == "loc-invalid").unwrap();
    let offset = space["span"]["start"]["offset"].as_u64().unwrap() as usize;
    assert_eq!(&xml[offset..offset + 1], " ");
    let line2 = &xml[xml.find('\n').unwrap() + 1..];
    let col = line2[..line2.find("ü ö").unwrap() + "ü".len()]
        .chars()
        .count()
        + 1;
    assert_eq!(space["span"]["start"]["column"], col);
}

#[test]
fn gzip_is_recognised_by_content_and_positions_refer_to_decompressed_text() {
    let d = tempdir("gzip");
    let f = write(&d, "sitemap.xml.gz", &gzip(BAD.as_bytes()));
    let o = run(&["check", "--format", "json", f.to_str().unwrap()], None);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["files"][0]["diagnostics"][0]["span"]["start"]["line"], 3);
    // Named .xml but gzip inside: fine.
    let f = write(&d, "plain-name.xml", &gzip(GOOD.as_bytes()));
    assert_eq!(
        run(&["check", f.to_str().unwrap()], None).status.code(),
        Some(0)
    );
    // Named .gz but plain: a warning, still checked.
    let f = write(&d, "not-really.xml.gz", GOOD.as_bytes());
    let o = run(&["check", f.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("gzip-extension-mismatch"));
    // Truncated gzip: an error, no crash.
    let mut g = gzip(GOOD.as_bytes());
    g.truncate(g.len() - 10);
    let f = write(&d, "cut.xml.gz", &g);
    let o = run(&["check", f.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("gzip-invalid"), "{}", stdout(&o));
}

#[test]
fn directories_are_searched_and_output_is_sorted() {
    let d = tempdir("dir");
    write(&d, "b/sitemap.xml", BAD.as_bytes());
    write(&d, "a/sitemap.xml.gz", &gzip(BAD.as_bytes()));
    write(&d, "a/notes.txt", b"not a sitemap");
    write(&d, ".hidden/sitemap.xml", BAD.as_bytes());
    let o = run(&["check", "--format", "json", d.to_str().unwrap()], None);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let paths: Vec<String> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(paths.len(), 2, "{paths:?}");
    assert!(
        paths[0].ends_with("a/sitemap.xml.gz") && paths[1].ends_with("b/sitemap.xml"),
        "{paths:?}"
    );
}

#[test]
fn unreadable_paths_go_to_stderr_and_exit_two_after_checking_the_rest() {
    let d = tempdir("missing");
    let f = write(&d, "sitemap.xml", BAD.as_bytes());
    let o = run(
        &["check", "/nonexistent/sitemap.xml", f.to_str().unwrap()],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read `/nonexistent/sitemap.xml`"),
        "{}",
        stderr(&o)
    );
    assert!(
        stdout(&o).contains("loc-invalid"),
        "the other file is still checked"
    );
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(
        run(&["check", "--format", "yaml", "x.xml"], None)
            .status
            .code(),
        Some(2)
    );
    assert_eq!(run(&["frobnicate"], None).status.code(), Some(2));
    let o = run(&["explain", "no-such-rule"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown rule"));
}

#[test]
fn colour_follows_flag_and_no_color() {
    let o = run(&["check", "--color", "always", "-"], Some(BAD.as_bytes()));
    assert!(stdout(&o).contains('\x1b'));
    let mut cmd = bin();
    let o = cmd
        .args(["check", "-"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(BAD.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(!String::from_utf8_lossy(&o.stdout).contains('\x1b'));
}

#[test]
fn rules_and_explain_print_the_docs() {
    let o = run(&["rules"], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("lastmod-invalid"));
    let o = run(&["explain", "changefreq-invalid"], None);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("## What it does") && out.contains("Use instead:"),
        "{out}"
    );
}

#[test]
fn closed_stdout_pipe_ends_quietly() {
    // Many diagnostics, and the reader goes away after the first line.
    let mut xml = String::from("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">");
    for _ in 0..5000 {
        xml.push_str("<url><loc>https://www.example.com/a b</loc></url>");
    }
    xml.push_str("</urlset>");
    let d = tempdir("pipe");
    let f = write(&d, "big.xml", xml.as_bytes());
    let mut child = bin()
        .args(["check", "--color", "never", f.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    std::io::Read::read(&mut out, &mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert!(o.status.code().is_some(), "killed by a signal");
    assert_ne!(o.status.code(), Some(101));
}

#[test]
fn input_files_are_never_modified() {
    let d = tempdir("readonly");
    let f = write(&d, "sitemap.xml", BAD.as_bytes());
    let before = std::fs::metadata(&f).unwrap().modified().unwrap();
    run(&["check", f.to_str().unwrap()], None);
    assert_eq!(std::fs::read(&f).unwrap(), BAD.as_bytes());
    assert_eq!(std::fs::metadata(&f).unwrap().modified().unwrap(), before);
}
