//! External tools the packaging tests run (pre-commit, maturin, actionlint), installed from PyPI
//! into virtual environments under `target/` (where `.ci/run` puts them), and the rule for when
//! they are missing: a printed notice and a skip, unless `CI=true`, where a missing tool fails.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A sitemap with one error (`loc-invalid`, line 3), and the same fixed.
pub const BROKEN: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/summer sale</loc></url>
</urlset>
"#;

pub const FIXED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/summer%20sale</loc></url>
</urlset>
"#;

/// A run's stdout and stderr, for messages.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The project's folder.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The cargo target folder (`target/`, or `CARGO_TARGET_DIR`).
pub fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Under `CI=true` a missing tool fails the test; elsewhere it is skipped with a notice.
pub fn skip_or_fail(test: &str, why: &str) {
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{why}");
    }
    eprintln!("NOTICE: skipping the {test} test: {why}");
}

/// Whether `program arg` runs and succeeds.
pub fn works(program: &Path, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The executable `exe` of the PyPI package `package`: from `target/<venv>` (where `.ci/run`
/// installs it), else on PATH, else installed into `target/<venv>` with pip. `None` (after a
/// notice, or a panic under `CI=true`) when none of these works.
pub fn python_tool(test: &str, venv: &str, package: &str, exe: &str) -> Option<PathBuf> {
    let venv = target_dir().join(venv);
    let in_venv = venv.join("bin").join(exe);
    if works(&in_venv, "--version") {
        return Some(in_venv);
    }
    if works(Path::new(exe), "--version") {
        return Some(PathBuf::from(exe));
    }
    let created = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .is_ok_and(|s| s.success());
    let installed = created
        && Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", package])
            .status()
            .is_ok_and(|s| s.success());
    if installed && works(&in_venv, "--version") {
        Some(in_venv)
    } else {
        skip_or_fail(
            test,
            &format!("{exe} is not installed and `pip install {package}` failed"),
        );
        None
    }
}

/// A fresh scratch folder for one test run.
pub fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sitemap-lint-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The current PATH without the folders that hold `cargo` or `rustc` (rustup's `~/.cargo/bin`,
/// or a system Rust), for runs that must not reach a Rust toolchain; `first` goes in front.
pub fn path_without_rust(first: &[&Path]) -> std::ffi::OsString {
    let current = std::env::var_os("PATH").unwrap_or_default();
    let kept = std::env::split_paths(&current)
        .filter(|dir| !dir.join("cargo").exists() && !dir.join("rustc").exists());
    let all: Vec<PathBuf> = first.iter().map(|p| p.to_path_buf()).chain(kept).collect();
    std::env::join_paths(all).unwrap()
}
