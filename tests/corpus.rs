//! Snapshot tests over `corpus/`: every rule's `fail_*` fixtures must trigger it (output compared with
//! the `.expected` file beside it), its `pass_*` fixtures must not; `corpus/cases/` files are
//! whole-sitemap cases compared the same way.
//!
//! A fixture of `corpus/rules/<rule>/` is checked with that rule alone on
//! ([`Settings::only_with_deferred`]: `<rule>`, the rules it leaves findings to, and
//! `internal-error`), and its snapshot shows `<rule>`'s findings only (and an `internal-error`,
//! which no fixture may cause). Pipeline rules such as `xml-syntax` are no exception: the
//! pipeline's stages run whatever is on (a broken file is recovered the same way), only their
//! findings are dropped, so a rule fixture's snapshot never shows another rule's finding. What
//! several rules say together is the business of `corpus/cases/`, checked with every default rule
//! on. [`rule_findings_do_not_depend_on_the_other_rules`] shows that the split loses nothing: on
//! every rule fixture, the rule finds the same with every rule on, with the default rules on,
//! and alone.
//!
//! Every fixture is checked at a fixed "now", 2024-11-21T12:00:00Z ([`NOW`]), so date rules do not
//! depend on the clock. A fixture that needs the sitemap's URL has a sidecar `<fixture>.args` with
//! one line `--sitemap-url URL`. A snapshot or sidecar without its fixture, a `fail_*` fixture or a
//! case without its snapshot, and a folder of `corpus/rules/` that names no rule fail
//! ([`corpus_layout_is_sound`]).
//!
//! The rules of a site as served (`http-status`, `robots-blocked`, …) have `.http` fixtures: a
//! small site that a loopback server serves (see [`http_fixture`]), checked live, every report
//! of the run rendered (the server's `http://127.0.0.1:PORT` written as such).
//!
//! Update the expected files after a reviewed change with `UPDATE_EXPECT=1 cargo test --test corpus`
//! (or `UPDATE_EXPECT=rule-a,rule-b` for some rule folders only, `UPDATE_EXPECT=cases` for the cases).

use std::fs;
use std::path::{Path, PathBuf};

use sitemap_lint::pipeline::input;
use sitemap_lint::render::{self, Format, RenderOptions};
use sitemap_lint::site_set::{SetCheck, Site};
use sitemap_lint::{check_reader, engine, report, rules, FileReport, RuleMeta, Settings};

#[cfg(feature = "http")]
#[path = "support/server.rs"]
mod server;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// "Now" for every fixture: 2024-11-21T12:00:00Z.
const NOW: i64 = 1_732_190_400;

/// What sits beside a fixture, named `<fixture><suffix>`: its snapshot and its arguments. The
/// fix snapshots (`.fixed`, `.diff`) belong to `corpus/fixes/` (tests/fixes.rs) and are strays
/// here.
const SIDECARS: [&str; 2] = [".expected", ".args"];
const STRAYS: [&str; 2] = [".fixed", ".diff"];

/// Whether a file of a fixture folder is a fixture: not a sidecar, a stray or a README.
fn is_fixture(p: &Path) -> bool {
    let name = p.file_name().unwrap().to_string_lossy();
    p.is_file()
        && !SIDECARS.iter().chain(&STRAYS).any(|s| name.ends_with(s))
        && !name.ends_with(".md")
}

/// Fixture files of a folder (see [`is_fixture`]), sorted.
fn fixtures(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| is_fixture(p))
        .collect();
    files.sort();
    files
}

/// The reports of a fixture: one for a sitemap file, those of a live run for a `.http` site.
/// With the server's base URL for a `.http` fixture, which the rendered output masks.
fn check_any(path: &Path, settings: &Settings) -> (Vec<FileReport>, Option<String>) {
    if path.extension().is_some_and(|e| e == "http") {
        return http_fixture(path, settings);
    }
    (vec![check(path, settings)], None)
}

/// The rendered reports with the server's port masked (`127.0.0.1:XXXXX`, as wide as the port,
/// so that underlines stay under their text).
fn masked(text: String, base: Option<&str>) -> String {
    match base.and_then(|b| b.rsplit_once(':')) {
        Some((host, port)) => text.replace(
            &format!("{host}:{port}"),
            &format!("{host}:{}", "X".repeat(port.len())),
        ),
        None => text,
    }
}

/// A `.http` fixture: its first line `check PATH… [--check-urls]` names what to check, then each
/// route is `=== PATH`, a status line `HTTP/1.1 NNN`, headers (`X-Gzip: N` gzips the body N
/// times and is not sent), a blank line and the body. `{base}` is the server's
/// `http://127.0.0.1:PORT`. The run allows private hosts and turns `loc-private-host` off (the
/// server is on loopback).
#[cfg(feature = "http")]
fn http_fixture(path: &Path, settings: &Settings) -> (Vec<FileReport>, Option<String>) {
    use server::{Reply, Server};
    let text = fs::read_to_string(path).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let words: Vec<&str> = first.split_whitespace().collect();
    assert_eq!(
        words.first(),
        Some(&"check"),
        "{}: first line `check PATH…`",
        path.display()
    );
    let mut routes = Vec::new();
    for section in rest.split("=== ").skip(1) {
        let (route, reply) = section.split_once('\n').unwrap();
        let (head, body) = reply.split_once("\n\n").unwrap_or((reply, ""));
        let mut lines = head.lines();
        let status: u16 = lines
            .next()
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{}: `HTTP/1.1 NNN` after `=== {route}`", path.display()));
        let mut r = Reply::status(status);
        r.headers.clear();
        r.body = server::Body::Bytes(body.as_bytes().to_vec());
        for line in lines {
            let (k, v) = line.split_once(':').unwrap();
            if k.eq_ignore_ascii_case("x-gzip") {
                r = r.gzipped(v.trim().parse().unwrap());
            } else {
                r = r.header(k.trim(), v.trim());
            }
        }
        routes.push((route.trim().to_owned(), vec![r]));
    }
    let server = Server::start(
        routes
            .iter()
            .map(|(p, r)| (p.as_str(), r.clone()))
            .collect(),
    );
    let urls: Vec<String> = words[1..]
        .iter()
        .filter(|w| !w.starts_with("--"))
        .map(|p| server.url(p))
        .collect();
    let options = sitemap_lint::live::Options {
        limits: sitemap_lint::live::limits(
            std::time::Duration::from_secs(5),
            std::time::Duration::from_secs(5),
            std::time::Instant::now() + std::time::Duration::from_secs(60),
            sitemap_lint::pipeline::input::MAX_UNCOMPRESSED,
            true,
        ),
        check_urls: words.contains(&"--check-urls"),
        sample: None,
        seed: 0,
        max_rps: 1000.0,
        jobs: 1,
    };
    let mut settings = settings.clone();
    settings.overrides.insert("loc-private-host", None);
    let mut reports = Vec::new();
    let outcome = sitemap_lint::live::check(&urls, &options, &settings, &|_| {}, &mut |c| {
        reports.push(c.report);
        Ok(())
    })
    .unwrap();
    assert!(outcome.refused.is_empty(), "{:?}", outcome.refused);
    (reports, Some(server.url("")))
}

/// Without HTTP the `.http` fixtures cannot run: they are skipped (with a notice).
#[cfg(not(feature = "http"))]
fn http_fixture(path: &Path, _: &Settings) -> (Vec<FileReport>, Option<String>) {
    eprintln!(
        "skipped {} (built without the `http` feature)",
        path.display()
    );
    (Vec::new(), None)
}

/// The settings a fixture of `rule`'s folder is checked with: the rule alone (with the rules it
/// leaves findings to), at [`NOW`].
fn alone(rule: &RuleMeta) -> Settings {
    Settings {
        now: NOW,
        ..Settings::only_with_deferred(rule.name)
    }
}

/// The settings of `corpus/cases/`: the default rules, at [`NOW`].
fn defaults() -> Settings {
    Settings {
        now: NOW,
        ..Settings::default()
    }
}

/// Every rule on, opt-in ones included, at its default severity, at [`NOW`].
fn every_rule() -> Settings {
    let mut settings = defaults();
    for meta in rules::metas() {
        settings
            .overrides
            .insert(meta.name, Some(meta.default_severity));
    }
    settings
}

/// Checks the fixture at `path` with `settings` and the `--sitemap-url` of its `.args` sidecar.
fn check(path: &Path, settings: &Settings) -> FileReport {
    let name = path
        .strip_prefix(corpus())
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/");
    let bytes = fs::read(path).unwrap();
    let mut settings = settings.clone();
    if let Ok(args) = fs::read_to_string(format!("{}.args", path.display())) {
        match args.split_whitespace().collect::<Vec<_>>()[..] {
            ["--sitemap-url", url] => settings.sitemap_url = Some(url.to_string()),
            _ => panic!("{}.args: expected `--sitemap-url URL`", path.display()),
        }
    }
    check_reader(&name, &bytes[..], &settings).unwrap()
}

/// The reports of the files of `dir` checked as one set, in name order, each with the findings
/// across files joined (as the CLI joins them).
fn check_set(dir: &Path) -> Vec<FileReport> {
    let files = fixtures(dir);
    let paths: Vec<Option<&Path>> = files.iter().map(|f| Some(f.as_path())).collect();
    let site = Site::new(None, None, &paths);
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            f.strip_prefix(corpus())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    let mut set = SetCheck::new(
        &site,
        names.clone(),
        files.iter().cloned().map(Some).collect(),
    );
    let settings = Settings {
        now: NOW,
        collect_set: true,
        ..Settings::default()
    };
    let mut reports = Vec::new();
    for (i, f) in files.iter().enumerate() {
        // As the command line does: one finalize for the file's findings and those across files.
        let bytes = input::load(&fs::read(f).unwrap()[..], settings.max_size).unwrap();
        let found = engine::find(&names[i], bytes, &settings);
        let across = set.file(i, &found.site, &found.source, &settings, &|rule, at| {
            found.suppresses(rule, at)
        });
        reports.push(report::finalize(found, across, &settings, false));
    }
    reports
}

/// The reports with only the findings of `rule` (and an `internal-error`, which no fixture may
/// cause and no snapshot may hide).
fn only_findings_of(rule: &RuleMeta, mut reports: Vec<FileReport>) -> Vec<FileReport> {
    for r in &mut reports {
        r.diagnostics
            .retain(|d| d.rule == rule || d.rule.name == "internal-error");
    }
    reports
}

fn rendered(reports: Vec<FileReport>) -> String {
    let mut out = Vec::new();
    render::render(Format::Human, &reports, &mut out, RenderOptions::default()).unwrap();
    String::from_utf8(out).unwrap()
}

/// Whether UPDATE_EXPECT asks to rewrite this fixture's expected output: `1` (or `all`) rewrites
/// every one, a comma-separated list of rule names (or `cases`) only those folders.
fn update_requested(fixture: &Path) -> bool {
    let Some(v) = std::env::var_os("UPDATE_EXPECT") else {
        return false;
    };
    let v = v.to_string_lossy();
    if v == "1" || v == "all" {
        return true;
    }
    let folder = fixture
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    v.split(',').any(|name| name.trim() == folder)
}

/// Compares `actual` with `<fixture>.expected`, or rewrites it when asked (see `update_requested`).
fn compare(fixture: &Path, actual: &str, failures: &mut Vec<String>) {
    let expected_path = PathBuf::from(format!("{}.expected", fixture.display()));
    if update_requested(fixture) {
        fs::write(&expected_path, actual).unwrap();
        return;
    }
    match fs::read_to_string(&expected_path) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => failures.push(format!(
            "{}: output differs from {}\n--- expected\n{expected}\n--- actual\n{actual}",
            fixture.display(),
            expected_path.display()
        )),
        Err(_) => failures.push(format!(
            "{}: missing {} (review the output, then run `UPDATE_EXPECT=1 cargo test --test corpus`)\n{actual}",
            fixture.display(),
            expected_path.display()
        )),
    }
}

#[test]
fn every_rule_has_fixtures_and_they_behave() {
    let mut failures = Vec::new();
    for meta in rules::metas() {
        let dir = corpus().join("rules").join(meta.name);
        if !dir.is_dir() {
            failures.push(format!(
                "rule `{}` has no fixture folder corpus/rules/{}/ (add pass_*.xml and fail_*.xml)",
                meta.name, meta.name
            ));
            continue;
        }
        let files = fixtures(&dir);
        let name = |p: &PathBuf| p.file_name().unwrap().to_string_lossy().into_owned();
        let fails: Vec<_> = files
            .iter()
            .filter(|p| name(p).starts_with("fail_"))
            .collect();
        let passes: Vec<_> = files
            .iter()
            .filter(|p| name(p).starts_with("pass_"))
            .collect();
        // internal-error cannot be triggered by any input: it would be a bug.
        if fails.is_empty() && meta.name != "internal-error" {
            failures.push(format!("rule `{}` has no fail_* fixture", meta.name));
        }
        if passes.is_empty() {
            failures.push(format!("rule `{}` has no pass_* fixture", meta.name));
        }
        for f in files
            .iter()
            .filter(|p| !name(p).starts_with("fail_") && !name(p).starts_with("pass_"))
        {
            failures.push(format!(
                "{}: fixture names start with fail_ or pass_",
                f.display()
            ));
        }
        for f in fails {
            let (reports, base) = check_any(f, &alone(meta));
            if reports.is_empty() {
                continue;
            }
            if !reports
                .iter()
                .flat_map(|r| &r.diagnostics)
                .any(|d| d.rule.name == meta.name)
            {
                failures.push(format!(
                    "{}: expected a `{}` diagnostic, got none",
                    f.display(),
                    meta.name
                ));
            }
            compare(
                f,
                &masked(rendered(only_findings_of(meta, reports)), base.as_deref()),
                &mut failures,
            );
        }
        for p in passes {
            let (reports, _) = check_any(p, &alone(meta));
            let hits: Vec<_> = reports
                .iter()
                .flat_map(|r| &r.diagnostics)
                .filter(|d| d.rule.name == meta.name)
                .map(|d| d.message.clone())
                .collect();
            if !hits.is_empty() {
                failures.push(format!(
                    "{}: expected no `{}` diagnostic, got {hits:?}",
                    p.display(),
                    meta.name
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} problem(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn whole_file_cases_match_their_expected_output() {
    let mut failures = Vec::new();
    let files = fixtures(&corpus().join("cases"));
    assert!(!files.is_empty(), "corpus/cases/ is empty");
    for f in files {
        compare(&f, &rendered(vec![check(&f, &defaults())]), &mut failures);
    }
    // A folder is a set of files checked together (as `sitemap-lint check DIR/*` does), its
    // expected output beside it: `cases/<folder>.expected`.
    let mut sets: Vec<PathBuf> = fs::read_dir(corpus().join("cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    sets.sort();
    for dir in sets {
        compare(&dir, &rendered(check_set(&dir)), &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} problem(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// What a run says of `rule` in a fixture: each report's name and the rule's findings in full
/// (spans, severity, message, labels, notes, help, fix).
fn findings_of(
    rule: &RuleMeta,
    (reports, base): (Vec<FileReport>, Option<String>),
) -> Vec<(String, Vec<String>)> {
    let masked = |s: String| masked(s, base.as_deref());
    reports
        .iter()
        .map(|r| {
            let found = r.diagnostics.iter().filter(|d| d.rule == rule);
            let shown = |d: &sitemap_lint::Diagnostic| {
                format!(
                    "{:?} {:?} {} | {:?} | {:?} | notes {:?} | help {:?} | fix {:?}",
                    d.severity,
                    d.primary.span,
                    d.message,
                    d.primary.message,
                    d.secondary,
                    d.notes,
                    d.help,
                    d.fix
                )
            };
            (
                masked(r.source.name().to_owned()),
                found.map(shown).map(masked).collect(),
            )
        })
        .collect()
}

/// The split of the snapshots by rule loses nothing, and no rule's findings depend on which
/// other rules are on: on every fixture of `corpus/rules/<rule>/`, `<rule>` finds the same with
/// every rule on, with the default rules on (and `<rule>`, as the snapshots were made before the
/// split), and alone with the rules it leaves findings to ([`Settings::only_with_deferred`]).
/// And every hand-over a rule declares (`defers_to`) is used: some fixture of the rule finds
/// more with the other rule off.
#[test]
fn rule_findings_do_not_depend_on_the_other_rules() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for meta in rules::metas() {
        let dir = corpus().join("rules").join(meta.name);
        if !dir.is_dir() {
            continue; // reported by every_rule_has_fixtures_and_they_behave
        }
        let mut with_defaults = defaults();
        with_defaults
            .overrides
            .insert(meta.name, Some(meta.default_severity));
        let mut handovers_seen = vec![false; meta.defers_to.len()];
        for f in fixtures(&dir) {
            let alone_found = findings_of(meta, check_any(&f, &alone(meta)));
            if alone_found.is_empty() {
                continue; // an `.http` fixture without the `http` feature
            }
            compared += 1;
            for (what, settings) in [
                ("every rule", every_rule()),
                ("the defaults", with_defaults.clone()),
            ] {
                let found = findings_of(meta, check_any(&f, &settings));
                if found != alone_found {
                    failures.push(format!(
                        "{}: `{}` finds other things with {what} on than alone\n--- {what}\n{found:#?}\n--- alone\n{alone_found:#?}",
                        f.display(),
                        meta.name
                    ));
                }
            }
            for (seen, other) in handovers_seen.iter_mut().zip(meta.defers_to) {
                let mut without = alone(meta);
                without.overrides.insert(other, None);
                if findings_of(meta, check_any(&f, &without)) != alone_found {
                    *seen = true;
                }
            }
        }
        for (seen, other) in handovers_seen.iter().zip(meta.defers_to) {
            if !seen {
                failures.push(format!(
                    "`{}` declares `defers_to: [\"{other}\"]`, but none of its fixtures finds more with `{other}` off: add a fixture that shows the hand-over, or drop the declaration",
                    meta.name
                ));
            }
        }
    }
    assert!(compared >= 300, "only {compared} rule fixtures compared");
    assert!(
        failures.is_empty(),
        "{} problem(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The problems of the layout of a corpus folder such as `corpus/`: every folder of `rules/`
/// names a rule and holds only files; a snapshot or sidecar has its fixture beside it; a
/// `fail_*` fixture and every case has its snapshot, a `pass_*` fixture none (it must find
/// nothing); fix snapshots are strays outside `fixes/`.
fn layout_problems(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let mut folders = vec![(root.join("cases"), true)];
    for entry in fs::read_dir(root.join("rules")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !path.is_dir() {
            problems.push(format!(
                "{}: a file directly in rules/ (fixtures go into rules/<rule>/)",
                path.display()
            ));
        } else if rules::find(&name).is_none() {
            problems.push(format!(
                "{}: rules/{name}/ does not name a rule (rename or remove the folder)",
                path.display()
            ));
        } else {
            folders.push((path, false));
        }
    }
    for (dir, cases) in folders {
        let mut files: Vec<PathBuf> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for path in &files {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() && cases {
                // A set: files checked together, its snapshot beside the folder.
                if !dir.join(format!("{name}.expected")).is_file() {
                    problems.push(format!(
                        "{}: a set with no snapshot {name}.expected beside it (review the output, then run `UPDATE_EXPECT=1 cargo test --test corpus`)",
                        path.display()
                    ));
                }
                for inner in fs::read_dir(path).unwrap() {
                    let inner = inner.unwrap().path();
                    if !is_fixture(&inner) {
                        problems.push(format!(
                            "{}: a set holds only sitemaps checked together",
                            inner.display()
                        ));
                    }
                }
            } else if path.is_dir() {
                problems.push(format!(
                    "{}: a folder inside a fixture folder",
                    path.display()
                ));
            } else if let Some(suffix) = STRAYS.iter().find(|s| name.ends_with(*s)) {
                problems.push(format!(
                    "{}: a `{suffix}` snapshot belongs to corpus/fixes/<rule>/ (tests/fixes.rs)",
                    path.display()
                ));
            } else if let Some(suffix) = SIDECARS.iter().find(|s| name.ends_with(*s)) {
                let fixture = dir.join(&name[..name.len() - suffix.len()]);
                if !(is_fixture(&fixture) || cases && fixture.is_dir()) {
                    problems.push(format!(
                        "{}: no fixture {} beside it (remove the `{suffix}` file, or restore its fixture)",
                        path.display(),
                        fixture.display()
                    ));
                }
            } else if is_fixture(path) {
                let snapshot = dir.join(format!("{name}.expected"));
                let wanted = cases || name.starts_with("fail_");
                if wanted && !snapshot.is_file() {
                    problems.push(format!(
                        "{}: no snapshot {} (review the output, then run `UPDATE_EXPECT=1 cargo test --test corpus`)",
                        path.display(),
                        snapshot.display()
                    ));
                } else if !wanted && name.starts_with("pass_") && snapshot.is_file() {
                    problems.push(format!(
                        "{}: a snapshot beside a `pass_` fixture, which must find nothing: remove it",
                        snapshot.display()
                    ));
                }
            }
        }
    }
    problems
}

#[test]
fn corpus_layout_is_sound() {
    let problems = layout_problems(&corpus());
    assert!(
        problems.is_empty(),
        "{} problem(s):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

/// [`layout_problems`] finds every kind of stray: on a scratch copy of a rule folder and of the
/// cases, with one of each planted.
#[test]
fn layout_problems_finds_planted_strays() {
    let scratch = std::env::temp_dir().join(format!("corpus-layout-{}", std::process::id()));
    let _ = fs::remove_dir_all(&scratch);
    let copy = |from: &Path, to: &Path| {
        fs::create_dir_all(to).unwrap();
        for f in fixtures(from) {
            let name = f.file_name().unwrap();
            fs::copy(&f, to.join(name)).unwrap();
            let snapshot = PathBuf::from(format!("{}.expected", f.display()));
            if snapshot.is_file() {
                fs::copy(&snapshot, to.join(snapshot.file_name().unwrap())).unwrap();
            }
        }
    };
    let rule_dir = scratch.join("rules/missing-loc");
    copy(&corpus().join("rules/missing-loc"), &rule_dir);
    copy(&corpus().join("cases"), &scratch.join("cases"));
    assert_eq!(layout_problems(&scratch), Vec::<String>::new(), "the copy");

    let fail = fixtures(&rule_dir)
        .into_iter()
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("fail_")
        })
        .unwrap();
    let planted = [
        rule_dir.join("fail_gone.xml.expected"),
        rule_dir.join("pass_gone.xml.args"),
        scratch.join("cases/gone.xml.expected"),
        rule_dir.join("fail_x.fixed"),
        rule_dir.join("pass_y.diff"),
        rule_dir.join("pass_snapshot.xml.expected"),
        scratch.join("rules/no-such-rule/fail_a.xml"),
        scratch.join("rules/stray.xml"),
        rule_dir.join("nested/fail_b.xml"),
    ];
    for p in &planted {
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, "").unwrap();
    }
    fs::write(rule_dir.join("pass_snapshot.xml"), "").unwrap();
    // A set of files in cases/ with no snapshot beside it.
    let set = scratch.join("cases/set-without-snapshot");
    fs::create_dir_all(&set).unwrap();
    fs::write(set.join("a.xml"), "").unwrap();
    fs::remove_file(format!("{}.expected", fail.display())).unwrap();
    let problems = layout_problems(&scratch);
    let _ = fs::remove_dir_all(&scratch);
    let mut expected: Vec<&Path> = planted[..planted.len() - 3]
        .iter()
        .map(PathBuf::as_path)
        .collect();
    expected.push(&fail);
    expected.push(planted[6].parent().unwrap());
    expected.push(&planted[7]);
    expected.push(planted[8].parent().unwrap());
    expected.push(&set);
    for p in &expected {
        let p = p.display().to_string();
        assert!(
            problems.iter().any(|m| m.starts_with(&format!("{p}:"))),
            "{p} not reported: {problems:#?}"
        );
    }
    assert_eq!(problems.len(), expected.len(), "{problems:#?}");
}
