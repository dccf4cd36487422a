//! The pre-commit hook for real: a temporary git repository whose `.pre-commit-config.yaml` points
//! at this repository (a snapshot of the working tree, committed into a temporary hook
//! repository), pre-commit installed from PyPI, and commits that the hook refuses or lets through.
//!
//! pre-commit builds the hook with `cargo install` (`language: rust`); the build goes to
//! `target/pre-commit-build` so later runs reuse the dependencies, and is not optimised (the
//! test is about the hook, not the binary's speed). pre-commit itself is looked up in
//! `target/pre-commit-venv` (where `.ci/run` installs it), then on PATH, and else installed there
//! with pip. When that fails the test is skipped with a notice, unless `CI=true`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BROKEN: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/summer sale</loc></url>
</urlset>
"#;

const FIXED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/summer%20sale</loc></url>
</urlset>
"#;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn skip_or_fail(why: &str) {
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{why}");
    }
    eprintln!("NOTICE: skipping the pre-commit test: {why}");
}

fn works(program: &Path, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The `pre-commit` executable, installed into `target/pre-commit-venv` if needed.
fn pre_commit() -> Option<PathBuf> {
    let venv = target_dir().join("pre-commit-venv");
    let in_venv = venv.join("bin/pre-commit");
    if works(&in_venv, "--version") {
        return Some(in_venv);
    }
    if works(Path::new("pre-commit"), "--version") {
        return Some(PathBuf::from("pre-commit"));
    }
    let created = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .is_ok_and(|s| s.success());
    let installed = created
        && Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "pre-commit"])
            .status()
            .is_ok_and(|s| s.success());
    if installed && works(&in_venv, "--version") {
        Some(in_venv)
    } else {
        skip_or_fail("pre-commit is not installed and `pip install pre-commit` failed");
        None
    }
}

/// A scratch directory for this test run.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sitemap-lint-precommit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `program` in `dir` with an isolated git and pre-commit configuration.
fn run(scratch: &Path, dir: &Path, program: &Path, args: &[&str]) -> Output {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", scratch.join("gitconfig"))
        .env("PRE_COMMIT_HOME", scratch.join("pre-commit-home"))
        .env("CARGO_TARGET_DIR", target_dir().join("pre-commit-build"))
        // The hook's own build is what is tested, not its speed: skip optimisation.
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env_remove("PRE_COMMIT_ALLOW_NO_CONFIG")
        .env_remove("SKIP")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    out
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn ok(o: Output, what: &str) -> Output {
    assert!(o.status.success(), "{what} failed:\n{}", text(&o));
    o
}

fn git(scratch: &Path, dir: &Path, args: &[&str]) -> Output {
    run(scratch, dir, Path::new("git"), args)
}

/// The project's files as they are in the working tree (tracked and new, not ignored), without
/// the test folders, committed into a fresh repository: what a user's pre-commit would clone.
fn hook_repository(scratch: &Path) -> (PathBuf, String) {
    let repo = scratch.join("hook-repo");
    std::fs::create_dir_all(&repo).unwrap();
    let listed = ok(
        git(
            scratch,
            root(),
            &[
                "ls-files",
                "-z",
                "--cached",
                "--others",
                "--exclude-standard",
            ],
        ),
        "git ls-files",
    );
    for name in String::from_utf8(listed.stdout).unwrap().split('\0') {
        if name.is_empty()
            || name.starts_with("tests/")
            || name.starts_with("corpus/")
            || name.starts_with(".ci/")
        {
            continue;
        }
        let from = root().join(name);
        if !from.is_file() {
            continue; // deleted in the working tree
        }
        let to = repo.join(name);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&from, &to).unwrap();
    }
    assert!(repo.join(".pre-commit-hooks.yaml").is_file());
    ok(git(scratch, &repo, &["init", "-q"]), "git init");
    ok(git(scratch, &repo, &["add", "-A"]), "git add");
    ok(
        git(scratch, &repo, &["commit", "-q", "-m", "sitemap-lint"]),
        "git commit",
    );
    let rev = ok(git(scratch, &repo, &["rev-parse", "HEAD"]), "git rev-parse");
    let rev = String::from_utf8(rev.stdout).unwrap().trim().to_string();
    (repo, rev)
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn the_hook_refuses_a_broken_sitemap_and_lets_the_fix_through() {
    if !works(Path::new("git"), "--version") {
        return skip_or_fail("git is not installed");
    }
    let Some(pre_commit) = pre_commit() else {
        return;
    };
    let started = std::time::Instant::now();
    let scratch = scratch();
    std::fs::write(
        scratch.join("gitconfig"),
        "[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n",
    )
    .unwrap();
    let (hook_repo, rev) = hook_repository(&scratch);
    ok(
        run(
            &scratch,
            &hook_repo,
            &pre_commit,
            &["validate-manifest", ".pre-commit-hooks.yaml"],
        ),
        "pre-commit validate-manifest",
    );

    let work = scratch.join("site");
    std::fs::create_dir_all(work.join("public")).unwrap();
    ok(git(&scratch, &work, &["init", "-q"]), "git init");
    // The README recipe, with an exclude to show that `--force-exclude` reaches named files.
    std::fs::write(
        work.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: sitemap-lint\n        args: [--exclude, legacy/]\n",
            hook_repo.display()
        ),
    )
    .unwrap();
    ok(
        run(&scratch, &work, &pre_commit, &["validate-config"]),
        "pre-commit validate-config",
    );
    ok(
        run(&scratch, &work, &pre_commit, &["install"]),
        "pre-commit install",
    );
    let commit = |message: &str| git(&scratch, &work, &["commit", "-m", message]);
    let add = |path: &str| ok(git(&scratch, &work, &["add", path]), "git add");

    // A broken sitemap: the commit is refused and the diagnostics are shown.
    std::fs::write(work.join("public/sitemap.xml"), BROKEN).unwrap();
    add(".");
    let refused = commit("broken sitemap");
    let out = text(&refused);
    assert!(!refused.status.success(), "the commit went through:\n{out}");
    assert!(out.contains("Failed"), "{out}");
    assert!(
        out.contains("error[loc-invalid]: space in the path"),
        "{out}"
    );
    assert!(out.contains("public/sitemap.xml:3:"), "{out}");
    let log = git(&scratch, &work, &["rev-parse", "--verify", "-q", "HEAD"]);
    assert!(!log.status.success(), "no commit was made");
    let first_run = started.elapsed();

    // Fixed: the commit goes through.
    std::fs::write(work.join("public/sitemap.xml"), FIXED).unwrap();
    add(".");
    let passed = commit("fixed sitemap");
    assert!(passed.status.success(), "{}", text(&passed));
    assert!(text(&passed).contains("Passed"), "{}", text(&passed));

    // A broken gzip sitemap is checked too (and refused).
    std::fs::write(
        work.join("public/sitemap-news.xml.gz"),
        gzip(BROKEN.as_bytes()),
    )
    .unwrap();
    add(".");
    let refused = commit("broken gzip sitemap");
    let out = text(&refused);
    assert!(!refused.status.success(), "{out}");
    assert!(out.contains("public/sitemap-news.xml.gz:3:"), "{out}");
    ok(
        git(
            &scratch,
            &work,
            &["rm", "-q", "--cached", "public/sitemap-news.xml.gz"],
        ),
        "git rm",
    );

    // Excluded by the hook's args (`--force-exclude`), and XML that is no sitemap (`files:`):
    // not checked, the commit goes through.
    std::fs::create_dir_all(work.join("legacy")).unwrap();
    std::fs::write(work.join("legacy/sitemap.xml"), BROKEN).unwrap();
    std::fs::write(work.join("pom.xml"), "<project/>\n").unwrap();
    add("legacy/sitemap.xml");
    add("pom.xml");
    let passed = commit("legacy and pom");
    assert!(passed.status.success(), "{}", text(&passed));
    eprintln!(
        "pre-commit test: first commit (hook build included) {:.1} s, whole test {:.1} s",
        first_run.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&scratch);
}
