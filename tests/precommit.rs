//! The pre-commit hooks for real: a temporary git repository whose `.pre-commit-config.yaml` is
//! the recipe of docs/install.md as written, pointed at this repository (the working tree,
//! committed into a temporary hook repository and tagged as the release of this version would
//! be), pre-commit installed from PyPI, and commits that the hooks refuse or let through.
//!
//! `sitemap-lint` (`language: rust`): pre-commit builds it with `cargo install`; the build goes to
//! `target/pre-commit-build` so later runs reuse the dependencies, and is not optimised (the
//! test is about the hook, not the binary's speed). `sitemap-lint-system` (`language: system`)
//! runs the binary under test from PATH, with no Rust toolchain on PATH. pre-commit itself is
//! looked up in `target/pre-commit-venv` (where `.ci/run` installs it), then on PATH, and else
//! installed there with pip. When that fails the tests are skipped with a notice, unless
//! `CI=true`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

#[path = "support/tools.rs"]
mod tools;
use tools::{root, target_dir, text, works, BROKEN, FIXED};

fn skip_or_fail(why: &str) {
    tools::skip_or_fail("pre-commit", why);
}

/// The `pre-commit` executable, installed into `target/pre-commit-venv` if needed.
fn pre_commit() -> Option<PathBuf> {
    tools::python_tool("pre-commit", "pre-commit-venv", "pre-commit", "pre-commit")
}

/// Runs `program` in `dir` with an isolated git and pre-commit configuration.
fn run(scratch: &Path, dir: &Path, program: &Path, args: &[&str]) -> Output {
    run_with_path(scratch, dir, program, args, None)
}

/// [`run`], with PATH set to `path` when given.
fn run_with_path(
    scratch: &Path,
    dir: &Path,
    program: &Path,
    args: &[&str],
    path: Option<&std::ffi::OsStr>,
) -> Output {
    let mut cmd = Command::new(program);
    if let Some(path) = path {
        cmd.env("PATH", path);
    }
    let out = cmd
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", scratch.join("gitconfig"))
        .env("PRE_COMMIT_HOME", scratch.join("pre-commit-home"))
        .env("CARGO_TARGET_DIR", target_dir().join("pre-commit-build"))
        // The hook's own build is what is tested, not its speed: skip optimisation, and the
        // release profile's link-time optimisation over one code unit (74 -> 50 s for this
        // test from a clean build on two cores).
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env("CARGO_PROFILE_RELEASE_LTO", "false")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env_remove("PRE_COMMIT_ALLOW_NO_CONFIG")
        .env_remove("SKIP")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    out
}

fn ok(o: Output, what: &str) -> Output {
    assert!(o.status.success(), "{what} failed:\n{}", text(&o));
    o
}

fn git(scratch: &Path, dir: &Path, args: &[&str]) -> Output {
    run(scratch, dir, Path::new("git"), args)
}

/// The project's files as they are in the working tree (tracked and new, not ignored) committed
/// into a fresh repository and tagged `v<version>`, as the release of this version will be: what
/// a user's pre-commit clones. Returns the repository and the commit.
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
        let from = root().join(name);
        if name.is_empty() || !from.is_file() {
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
    ok(git(scratch, &repo, &["tag", &release_tag()]), "git tag");
    let rev = ok(git(scratch, &repo, &["rev-parse", "HEAD"]), "git rev-parse");
    let rev = String::from_utf8(rev.stdout).unwrap().trim().to_string();
    (repo, rev)
}

/// The tag the release workflow publishes this version under.
fn release_tag() -> String {
    format!("v{}", env!("CARGO_PKG_VERSION"))
}

const REPOSITORY_URL: &str = "https://github.com/sitemap-lint/sitemap-lint";

/// The YAML block that follows `<!-- recipe: NAME ` in docs/install.md, as a user copies it, with
/// the repository URL pointed at `repo`. The recipe's `rev:` must be this version's tag.
fn recipe(name: &str, repo: &Path) -> String {
    let docs = std::fs::read_to_string(root().join("docs/install.md")).unwrap();
    let marker = format!("<!-- recipe: {name} ");
    let at = docs
        .find(&marker)
        .unwrap_or_else(|| panic!("docs/install.md has no `{marker}`"));
    let block = docs[at..].split("```yaml\n").nth(1).unwrap();
    let block = &block[..block.find("```").unwrap()];
    assert_eq!(block.matches(REPOSITORY_URL).count(), 1, "{block}");
    let rev = format!("rev: {} ", release_tag());
    assert!(
        block.contains(&rev),
        "the {name} recipe must name this version's tag (`{rev}`):\n{block}"
    );
    block.replace(REPOSITORY_URL, &repo.display().to_string())
}

/// A scratch folder with an isolated git configuration, and the hook repository in it.
fn setup(tag: &str) -> (PathBuf, PathBuf, String) {
    let scratch = tools::scratch(tag);
    std::fs::write(
        scratch.join("gitconfig"),
        "[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n",
    )
    .unwrap();
    let (hook_repo, rev) = hook_repository(&scratch);
    (scratch, hook_repo, rev)
}

/// A fresh git repository `site` with `config` as its `.pre-commit-config.yaml`, the hooks
/// installed.
fn site(
    scratch: &Path,
    pre_commit: &Path,
    config: &str,
    path: Option<&std::ffi::OsStr>,
) -> PathBuf {
    let work = scratch.join("site");
    std::fs::create_dir_all(work.join("public")).unwrap();
    ok(git(scratch, &work, &["init", "-q"]), "git init");
    std::fs::write(work.join(".pre-commit-config.yaml"), config).unwrap();
    ok(
        run_with_path(scratch, &work, pre_commit, &["validate-config"], path),
        "pre-commit validate-config",
    );
    ok(
        run_with_path(scratch, &work, pre_commit, &["install"], path),
        "pre-commit install",
    );
    work
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn the_recipe_builds_the_hook_which_refuses_a_broken_sitemap_and_lets_the_fix_through() {
    if !works(Path::new("git"), "--version") {
        return skip_or_fail("git is not installed");
    }
    let Some(pre_commit) = pre_commit() else {
        return;
    };
    let started = std::time::Instant::now();
    let (scratch, hook_repo, _) = setup("precommit-rust");
    ok(
        run(
            &scratch,
            &hook_repo,
            &pre_commit,
            &["validate-manifest", ".pre-commit-hooks.yaml"],
        ),
        "pre-commit validate-manifest",
    );
    // The recipe as written (`rev:` this version's tag), with an exclude to show that
    // `--force-exclude` reaches named files.
    let config = recipe("pre-commit", &hook_repo).replace(
        "      - id: sitemap-lint\n",
        "      - id: sitemap-lint\n        args: [--exclude, legacy/]\n",
    );
    assert!(config.contains("args: [--exclude, legacy/]"), "{config}");
    let work = site(&scratch, &pre_commit, &config, None);
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

#[test]
fn the_system_hook_runs_the_installed_binary_without_a_toolchain() {
    if !works(Path::new("git"), "--version") {
        return skip_or_fail("git is not installed");
    }
    let Some(pre_commit) = pre_commit() else {
        return;
    };
    let (scratch, hook_repo, rev) = setup("precommit-system");
    // The installed binary: the one under test, alone in a folder on PATH; no cargo on PATH.
    let bin = scratch.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_sitemap-lint"), bin.join("sitemap-lint")).unwrap();
    let with_binary = tools::path_without_rust(&[&bin]);
    let without = tools::path_without_rust(&[]);
    // The recipe with `rev:` a commit SHA, the other form the docs name.
    let config = recipe("pre-commit-system", &hook_repo)
        .replace(&format!("rev: {} ", release_tag()), &format!("rev: {rev} "));
    let work = site(&scratch, &pre_commit, &config, Some(&with_binary));
    let commit = |message: &str, path: &std::ffi::OsStr| {
        run_with_path(
            &scratch,
            &work,
            Path::new("git"),
            &["commit", "-m", message],
            Some(path),
        )
    };
    let add = |path: &str| ok(git(&scratch, &work, &["add", path]), "git add");

    std::fs::write(work.join("public/sitemap.xml"), BROKEN).unwrap();
    add(".");
    let refused = commit("broken sitemap", &with_binary);
    let out = text(&refused);
    assert!(!refused.status.success(), "the commit went through:\n{out}");
    assert!(out.contains("sitemap-lint (installed binary)"), "{out}");
    assert!(
        out.contains("error[loc-invalid]: space in the path"),
        "{out}"
    );
    assert!(out.contains("public/sitemap.xml:3:"), "{out}");

    // Without sitemap-lint on PATH the hook fails, saying so (it never builds anything).
    let missing = commit("broken sitemap", &without);
    let out = text(&missing);
    assert!(!missing.status.success(), "{out}");
    assert!(out.contains("Executable `sitemap-lint` not found"), "{out}");

    std::fs::write(work.join("public/sitemap.xml"), FIXED).unwrap();
    add(".");
    let passed = commit("fixed sitemap", &with_binary);
    assert!(passed.status.success(), "{}", text(&passed));
    assert!(text(&passed).contains("Passed"), "{}", text(&passed));
    let _ = std::fs::remove_dir_all(&scratch);
}
