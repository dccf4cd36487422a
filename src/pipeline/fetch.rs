//! The HTTP input stage (feature `http`): fetches one URL with the limits of a live check and
//! returns what the later stages need, the body's bytes (content coding undone once) and what
//! the answer says about getting them (status, redirect chain, types), for the live check to turn
//! into findings.
//!
//! - ureq with rustls, no automatic decompression (the `gzip` feature is off: a gzip file served
//!   with `Content-Encoding: gzip` stays visible as such), no cookies, no proxy from the
//!   environment, no credentials (a URL's user and password are dropped before the request);
//! - redirects are followed here, at most [`MAX_REDIRECTS`], so that the chain can be reported
//!   and every hop goes through the same checks;
//! - the body is capped while downloading and after the content coding is undone (the caller's
//!   `max_size`, 50 MiB by default); a page read for `--check-urls` only up to its head;
//! - without `allow_private`, a host resolving to a loopback, private, link-local or
//!   unspecified address is refused by the resolver itself, before any connection, for the URL
//!   and every redirect (checked on the addresses the connection would use, so a name that
//!   resolves differently the second time cannot slip through);
//! - `429` and `503` with `Retry-After` pause the host ([`Pace::pause`]) and are retried;
//! - every failure is a value ([`Failure`]), never a panic.

use std::fmt;
use std::io::{self, Read};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

use crate::pipeline::input;
use crate::values::host::private_ip;

/// Redirects followed at most; one more is a failure.
pub const MAX_REDIRECTS: usize = 5;

/// Waits for `Retry-After` of at most this long; a longer one is reported, not waited for.
pub const MAX_RETRY_WAIT: Duration = Duration::from_secs(60);

/// Retries after a 429 or 503 with `Retry-After`.
const RETRIES: usize = 2;

/// The User-Agent of every request: `sitemap-lint/<version> (+<repository>)`.
pub fn user_agent() -> String {
    format!(
        "sitemap-lint/{} (+{})",
        env!("CARGO_PKG_VERSION"),
        env!("CARGO_PKG_REPOSITORY")
    )
}

/// The limits of one run.
#[derive(Debug, Clone)]
pub struct Limits {
    pub connect_timeout: Duration,
    /// The longest wait for the answer or for the next bytes of its body.
    pub read_timeout: Duration,
    /// When the whole run must end: a request still running then fails.
    pub deadline: Instant,
    /// The cap on a body, while downloading and after its content coding is undone.
    pub max_size: u64,
    /// Whether hosts on loopback, private, link-local or unspecified addresses may be fetched.
    pub allow_private: bool,
}

/// How much of a body to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// All of it, within [`Limits::max_size`] (a robots.txt or sitemap).
    Whole,
    /// Enough for the head of an HTML page ([`crate::values::html::HEAD_SCAN`]).
    Head,
}

/// Politeness per host, kept by the caller's executor (`crate::exec::HostPace`): [`Pace::enter`]
/// waits for a request slot of a host (rate and connections), [`Pace::leave`] returns it,
/// [`Pace::pause`] holds every request to the host back for a while (`Retry-After`).
pub trait Pace: Sync {
    fn enter(&self, origin: &str);
    fn leave(&self, origin: &str);
    fn pause(&self, origin: &str, wait: Duration);
}

/// No politeness beyond the connection pool: for fetches that are not paced.
pub struct Unpaced;

impl Pace for Unpaced {
    fn enter(&self, _: &str) {}
    fn leave(&self, _: &str) {}
    fn pause(&self, _: &str, _: Duration) {}
}

/// A fetched answer (the last of the redirect chain).
#[derive(Debug, Default)]
pub struct Answer {
    /// Each URL that redirected, with its status, in order.
    pub chain: Vec<(String, u16)>,
    /// The URL that gave this answer.
    pub url: String,
    pub status: u16,
    pub reason: String,
    pub content_type: Option<String>,
    /// A `Content-Encoding` other than `gzip` or `identity` (the body is then left as served).
    pub unknown_coding: Option<String>,
    /// The `X-Robots-Tag` header values.
    pub robots_tags: Vec<String>,
    /// The `Link` header values.
    pub links: Vec<String>,
    /// `Retry-After`, when the last answer was 429 or 503 and gave one.
    pub retry_after: Option<Duration>,
    /// The body, content coding undone; at most the cap (see `too_large`).
    pub body: Vec<u8>,
    /// The body (served, or decoded) is larger than the cap: it is incomplete.
    pub too_large: bool,
    /// The `Content-Encoding: gzip` layer is corrupt: what went wrong.
    pub coding_problem: Option<String>,
}

impl Answer {
    /// The body as the input stage's bytes (file-level gzip undone, caps applied), ready for
    /// the engine.
    pub fn into_bytes(self, cap: u64) -> input::Bytes {
        if self.too_large {
            return input::Bytes {
                data: Vec::new(),
                gzip: false,
                raw_len: 0,
                too_large: true,
                gzip_problem: None,
            };
        }
        input::decode(self.body, cap)
    }
}

/// Why a URL could not be fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Refused before connecting: the host resolves to a private address (or the URL cannot be
    /// requested at all). `--allow-private-hosts` allows the former.
    Refused { url: String, reason: String },
    /// No answer: `problem` says why; `chain` holds the redirects followed before.
    Failed {
        url: String,
        chain: Vec<(String, u16)>,
        problem: String,
    },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Refused { url, reason } => write!(f, "refused `{url}`: {reason}"),
            Failure::Failed { url, problem, .. } => write!(f, "`{url}`: {problem}"),
        }
    }
}

/// The marker error the guarded resolver returns for a private address.
#[derive(Debug)]
struct PrivateAddress(String);

impl fmt::Display for PrivateAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PrivateAddress {}

/// The system resolver, refusing private addresses unless allowed (see the module docs).
#[derive(Debug)]
struct GuardedResolver {
    allow_private: bool,
}

impl Resolver for GuardedResolver {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let addrs = DefaultResolver::default().resolve(uri, config, timeout)?;
        if !self.allow_private {
            let host = uri.host().unwrap_or("");
            if let Some((addr, why)) = addrs
                .iter()
                .filter(|a| !stand_ins::is_public(a))
                .find_map(|a: &SocketAddr| private_ip(a.ip()).map(|why| (a.ip(), why)))
            {
                return Err(ureq::Error::Io(io::Error::other(PrivateAddress(format!(
                    "`{host}` resolves to {addr}: {} (--allow-private-hosts allows it)",
                    why.trim_start_matches("it is ")
                )))));
            }
        }
        Ok(addrs)
    }
}

/// One run's HTTP client.
pub struct Fetcher {
    agent: ureq::Agent,
    pub limits: Limits,
}

impl Fetcher {
    pub fn new(limits: Limits) -> Fetcher {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .proxy(None)
            .user_agent(user_agent())
            .timeout_connect(Some(limits.connect_timeout))
            .timeout_recv_response(Some(limits.read_timeout))
            .timeout_per_read(Some(limits.read_timeout))
            // At most 4 connections per host are used at once (`crate::exec::Pace`).
            .max_idle_connections_per_host(4)
            .build();
        let agent = ureq::Agent::with_parts(
            config,
            DefaultConnector::default(),
            GuardedResolver {
                allow_private: limits.allow_private,
            },
        );
        Fetcher { agent, limits }
    }

    /// Fetches `url`, following redirects, each request paced by `pace`.
    pub fn fetch(&self, url: &str, want: Want, pace: &dyn Pace) -> Result<Answer, Failure> {
        let mut chain: Vec<(String, u16)> = Vec::new();
        let mut current = clean_url(url)?;
        let mut retries = 0;
        loop {
            let failed = |problem: String, chain: &[(String, u16)]| Failure::Failed {
                url: url.to_owned(),
                chain: chain.to_vec(),
                problem,
            };
            // Politeness is per host (whatever the scheme or port).
            let origin = current.host_str().unwrap_or_default().to_ascii_lowercase();
            pace.enter(&origin);
            let result = self.request(current.as_str(), want);
            pace.leave(&origin);
            let Hop { answer, location } = match result {
                Ok(hop) => hop,
                Err(Err(refused)) => {
                    return Err(Failure::Refused {
                        url: current.to_string(),
                        reason: refused,
                    })
                }
                Err(Ok(problem)) => return Err(failed(problem, &chain)),
            };
            let status = answer.status;
            if matches!(status, 429 | 503) && retries < RETRIES {
                if let Some(wait) = answer.retry_after.filter(|w| *w <= MAX_RETRY_WAIT) {
                    if Instant::now() + wait < self.limits.deadline {
                        retries += 1;
                        pace.pause(&origin, wait);
                        continue;
                    }
                }
            }
            let redirect = (300..400).contains(&status) && status != 304;
            let Some(location) = location.filter(|_| redirect) else {
                // Not a redirect (or one without a Location): the answer as it is.
                return Ok(Answer { chain, ..answer });
            };
            chain.push((current.to_string(), status));
            let next = match current.join(&location) {
                Ok(next) => next,
                Err(e) => {
                    return Err(failed(
                        format!("redirect to an invalid URL `{location}` ({e})"),
                        &chain,
                    ))
                }
            };
            if !matches!(next.scheme(), "http" | "https") {
                return Err(failed(
                    format!("redirect to a non-HTTP URL `{next}`"),
                    &chain,
                ));
            }
            let next = clean_url(next.as_str())?;
            if chain.iter().any(|(u, _)| u == next.as_str()) {
                let hops = chain_text(&chain, next.as_str());
                return Err(failed(format!("redirect loop: {hops}"), &chain));
            }
            if chain.len() > MAX_REDIRECTS {
                let hops = chain_text(&chain, next.as_str());
                return Err(failed(
                    format!("more than {MAX_REDIRECTS} redirects: {hops}"),
                    &chain,
                ));
            }
            current = next;
            retries = 0;
        }
    }

    /// One request. `Err(Err(reason))`: refused (private address); `Err(Ok(problem))`: failed.
    fn request(&self, url: &str, want: Want) -> Result<Hop, Result<String, String>> {
        let left = self
            .limits
            .deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| Ok("the run's time limit (--timeout) was reached".to_owned()))?;
        let response = self
            .agent
            .get(url)
            .header("Accept-Encoding", "gzip")
            .config()
            .timeout_global(Some(left))
            .build()
            .call()
            .map_err(|e| describe(&e, &self.limits))?;
        let status = response.status().as_u16();
        let reason = response
            .status()
            .canonical_reason()
            .unwrap_or("")
            .to_owned();
        let headers = response.headers();
        let one = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let all = |name: &str| {
            headers
                .get_all(name)
                .iter()
                .filter_map(|v| v.to_str().ok().map(str::to_owned))
                .collect::<Vec<_>>()
        };
        let location = one("location");
        let content_type = one("content-type");
        let coding = one("content-encoding").map(|c| c.trim().to_ascii_lowercase());
        let retry_after = one("retry-after").and_then(|v| retry_after(&v));
        let robots_tags = all("x-robots-tag");
        let links = all("link");
        let mut answer = Answer {
            url: url.to_owned(),
            status,
            reason,
            content_type,
            robots_tags,
            links,
            retry_after,
            ..Answer::default()
        };
        let redirect = (300..400).contains(&status) && status != 304;
        if redirect || matches!(status, 429 | 503) || !(200..300).contains(&status) {
            // The body of an error or a redirect is not read: the connection is dropped.
            return Ok(Hop { answer, location });
        }
        let cap = match want {
            Want::Whole => self.limits.max_size,
            Want::Head => crate::values::html::HEAD_SCAN as u64,
        };
        let mut raw = Vec::new();
        let reader = response.into_body().into_reader();
        if let Err(e) = reader.take(cap.saturating_add(1)).read_to_end(&mut raw) {
            return Err(Ok(describe_io(&e, &self.limits)));
        }
        let over = raw.len() as u64 > cap;
        match coding.as_deref() {
            None | Some("identity" | "") => {
                answer.too_large = over && want == Want::Whole;
                raw.truncate(cap as usize);
                answer.body = raw;
            }
            Some("gzip" | "x-gzip") => {
                if over && want == Want::Whole {
                    answer.too_large = true;
                } else if !raw.is_empty() && !raw.starts_with(&[0x1f, 0x8b]) {
                    // Sent as is under a gzip header: a client that trusts the header fails.
                    answer.coding_problem = Some("the body is not gzip data".into());
                } else {
                    let decoded = input::decode(raw, cap);
                    answer.too_large = decoded.too_large && want == Want::Whole;
                    answer.coding_problem = decoded.gzip_problem.map(|p| describe_gzip(&p));
                    answer.body = decoded.data;
                }
            }
            Some(other) => answer.unknown_coding = Some(other.to_owned()),
        }
        Ok(Hop { answer, location })
    }
}

/// What is wrong with a `Content-Encoding: gzip` layer, in words.
fn describe_gzip(problem: &input::GzipProblem) -> String {
    match problem {
        input::GzipProblem::Truncated => "the gzip data ends before its end".into(),
        input::GzipProblem::Checksum => "the gzip checksum does not match the data".into(),
        input::GzipProblem::Corrupt(e) => format!("the gzip data is corrupt ({e})"),
        input::GzipProblem::TrailingGarbage { bytes } => {
            format!("{bytes} bytes that are not gzip data follow the gzip data")
        }
    }
}

/// One answer and where it redirects.
struct Hop {
    answer: Answer,
    location: Option<String>,
}

/// `url` parsed, without user and password (never sent), or why it cannot be requested.
fn clean_url(url: &str) -> Result<url::Url, Failure> {
    let refused = |reason: String| Failure::Refused {
        url: url.to_owned(),
        reason,
    };
    let mut parsed = url::Url::parse(url).map_err(|e| refused(format!("not a URL ({e})")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(refused("only http and https URLs are fetched".into()));
    }
    if parsed.host().is_none() {
        return Err(refused("the URL has no host".into()));
    }
    let _ = parsed.set_username("");
    let _ = parsed.set_password(None);
    parsed.set_fragment(None);
    Ok(parsed)
}

fn chain_text(chain: &[(String, u16)], last: &str) -> String {
    let mut out = String::new();
    for (url, status) in chain {
        out.push_str(&format!("{url} → {status} → "));
    }
    out.push_str(last);
    out
}

/// `Retry-After`: seconds, or an HTTP date.
fn retry_after(value: &str) -> Option<Duration> {
    let v = value.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let now = chrono::Utc::now();
    let secs = (when.with_timezone(&chrono::Utc) - now).num_seconds();
    Some(Duration::from_secs(u64::try_from(secs).unwrap_or(0)))
}

/// What a failed request means: `Err(reason)` when the guarded resolver refused it.
fn describe(e: &ureq::Error, limits: &Limits) -> Result<String, String> {
    match e {
        ureq::Error::Io(io) => {
            if let Some(p) = io
                .get_ref()
                .and_then(|r| r.downcast_ref::<PrivateAddress>())
            {
                return Err(p.0.clone());
            }
            Ok(describe_io(io, limits))
        }
        ureq::Error::Timeout(which) => Ok(format!(
            "timed out ({which}; --connect-timeout {}s, --read-timeout {}s)",
            limits.connect_timeout.as_secs(),
            limits.read_timeout.as_secs()
        )),
        ureq::Error::HostNotFound => Ok("the host was not found (DNS)".into()),
        ureq::Error::ConnectionFailed => Ok("the connection failed".into()),
        other => Ok(other.to_string()),
    }
}

fn describe_io(e: &io::Error, limits: &Limits) -> String {
    match e.kind() {
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => format!(
            "timed out while reading (--read-timeout {}s)",
            limits.read_timeout.as_secs()
        ),
        io::ErrorKind::ConnectionRefused => "the connection was refused".into(),
        io::ErrorKind::ConnectionReset => "the connection was reset".into(),
        io::ErrorKind::UnexpectedEof => "the connection closed before the body ended".into(),
        _ => e.to_string(),
    }
}

// The executor's per-host pace (see `exec::HostPace`) paces the live check's requests: sitemaps
// and robots.txt unrated, pages rated.
impl Pace for crate::exec::HostPace {
    fn enter(&self, origin: &str) {
        self.enter_with(origin, false);
    }

    fn leave(&self, origin: &str) {
        self.leave_origin(origin);
    }

    fn pause(&self, origin: &str, wait: std::time::Duration) {
        self.pause_origin(origin, wait);
    }
}

impl Pace for crate::exec::Rated<'_> {
    fn enter(&self, origin: &str) {
        self.0.enter_with(origin, true);
    }

    fn leave(&self, origin: &str) {
        self.0.leave_origin(origin);
    }

    fn pause(&self, origin: &str, wait: std::time::Duration) {
        self.0.pause_origin(origin, wait);
    }
}

/// Loopback servers of unit tests that stand in for a public host, by address and port (so
/// that tests running at once do not see each other's): a redirect from "the public internet"
/// to a private address can then be tried without a network. None outside unit tests.
#[cfg(test)]
pub(crate) mod stand_ins {
    use std::net::SocketAddr;
    use std::sync::{Mutex, PoisonError};

    static PUBLIC: Mutex<Vec<SocketAddr>> = Mutex::new(Vec::new());

    pub fn is_public(a: &SocketAddr) -> bool {
        PUBLIC
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(a)
    }

    pub fn add(a: SocketAddr) {
        PUBLIC
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(a);
    }
}

#[cfg(not(test))]
mod stand_ins {
    pub fn is_public(_: &std::net::SocketAddr) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        assert_eq!(retry_after("3"), Some(Duration::from_secs(3)));
        assert_eq!(
            retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after("soon"), None);
    }

    #[test]
    fn urls_lose_credentials_and_other_schemes_are_refused() {
        let u = clean_url("https://user:pw@example.com/a#x").unwrap();
        assert_eq!(u.as_str(), "https://example.com/a");
        assert!(matches!(
            clean_url("ftp://example.com/"),
            Err(Failure::Refused { .. })
        ));
        assert!(user_agent().starts_with("sitemap-lint/"));
        assert!(user_agent().contains("(+https://"));
    }
}
