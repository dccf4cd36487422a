//! Documentation stays true: docs/rules.md (the rules table and every rule's section) is generated
//! from the rules, every rule doc has the required sections, its examples behave as documented,
//! messages follow one style, and README stays a landing page whose links resolve.
//!
//! Regenerate docs/rules.md with `UPDATE_DOCS=1 cargo test --test docs`.

use std::fs;
use std::path::Path;

use sitemap_lint::docs::{
    code_blocks, refresh_rules_doc, rule_url, rules_table, RULES_DOC_PATH, RULES_DOC_URL,
    TABLE_BEGIN, TABLE_END,
};
use sitemap_lint::{check_reader, rules, Settings};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn rules_document_is_fresh() {
    let path = root().join(RULES_DOC_PATH);
    let doc = fs::read_to_string(&path).expect("docs/rules.md");
    let Some(updated) = refresh_rules_doc(&doc) else {
        panic!("{RULES_DOC_PATH} lacks the markers {TABLE_BEGIN} … {TABLE_END}");
    };
    if updated != doc {
        if std::env::var_os("UPDATE_DOCS").is_some() {
            fs::write(&path, updated).unwrap();
        } else {
            panic!("{RULES_DOC_PATH} is stale: run `UPDATE_DOCS=1 cargo test --test docs`");
        }
    }
    // The table as `rules_table` makes it, and a section per rule that SARIF's helpUri finds.
    assert!(doc.contains(&rules_table()), "the rules table");
    assert!(RULES_DOC_URL.ends_with(RULES_DOC_PATH));
    for m in rules::metas() {
        assert!(
            doc.contains(&format!("\n### {}\n", m.name)),
            "a section headed `{}`",
            m.name
        );
        assert!(rule_url(m.name).ends_with(&format!("docs/rules.md#{}", m.name)));
    }
}

/// The README is a landing page: small, with what a new user needs, and links that resolve.
#[test]
fn readme_is_a_landing_page() {
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md");
    assert!(
        readme.len() <= 15_000,
        "README.md is {} bytes; at most 15,000 (move reference text to docs/)",
        readme.len()
    );
    for needed in [
        "pip install sitemap-lint",
        "cargo install --locked",
        "cargo binstall",
        "docs/install.md",
        "cargo test",
        "rev:",
        "- id: sitemap-lint ",
        "id: sitemap-lint-system",
        "--format github",
        "--format gitlab",
        "sitemap-lint check -",
        "## Exit codes",
        "docs/rules.md",
        "docs/configuration.md",
        "docs/formats.md",
        "docs/performance.md",
        "CONTRIBUTING.md",
        "ARCHITECTURE.md",
    ] {
        assert!(readme.contains(needed), "README.md lacks `{needed}`");
    }
    // Every relative link of README and docs/ points at a file that exists, and every `#anchor`
    // at a heading of its file.
    let mut pages = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    for e in fs::read_dir(root().join("docs")).unwrap() {
        pages.push(e.unwrap().path());
    }
    let mut failures = Vec::new();
    for page in pages
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
    {
        let text = fs::read_to_string(page).unwrap();
        let anchors = heading_anchors(&text);
        for target in links(&text) {
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            if file.contains("://") || file.starts_with("mailto:") {
                continue;
            }
            let (linked, linked_anchors) = if file.is_empty() {
                (page.clone(), anchors.clone())
            } else {
                let p = page.parent().unwrap().join(file);
                let a = fs::read_to_string(&p)
                    .map(|t| heading_anchors(&t))
                    .unwrap_or_default();
                (p, a)
            };
            if !linked.exists() {
                failures.push(format!("{}: `{target}` does not exist", page.display()));
            } else if !anchor.is_empty() && linked.exists() && !linked_anchors.contains(anchor) {
                failures.push(format!("{}: no heading for `{target}`", page.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The targets of the inline links `[text](target)` of a Markdown text, outside code.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            if let Some(end) = rest.find(')') {
                out.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    out
}

/// The anchors GitHub makes of a Markdown text's headings: lowercase, punctuation dropped,
/// spaces to `-`, `-1`, `-2` … for repeats.
fn heading_anchors(text: &str) -> std::collections::HashSet<String> {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let mut out = std::collections::HashSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
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
    // The site as served: HTTP exchanges and robots.txt, shown as text (their cases are the
    // `.http` fixtures of corpus/rules/ and tests/live.rs).
    "http-status",
    "http-redirect",
    "sitemap-is-html",
    "http-content-type",
    "robots-sitemap-line",
    "robots-blocked",
    "url-status",
    "url-noindex",
    "url-canonical",
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
        // Text sitemap rules show text sitemaps (```text), checked as `example.txt`.
        let (blocks, example) = match code_blocks(&docs, "text") {
            text if !text.is_empty() => (text, "example.txt"),
            _ => (code_blocks(&docs, "xml"), "example.xml"),
        };
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
            failures.push(format!("`{name}`: docs need an ```xml (or ```text) block under `## Example` and one under `Use instead:`"));
        }
        // The documented rule is on (opt-in rules too), with the sitemap URL its example states.
        let mut settings = Settings::default();
        settings.overrides.insert(name, Some(meta.default_severity));
        settings.sitemap_url = EXAMPLE_SITEMAP_URLS
            .iter()
            .find(|(rule, _)| *rule == name)
            .map(|(_, url)| url.to_string());
        for (_, xml) in bad {
            let report = check_reader(example, xml.as_bytes(), &settings).unwrap();
            if !report.diagnostics.iter().any(|d| d.rule.name == name) {
                failures.push(format!("`{name}`: its Example does not trigger it:\n{xml}"));
            }
        }
        for (_, xml) in good {
            let report = check_reader(example, xml.as_bytes(), &settings).unwrap();
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
