//! End-to-end tests of the `sitemap-lint` binary: inputs (files, directories, stdin, gzip), the JSON
//! contract, exit codes, colour, `rules`/`explain`, and a closed stdout pipe.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod support;
use support::{bin, run_cmd, run_in, stderr, stdout, TempDir};

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

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    run_cmd(bin(), args, stdin)
}

/// A fresh temporary directory for one test, removed when the test drops it.
fn tempdir(name: &str) -> TempDir {
    TempDir::new(&format!("cli-{name}"))
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
    cmd.env("NO_COLOR", "1");
    let o = run_cmd(cmd, &["check", "-"], Some(BAD.as_bytes()));
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

// ---------------------------------------------------------------------------------------------
// Many inputs: walking, excludes, unreadable and special paths, parallel order.

/// The file paths of a `--format json` report.
fn json_paths(o: &Output) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(o), stderr(o)));
    v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("git");
    assert!(o.status.success(), "git {args:?}: {}", stderr(&o));
}

#[test]
fn no_paths_means_the_current_directory() {
    let d = tempdir("cwd");
    write(&d, "public/sitemap.xml", BAD.as_bytes());
    write(&d, "sitemap.xml.gz", &gzip(GOOD.as_bytes()));
    write(&d, "notes.txt", b"not a sitemap");
    let o = run_in(&d, &["check", "--format", "json"], None);
    assert_eq!(json_paths(&o), ["public/sitemap.xml", "sitemap.xml.gz"]);
    let o = run_in(&d, &["check", "--format", "json", "."], None);
    assert_eq!(json_paths(&o), ["public/sitemap.xml", "sitemap.xml.gz"]);
}

#[test]
fn walking_honours_gitignore_and_skips_hidden_entries_and_symlinks() {
    let d = tempdir("gitignore");
    git(&d, &["init", "-q"]);
    write(&d, ".gitignore", b"build/\n*.tmp.xml\n");
    write(&d, "public/sitemap.xml", GOOD.as_bytes());
    write(&d, "public/draft.tmp.xml", BAD.as_bytes());
    write(&d, "build/sitemap.xml", BAD.as_bytes());
    write(&d, ".cache/sitemap.xml", BAD.as_bytes());
    write(&d, "elsewhere/sitemap.xml", BAD.as_bytes());
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(d.join("elsewhere"), d.join("public/linked-dir")).unwrap();
        std::os::unix::fs::symlink(d.join("elsewhere/sitemap.xml"), d.join("public/linked.xml"))
            .unwrap();
    }
    // At the repository root its .gitignore applies: `build/` and `*.tmp.xml` are left out, and
    // the sitemap-named file among them is named in the summary with the flag that checks it.
    let o = run_in(&d, &["check", "--format", "json", "."], None);
    assert_eq!(
        json_paths(&o),
        ["elsewhere/sitemap.xml", "public/sitemap.xml"]
    );
    let o = run_in(&d, &["check", "."], None);
    assert!(
        stderr(&o).contains(
            "1 sitemap-named file hidden by ignore files (`build/sitemap.xml`; --no-ignore checks them)"
        ),
        "{}",
        stderr(&o)
    );
    let o = run_in(&d, &["check", "--format", "json", "--no-ignore", "."], None);
    assert_eq!(
        json_paths(&o),
        [
            "build/sitemap.xml",
            "elsewhere/sitemap.xml",
            "public/draft.tmp.xml",
            "public/sitemap.xml"
        ]
    );
    // A directory named on the command line is walked without the ignore files above it: a
    // build folder's generated files are checked whatever the repository ignores.
    let o = run_in(&d, &["check", "--format", "json", "public"], None);
    assert_eq!(
        json_paths(&o),
        ["public/draft.tmp.xml", "public/sitemap.xml"]
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = run_in(&d, &["check", "--format", "json", "build"], None);
    assert_eq!(json_paths(&o), ["build/sitemap.xml"]);
    // Named explicitly, ignored and hidden files are checked (and a symlink is read through).
    let mut args = vec![
        "check",
        "--format",
        "json",
        "build/sitemap.xml",
        ".cache/sitemap.xml",
    ];
    if cfg!(unix) {
        args.push("public/linked.xml");
    }
    let o = run_in(&d, &args, None);
    let mut expected = vec![".cache/sitemap.xml", "build/sitemap.xml"];
    if cfg!(unix) {
        expected.push("public/linked.xml");
    }
    assert_eq!(json_paths(&o), expected);
    assert_eq!(o.status.code(), Some(1));
    // Code-host formats name the file a symlink points to (GitHub cannot show symlinks).
    if cfg!(unix) {
        let o = run_in(
            &d,
            &["check", "--format", "gitlab", "public/linked.xml"],
            None,
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v[0]["location"]["path"], "elsewhere/sitemap.xml");
        let o = run_in(
            &d,
            &["check", "--format", "concise", "public/linked.xml"],
            None,
        );
        assert!(
            stdout(&o).starts_with("public/linked.xml:3:38:"),
            "{}",
            stdout(&o)
        );
    }
}

#[test]
fn exclude_applies_to_walked_entries_and_with_force_exclude_to_named_files() {
    let d = tempdir("exclude");
    write(&d, "public/sitemap.xml", BAD.as_bytes());
    write(&d, "public/old/sitemap.xml", BAD.as_bytes());
    write(&d, "public/drafts/a/sitemap.xml", BAD.as_bytes());
    write(&d, "public/sitemap.bak.xml", BAD.as_bytes());
    let o = run_in(
        &d,
        &[
            "check",
            "--format",
            "json",
            "--exclude",
            "public/old/",
            "--exclude",
            "drafts",
            "--exclude",
            "*.bak.xml",
            "public",
        ],
        None,
    );
    assert_eq!(json_paths(&o), ["public/sitemap.xml"]);
    // Named files are checked unless --force-exclude.
    let named = [
        "check",
        "--format",
        "json",
        "--exclude",
        "public/old/**",
        "public/old/sitemap.xml",
        "public/sitemap.xml",
    ];
    assert_eq!(
        json_paths(&run_in(&d, &named, None)),
        ["public/old/sitemap.xml", "public/sitemap.xml"]
    );
    let mut forced = named.to_vec();
    forced.insert(1, "--force-exclude");
    assert_eq!(
        json_paths(&run_in(&d, &forced, None)),
        ["public/sitemap.xml"]
    );
    // Everything named is excluded: nothing is checked (not the current directory), exit 0.
    let o = run_in(
        &d,
        &[
            "check",
            "--force-exclude",
            "--exclude",
            "public",
            "public/sitemap.xml",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("no problems in 0 files"),
        "{}",
        stderr(&o)
    );
    // The stdin name counts as a named file.
    let o = run_in(
        &d,
        &[
            "check",
            "--force-exclude",
            "--exclude",
            "vendor/",
            "--stdin-filename",
            "vendor/sitemap.xml",
            "-",
        ],
        Some(BAD.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
    // A bad glob is a usage error.
    let o = run_in(&d, &["check", "--exclude", "a[", "public"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid --exclude glob `a[`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn missing_and_special_paths_are_reported_and_the_rest_checked() {
    let d = tempdir("special");
    write(&d, "a.xml", BAD.as_bytes());
    write(&d, "z.xml", GOOD.as_bytes());
    let mut args = vec![
        "check",
        "--format",
        "concise",
        "a.xml",
        "missing.xml",
        "z.xml",
    ];
    #[cfg(unix)]
    {
        let fifo = d.join("pipe.xml");
        let made = Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            args.push("pipe.xml");
        }
        args.push("/dev/null");
    }
    let o = run_in(&d, &args, None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("cannot read `missing.xml`: no such file or directory"),
        "{err}"
    );
    if cfg!(unix) {
        assert!(
            err.contains("cannot read `/dev/null`: not a regular file"),
            "{err}"
        );
    }
    if args.contains(&"pipe.xml") {
        assert!(
            err.contains("cannot read `pipe.xml`: not a regular file"),
            "{err}"
        );
    }
    assert!(stdout(&o).contains("a.xml:3:38: error: space in the path"));
    // --exit-zero does not hide trouble.
    let o = run_in(&d, &["check", "--exit-zero", "a.xml", "missing.xml"], None);
    assert_eq!(o.status.code(), Some(2));
    // Stdin twice is a usage problem.
    let o = run_in(&d, &["check", "-", "-"], Some(GOOD.as_bytes()));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("more than once"), "{}", stderr(&o));
}

#[test]
fn many_files_are_checked_in_parallel_in_a_stable_order() {
    let d = tempdir("many");
    let mut expected = Vec::new();
    for i in 0..120 {
        let name = format!("dir{}/sitemap-{i:03}.xml", i % 7);
        let body = if i % 3 == 0 { BAD } else { WARN_ONLY };
        write(&d, &name, body.as_bytes());
        expected.push(name);
    }
    expected.sort();
    let one = run_in(&d, &["check", "--format", "json", "-j", "1", "."], None);
    let four = run_in(&d, &["check", "--format", "json", "-j", "4", "."], None);
    let auto = run_in(&d, &["check", "--format", "json"], None);
    assert_eq!(json_paths(&one), expected);
    assert_eq!(one.stdout, four.stdout);
    assert_eq!(one.stdout, auto.stdout);
    let concise = run_in(&d, &["check", "--format", "concise", "-j", "3"], None);
    let lines: Vec<&str> = std::str::from_utf8(&concise.stdout)
        .unwrap()
        .lines()
        .collect();
    // 40 BAD files × 2 errors, 80 WARN_ONLY files × 1 warning, and the 79 WARN_ONLY files after
    // the first list its URL again (`duplicate-loc` across the files of the run).
    assert_eq!(lines.len(), 40 * 2 + 80 + 79);
    // By path, then position, then rule.
    let key = |l: &&str| {
        let mut p = l.splitn(4, ':');
        let path = p.next().unwrap().to_string();
        let line: usize = p.next().unwrap().parse().unwrap();
        let col: usize = p.next().unwrap().parse().unwrap();
        (path, line, col)
    };
    assert!(lines.windows(2).all(|w| key(&w[0]) <= key(&w[1])));
}

// ---------------------------------------------------------------------------------------------
// Exit-code and report options.

#[test]
fn max_warnings_exit_zero_and_quiet() {
    let d = tempdir("thresholds");
    let warn = write(&d, "warn.xml", WARN_ONLY.as_bytes());
    let bad = write(&d, "bad.xml", BAD.as_bytes());
    let (warn, bad) = (warn.to_str().unwrap(), bad.to_str().unwrap());
    assert_eq!(run(&["check", warn], None).status.code(), Some(0));
    assert_eq!(
        run(&["check", "--max-warnings", "1", warn], None)
            .status
            .code(),
        Some(0)
    );
    // The summary names the threshold that failed the run; formats without a summary line get
    // a line of their own.
    let o = run(&["check", "--max-warnings", "0", warn], None);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "sitemap-lint: error: 1 warning in 1 file; 1 fixable with --fix --unsafe-fixes; more warnings than --max-warnings 0 allows\n"
    );
    let o = run(
        &["check", "--format", "concise", "--max-warnings", "0", warn],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "sitemap-lint: error: 1 warning (more than --max-warnings 0)\n"
    );
    assert_eq!(
        run(&["check", "--exit-zero", bad], None).status.code(),
        Some(0)
    );
    // --quiet: errors only, in the output and the counts.
    let o = run(
        &["check", "--quiet", "--format", "concise", warn, bad],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(!stdout(&o).contains("warning"), "{}", stdout(&o));
    assert!(stdout(&o).contains("error: space in the path"));
    let o = run(&["check", "-q", "--max-warnings", "0", warn], None);
    assert_eq!(
        o.status.code(),
        Some(0),
        "quiet leaves no warnings to count"
    );
    assert!(
        stderr(&o).contains("no problems in 1 file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn summary_line_goes_to_stderr_in_human_format_only() {
    let d = tempdir("summary");
    let f = write(&d, "bad.xml", BAD.as_bytes());
    let o = run(&["check", "--color", "never", f.to_str().unwrap()], None);
    // The summary counts what --fix can repair (issue 19).
    assert_eq!(
        stderr(&o),
        "sitemap-lint: error: 2 errors in 1 file; 2 fixable with --fix\n"
    );
    let o = run(&["check", "--format", "concise", f.to_str().unwrap()], None);
    assert_eq!(stderr(&o), "");
}

#[test]
fn statistics_count_findings_per_rule() {
    let d = tempdir("stats");
    write(&d, "a.xml", BAD.as_bytes());
    write(&d, "b.xml", BAD.as_bytes());
    write(&d, "c.xml", WARN_ONLY.as_bytes());
    let o = run_in(&d, &["check", "--statistics"], None);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("2  error    changefreq-invalid"),
        "{out}"
    );
    assert!(lines[1].starts_with("2  error    loc-invalid"), "{out}");
    assert!(
        lines[2].starts_with("1  warning  lastmod-w3c-only"),
        "{out}"
    );
    let o = run_in(&d, &["check", "--statistics", "--format", "json"], None);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["code"], "changefreq-invalid");
    assert_eq!(v[0]["count"], 2);
    assert_eq!(v[0]["severity"], "error");
    let o = run_in(&d, &["check", "--statistics", "--format", "sarif"], None);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn stdin_hint_is_printed_only_on_a_terminal() {
    // Piped stdin: no hint.
    let o = run(&["check", "-"], Some(GOOD.as_bytes()));
    assert!(!stderr(&o).contains("Ctrl-D"), "{}", stderr(&o));
    // A terminal, via `script` (util-linux): the hint, then the pasted text ended by Ctrl-D.
    let has_script = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_script {
        eprintln!("NOTICE: `script` is not installed; the terminal part of this test is skipped");
        return;
    }
    let command = format!(
        "{} check --color never -",
        env!("CARGO_BIN_EXE_sitemap-lint")
    );
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Type the text, then Ctrl-D at the start of a line. `script` stops when the command ends;
    // its input stays open until then (closing it early could end the session first).
    let mut input = child.stdin.take().unwrap();
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let typist = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        input.write_all(BAD.as_bytes()).unwrap();
        input.write_all(b"\x04").unwrap();
        input.flush().unwrap();
        let _ = wait.recv_timeout(std::time::Duration::from_secs(30));
    });
    let o = child.wait_with_output().unwrap();
    let _ = done.send(());
    typist.join().unwrap();
    let screen = stdout(&o);
    assert!(
        screen.contains("reading a sitemap from stdin; paste it, then press Ctrl-D"),
        "{screen}"
    );
    assert!(screen.contains("error[loc-invalid]"), "{screen}");
    assert!(screen.contains("<stdin>:3:38"), "{screen}");
}

// ---------------------------------------------------------------------------------------------
// README recipes, run as written there (with `sitemap-lint` on PATH).

/// PATH with the built binary first.
fn path_with_binary() -> std::ffi::OsString {
    let dir = Path::new(env!("CARGO_BIN_EXE_sitemap-lint"))
        .parent()
        .unwrap();
    let mut paths = vec![dir.to_path_buf()];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(paths).unwrap()
}

/// Runs a shell command line in `dir` with the binary on PATH.
fn sh(dir: &Path, line: &str) -> Output {
    Command::new("sh")
        .args(["-c", line])
        .current_dir(dir)
        .env("PATH", path_with_binary())
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn site(name: &str) -> TempDir {
    let d = tempdir(name);
    write(&d, "public/sitemap.xml", BAD.as_bytes());
    write(
        &d,
        "public/sitemap-news.xml.gz",
        &gzip(WARN_ONLY.as_bytes()),
    );
    d
}

#[test]
fn recipe_github_actions_annotations_and_sarif() {
    let d = site("recipe-github");
    // Step "Lint sitemaps": annotations, fails the job.
    let o = sh(&d, "sitemap-lint check --format github public/");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("\n::error file=public/sitemap.xml,line=3,col=38,"),
        "{}",
        stdout(&o)
    );
    // Step "SARIF for code scanning": always a file, exit 0 unless trouble.
    let o = sh(
        &d,
        "sitemap-lint check --format sarif --output-file sitemap-lint.sarif --exit-zero public/",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("sitemap-lint.sarif")).unwrap()).unwrap();
    assert_eq!(v["runs"][0]["results"].as_array().unwrap().len(), 3);
}

#[test]
fn recipe_gitlab_code_quality() {
    let d = site("recipe-gitlab");
    let o = sh(
        &d,
        "sitemap-lint check --format gitlab --output-file gl-code-quality-report.json public/",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("report written to gl-code-quality-report.json"));
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("gl-code-quality-report.json")).unwrap())
            .unwrap();
    assert_eq!(v.as_array().unwrap().len(), 3);
    // The JUnit variant for `reports: junit:`.
    let o = sh(
        &d,
        "sitemap-lint check --format junit --output-file sitemap-lint.junit.xml public/",
    );
    assert_eq!(o.status.code(), Some(1));
    let junit = std::fs::read_to_string(d.join("sitemap-lint.junit.xml")).unwrap();
    roxmltree::Document::parse(&junit).unwrap();
}

#[test]
fn recipe_makefile_and_npm_script() {
    let d = site("recipe-make");
    write(
        &d,
        "Makefile",
        b"lint-sitemaps:\n\tsitemap-lint check --format concise public/\n",
    );
    write(
        &d,
        "package.json",
        br#"{"name":"site","private":true,"scripts":{"lint:sitemaps":"sitemap-lint check --format concise public/"}}"#,
    );
    let make = Command::new("make").arg("--version").output();
    if make.is_ok_and(|o| o.status.success()) {
        let o = sh(&d, "make lint-sitemaps");
        assert_ne!(o.status.code(), Some(0), "errors fail the make step");
        assert!(stdout(&o).contains("public/sitemap.xml:3:38: error: space in the path"));
        std::fs::write(d.join("public/sitemap.xml"), GOOD).unwrap();
        assert_eq!(sh(&d, "make lint-sitemaps").status.code(), Some(0));
        std::fs::write(d.join("public/sitemap.xml"), BAD).unwrap();
    } else {
        eprintln!("NOTICE: make is not installed; the Makefile recipe is not exercised");
    }
    let npm = Command::new("npm").arg("--version").output();
    if npm.is_ok_and(|o| o.status.success()) {
        let o = sh(&d, "npm run --silent lint:sitemaps");
        assert_ne!(o.status.code(), Some(0), "errors fail the npm script");
        assert!(stdout(&o).contains("public/sitemap.xml:3:38: error: space in the path"));
    } else {
        eprintln!("NOTICE: npm is not installed; the npm-script recipe is not exercised");
    }
}

#[test]
fn recipe_editor_paste() {
    // `sitemap-lint check --stdin-filename public/sitemap.xml -` with the text piped in.
    let d = site("recipe-paste");
    let o = run_in(
        &d,
        &[
            "check",
            "--format",
            "concise",
            "--stdin-filename",
            "public/sitemap.xml",
            "-",
        ],
        Some(BAD.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o).lines().next().unwrap(),
        "public/sitemap.xml:3:38: error: space in the path [loc-invalid]"
    );
}

/// A sitemap index with two children, as Hugo writes for a multilingual site.
const HUGO_INDEX: &str = r#"<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap>
    <loc>https://example.com/en/sitemap.xml</loc>
    <lastmod>2024-11-20T10:00:00+00:00</lastmod>
  </sitemap>
  <sitemap>
    <loc>https://example.com/fr/sitemap.xml</loc>
    <lastmod>2024-11-20T10:00:00+00:00</lastmod>
  </sitemap>
</sitemapindex>
"#;

fn hugo_sitemap(lang: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
  xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>https://example.com/{lang}/</loc>
    <lastmod>2024-11-20T10:00:00+00:00</lastmod>
  </url>
  <url>
    <loc>https://example.com/{lang}/posts/hello/</loc>
    <lastmod>2024-11-19T10:00:00+00:00</lastmod>
  </url>
</urlset>
"#
    )
}

const RSS: &str = r#"<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel><title>Posts</title><link>https://example.com/en/posts/</link></channel>
</rss>
"#;

const ATOM: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<!-- generated by a feed plugin: <feed> -->
<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>
"#;

const BROWSERCONFIG: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<browserconfig><msapplication><tile><TileColor>#da532c</TileColor></tile></msapplication></browserconfig>
"#;

/// The summary line (the last line on stderr).
fn summary(o: &Output) -> String {
    stderr(o).lines().last().unwrap_or("").to_string()
}

#[test]
fn a_hugo_site_checks_clean_with_its_feeds_skipped_and_its_sitemaps_counted() {
    let d = tempdir("hugo");
    git(&d, &["init", "-q"]);
    // Hugo's own .gitignore: the build output is not committed.
    write(
        &d,
        ".gitignore",
        b"/public/\n/resources/_gen/\n.hugo_build.lock\n",
    );
    write(&d, "hugo.toml", b"baseURL = 'https://example.com/'\n");
    write(&d, "content/posts/hello.md", b"# hello\n");
    write(&d, "public/sitemap.xml", HUGO_INDEX.as_bytes());
    for lang in ["en", "fr"] {
        write(
            &d,
            &format!("public/{lang}/sitemap.xml"),
            hugo_sitemap(lang).as_bytes(),
        );
        write(&d, &format!("public/{lang}/index.xml"), RSS.as_bytes());
        write(
            &d,
            &format!("public/{lang}/posts/index.xml"),
            RSS.as_bytes(),
        );
        write(&d, &format!("public/{lang}/tags/index.xml"), RSS.as_bytes());
    }
    write(&d, "public/atom.xml", ATOM.as_bytes());
    write(&d, "public/browserconfig.xml", BROWSERCONFIG.as_bytes());
    let o = run_in(&d, &["check", "public/"], None);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        summary(&o),
        "sitemap-lint: ok: no problems in 3 files; 8 other XML files skipped (not sitemaps, --verbose lists them)"
    );
    let o = run_in(&d, &["check", "--format", "json", "public"], None);
    assert_eq!(
        json_paths(&o),
        [
            "public/en/sitemap.xml",
            "public/fr/sitemap.xml",
            "public/sitemap.xml"
        ]
    );
    // --verbose names each skipped file and its root element.
    let o = run_in(&d, &["check", "--verbose", "public"], None);
    let err = stderr(&o);
    assert!(
        err.contains("skipped `public/en/posts/index.xml`: its root element `<rss>` is not `<urlset>` or `<sitemapindex>`"),
        "{err}"
    );
    assert!(
        err.contains("skipped `public/atom.xml`: its root element `<feed>`"),
        "{err}"
    );
    assert!(
        err.contains("skipped `public/browserconfig.xml`: its root element `<browserconfig>`"),
        "{err}"
    );
    assert!(
        summary(&o).ends_with("8 other XML files skipped (not sitemaps)"),
        "{err}"
    );
    // With the site's folder, the index and its children form a set.
    let o = run_in(&d, &["check", "--site-root", "public", "public"], None);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        summary(&o).contains("set of 1 index and 2 sitemaps: 4 URLs"),
        "{}",
        stderr(&o)
    );
    // A feed named on the command line is still checked, and is not a sitemap.
    let o = run_in(&d, &["check", "public/en/index.xml"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("root-element"), "{}", stdout(&o));
    // At the repository root, the ignored build folder is not walked, and the summary says
    // which sitemaps that leaves out and how to include them (exit 2: nothing was checked).
    let o = run_in(&d, &["check"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("ignore files hide 3 sitemap-named files in it (`--no-ignore` checks them)"),
        "{}",
        stderr(&o)
    );
    let o = run_in(&d, &["check", "--no-ignore"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        summary(&o).contains("no problems in 3 files"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_next_sitemap_site_checks_clean_with_its_ignored_sitemaps_counted() {
    let d = tempdir("next-sitemap");
    git(&d, &["init", "-q"]);
    // What next-sitemap's README tells users to add to .gitignore.
    write(
        &d,
        ".gitignore",
        b"/node_modules\n/.next/\n/out/\n\n# next-sitemap\n/public/sitemap*.xml\n/public/robots.txt\n",
    );
    write(&d, "package.json", b"{\"name\": \"site\"}\n");
    write(
        &d,
        "next-sitemap.config.js",
        b"module.exports = { siteUrl: 'https://example.com', generateIndexSitemap: true }\n",
    );
    write(
        &d,
        "public/robots.txt",
        b"User-agent: *\nAllow: /\n\nHost: https://example.com\nSitemap: https://example.com/sitemap.xml\n",
    );
    write(
        &d,
        "public/sitemap.xml",
        br#"<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://example.com/sitemap-0.xml</loc></sitemap>
</sitemapindex>"#,
    );
    write(
        &d,
        "public/sitemap-0.xml",
        br#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
<url><loc>https://example.com</loc><lastmod>2024-11-20T10:00:00.000Z</lastmod><changefreq>daily</changefreq><priority>0.7</priority></url>
<url><loc>https://example.com/about</loc><lastmod>2024-11-20T10:00:00.000Z</lastmod><changefreq>daily</changefreq><priority>0.7</priority></url>
</urlset>"#,
    );
    // A dependency holding a sitemap-named file: never walked from the root.
    write(
        &d,
        "node_modules/some-pkg/fixtures/sitemap.xml",
        BAD.as_bytes(),
    );
    let o = run_in(&d, &["check", "public/"], None);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        summary(&o),
        "sitemap-lint: ok: no problems in 2 files; set of 1 index and 1 sitemap: 2 URLs"
    );
    let o = run_in(&d, &["check", "--format", "json", "public"], None);
    assert_eq!(
        json_paths(&o),
        ["public/sitemap-0.xml", "public/sitemap.xml"]
    );
    // From the root: nothing in node_modules/ is checked, and the sitemaps left out are counted.
    let o = run_in(&d, &["check", "."], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("3 sitemap-named files hidden by ignore files (`node_modules/some-pkg/fixtures/sitemap.xml`, …; --no-ignore checks them)"),
        "{}",
        stderr(&o)
    );
    // A format without a summary line still says so on stderr.
    let o = run_in(&d, &["check", "--format", "github", "."], None);
    assert!(
        stderr(&o).contains("hidden by ignore files"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_walked_folder_of_feeds_only_is_not_a_clean_run() {
    let d = tempdir("feeds-only");
    write(&d, "feeds/index.xml", RSS.as_bytes());
    write(&d, "feeds/atom.xml", ATOM.as_bytes());
    write(&d, "sitemap.txt", b"https://example.com/\n");
    let o = run_in(&d, &["check", "feeds"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .contains("no sitemaps found in directory `feeds`: its 2 XML files are not sitemaps"),
        "{}",
        stderr(&o)
    );
    // A sitemap-named text sitemap is walked and checked (issue 20); other `.txt` files are not.
    write(&d, "sitemap.xml", GOOD.as_bytes());
    write(&d, "robots.txt", b"User-agent: *\n");
    let o = run_in(&d, &["check", "."], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        summary(&o).contains("no problems in 2 files"),
        "{}",
        stderr(&o)
    );
    write(&d, "sitemap.txt", b"https://example.com/\n# generated\n");
    let o = run_in(&d, &["check", "."], None);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("text-line-invalid"), "{}", stdout(&o));
}

// ---------------------------------------------------------------------------------------------
// Small things users hit (issue 21).

#[test]
fn completions_and_man_pages_are_printed() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = run(&["completions", shell], None);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains("sitemap-lint") && out.contains("max-warnings"),
            "{shell}: {out}"
        );
    }
    assert_eq!(run(&["completions", "tcsh"], None).status.code(), Some(2));
    let o = run(&["man"], None);
    assert_eq!(o.status.code(), Some(0));
    let page = stdout(&o);
    assert!(
        page.starts_with(".ie ") && page.contains(".TH sitemap-lint 1"),
        "{page}"
    );
    assert!(page.contains("sitemap\\-lint\\-check(1)"), "{page}");
    let o = run(&["man", "check"], None);
    assert_eq!(o.status.code(), Some(0));
    let page = stdout(&o);
    assert!(page.contains(".TH sitemap-lint-check 1"), "{page}");
    assert!(page.contains("\\-\\-max\\-warnings"), "{page}");
    assert!(page.contains(concat!("sitemap-lint ", env!("CARGO_PKG_VERSION"))));
    let o = run(&["man", "chek"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("one per command: check,"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn completions_into_a_closed_pipe_end_quietly() {
    let mut child = bin()
        .args(["completions", "zsh"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn rules_as_json() {
    let o = run(&["rules", "--format", "json"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rules: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rules = rules.as_array().unwrap();
    assert_eq!(rules.len(), sitemap_lint::rules::metas().count());
    let lastmod = rules
        .iter()
        .find(|r| r["name"] == "lastmod-invalid")
        .unwrap();
    assert_eq!(lastmod["category"], "date");
    assert_eq!(lastmod["default_severity"], "error");
    assert_eq!(lastmod["opt_in"], false);
    assert!(lastmod["summary"].as_str().is_some_and(|s| !s.is_empty()));
    assert!(lastmod["docs"]
        .as_str()
        .unwrap()
        .contains("## What it does"));
    let opt_in = rules.iter().filter(|r| r["opt_in"] == true).count();
    assert!(opt_in > 0, "the opt-in rules are marked");
}

#[test]
fn force_color_and_clicolor_force_turn_colour_on_and_no_color_wins() {
    let with = |vars: &[(&str, &str)], args: &[&str]| {
        let mut cmd = bin();
        for name in ["NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"] {
            cmd.env_remove(name);
        }
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let o = run_cmd(cmd, args, Some(BAD.as_bytes()));
        String::from_utf8_lossy(&o.stdout).contains('\x1b')
    };
    let check = ["check", "-"];
    assert!(!with(&[], &check), "a pipe gets no colour");
    assert!(with(&[("FORCE_COLOR", "1")], &check));
    assert!(with(&[("FORCE_COLOR", "true")], &check));
    assert!(!with(&[("FORCE_COLOR", "0")], &check));
    assert!(!with(&[("FORCE_COLOR", "")], &check));
    assert!(with(&[("CLICOLOR_FORCE", "1")], &check));
    assert!(!with(&[("CLICOLOR_FORCE", "0")], &check));
    assert!(!with(&[("NO_COLOR", "1"), ("FORCE_COLOR", "1")], &check));
    assert!(!with(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")], &check));
    // The flag beats the environment.
    assert!(!with(
        &[("FORCE_COLOR", "1")],
        &["check", "--color", "never", "-"]
    ));
    assert!(with(
        &[("NO_COLOR", "1")],
        &["check", "--color", "always", "-"]
    ));
}

#[test]
fn infos_are_called_info_not_note() {
    let d = tempdir("info-word");
    let f = write(
        &d,
        "sitemap.xml",
        br#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/</loc><priority>0.5</priority></url>
</urlset>
"#,
    );
    let f = f.to_str().unwrap();
    // An opt-in rule switched on at severity `info` by the configuration file.
    let cfg = write(
        &d,
        "sitemap-lint.toml",
        b"[rules]\nchangefreq-priority-ignored = \"info\"\n",
    );
    let cfg = cfg.to_str().unwrap();
    for (format, want) in [
        ("human", "info[changefreq-priority-ignored]"),
        ("concise", ": info: "),
    ] {
        for color in ["never", "always"] {
            let o = run(
                &[
                    "check", "--config", cfg, "--format", format, "--color", color, f,
                ],
                None,
            );
            let out = stdout(&o);
            assert!(out.contains(want), "{format} {color}: {out}");
            assert!(!out.contains("note"), "{format} {color}: {out}");
        }
    }
}

#[test]
fn stdin_filename_without_dash_is_a_usage_error() {
    let d = tempdir("stdin-name");
    let f = write(&d, "sitemap.xml", GOOD.as_bytes());
    let o = run(
        &[
            "check",
            "--stdin-filename",
            "public/sitemap.xml",
            f.to_str().unwrap(),
        ],
        Some(BAD.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("add `-` to the paths"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "");
    let o = run(
        &["check", "--stdin-filename", "public/sitemap.xml", "-"],
        Some(BAD.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn zero_jobs_gets_a_clear_message() {
    let o = run(&["check", "-j", "0", "-"], Some(GOOD.as_bytes()));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("0 threads would check nothing: give 1 or more"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        run(&["check", "-j", "1", "-"], Some(GOOD.as_bytes()))
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn explain_suggests_across_case_and_categories() {
    let o = run(&["explain", "LASTMOD"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean: lastmod-invalid,"),
        "{}",
        stderr(&o)
    );
    let o = run(&["explain", "Lastmod-Invalid"], None);
    assert!(
        stderr(&o).contains("did you mean: lastmod-invalid\n"),
        "{}",
        stderr(&o)
    );
    for name in ["date", "DATE"] {
        let o = run(&["explain", name], None);
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert!(
            err.contains("`date` is a category; its rules: lastmod-invalid,"),
            "{err}"
        );
    }
}

#[test]
fn config_shows_the_preset_in_effect() {
    let d = tempdir("preset");
    let o = run_in(&d, &["config", "--isolated"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("preset = \"google\"") && !stdout(&o).contains("preset: none"),
        "{}",
        stdout(&o)
    );
    let o = run_in(&d, &["config", "--isolated", "--format", "json"], None);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["preset"]["value"], "google");
    assert_eq!(v["preset"]["source"], "default");
    write(&d, "sitemap-lint.toml", b"preset = \"yandex\"\n");
    let o = run_in(&d, &["config", "--format", "json"], None);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["preset"]["value"], "yandex");
}

#[test]
fn value_whitespace_help_offers_only_valid_values() {
    let o = run(
        &["check", "--color", "never", "-"],
        Some(
            br#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc> https://www.example.com/a b </loc><lastmod> 2024-05 </lastmod><priority> 1.5 </priority></url>
<url><loc> https://www.example.com/ok </loc><lastmod> 2024-05-01 </lastmod><priority> 0.5 </priority></url>
</urlset>"#,
        ),
    );
    let out = stdout(&o);
    for bad in ["a b</loc>", ">2024-05<", ">1.5<"] {
        assert!(!out.contains(bad), "{bad}: {out}");
    }
    for good in [
        "write `<loc>https://www.example.com/ok</loc>`",
        "write `<lastmod>2024-05-01</lastmod>`",
        "write `<priority>0.5</priority>`",
    ] {
        assert!(out.contains(good), "{good}: {out}");
    }
    assert_eq!(
        out.matches("which is not valid itself either").count(),
        3,
        "{out}"
    );
}

#[test]
fn rejected_arguments_are_quoted_without_control_characters() {
    // clap quotes what it rejects; a C1 CSI, a bidi override or ESC must not reach the terminal.
    for arg in [
        "--a\u{9b}31mb",
        "--x\u{202e}y",
        "--e\u{1b}[2Jf",
        "--format=h\u{1b}]0;title\u{7}",
    ] {
        let out = run(&["check", arg, "x.xml"], None);
        assert_eq!(out.status.code(), Some(2), "{arg:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.is_empty());
        let raw: Vec<char> = stderr
            .chars()
            .filter(|&c| c != '\n' && sitemap_lint::values::text::stand_in(c).is_some())
            .collect();
        assert!(raw.is_empty(), "{arg:?}: {raw:?} in {stderr:?}");
    }
}
