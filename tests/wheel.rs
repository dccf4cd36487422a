//! The Python wheel (pyproject.toml, maturin `bindings = "bin"`): built with maturin, installed
//! with pip into a fresh virtual environment, and run from that environment's PATH with no Rust
//! toolchain on PATH, as a user without cargo would (`pip install sitemap-lint`).
//!
//! maturin builds with the profile of this test run (`--profile dev` under `cargo test`) into the
//! same target folder, and without stripping (`--strip false`: the `strip = true` of
//! pyproject.toml, for the wheels published, always has cargo build the crate again, about 90 s,
//! and overwrite the binary the other tests run). maturin then packs a build that is up to date
//! as it is (4 s for the whole test). In a clean clone there is none yet: `cargo test` builds the
//! crate with the features its dev-dependency gives shared crates (proptest's `std` turns on
//! `num-traits/std` and regex-syntax's Unicode tables, which chrono and globset use), maturin
//! without them, so the crate is compiled once more (the test took 87 s under `.ci/run`).
//! maturin comes from `target/maturin-venv` (where `.ci/run` installs it), then PATH, and else
//! is installed there with pip. When that fails the test is skipped with a notice, unless
//! `CI=true`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

#[path = "support/tools.rs"]
mod tools;
use tools::{root, target_dir, text, BROKEN, FIXED};

fn ok(o: std::io::Result<Output>, what: &str) -> Output {
    let o = o.unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(o.status.success(), "{what} failed:\n{}", text(&o));
    o
}

/// The cargo profile this test binary was built with: the binary under test was built with it
/// too, so maturin finds it up to date.
fn profile_args() -> &'static [&'static str] {
    let exe = Path::new(env!("CARGO_BIN_EXE_sitemap-lint"));
    match exe
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
    {
        Some("release") => &["--release"],
        Some("debug") => &["--profile", "dev"],
        // A custom profile's folder is its name.
        _ => &["--profile", "dev"],
    }
}

/// The one wheel in `dir`.
fn wheel_in(dir: &Path) -> PathBuf {
    let wheels: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "whl"))
        .collect();
    assert_eq!(wheels.len(), 1, "{wheels:?}");
    wheels.into_iter().next().unwrap()
}

#[test]
fn the_wheel_puts_sitemap_lint_on_path_and_runs_without_cargo() {
    let Some(maturin) = tools::python_tool("wheel", "maturin-venv", "maturin", "maturin") else {
        return;
    };
    let scratch = tools::scratch("wheel");
    let dist = scratch.join("dist");

    // Build.
    let started = Instant::now();
    ok(
        Command::new(&maturin)
            .arg("build")
            .args(profile_args())
            .args(["--strip", "false"])
            .arg("--manifest-path")
            .arg(root().join("Cargo.toml"))
            .arg("--out")
            .arg(&dist)
            .env("CARGO_TARGET_DIR", target_dir())
            .output(),
        "maturin build",
    );
    let built = started.elapsed();
    let wheel = wheel_in(&dist);
    let name = wheel.file_name().unwrap().to_str().unwrap().to_string();
    assert!(
        name.starts_with(&format!(
            "sitemap_lint-{}-py3-none-",
            env!("CARGO_PKG_VERSION")
        )),
        "{name}"
    );

    // Install into a fresh virtual environment, offline: the wheel needs nothing else. The
    // environment gets no pip of its own when maturin's has one (`pip --python`): seeding pip
    // costs more than the rest of the test.
    let started = Instant::now();
    let venv = scratch.join("venv");
    let tool_pip = maturin.with_file_name("pip");
    let own_pip = !(maturin.is_absolute() && tool_pip.is_file());
    let mut create = Command::new("python3");
    create.args(["-m", "venv"]);
    if !own_pip {
        create.arg("--without-pip");
    }
    ok(create.arg(&venv).output(), "python3 -m venv");
    let mut pip = if own_pip {
        Command::new(venv.join("bin/pip"))
    } else {
        let mut pip = Command::new(&tool_pip);
        pip.arg("--python").arg(venv.join("bin/python"));
        pip
    };
    ok(
        pip.args([
            "install",
            "--quiet",
            "--no-index",
            "--no-deps",
            "--disable-pip-version-check",
        ])
        .arg(&wheel)
        .output(),
        "pip install",
    );
    let installed = started.elapsed();

    // Run from the environment's PATH, with no cargo or rustc reachable and no Cargo variables.
    let site = scratch.join("site");
    std::fs::create_dir_all(site.join("public")).unwrap();
    std::fs::write(site.join("public/sitemap.xml"), BROKEN).unwrap();
    std::fs::write(site.join("public/sitemap-fixed.xml"), FIXED).unwrap();
    let path = tools::path_without_rust(&[&venv.join("bin")]);
    let shell = |script: &str| {
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", script])
            .current_dir(&site)
            .env("PATH", &path);
        for (key, _) in std::env::vars_os() {
            let key_text = key.to_string_lossy();
            if key_text.starts_with("CARGO") || key_text.starts_with("RUSTUP") {
                cmd.env_remove(&key);
            }
        }
        cmd.output().unwrap()
    };
    let o = shell("command -v cargo || command -v rustc || echo 'no rust'");
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "no rust");
    let o = shell("command -v sitemap-lint");
    assert_eq!(
        Path::new(String::from_utf8_lossy(&o.stdout).trim()),
        venv.join("bin/sitemap-lint"),
        "{}",
        text(&o)
    );
    let o = shell("sitemap-lint --version");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        format!("sitemap-lint {}", env!("CARGO_PKG_VERSION"))
    );
    let o = shell("sitemap-lint check --color never public/sitemap.xml");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("error[loc-invalid]: space in the path"),
        "{}",
        text(&o)
    );
    let o = shell("sitemap-lint check public/sitemap-fixed.xml");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    eprintln!(
        "wheel test: maturin build {:.1} s ({name}), venv and pip install {:.1} s",
        built.as_secs_f64(),
        installed.as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&scratch);
}
