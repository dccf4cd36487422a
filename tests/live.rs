//! Live checks against a real HTTP server on loopback (tests/support/server.rs), started by each
//! test: every problem a served site can have is planted (statuses, redirects and their loops,
//! HTML, content types, double gzip, robots.txt lines and rules, pages that fail, redirect,
//! say noindex or name another canonical URL), plus 429 with Retry-After, slow answers, a
//! 60 MiB body and a gzip bomb. Politeness is measured from the server's own request log.
//!
//! The server is on loopback, so every run passes `--allow-private-hosts` except the test that
//! shows the refusal; `loc-private-host` (the URLs are on 127.0.0.1) is turned off.
#![cfg(feature = "http")]

#[path = "support/server.rs"]
mod server;
mod support;

use std::time::{Duration, Instant};

use serde_json::Value;
use server::{Body, Reply, Server};

/// A `<urlset>` (entries `url`) or `<sitemapindex>` (entries `sitemap`) of `locs` on the server.
fn document(root: &str, entry: &str, locs: &[&str]) -> String {
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<{root} xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
    );
    for l in locs {
        s.push_str(&format!("  <{entry}><loc>{{base}}{l}</loc></{entry}>\n"));
    }
    s.push_str(&format!("</{root}>\n"));
    s
}

fn urlset(locs: &[&str]) -> String {
    document("urlset", "url", locs)
}

fn index(locs: &[&str]) -> String {
    document("sitemapindex", "sitemap", locs)
}

fn html(head: &str) -> Reply {
    Reply::ok(
        "text/html; charset=utf-8",
        format!("<!DOCTYPE html><html><head>{head}</head><body>x</body></html>"),
    )
}

/// Runs `check` with `args` and the flags every loopback run needs; returns the JSON report,
/// the exit code and stderr.
fn check(args: &[&str]) -> (Value, i32, String) {
    let mut all = vec![
        "check",
        "--format",
        "json",
        "--allow-private-hosts",
        "--allow",
        "loc-private-host",
        "--isolated",
    ];
    all.extend_from_slice(args);
    let out = support::run_cmd(support::bin(), &all, None);
    let text = support::stdout(&out);
    let json = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {text}\nstderr: {}", support::stderr(&out)));
    (json, out.status.code().unwrap_or(-1), support::stderr(&out))
}

/// `(code, line)` of each finding of the file `path`.
fn findings(report: &Value, path: &str) -> Vec<(String, u64)> {
    let files = report["files"].as_array().unwrap();
    let file = files
        .iter()
        .find(|f| f["path"] == path)
        .unwrap_or_else(|| panic!("no report for {path}: {report:#}"));
    file["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["span"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn message_of(report: &Value, path: &str, code: &str) -> String {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["path"] == path)
        .flat_map(|f| f["diagnostics"].as_array().unwrap().iter())
        .find(|d| d["code"] == code)
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .unwrap_or_else(|| panic!("no {code} in {path}"))
}

fn has(found: &[(String, u64)], code: &str, line: u64) -> bool {
    found.iter().any(|(c, l)| c == code && *l == line)
}

fn site() -> Server {
    let robots = "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private/\nDisallow: /*.pdf$\n\
                  Sitemap: /relative.xml\nSitemap: {base}/sitemap_index.xml\nSitemap: {base}/old-sitemap.xml\n";
    Server::start(vec![
        ("/robots.txt", vec![Reply::ok("text/plain", robots)]),
        (
            "/sitemap_index.xml",
            vec![Reply::xml(index(&[
                "/pages.xml",
                "/missing.xml",
                "/html.xml",
                "/html-by-content.xml",
                "/octet.xml",
                "/nested.xml",
                "/double.xml.gz",
                "/ce.xml",
                "/loop.xml",
                "/many.xml",
                "/redirected.xml",
            ]))],
        ),
        (
            "/pages.xml",
            vec![Reply::xml(urlset(&[
                "/page-ok",
                "/private/secret",
                "/doc.pdf",
                "/gone",
                "/moved",
                "/noindex-header",
                "/noindex-meta",
                "/dup",
            ]))],
        ),
        ("/html.xml", vec![html("<title>home</title>")]),
        (
            "/html-by-content.xml",
            vec![Reply::xml("<!doctype html><html><head></head></html>")],
        ),
        (
            "/octet.xml",
            vec![Reply::ok("application/octet-stream", urlset(&["/page-ok"]))],
        ),
        ("/nested.xml", vec![Reply::xml(index(&["/pages.xml"]))]),
        (
            "/double.xml.gz",
            vec![Reply::ok("application/gzip", urlset(&["/page-ok"])).gzipped(2)],
        ),
        (
            "/ce.xml",
            vec![Reply::xml(urlset(&["/page-ok"]))
                .gzipped(1)
                .header("Content-Encoding", "gzip")],
        ),
        ("/loop.xml", vec![Reply::redirect(301, "/loop2.xml")]),
        ("/loop2.xml", vec![Reply::redirect(302, "{base}/loop.xml")]),
        ("/many.xml", vec![Reply::redirect(301, "/r1")]),
        ("/r1", vec![Reply::redirect(301, "/r2")]),
        ("/r2", vec![Reply::redirect(301, "/r3")]),
        ("/r3", vec![Reply::redirect(301, "/r4")]),
        ("/r4", vec![Reply::redirect(301, "/r5")]),
        ("/r5", vec![Reply::redirect(301, "/r6")]),
        ("/r6", vec![Reply::xml(urlset(&["/page-ok"]))]),
        ("/redirected.xml", vec![Reply::redirect(302, "/pages2.xml")]),
        ("/pages2.xml", vec![Reply::xml(urlset(&["/page-ok"]))]),
        (
            "/old-sitemap.xml",
            vec![Reply::redirect(301, "/pages2.xml")],
        ),
        (
            "/page-ok",
            vec![html("<link rel=\"canonical\" href=\"/page-ok\">")],
        ),
        ("/moved", vec![Reply::redirect(301, "/page-ok")]),
        (
            "/noindex-header",
            vec![html("").header("X-Robots-Tag", "noindex, nofollow")],
        ),
        (
            "/noindex-meta",
            vec![html("<meta name=\"robots\" content=\"noindex\">")],
        ),
        (
            "/dup",
            vec![html("<link rel=\"canonical\" href=\"{base}/page-ok\">")],
        ),
    ])
}

#[test]
fn every_problem_of_a_served_site_is_reported_where_its_url_came_from() {
    let server = site();
    let root = server.url("/");
    let (report, code, stderr) = check(&["--check-urls", &root]);
    assert_eq!(code, 1, "errors found: {stderr}");

    let robots = findings(&report, &server.url("/robots.txt"));
    assert!(has(&robots, "robots-sitemap-line", 7), "{robots:?}");
    assert!(has(&robots, "http-redirect", 9), "{robots:?}");

    let idx = server.url("/sitemap_index.xml");
    let found = findings(&report, &idx);
    for (code, line) in [
        ("http-status", 4),       // 404 child
        ("sitemap-is-html", 5),   // text/html
        ("sitemap-is-html", 6),   // HTML content served as XML
        ("http-content-type", 7), // application/octet-stream
        ("index-child", 8),       // nested index
        ("http-status", 11),      // redirect loop
        ("http-status", 12),      // more than 5 redirects
        ("http-redirect", 13),    // one redirect
    ] {
        assert!(has(&found, code, line), "{code} at line {line}: {found:?}");
    }
    assert!(message_of(&report, &idx, "http-redirect").contains("/pages2.xml"));
    assert_eq!(found.len(), 8, "nothing else: {found:?}");

    let pages = findings(&report, &server.url("/pages.xml"));
    for (code, line) in [
        ("robots-blocked", 4),
        ("robots-blocked", 5),
        ("url-status", 6),
        ("url-status", 7),
        ("url-noindex", 8),
        ("url-noindex", 9),
        ("url-canonical", 10),
    ] {
        assert!(has(&pages, code, line), "{code} at line {line}: {pages:?}");
    }
    assert_eq!(pages.len(), 7, "{pages:?}");
    let files = report["files"].as_array().unwrap();
    let severity = |code: &str, line: u64| {
        files
            .iter()
            .flat_map(|f| f["diagnostics"].as_array().unwrap())
            .find(|d| d["code"] == code && d["span"]["start"]["line"] == line)
            .map(|d| d["severity"].as_str().unwrap().to_owned())
    };
    assert_eq!(severity("url-status", 6).as_deref(), Some("error"), "404");
    assert_eq!(severity("url-status", 7).as_deref(), Some("warning"), "301");

    let double = findings(&report, &server.url("/double.xml.gz"));
    assert!(has(&double, "gzip-invalid", 1), "{double:?}");
    // The fetched files are one set: `/page-ok`, listed first in /pages.xml, is listed again.
    for path in ["/octet.xml", "/ce.xml"] {
        assert_eq!(
            findings(&report, &server.url(path)),
            [("duplicate-loc".to_owned(), 3)],
            "{path}"
        );
        assert!(
            message_of(&report, &server.url(path), "duplicate-loc")
                .contains(&server.url("/pages.xml")),
            "{path}"
        );
    }

    // Politeness and manners, from the server's log.
    let log = server.log();
    for path in ["/private/secret", "/doc.pdf"] {
        assert!(
            server.hits(path).is_empty(),
            "{path} is disallowed: never requested"
        );
    }
    let ua = format!(
        "sitemap-lint/{} (+{})",
        env!("CARGO_PKG_VERSION"),
        env!("CARGO_PKG_REPOSITORY")
    );
    for l in &log {
        assert_eq!(l.user_agent, ua, "{}", l.path);
        assert!(
            !l.headers
                .iter()
                .any(|(k, _)| k == "cookie" || k == "authorization"),
            "no cookies or credentials: {:?}",
            l.headers
        );
        assert!(l.in_flight <= 4, "{} requests at once", l.in_flight);
    }
    assert_eq!(
        server.hits("/robots.txt").len(),
        1,
        "robots.txt is read once"
    );
    // The loop stops at the first repeat; the chain stops after 5 redirects.
    assert_eq!(server.hits("/loop.xml").len(), 1);
    assert!(
        server.hits("/r6").is_empty(),
        "the 6th redirect is not followed"
    );
}

#[test]
fn a_site_without_sitemap_lines_falls_back_to_the_conventional_urls() {
    let server = Server::start(vec![
        (
            "/robots.txt",
            vec![Reply::ok("text/plain", "User-agent: *\nDisallow:\n")],
        ),
        ("/sitemap_index.xml", vec![Reply::xml(index(&["/s.xml"]))]),
        ("/s.xml", vec![Reply::xml(urlset(&["/a"]))]),
    ]);
    let (report, code, stderr) = check(&[&server.url("")]);
    assert_eq!(code, 0, "{stderr}");
    let robots = findings(&report, &server.url("/robots.txt"));
    assert_eq!(robots, [("robots-sitemap-line".to_owned(), 1)]);
    assert!(
        message_of(&report, &server.url("/robots.txt"), "robots-sitemap-line")
            .contains("sitemap_index.xml")
    );
    assert_eq!(report["summary"]["infos"], 1);
    assert_eq!(server.hits("/sitemap.xml").len(), 1, "tried first");
    assert!(findings(&report, &server.url("/s.xml")).is_empty());

    // Neither answers: an error.
    let empty = Server::start(vec![]);
    let (report, code, _) = check(&[&empty.url("/")]);
    assert_eq!(code, 1);
    let robots = findings(&report, &empty.url("/robots.txt"));
    assert!(has(&robots, "http-status", 1), "{robots:?}");
}

#[test]
fn fetch_problems_of_an_argument_are_at_1_1_of_its_report() {
    let server = Server::start(vec![
        ("/gone.xml", vec![Reply::status(500)]),
        ("/moved.xml", vec![Reply::redirect(308, "/s.xml")]),
        ("/s.xml", vec![Reply::xml(urlset(&["/a"]))]),
    ]);
    let (report, code, _) = check(&[&server.url("/gone.xml"), &server.url("/moved.xml")]);
    assert_eq!(code, 1);
    assert_eq!(
        findings(&report, &server.url("/gone.xml")),
        [("http-status".to_owned(), 1)]
    );
    assert_eq!(
        findings(&report, &server.url("/moved.xml")),
        [("http-redirect".to_owned(), 1)]
    );
}

#[test]
fn private_hosts_are_refused_before_connecting() {
    let server = Server::start(vec![("/s.xml", vec![Reply::xml(urlset(&["/a"]))])]);
    let port = server.addr.port();
    for url in [
        server.url("/s.xml"),
        format!("http://localhost:{port}/s.xml"),
        format!("http://[::1]:{port}/s.xml"),
        format!("http://2130706433:{port}/"),
    ] {
        let out = support::run_cmd(support::bin(), &["check", &url], None);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{url}: {}",
            support::stderr(&out)
        );
        assert!(
            support::stderr(&out).contains("--allow-private-hosts"),
            "{}",
            support::stderr(&out)
        );
    }
    // `--robots URL` too.
    let out = support::run_cmd(
        support::bin(),
        &["check", "--robots", &server.url("/robots.txt"), "-"],
        Some(b"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>"),
    );
    assert_eq!(out.status.code(), Some(2), "{}", support::stderr(&out));
    assert!(
        server.log().is_empty(),
        "no connection was made: {:?}",
        server.log()
    );
}

#[test]
fn retry_after_is_honoured_on_429_and_503() {
    let xml = urlset(&["/a"]);
    let server = Server::start(vec![
        (
            "/s.xml",
            vec![
                Reply::status(429).header("Retry-After", "1"),
                Reply::xml(xml.clone()),
            ],
        ),
        (
            "/t.xml",
            vec![
                Reply::status(503).header("Retry-After", "1"),
                Reply::xml(xml),
            ],
        ),
    ]);
    let (report, code, stderr) = check(&[&server.url("/s.xml"), &server.url("/t.xml")]);
    assert_eq!(code, 0, "{stderr}: {report}");
    for path in ["/s.xml", "/t.xml"] {
        let hits = server.hits(path);
        assert_eq!(hits.len(), 2, "{path}: retried once");
        let waited = hits[1].at - hits[0].at;
        assert!(
            waited >= Duration::from_millis(950),
            "{path}: waited {waited:?}"
        );
        eprintln!("politeness: {path} retried after {waited:?} (Retry-After: 1)");
    }
}

#[test]
fn slow_answers_time_out_and_the_run_has_a_time_limit() {
    let server = Server::start(vec![(
        "/slow.xml",
        vec![Reply::xml(urlset(&["/a"])).delayed(Duration::from_secs(4))],
    )]);
    let t = Instant::now();
    let (report, code, _) = check(&["--read-timeout", "1", &server.url("/slow.xml")]);
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    assert_eq!(code, 1);
    assert_eq!(
        findings(&report, &server.url("/slow.xml")),
        [("http-status".to_owned(), 1)]
    );
    assert!(message_of(&report, &server.url("/slow.xml"), "http-status").contains("timed out"));

    let t = Instant::now();
    let (_, code, stderr) = check(&["--timeout", "1", &server.url("/slow.xml")]);
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--timeout"), "{stderr}");
}

#[test]
fn bodies_are_capped_while_downloading_and_after_decompression() {
    let bomb = support::gzip(&vec![b' '; 60 << 20]);
    let server = Server::start(vec![
        (
            "/big.xml",
            vec![Reply {
                status: 200,
                headers: vec![("Content-Type".into(), "application/xml".into())],
                body: Body::Filler(60 << 20),
                delay: Duration::ZERO,
                gzip: 0,
            }],
        ),
        (
            "/bomb.xml",
            vec![Reply::xml(bomb).header("Content-Encoding", "gzip")],
        ),
    ]);
    let (report, code, stderr) = check(&[&server.url("/big.xml"), &server.url("/bomb.xml")]);
    assert_eq!(code, 1, "{stderr}");
    for path in ["/big.xml", "/bomb.xml"] {
        assert_eq!(
            findings(&report, &server.url(path)),
            [("input-too-large".to_owned(), 1)],
            "{path}"
        );
    }
}

/// The politeness figures: `--max-rps` per host between request starts, at most 4 requests
/// and 4 connections open to one host at once, measured by the server.
#[test]
fn page_requests_keep_the_rate_and_connection_limits() {
    let paths: Vec<String> = (0..24).map(|i| format!("/p{i}")).collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let mut routes = vec![("/s.xml", vec![Reply::xml(urlset(&refs))])];
    for p in &refs {
        routes.push((p, vec![html("").delayed(Duration::from_millis(300))]));
    }
    let server = Server::start(routes.clone());
    let (_, code, stderr) = check(&["--check-urls", "--max-rps", "5", &server.url("/s.xml")]);
    assert_eq!(code, 0, "{stderr}");
    let pages: Vec<_> = server
        .log()
        .into_iter()
        .filter(|l| l.path.starts_with("/p"))
        .collect();
    assert_eq!(pages.len(), 24);
    let gaps: Vec<Duration> = pages.windows(2).map(|w| w[1].at - w[0].at).collect();
    let min_gap = gaps.iter().min().copied().unwrap();
    let span = pages.last().unwrap().at - pages[0].at;
    let rate = (pages.len() - 1) as f64 / span.as_secs_f64();
    // The most requests that arrived within any one second.
    let most_in_a_second = pages
        .iter()
        .map(|p| {
            pages
                .iter()
                .filter(|q| q.at >= p.at && q.at - p.at < Duration::from_secs(1))
                .count()
        })
        .max()
        .unwrap();
    eprintln!(
        "politeness: --max-rps 5: {} page requests in {span:?}, {rate:.2} per second, at most \
         {most_in_a_second} within one second, smallest gap {min_gap:?}",
        pages.len()
    );
    // The client spaces the starts 200 ms apart; their arrival at the server jitters (one
    // request delayed on a loaded machine arrives close to the next): one more within a second
    // is that jitter, never a burst.
    assert!(rate <= 5.2, "{rate}");
    assert!(most_in_a_second <= 6, "{most_in_a_second}");

    // A high rate: the connection limit holds.
    let server = Server::start(routes);
    let (_, code, stderr) = check(&["--check-urls", "--max-rps", "1000", &server.url("/s.xml")]);
    assert_eq!(code, 0, "{stderr}");
    let log = server.log();
    let in_flight = log.iter().map(|l| l.in_flight).max().unwrap();
    let connections = log.iter().map(|l| l.connections).max().unwrap();
    eprintln!(
        "politeness: --max-rps 1000, 300 ms pages: at most {in_flight} requests and {connections} connections at once"
    );
    assert!(in_flight <= 4, "{in_flight}");
    assert!(in_flight >= 2, "requests do run side by side: {in_flight}");
    assert!(connections <= 4, "{connections}");
}

#[test]
fn samples_are_deterministic() {
    let paths: Vec<String> = (0..40).map(|i| format!("/p{i}")).collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let run = |seed: &str| {
        let mut routes = vec![("/s.xml", vec![Reply::xml(urlset(&refs))])];
        for p in &refs {
            routes.push((p, vec![html("")]));
        }
        let server = Server::start(routes);
        let args = [
            "--check-urls",
            "--max-rps",
            "1000",
            "--sample",
            "5",
            "--seed",
            seed,
        ];
        let mut all: Vec<&str> = args.to_vec();
        let url = server.url("/s.xml");
        all.push(&url);
        let (_, code, _) = check(&all);
        assert_eq!(code, 0);
        let mut hit: Vec<String> = server
            .log()
            .into_iter()
            .map(|l| l.path)
            .filter(|p| p.starts_with("/p"))
            .collect();
        hit.sort();
        hit
    };
    let a = run("7");
    assert_eq!(a.len(), 5);
    assert_eq!(a, run("7"));
    assert_ne!(a, run("8"));
}

#[test]
fn robots_flag_checks_files_on_disk_offline() {
    let dir = support::TempDir::new("robots-flag");
    let robots = dir.path().join("robots.txt");
    std::fs::write(&robots, "User-agent: *\nDisallow: /drafts/\n").unwrap();
    let sitemap = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
  <url><loc>https://www.example.com/drafts/a</loc></url>\n  <url><loc>https://www.example.com/b</loc></url>\n</urlset>\n";
    let out = support::run_cmd(
        support::bin(),
        &[
            "check",
            "--isolated",
            "--format",
            "concise",
            "--robots",
            robots.to_str().unwrap(),
            "-",
        ],
        Some(sitemap.as_bytes()),
    );
    let text = support::stdout(&out);
    assert_eq!(out.status.code(), Some(0), "a warning: {text}");
    assert!(text.contains("<stdin>:3:11: warning:"), "{text}");
    assert!(text.contains("[robots-blocked]"), "{text}");
    assert_eq!(text.matches("robots-blocked").count(), 1, "{text}");
    let out = support::run_cmd(
        support::bin(),
        &[
            "check",
            "--isolated",
            "--format",
            "json",
            "--robots",
            robots.to_str().unwrap(),
            "-",
        ],
        Some(sitemap.as_bytes()),
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let label = json["files"][0]["diagnostics"][0]["label"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        label.contains("`Disallow: /drafts/`") && label.contains("line 2"),
        "{label}"
    );
}

/// A body served with `Content-Encoding: gzip` that does not decompress (plain text, a
/// truncated stream, garbage): `http-status` where its URL came from (the server's answer
/// cannot be read, as a browser's `ERR_CONTENT_DECODING_FAILED`), never a panic or a hang.
#[test]
fn a_corrupt_content_encoding_is_reported_where_the_url_came_from() {
    let xml = urlset(&["/a"]);
    let gz = support::gzip(xml.as_bytes());
    let truncated = gz[..gz.len() / 2].to_vec();
    let mut garbage = gz;
    garbage[12] ^= 0xff;
    garbage[20] ^= 0xff;
    let ce = |body: Vec<u8>| Reply::xml(body).header("Content-Encoding", "gzip");
    let server = Server::start(vec![
        (
            "/index.xml",
            vec![Reply::xml(index(&["/plain.xml", "/cut.xml", "/ok.xml"]))],
        ),
        ("/plain.xml", vec![ce(xml.clone().into_bytes())]),
        ("/cut.xml", vec![ce(truncated)]),
        (
            "/ok.xml",
            vec![Reply::xml(xml.clone())
                .gzipped(1)
                .header("Content-Encoding", "gzip")],
        ),
        ("/bad.xml", vec![ce(garbage)]),
    ]);
    let t = Instant::now();
    let (report, code, stderr) = check(&[&server.url("/index.xml"), &server.url("/bad.xml")]);
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    assert_eq!(code, 1, "errors, not a crash: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let idx = server.url("/index.xml");
    assert_eq!(
        findings(&report, &idx),
        [("http-status".to_owned(), 3), ("http-status".to_owned(), 4)],
        "at the children's <loc>s"
    );
    assert!(
        message_of(&report, &idx, "http-status").contains("Content-Encoding: gzip"),
        "{report:#}"
    );
    assert_eq!(
        findings(&report, &server.url("/bad.xml")),
        [("http-status".to_owned(), 1)],
        "at 1:1 of the argument's report"
    );
    let ok = findings(&report, &server.url("/ok.xml"));
    assert!(ok.is_empty(), "{ok:?}");
    // A corrupt body is not checked as if it were the sitemap.
    let paths: Vec<&str> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert!(
        !paths.contains(&server.url("/plain.xml").as_str()),
        "{paths:?}"
    );
}

/// `--allow-private-hosts` checks a staging or development server: `loc-private-host` does not
/// report the URLs on the host the sitemap came from, and still reports other private hosts.
#[test]
fn loc_private_host_spares_the_checked_servers_own_host() {
    let sitemap = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n\
  <url><loc>{base}/a</loc><xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"{base}/de/a\"/><xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"{base}/a\"/></url>\n\
  <url><loc>http://localhost:1313/b</loc></url>\n\
  <url><loc>http://10.0.0.5/c</loc><xhtml:link rel=\"alternate\" hreflang=\"fr\" href=\"http://192.168.1.9/fr/c\"/><xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"http://10.0.0.5/c\"/></url>\n\
</urlset>\n";
    let server = Server::start(vec![
        ("/index.xml", vec![Reply::xml(index(&["/s.xml"]))]),
        ("/s.xml", vec![Reply::xml(sitemap)]),
    ]);
    let out = support::run_cmd(
        support::bin(),
        &[
            "check",
            "--format",
            "json",
            "--isolated",
            "--allow-private-hosts",
            "--allow",
            "loc-outside-scope",
            &server.url("/index.xml"),
        ],
        None,
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let private = |path: &str| -> Vec<u64> {
        findings(&report, &server.url(path))
            .into_iter()
            .filter(|(c, _)| c == "loc-private-host")
            .map(|(_, l)| l)
            .collect()
    };
    assert!(private("/index.xml").is_empty(), "{report:#}");
    // Lines 4 and 5: `localhost` and two other private addresses; none on line 3.
    assert_eq!(private("/s.xml"), [4, 5, 5, 5], "{report:#}");
    assert_eq!(out.status.code(), Some(1), "{}", support::stderr(&out));

    // The same file on disk: every private host is reported, the server's own too.
    let dir = support::TempDir::new("own-private-host");
    let file = dir.path().join("s.xml");
    std::fs::write(&file, sitemap.replace("{base}", &server.url(""))).unwrap();
    let out = support::run_cmd(
        support::bin(),
        &[
            "check",
            "--format",
            "concise",
            "--isolated",
            file.to_str().unwrap(),
        ],
        None,
    );
    let text = support::stdout(&out);
    assert_eq!(text.matches("[loc-private-host]").count(), 7, "{text}");
}
