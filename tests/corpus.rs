//! Snapshot tests over `corpus/`: every rule's `fail_*` fixtures must trigger it (output compared with
//! the `.expected` file beside it), its `pass_*` fixtures must not; `corpus/cases/` files are
//! whole-sitemap cases compared the same way.
//!
//! Every fixture is checked at a fixed "now", 2024-11-21T12:00:00Z ([`NOW`]), so date rules do not
//! depend on the clock, and with the opt-in rule of its folder turned on. A fixture that needs the
//! sitemap's URL has a sidecar `<fixture>.args` with one line `--sitemap-url URL`.
//!
//! The rules of a site as served (`http-status`, `robots-blocked`, …) have `.http` fixtures: a
//! small site that a loopback server serves (see [`http_fixture`]), checked live, every report
//! of the run rendered (the server's `http://127.0.0.1:PORT` written as such).
//!
//! Update the expected files after a reviewed change with `UPDATE_EXPECT=1 cargo test --test corpus`
//! (or `UPDATE_EXPECT=rule-a,rule-b` for some rule folders only, `UPDATE_EXPECT=cases` for the cases).

use std::fs;
use std::path::{Path, PathBuf};

use sitemap_lint::render::{self, Format, RenderOptions};
use sitemap_lint::site_set::{SetCheck, Site};
use sitemap_lint::{check_reader, rules, FileReport, Settings};

#[cfg(feature = "http")]
#[path = "support/server.rs"]
mod server;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// "Now" for every fixture: 2024-11-21T12:00:00Z.
const NOW: i64 = 1_732_190_400;

/// Fixture files of a folder (everything except `.expected`, `.args` and README files), sorted.
fn fixtures(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            p.is_file()
                && !name.ends_with(".expected")
                && !name.ends_with(".args")
                && !name.ends_with(".md")
        })
        .collect();
    files.sort();
    files
}

/// The reports of a fixture: one for a sitemap file, those of a live run for a `.http` site.
/// With the server's base URL for a `.http` fixture, which the rendered output masks.
fn check_any(path: &Path) -> (Vec<FileReport>, Option<String>) {
    if path.extension().is_some_and(|e| e == "http") {
        return http_fixture(path);
    }
    (vec![check(path)], None)
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
fn http_fixture(path: &Path) -> (Vec<FileReport>, Option<String>) {
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
    let mut settings = Settings {
        now: NOW,
        ..Settings::default()
    };
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
fn http_fixture(path: &Path) -> (Vec<FileReport>, Option<String>) {
    eprintln!(
        "skipped {} (built without the `http` feature)",
        path.display()
    );
    (Vec::new(), None)
}

fn check(path: &Path) -> FileReport {
    let name = path
        .strip_prefix(corpus())
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/");
    let bytes = fs::read(path).unwrap();
    let mut settings = Settings {
        now: NOW,
        ..Settings::default()
    };
    if let Some(meta) = path
        .parent()
        .and_then(|d| d.file_name())
        .and_then(|n| rules::find(&n.to_string_lossy()))
        .filter(|m| m.opt_in)
    {
        settings
            .overrides
            .insert(meta.name, Some(meta.default_severity));
    }
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
        let mut report = check_reader(&names[i], &fs::read(f).unwrap()[..], &settings).unwrap();
        let found = set.file(i, &report.site, &report.source, &settings);
        report.diagnostics.extend(found);
        report
            .diagnostics
            .sort_by_key(|d| (d.primary.span.start, d.primary.span.end, d.rule.name));
        reports.push(report);
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
            let (reports, base) = check_any(f);
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
                &masked(rendered(reports), base.as_deref()),
                &mut failures,
            );
        }
        for p in passes {
            let (reports, _) = check_any(p);
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
    // Folders must belong to a rule.
    for entry in fs::read_dir(corpus().join("rules")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if rules::find(&name).is_none() {
            failures.push(format!("corpus/rules/{name}/ does not name a rule"));
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
        compare(&f, &rendered(vec![check(&f)]), &mut failures);
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
