//! Fixture tests of `--fix`: every fixable rule has a folder `corpus/fixes/<rule>/` of cases
//! `<case>.xml`, each with the fixed text `<case>.fixed` and the unified diff `<case>.diff` beside
//! it. A case is fixed with that rule alone turned on, at the corpus's fixed "now"; a case whose
//! name starts with `unsafe_` is fixed with `--unsafe-fixes`. A `<case>.xml.args` sidecar may give
//! `--sitemap-url URL`, as in `corpus/rules/`.
//!
//! Each case must be reported by its rule, fix to its snapshots, offer only fixes of the
//! applicability the rule declares (`fix:` in `declare_rule!`), and fix to a text that a second
//! `--fix` leaves alone. A snapshot without its case, or a case without its snapshots, fails.
//!
//! Update the snapshots after a reviewed change with `UPDATE_EXPECT=fixes cargo test --test fixes`
//! (or `UPDATE_EXPECT=rule-a,rule-b` for some folders only, `1` or `all` for every one).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use sitemap_lint::diagnostic::Applicability;
use sitemap_lint::fix::{fix_bytes, unified_diff, FixOptions};
use sitemap_lint::pipeline::input;
use sitemap_lint::{check_reader, rules, RuleMeta, Settings};

/// "Now" for every case, as in tests/corpus.rs: 2024-11-21T12:00:00Z.
const NOW: i64 = 1_732_190_400;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

fn fixes_dir() -> PathBuf {
    corpus().join("fixes")
}

/// The settings a case of `rule` is fixed with: that rule alone, on (opt-in or not).
fn settings_for(rule: &'static RuleMeta, case: &Path) -> Settings {
    let mut settings = Settings::only(rule.name);
    settings.now = NOW;
    settings
        .overrides
        .insert(rule.name, Some(rule.default_severity));
    if let Ok(args) = fs::read_to_string(format!("{}.args", case.display())) {
        match args.split_whitespace().collect::<Vec<_>>()[..] {
            ["--sitemap-url", url] => settings.sitemap_url = Some(url.to_string()),
            _ => panic!("{}.args: expected `--sitemap-url URL`", case.display()),
        }
    }
    settings
}

fn update_requested(rule: &str) -> bool {
    let Some(v) = std::env::var_os("UPDATE_EXPECT") else {
        return false;
    };
    let v = v.to_string_lossy();
    v == "1"
        || v == "all"
        || v.split(',')
            .any(|n| n.trim() == "fixes" || n.trim() == rule)
}

/// Compares `actual` with the snapshot at `path`, or writes it when asked.
fn compare(rule: &str, path: &Path, actual: &str, failures: &mut Vec<String>) {
    if update_requested(rule) {
        fs::write(path, actual).unwrap();
        return;
    }
    match fs::read_to_string(path) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => failures.push(format!(
            "{} differs\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        )),
        Err(_) => failures.push(format!(
            "missing {} (review it, then run `UPDATE_EXPECT=fixes cargo test --test fixes`)\n{actual}",
            path.display()
        )),
    }
}

fn fix_case(rule: &'static RuleMeta, case: &Path, failures: &mut Vec<String>) -> usize {
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let stem = name.strip_suffix(".xml").unwrap();
    let original = fs::read(case).unwrap();
    let options = FixOptions {
        unsafe_fixes: stem.starts_with("unsafe_"),
    };
    let settings = settings_for(rule, case);
    let before = check_reader(&name, &original[..], &settings).unwrap();
    if !before.diagnostics.iter().any(|d| d.rule == rule) {
        failures.push(format!(
            "{}: `{}` reports nothing",
            case.display(),
            rule.name
        ));
    }
    let bytes = input::load(&original[..], settings.max_size).unwrap();
    let fixed = fix_bytes(&name, bytes, &settings, options);
    for d in &fixed.report.diagnostics {
        assert!(
            !d.is_beyond_cap(),
            "{}: a diagnostic kept only for its fix is shown",
            case.display()
        );
    }
    if let Some(why) = &fixed.unfixable {
        failures.push(format!("{}: not fixable: {why}", case.display()));
    }
    if !fixed.converged {
        failures.push(format!("{}: fixes did not converge", case.display()));
    }
    let new = fixed.content.clone().unwrap_or_else(|| original.clone());
    let (old_text, new_text) = (
        String::from_utf8_lossy(&original).into_owned(),
        String::from_utf8(new.clone()).expect("fixed text is UTF-8"),
    );
    let dir = case.parent().unwrap();
    compare(
        rule.name,
        &dir.join(format!("{stem}.fixed")),
        &new_text,
        failures,
    );
    let diff = unified_diff(&name, &old_text, &new_text);
    compare(
        rule.name,
        &dir.join(format!("{stem}.diff")),
        &diff,
        failures,
    );
    // A second --fix changes nothing.
    let again = fix_bytes(
        &name,
        input::load(&new[..], settings.max_size).unwrap(),
        &settings,
        options,
    );
    if again.content.is_some() {
        failures.push(format!(
            "{}: a second --fix changes the text again ({:?})",
            case.display(),
            again.by_rule
        ));
    }
    fixed.applied()
}

#[test]
fn fixable_rules_have_fixtures_and_they_fix() {
    let mut failures = Vec::new();
    let mut seen = BTreeSet::new();
    let dirs = fs::read_dir(fixes_dir()).expect("corpus/fixes");
    let mut dirs: Vec<PathBuf> = dirs
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let folder = dir.file_name().unwrap().to_string_lossy().into_owned();
        let Some(rule) = rules::find(&folder) else {
            failures.push(format!("{}: no rule is named `{folder}`", dir.display()));
            continue;
        };
        if rule.fix.is_none() {
            failures.push(format!(
                "{}: `{folder}` declares no fix (`fix:` in its declare_rule!)",
                dir.display()
            ));
        }
        seen.insert(rule.name);
        let mut files: Vec<PathBuf> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let cases: BTreeSet<String> = files
            .iter()
            .filter_map(|p| {
                p.file_name()?
                    .to_str()?
                    .strip_suffix(".xml")
                    .map(String::from)
            })
            .collect();
        let mut applied = 0;
        for file in &files {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".xml") {
                applied += fix_case(rule, file, &mut failures);
                continue;
            }
            let stem = name
                .strip_suffix(".fixed")
                .or_else(|| name.strip_suffix(".diff"))
                .or_else(|| name.strip_suffix(".xml.args"));
            match stem {
                Some(stem) if cases.contains(stem) => {}
                Some(_) => {
                    failures.push(format!("{}: a snapshot without its case", file.display()))
                }
                None if name.ends_with(".md") => {}
                None => failures.push(format!(
                    "{}: not a case (`.xml`) or snapshot",
                    file.display()
                )),
            }
        }
        if applied == 0 {
            failures.push(format!("{}: no case applies a fix", dir.display()));
        }
    }
    for m in rules::metas() {
        if let Some(kind) = m.fix.filter(|_| !seen.contains(m.name)) {
            failures.push(format!(
                "`{}` declares `fix: {kind:?}` but has no folder corpus/fixes/{}/",
                m.name, m.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every fix offered over the corpus (rule fixtures, cases and fix cases, every rule on) has the
/// applicability its rule declares, and a rule that declares no fix offers none.
#[test]
fn fixes_have_the_declared_applicability() {
    let mut settings = Settings {
        now: NOW,
        ..Settings::default()
    };
    for m in rules::metas() {
        settings.overrides.insert(m.name, Some(m.default_severity));
    }
    let mut files = vec![corpus()];
    let (mut checked, mut fixes) = (0, 0);
    let mut failures = Vec::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let name = path.to_string_lossy().into_owned();
        if !(name.ends_with(".xml") || name.ends_with(".gz")) {
            continue;
        }
        let bytes = fs::read(&path).unwrap();
        let report = check_reader(&name, &bytes[..], &settings).unwrap();
        checked += 1;
        for d in &report.diagnostics {
            let Some(fix) = &d.fix else { continue };
            fixes += 1;
            let declared = d.rule.fix;
            if !declared.is_some_and(|k| k.allows(fix.applicability)) {
                failures.push(format!(
                    "{name}: `{}` offers a{} fix but declares {declared:?}",
                    d.rule.name,
                    if fix.applicability == Applicability::Safe {
                        " safe"
                    } else {
                        "n unsafe"
                    }
                ));
            }
        }
    }
    assert!(checked > 300, "{checked} files");
    assert!(fixes > 0, "no fix offered over the corpus");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
