//! Checking a site as served (feature `http`, issue 20): `sitemap-lint check https://…`.
//!
//! An argument that is a site root (`https://example.com/`) reads the site's robots.txt and
//! follows its `Sitemap:` lines; without one, `/sitemap.xml` then `/sitemap_index.xml` are tried
//! (an info finding says so). Any other URL is a sitemap, checked as it stands. An index's
//! children are fetched and checked too (on the threads of [`exec::ordered`], in index order);
//! a child that is itself an index is an error at its `<loc>` and is not followed further.
//!
//! Each fetched file goes through the same stages as a file on disk ([`engine::check_bytes`])
//! once its content coding is undone ([`fetch`]); its report is named by its URL. What went
//! wrong getting a file is reported where its URL came from: at the `<loc>` of the parent index,
//! at the robots.txt `Sitemap:` line, or at 1:1 of the URL's own report for an argument. Reports
//! come out children first, then their index, then the robots.txt that listed them: a parent's
//! report holds its children's fetch findings, so it is complete only after them.
//!
//! With `--check-urls` the pages of each sitemap are requested too ([`pages`]).

use std::collections::HashMap;
use std::io;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::diagnostic::Diagnostic;
use crate::engine;
use crate::exec::{self, HostPace};
use crate::pipeline::fetch::{self, Answer, Failure, Fetcher, Limits, Pace, Want};
use crate::pipeline::model::Kind;
use crate::pipeline::source::SourceFile;
use crate::report::{self, FileReport, Found};
use crate::rule::Gathered;
use crate::rules::http::{
    http_content_type, http_redirect, http_status, robots_sitemap_line, sitemap_is_html, Fetched,
};
use crate::rules::site::index_child;
use crate::site_set::{SetCheck, Site};
use crate::values::html::looks_like_html;
use crate::values::robots::{split_origin, Robots};
use crate::Settings;

mod pages;

/// Children of one index fetched at most (the protocol's limit); more are not followed.
pub const MAX_CHILDREN: usize = 50_000;

/// Connections to one host at most, for every request of a run.
pub const MAX_CONNECTIONS_PER_HOST: usize = 4;

/// Bodies at least this large (content coding undone) are *large*: at most
/// [`LARGE_IN_FLIGHT`] of them are checked at once, as for files on disk.
const LARGE_BODY: usize = 8 << 20;

/// Large bodies checked at once.
const LARGE_IN_FLIGHT: usize = 2;

/// The options of a live run.
#[derive(Debug, Clone)]
pub struct Options {
    pub limits: Limits,
    /// Request the listed pages (`--check-urls`).
    pub check_urls: bool,
    /// Request at most this many pages of each sitemap (`--sample`), chosen by `seed`.
    pub sample: Option<usize>,
    pub seed: u64,
    /// Page requests per second per host at most (`--max-rps`).
    pub max_rps: f64,
    /// Fetched files checked at once (`--jobs`); up to [`MAX_CONNECTIONS_PER_HOST`] are fetched
    /// at once whatever it says, a fetched body waiting for its turn to be checked.
    pub jobs: usize,
}

/// One checked remote file, for the renderer.
#[derive(Debug)]
pub struct Checked {
    pub report: FileReport,
    /// The body was gzip (after the content coding was undone).
    pub compressed: bool,
}

/// What a run could not do, for the exit status.
#[derive(Debug, Default)]
pub struct Outcome {
    /// URLs refused before connecting (private hosts without `--allow-private-hosts`), with why.
    pub refused: Vec<String>,
    /// The whole-run time limit was reached: some fetches were not made.
    pub timed_out: bool,
    /// Remote files checked.
    pub files: usize,
}

/// Where a URL came from: where its fetch problems are reported.
#[derive(Debug, Clone)]
enum Whence {
    /// An argument: at 1:1 of its own report.
    Argument,
    /// A `Sitemap:` line of robots.txt, or a `<loc>` of an index: at this span of that report.
    At(Range<usize>),
}

/// One origin's robots.txt, read once by whichever thread needs it first.
type RobotsCell = Arc<OnceLock<Option<Arc<Robots>>>>;

/// The state of one run, shared by its threads.
pub struct Run<'a> {
    options: &'a Options,
    settings: &'a Settings,
    fetcher: Fetcher,
    /// Every request: at most [`MAX_CONNECTIONS_PER_HOST`] at once per host; pages
    /// (`--check-urls`, through `exec::Rated`) also at most `--max-rps` per host.
    pace: HostPace,
    /// Each origin's robots.txt, fetched once (`None`: none could be read).
    robots: Mutex<HashMap<String, RobotsCell>>,
    refused: Mutex<Vec<String>>,
    progress: &'a (dyn Fn(&str) + Sync),
    /// Checks at once: `--jobs`. Fetching waits on the network and checking on a core, so
    /// more children are fetched at once than checked, and memory follows the checks.
    checks: exec::Permits,
    /// Large bodies checked at once ([`LARGE_BODY`]).
    large: exec::Permits,
    /// Files the run is known to have so far (the arguments and the children of the indexes
    /// read): sizes the set's table of first listings ([`SetCheck::expect_files`]).
    announced: AtomicUsize,
}

/// Checks the URLs given as arguments; each report is handed to `emit` as soon as it is
/// complete. `progress` is told each URL fetched.
pub fn check(
    urls: &[String],
    options: &Options,
    settings: &Settings,
    progress: &(dyn Fn(&str) + Sync),
    emit: &mut dyn FnMut(Checked) -> io::Result<()>,
) -> io::Result<Outcome> {
    let run = Run {
        options,
        settings,
        fetcher: Fetcher::new(options.limits.clone()),
        pace: HostPace::new(Some(options.max_rps), MAX_CONNECTIONS_PER_HOST),
        robots: Mutex::new(HashMap::new()),
        refused: Mutex::new(Vec::new()),
        progress,
        checks: exec::Permits::new(options.jobs.max(1)),
        large: exec::Permits::new(LARGE_IN_FLIGHT),
        announced: AtomicUsize::new(urls.len()),
    };
    let mut files = 0;
    // The fetched sitemaps are one set, as the files of a run on disk are: a URL listed again
    // in a later file is `duplicate-loc` there (reports come out in a fixed order).
    let site = Site::default();
    let mut set = SetCheck::new(&site, Vec::new(), Vec::new());
    let mut counted = |mut c: Checked| {
        files += 1;
        set.expect_files(run.announced.load(Ordering::Relaxed));
        let found = set.fetched(
            c.report.source.name().to_owned(),
            &c.report.site,
            &c.report.source,
            settings,
        );
        if !found.diagnostics.is_empty() || !found.omitted.is_empty() {
            c.report = with_across(c.report, found, settings);
        }
        emit(c)
    };
    for url in urls {
        if is_site_root(url) {
            run.site(url, &mut counted)?;
        } else {
            // An argument's fetch problems go into its own report: none come back.
            run.sitemap(url, Whence::Argument, true, &mut counted)?;
        }
    }
    let refused = std::mem::take(&mut *run.refused.lock().unwrap_or_else(PoisonError::into_inner));
    Ok(Outcome {
        refused,
        timed_out: std::time::Instant::now() >= options.limits.deadline,
        files,
    })
}

/// Whether `url` names a site root: no path beyond `/`, no query.
pub fn is_site_root(url: &str) -> bool {
    match split_origin(url) {
        Some((_, rest)) => rest.is_empty() || rest == "/",
        None => false,
    }
}

impl Run<'_> {
    /// A site root: robots.txt, its sitemaps (or the conventional ones), then robots.txt's report.
    fn site(&self, url: &str, emit: &mut dyn FnMut(Checked) -> io::Result<()>) -> io::Result<()> {
        let Some((origin, _)) = split_origin(url) else {
            return Ok(());
        };
        let robots_url = format!("{origin}/robots.txt");
        let mut findings = Vec::new();
        let mut read = false;
        let text = match self.fetch(&robots_url, Want::Whole, &self.pace) {
            Err(None) => return Ok(()),
            Err(Some(problem)) => {
                findings.push(http_status::unreachable(
                    0..0,
                    Fetched::Robots,
                    &robots_url,
                    &problem,
                ));
                String::new()
            }
            Ok(answer) => {
                if !answer.chain.is_empty() {
                    findings.push(http_redirect::redirected(
                        0..0,
                        Fetched::Robots,
                        &answer.chain,
                        &answer.url,
                    ));
                }
                if answer.status == 200 {
                    read = true;
                    let cap = self.settings.max_size;
                    String::from_utf8_lossy(&answer.into_bytes(cap).data).into_owned()
                } else {
                    findings.push(http_status::status(
                        0..0,
                        Fetched::Robots,
                        &robots_url,
                        answer.status,
                        &answer.reason,
                    ));
                    String::new()
                }
            }
        };
        let robots = Robots::parse(&text, &robots_url, Some(origin.clone()));
        let mut listed = Vec::new();
        for line in &robots.sitemaps {
            let problems = crate::values::uri::check_http_url(&line.value);
            match problems.iter().find(|p| p.kind.is_error()) {
                Some(p) => findings.push(robots_sitemap_line::invalid(
                    line.span.clone(),
                    &line.value,
                    &p.message,
                    &origin,
                )),
                None => listed.push((line.value.clone(), line.span.clone())),
            }
        }
        let none_listed = robots.sitemaps.is_empty();
        // Kept for the sitemaps' `robots-blocked` and the page requests (`None`: not readable).
        let _ = self
            .robots_cell(&origin)
            .set(read.then(|| Arc::new(robots)));
        if none_listed {
            let tried = [
                format!("{origin}/sitemap.xml"),
                format!("{origin}/sitemap_index.xml"),
            ];
            let mut found = None;
            for candidate in &tried {
                if let Ok(answer) = self.fetch(candidate, Want::Head, &self.pace) {
                    if answer.status == 200 {
                        found = Some(candidate.clone());
                        break;
                    }
                }
            }
            findings.push(robots_sitemap_line::none_listed(
                &robots_url,
                &tried,
                found.as_deref(),
            ));
            match found {
                Some(url) => {
                    self.sitemap(&url, Whence::Argument, true, emit)?;
                }
                None => findings.push(
                    http_status::unreachable(
                        0..0,
                        Fetched::Sitemap,
                        &tried[0],
                        "no sitemap was found: robots.txt lists none, and neither conventional URL answered 200",
                    ),
                ),
            }
        }
        let mut seen = std::collections::HashSet::new();
        for (url, span) in listed {
            if !seen.insert(url.clone()) {
                continue;
            }
            findings.extend(self.sitemap(&url, Whence::At(span), true, emit)?);
        }
        let report = engine::report_of(SourceFile::new(&robots_url, text), findings, self.settings);
        emit(Checked {
            report,
            compressed: false,
        })
    }

    /// Fetches and checks the sitemap at `url` (and, when `follow`, an index's children), emits
    /// its report(s), and returns the findings about fetching it, spanned for where it came from
    /// (for an argument they are in its own report and none are returned).
    fn sitemap(
        &self,
        url: &str,
        from: Whence,
        follow: bool,
        emit: &mut dyn FnMut(Checked) -> io::Result<()>,
    ) -> io::Result<Vec<Diagnostic>> {
        let (found, checked) = self.fetch_and_check(url, &from);
        let Some(mut checked) = checked else {
            return Ok(match from {
                Whence::Argument => {
                    let report = engine::report_of(SourceFile::new(url, ""), found, self.settings);
                    emit(Checked {
                        report,
                        compressed: false,
                    })?;
                    Vec::new()
                }
                Whence::At(_) => found,
            });
        };
        if follow && checked.report.site.kind == Kind::Index {
            let children = std::mem::take(&mut checked.report.site.children);
            self.announced
                .fetch_add(children.len().min(MAX_CHILDREN), Ordering::Relaxed);
            let mut extra = self.children(&children, emit)?;
            checked.report.diagnostics.append(&mut extra);
        }
        let report_own = matches!(from, Whence::Argument);
        if report_own {
            checked.report.diagnostics.extend(found.iter().cloned());
        }
        checked.report = resort(checked.report, self.settings);
        emit(checked)?;
        Ok(if report_own { Vec::new() } else { found })
    }

    /// Fetches `url` and checks what came: the findings about fetching it (spanned for `from`)
    /// and, when it could be checked, its report, with its `<loc>`s collected (for the set's
    /// `duplicate-loc` and an index's children). Does not follow an index's children.
    fn fetch_and_check(&self, url: &str, from: &Whence) -> (Vec<Diagnostic>, Option<Checked>) {
        let span = match from {
            Whence::Argument => 0..0,
            Whence::At(span) => span.clone(),
        };
        let mut found = Vec::new();
        let answer = match self.fetch(url, Want::Whole, &self.pace) {
            Ok(answer) => answer,
            Err(None) => return (found, None),
            Err(Some(problem)) => {
                found.push(http_status::unreachable(
                    span,
                    Fetched::Sitemap,
                    url,
                    &problem,
                ));
                return (found, None);
            }
        };
        if !answer.chain.is_empty() {
            found.push(http_redirect::redirected(
                span.clone(),
                Fetched::Sitemap,
                &answer.chain,
                &answer.url,
            ));
        }
        if answer.status != 200 {
            found.push(http_status::status(
                span,
                Fetched::Sitemap,
                url,
                answer.status,
                &answer.reason,
            ));
            return (found, None);
        }
        let declared = answer.content_type.as_deref().map(str::to_ascii_lowercase);
        let served_html = declared
            .as_deref()
            .is_some_and(|t| t.starts_with("text/html"));
        if let Some(coding) = &answer.unknown_coding {
            found.push(http_content_type::encoding(span, url, coding));
            return (found, None);
        }
        if let Some(problem) = &answer.coding_problem {
            found.push(http_status::undecodable(span, url, problem));
            return (found, None);
        }
        if !declared
            .as_deref()
            .is_some_and(http_content_type::acceptable)
        {
            found.push(http_content_type::wrong(
                span.clone(),
                url,
                answer.content_type.as_deref(),
            ));
        }
        let final_url = answer.url.clone();
        let declared_text = declared
            .as_deref()
            .is_some_and(|t| t.starts_with("text/plain"));
        let bytes = answer.into_bytes(self.settings.max_size);
        if looks_like_html(&bytes.data) {
            let by = if served_html {
                " (served as `text/html`)"
            } else {
                ""
            };
            // The content type is this rule's concern, not `http-content-type`'s.
            found.retain(|d| d.rule.name != http_content_type::META.name);
            found.push(sitemap_is_html::html(span, url, by));
            return (found, None);
        }
        let origin = split_origin(&final_url).map(|(o, _)| o);
        let own_private_host = if self.options.limits.allow_private {
            url::Url::parse(&final_url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned))
        } else {
            None
        };
        let settings = Settings {
            own_private_host,
            sitemap_url: Some(final_url),
            collect_set: true,
            collect_pages: self.options.check_urls,
            robots: self
                .settings
                .robots
                .clone()
                .or_else(|| origin.and_then(|o| self.robots_of(&o))),
            ..self.settings.clone()
        };
        let compressed = bytes.gzip;
        let mut report = {
            let _large = (bytes.data.len() >= LARGE_BODY).then(|| self.large.take());
            let _turn = self.checks.take();
            check_fetched(url, bytes, declared_text, &settings)
        };
        if self.options.check_urls && report.site.kind == Kind::UrlSet {
            let pages = std::mem::take(&mut report.site.pages);
            let mut page_findings = pages::check(self, &pages);
            report.diagnostics.append(&mut page_findings);
        }
        (found, Some(Checked { report, compressed }))
    }

    /// An index's children: fetched on [`MAX_CONNECTIONS_PER_HOST`] threads (or `--jobs`, if
    /// more), checked at most `--jobs` at once, their reports emitted in order; returns the
    /// findings for the index (fetch problems, nested indexes).
    fn children(
        &self,
        children: &[(String, Range<usize>)],
        emit: &mut dyn FnMut(Checked) -> io::Result<()>,
    ) -> io::Result<Vec<Diagnostic>> {
        let children = &children[..children.len().min(MAX_CHILDREN)];
        let mut for_index = Vec::new();
        let jobs = self.options.jobs.max(MAX_CONNECTIONS_PER_HOST);
        exec::ordered(
            children.len(),
            jobs,
            |i| {
                let (url, span) = &children[i];
                Ok(self.fetch_and_check(url, &Whence::At(span.clone())))
            },
            |r| match r {
                Ok((_, Some(c))) => c.report.source.text().len(),
                _ => 0,
            },
            |i, result| {
                let (found, checked) = result?;
                for_index.extend(found);
                if let Some(checked) = checked {
                    if checked.report.site.kind == Kind::Index {
                        let (url, span) = &children[i];
                        for_index.push(index_child::nested(span.clone(), url));
                    }
                    emit(Checked {
                        report: resort(checked.report, self.settings),
                        compressed: checked.compressed,
                    })?;
                }
                Ok(())
            },
        )?;
        Ok(for_index)
    }

    /// Fetches `url`; `Err(None)` when it was refused (recorded for the exit status),
    /// `Err(Some(problem))` when it failed.
    fn fetch(&self, url: &str, want: Want, pace: &dyn Pace) -> Result<Answer, Option<String>> {
        let result = self.fetcher.fetch(url, want, pace);
        (self.progress)(url);
        match result {
            Ok(answer) => Ok(answer),
            Err(Failure::Refused { url, reason }) => {
                self.refused
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(format!("refused `{url}`: {reason}"));
                Err(None)
            }
            Err(Failure::Failed { problem, .. }) => Err(Some(problem)),
        }
    }

    fn robots_cell(&self, origin: &str) -> RobotsCell {
        self.robots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(origin.to_owned())
            .or_default()
            .clone()
    }

    /// The robots.txt of `origin`, fetched once per run (`None` when it could not be read: then
    /// nothing is disallowed).
    fn robots_of(&self, origin: &str) -> Option<Arc<Robots>> {
        let cell = self.robots_cell(origin);
        cell.get_or_init(|| {
            let url = format!("{origin}/robots.txt");
            let answer = self.fetch(&url, Want::Whole, &self.pace).ok()?;
            if answer.status != 200 {
                return None;
            }
            let bytes = answer.into_bytes(self.settings.max_size);
            let text = String::from_utf8_lossy(&bytes.data);
            Some(Arc::new(Robots::parse(
                &text,
                &url,
                Some(origin.to_owned()),
            )))
        })
        .clone()
    }
}

/// Checks fetched bytes: a body that is not XML and is named `*.txt`/`*.txt.gz` or was served
/// as `text/plain` (`declared_text`) is a text sitemap, one URL per line (see
/// [`engine::check_input`]); anything else goes through the XML checks like a file on disk.
fn check_fetched(
    name: &str,
    bytes: crate::pipeline::input::Bytes,
    declared_text: bool,
    settings: &Settings,
) -> FileReport {
    engine::check_input(
        name,
        bytes,
        settings,
        engine::InputOptions { declared_text },
    )
}

/// `report` (finalized) with the findings across files `across` finalized into it.
fn with_across(report: FileReport, across: Gathered, settings: &Settings) -> FileReport {
    let FileReport {
        source,
        diagnostics,
        omitted,
        site,
    } = report;
    let found = Found {
        source,
        diagnostics,
        omitted: omitted.iter().map(|o| (o.rule, o.count)).collect(),
        suppressions: None,
        site,
    };
    report::finalize(found, across, settings, false)
}

/// The report with findings added after the engine made it: severities applied, sorted again.
fn resort(report: FileReport, settings: &Settings) -> FileReport {
    with_across(report, Gathered::default(), settings)
}

/// The fetch stage's limits, for a run that ends at `deadline`.
pub fn limits(
    connect: std::time::Duration,
    read: std::time::Duration,
    deadline: std::time::Instant,
    max_size: u64,
    allow_private: bool,
) -> Limits {
    Limits {
        connect_timeout: connect,
        read_timeout: read,
        deadline,
        max_size,
        allow_private,
    }
}

pub use fetch::user_agent;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::fetch::stand_ins;
    use std::io::{BufRead, BufReader, Write};
    use std::net::{SocketAddr, TcpListener, TcpStream};
    use std::time::{Duration, Instant};

    /// Stops the server of [`serve`] when the client is done, even when it panicked.
    struct Stop(SocketAddr);

    impl Drop for Stop {
        fn drop(&mut self) {
            if let Ok(mut s) = TcpStream::connect(self.0) {
                let _ = s.write_all(b"GET /stop HTTP/1.1\r\n\r\n");
            }
        }
    }

    /// Serves `routes` (path → status, `Location`, body; anything else 404) on loopback, one
    /// request per connection, standing in for a public host, while `client(base)` runs;
    /// returns what `client` returned and the paths requested.
    fn serve<T: Send>(
        routes: &[(&str, u16, &str, &str)],
        client: impl Fn(&str) -> T + Sync,
    ) -> (T, Vec<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        stand_ins::add(addr);
        let base = format!("http://{addr}");
        let out = Mutex::new(None);
        let log = Mutex::new(Vec::new());
        let served = exec::all(vec![true, false], 2, |server| {
            if !server {
                let _stop = Stop(addr);
                *out.lock().unwrap() = Some(client(&base));
                return true;
            }
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let mut line = String::new();
                let _ = BufReader::new(&stream).read_line(&mut line);
                let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
                if path == "/stop" {
                    return true;
                }
                log.lock().unwrap().push(path.clone());
                let (status, location, body) = routes
                    .iter()
                    .find(|r| r.0 == path)
                    .map_or((404, "", ""), |r| (r.1, r.2, r.3));
                let body = body.replace("{base}", &base);
                let location = location
                    .replace("{base}", &base)
                    .replace("{port}", &addr.port().to_string());
                let mut head = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/xml\r\nContent-Length: {}\r\nConnection: close\r\n",
                    body.len()
                );
                if !location.is_empty() {
                    head.push_str(&format!("Location: {location}\r\n"));
                }
                let _ = stream.write_all(format!("{head}\r\n{body}").as_bytes());
            }
            true
        });
        assert!(served);
        let out = out.into_inner().unwrap().expect("the client ran");
        (out, log.into_inner().unwrap())
    }

    const URLSET: &str = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://www.example.com/</loc></url></urlset>";

    fn limits() -> Limits {
        super::limits(
            Duration::from_secs(2),
            Duration::from_secs(5),
            Instant::now() + Duration::from_secs(30),
            crate::pipeline::input::MAX_UNCOMPRESSED,
            false,
        )
    }

    /// A public host that redirects to a private address: refused before connecting, for an
    /// argument and for an index's child, and the run says so (the CLI exits 2).
    #[test]
    fn a_redirect_from_a_public_host_to_a_private_address_is_refused() {
        let index = "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
                     <sitemap><loc>{base}/s.xml</loc></sitemap>\
                     <sitemap><loc>{base}/to-private</loc></sitemap></sitemapindex>";
        let routes = [
            ("/s.xml", 200, "", URLSET),
            ("/index.xml", 200, "", index),
            ("/to-private", 302, "http://10.1.2.3/sitemap.xml", ""),
            (
                "/to-metadata",
                301,
                "http://169.254.169.254/latest/meta-data/",
                "",
            ),
            ("/to-loopback", 307, "http://127.0.0.2:{port}/s.xml", ""),
            ("/to-v6", 308, "http://[::1]:{port}/s.xml", ""),
        ];
        let ((direct, outcome, reports), log) = serve(&routes, |base| {
            let fetcher = Fetcher::new(limits());
            let direct: Vec<_> = [
                "/s.xml",
                "/to-private",
                "/to-metadata",
                "/to-loopback",
                "/to-v6",
            ]
            .iter()
            .map(|p| fetcher.fetch(&format!("{base}{p}"), Want::Whole, &fetch::Unpaced))
            .collect();
            let options = Options {
                limits: limits(),
                check_urls: false,
                sample: None,
                seed: 0,
                max_rps: 5.0,
                jobs: 1,
            };
            let mut reports = Vec::new();
            let outcome = check(
                &[format!("{base}/index.xml"), format!("{base}/to-v6")],
                &options,
                &Settings::default(),
                &|_| {},
                &mut |c| {
                    reports.push(c.report);
                    Ok(())
                },
            )
            .unwrap();
            (direct, outcome, reports)
        });
        // The stand-in for a public host answers.
        assert!(
            matches!(&direct[0], Ok(a) if a.status == 200),
            "{:?}",
            direct[0]
        );
        for (result, target) in direct[1..].iter().zip([
            "http://10.1.2.3/sitemap.xml",
            "http://169.254.169.254/latest/meta-data/",
            "http://127.0.0.2:",
            "http://[::1]:",
        ]) {
            match result {
                Err(Failure::Refused { url, reason }) => {
                    assert!(url.starts_with(target), "{url}");
                    assert!(reason.contains("--allow-private-hosts"), "{reason}");
                }
                other => panic!("{target}: not refused: {other:?}"),
            }
        }
        // The run: the child and the argument that redirect are refused, the rest is checked.
        assert_eq!(outcome.refused.len(), 2, "{:?}", outcome.refused);
        assert!(
            outcome.refused[0].contains("10.1.2.3"),
            "{:?}",
            outcome.refused
        );
        assert!(
            outcome.refused[1].contains("[::1]"),
            "{:?}",
            outcome.refused
        );
        let names: Vec<&str> = reports.iter().map(|r| r.source.name()).collect();
        assert!(names.iter().any(|n| n.ends_with("/s.xml")), "{names:?}");
        // Nothing was requested of the private addresses (the stand-in is the only server).
        assert!(
            log.iter()
                .all(|p| !p.contains("meta-data") && p != "/sitemap.xml"),
            "{log:?}"
        );
    }
}
