//! Documentation stays true: README's rules table is generated from the rules, every rule doc has
//! the required sections, its examples behave as documented, and messages follow one style.
//!
//! Regenerate the README table with `UPDATE_DOCS=1 cargo test --test docs`.

use std::fs;
use std::path::Path;

use sitemap_lint::docs::{code_blocks, rules_table, TABLE_BEGIN, TABLE_END};
use sitemap_lint::{check_reader, rules, Settings};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn readme_rules_table_is_fresh() {
    let path = root().join("README.md");
    let readme = fs::read_to_string(&path).expect("README.md");
    let (Some(b), Some(e)) = (readme.find(TABLE_BEGIN), readme.find(TABLE_END)) else {
        panic!("README.md lacks the markers {TABLE_BEGIN} … {TABLE_END}");
    };
    let fresh = format!("{}\n{}{}", TABLE_BEGIN, rules_table(), &readme[e..]);
    let updated = format!("{}{}", &readme[..b], fresh);
    if updated != readme {
        if std::env::var_os("UPDATE_DOCS").is_some() {
            fs::write(&path, updated).unwrap();
        } else {
            panic!("README.md's rules table is stale: run `UPDATE_DOCS=1 cargo test --test docs`");
        }
    }
}

/// Rules whose examples are checked as served at a URL (their docs say so above the example).
const EXAMPLE_SITEMAP_URLS: &[(&str, &str)] = &[
    (
        "loc-outside-scope",
        "https://www.example.com/catalog/sitemap.xml",
    ),
    ("index-child", "https://www.example.com/sitemap_index.xml"),
];

/// Rules whose input cannot be shown as a small XML example (sizes, bytes, the checker itself).
const PROSE_EXAMPLES: &[&str] = &[
    "input-too-large",
    "gzip-invalid",
    "gzip-extension-mismatch",
    "encoding-not-utf8",
    "invalid-utf8",
    "too-many-entries",
    "extension-limits",
    "internal-error",
];

#[test]
fn rule_docs_have_sections_and_working_examples() {
    let mut failures = Vec::new();
    let mut names = std::collections::HashSet::new();
    for meta in rules::metas() {
        let name = meta.name;
        if !names.insert(name) {
            failures.push(format!("duplicate rule name `{name}`"));
        }
        if !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            || name.starts_with('-')
            || name.ends_with('-')
            || name.contains("--")
        {
            failures.push(format!("rule name `{name}` is not kebab-case"));
        }
        if meta.summary.ends_with('.') || meta.summary.is_empty() {
            failures.push(format!(
                "`{name}`: summary must be non-empty without a final period"
            ));
        }
        let docs = meta.docs();
        for heading in [
            "## What it does",
            "## Why is this bad?",
            "## Example",
            "Use instead:",
            "## References",
        ] {
            if !docs.lines().any(|l| l.trim_end() == heading) {
                failures.push(format!("`{name}` ({}): docs lack `{heading}`", meta.source));
            }
        }
        let blocks = code_blocks(&docs, "xml");
        let bad: Vec<_> = blocks
            .iter()
            .filter(|(c, _)| c.starts_with("## Example"))
            .collect();
        let good: Vec<_> = blocks
            .iter()
            .filter(|(c, _)| *c == "Use instead:")
            .collect();
        if PROSE_EXAMPLES.contains(&name) {
            continue;
        }
        if bad.is_empty() || good.is_empty() {
            failures.push(format!("`{name}`: docs need an ```xml block under `## Example` and one under `Use instead:`"));
        }
        // The documented rule is on (opt-in rules too), with the sitemap URL its example states.
        let mut settings = Settings::default();
        settings.overrides.insert(name, Some(meta.default_severity));
        settings.sitemap_url = EXAMPLE_SITEMAP_URLS
            .iter()
            .find(|(rule, _)| *rule == name)
            .map(|(_, url)| url.to_string());
        for (_, xml) in bad {
            let report = check_reader("example.xml", xml.as_bytes(), &settings).unwrap();
            if !report.diagnostics.iter().any(|d| d.rule.name == name) {
                failures.push(format!("`{name}`: its Example does not trigger it:\n{xml}"));
            }
        }
        for (_, xml) in good {
            let report = check_reader("example.xml", xml.as_bytes(), &settings).unwrap();
            if !report.diagnostics.is_empty() {
                let got: Vec<_> = report
                    .diagnostics
                    .iter()
                    .map(|d| format!("{}: {}", d.rule.name, d.message))
                    .collect();
                failures.push(format!(
                    "`{name}`: its `Use instead` example is not clean: {got:?}"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} problem(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn messages_follow_the_house_style() {
    // Lowercase start (or a backquote, digit or quote), no final period; checked on every fixture.
    let mut failures = Vec::new();
    let dir = root().join("corpus/rules");
    for rule_dir in fs::read_dir(&dir).unwrap() {
        for f in fs::read_dir(rule_dir.unwrap().path()).unwrap() {
            let path = f.unwrap().path();
            if path.extension().is_some_and(|e| e == "expected") {
                continue;
            }
            let bytes = fs::read(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let report = check_reader(&name, &bytes[..], &Settings::default()).unwrap();
            for d in &report.diagnostics {
                let first = d.message.chars().next().unwrap_or(' ');
                if first.is_uppercase()
                    && !d.message.starts_with("XML")
                    && !d.message.starts_with("DOCTYPE")
                {
                    failures.push(format!(
                        "{}: message starts uppercase: {}",
                        path.display(),
                        d.message
                    ));
                }
                if d.message.ends_with('.') {
                    failures.push(format!(
                        "{}: message ends with a period: {}",
                        path.display(),
                        d.message
                    ));
                }
                if d.help.as_deref().is_some_and(|h| h.ends_with('.')) {
                    failures.push(format!(
                        "{}: help ends with a period: {:?}",
                        path.display(),
                        d.help
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_module_opens_with_a_one_line_summary() {
    let mut failures = Vec::new();
    let mut stack = vec![root().join("src")];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = fs::read_to_string(&p).unwrap();
                if !text.starts_with("//! ") {
                    failures.push(format!(
                        "{} does not start with a `//!` summary line",
                        p.display()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
