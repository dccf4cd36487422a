//! The flags of live checks (`check https://…`, `--robots`, `--check-urls`) and their run: the
//! library's `live` module does the work; this file parses, loads `--robots`, draws progress on
//! a terminal and turns refusals and the time limit into exit-2 messages.

use std::io;
#[cfg(feature = "http")]
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
#[cfg(feature = "http")]
use std::time::Duration;

use sitemap_lint::pipeline::files;
use sitemap_lint::render;
use sitemap_lint::values::robots::{split_origin, Robots};
use sitemap_lint::Settings;

#[derive(clap::Args, Debug)]
pub struct LiveArgs {
    /// Check every `<loc>` against this robots.txt (a file, or an http(s) URL fetched once):
    /// `robots-blocked`, for a build folder before deployment. Live checks use the site's own
    #[arg(long, value_name = "PATH|URL")]
    pub robots: Option<String>,
    /// With http(s) arguments: also request the pages the sitemaps list (`url-status`,
    /// `url-noindex`, `url-canonical`), never one robots.txt disallows
    #[arg(long)]
    pub check_urls: bool,
    /// With --check-urls: request N pages of each sitemap, chosen by --seed
    #[arg(long, value_name = "N", requires = "check_urls")]
    pub sample: Option<usize>,
    /// With --sample: the seed of the choice (the same seed picks the same pages)
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    pub seed: u64,
    /// With --check-urls: page requests per second per host at most
    #[arg(long, value_name = "R", default_value_t = 5.0, value_parser = parse_rps)]
    pub max_rps: f64,
    /// Fetch hosts that resolve to loopback, private, link-local or unspecified addresses
    /// (refused by default, redirects too: for CI jobs that check URLs they are given)
    #[arg(long)]
    pub allow_private_hosts: bool,
    /// Seconds to wait for a connection
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = parse_secs)]
    pub connect_timeout: u64,
    /// Seconds to wait for an answer, or for the next bytes of a body
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = parse_secs)]
    pub read_timeout: u64,
    /// Seconds the fetching of a whole run may take; fetches after that fail (exit 2)
    #[arg(long, value_name = "SECS", default_value_t = 600, value_parser = parse_secs)]
    pub timeout: u64,
}

fn parse_rps(value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(r) if r.is_finite() && r > 0.0 && r <= 1_000.0 => Ok(r),
        _ => Err(
            "expected requests per second, more than 0 and at most 1000 (e.g. `2` or `0.5`)".into(),
        ),
    }
}

fn parse_secs(value: &str) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(s) if (1..=86_400).contains(&s) => Ok(s),
        _ => Err("expected a number of seconds from 1 to 86400".into()),
    }
}

/// Whether a command-line argument is a URL to fetch.
pub fn is_url(arg: &Path) -> bool {
    arg.to_str().is_some_and(|s| {
        let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
        lower.starts_with("http://") || lower.starts_with("https://")
    })
}

/// Splits the arguments into URLs and paths.
pub fn split(args: Vec<PathBuf>) -> (Vec<String>, Vec<PathBuf>) {
    let (urls, paths): (Vec<PathBuf>, Vec<PathBuf>) = args.into_iter().partition(|p| is_url(p));
    let urls = urls
        .into_iter()
        .filter_map(|p| p.to_str().map(str::to_owned))
        .collect();
    (urls, paths)
}

impl LiveArgs {
    /// The robots.txt of `--robots`, or the message to exit 2 with.
    pub fn load_robots(&self, settings: &Settings) -> Result<Option<Arc<Robots>>, String> {
        let Some(given) = &self.robots else {
            return Ok(None);
        };
        if is_url(Path::new(given)) {
            return self.fetch_robots(given, settings).map(Some);
        }
        let path = Path::new(given);
        let read = files::open_input(path).and_then(|(file, meta)| {
            sitemap_lint::pipeline::input::load_file(&file, settings.max_size, meta.len(), 1)
        });
        match read {
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes.data);
                Ok(Some(Arc::new(Robots::parse(&text, given, None))))
            }
            Err(e) => Err(format!(
                "cannot read --robots `{}`: {}",
                render::visible(given),
                files::describe_io(&e)
            )),
        }
    }

    #[cfg(feature = "http")]
    fn fetch_robots(&self, url: &str, settings: &Settings) -> Result<Arc<Robots>, String> {
        use sitemap_lint::pipeline::fetch::{Failure, Fetcher, Unpaced, Want};
        let fetcher = Fetcher::new(self.limits(settings));
        let shown = render::visible(url);
        match fetcher.fetch(url, Want::Whole, &Unpaced) {
            Ok(answer) if answer.status == 200 => {
                let url = answer.url.clone();
                let bytes = answer.into_bytes(settings.max_size);
                let text = String::from_utf8_lossy(&bytes.data);
                let origin = split_origin(&url).map(|(o, _)| o);
                Ok(Arc::new(Robots::parse(&text, &url, origin)))
            }
            Ok(answer) => Err(format!(
                "--robots `{shown}` answered {} {}",
                answer.status, answer.reason
            )),
            Err(Failure::Refused { reason, .. }) => Err(format!(
                "--robots `{shown}` refused: {}",
                render::visible(&reason)
            )),
            Err(Failure::Failed { problem, .. }) => Err(format!(
                "cannot fetch --robots `{shown}`: {}",
                render::visible(&problem)
            )),
        }
    }

    #[cfg(not(feature = "http"))]
    fn fetch_robots(&self, url: &str, _: &Settings) -> Result<Arc<Robots>, String> {
        let _ = split_origin(url);
        Err(format!(
            "--robots `{}` is a URL, and this sitemap-lint was built without HTTP (the `http` feature)",
            render::visible(url)
        ))
    }

    #[cfg(feature = "http")]
    fn limits(&self, settings: &Settings) -> sitemap_lint::pipeline::fetch::Limits {
        sitemap_lint::live::limits(
            Duration::from_secs(self.connect_timeout),
            Duration::from_secs(self.read_timeout),
            std::time::Instant::now() + Duration::from_secs(self.timeout),
            settings.max_size,
            self.allow_private_hosts,
        )
    }
}

/// What the live part of a run leaves for the exit status.
#[derive(Debug, Default)]
pub struct LiveEnd {
    /// Problems to report on stderr, each making the run exit 2.
    pub troubles: Vec<String>,
}

/// Checks the URL arguments, handing each report to `emit`.
#[cfg(feature = "http")]
pub fn run(
    urls: &[String],
    args: &LiveArgs,
    settings: &Settings,
    jobs: usize,
    emit: &mut dyn FnMut(sitemap_lint::FileReport, bool) -> io::Result<()>,
) -> io::Result<LiveEnd> {
    use sitemap_lint::live;
    let options = live::Options {
        limits: args.limits(settings),
        check_urls: args.check_urls,
        sample: args.sample,
        seed: args.seed,
        max_rps: args.max_rps,
        jobs,
    };
    let bar = io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {pos} fetched {wide_msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    });
    let progress = |url: &str| {
        if let Some(bar) = &bar {
            bar.inc(1);
            bar.set_message(render::visible(url).into_owned());
        }
    };
    let outcome = live::check(
        urls,
        &options,
        settings,
        &progress,
        &mut |c: live::Checked| {
            if let Some(bar) = &bar {
                bar.suspend(|| emit(c.report, c.compressed))
            } else {
                emit(c.report, c.compressed)
            }
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let outcome = outcome?;
    let mut end = LiveEnd::default();
    for refused in &outcome.refused {
        end.troubles.push(refused.clone());
    }
    if outcome.timed_out {
        end.troubles.push(format!(
            "the run reached its time limit (--timeout {}s): the fetches left were not made",
            args.timeout
        ));
    }
    Ok(end)
}

#[cfg(not(feature = "http"))]
pub fn run(
    urls: &[String],
    _: &LiveArgs,
    _: &Settings,
    _: usize,
    _: &mut dyn FnMut(sitemap_lint::FileReport, bool) -> io::Result<()>,
) -> io::Result<LiveEnd> {
    Ok(LiveEnd {
        troubles: urls
            .iter()
            .map(|u| {
                format!(
                    "cannot check `{}`: this sitemap-lint was built without HTTP (the `http` feature)",
                    render::visible(u)
                )
            })
            .collect(),
    })
}
