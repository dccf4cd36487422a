//! `--check-urls`: the pages a sitemap lists, requested politely (at most `--max-rps` per host
//! and [`super::MAX_CONNECTIONS_PER_HOST`] connections, `Retry-After` honoured by the fetch
//! stage), never one that the site's robots.txt disallows. Reported at the page's `<loc>`:
//! `url-status`, `url-noindex`, `url-canonical`.

use std::ops::Range;

use super::Run;
use crate::diagnostic::Diagnostic;
use crate::exec;
use crate::pipeline::fetch::{Failure, Want};
use crate::rules::http::{url_canonical, url_noindex, url_status};
use crate::values::html::{head_signals, header_noindex, looks_like_html};
use crate::values::robots::{split_origin, Verdict};

/// Page requests in flight at most (over all hosts; each host has its own, lower limit).
const PAGE_THREADS: usize = 16;

/// The findings of requesting the `pages` (values and spans of their `<loc>`s).
pub(super) fn check(run: &Run<'_>, pages: &[(String, Range<usize>)]) -> Vec<Diagnostic> {
    let chosen = sample(pages.len(), run.options.sample, run.options.seed);
    let results = exec::map_all(chosen.len(), PAGE_THREADS, |k| {
        let (url, span) = &pages[chosen[k]];
        page(run, url, span.clone())
    });
    results.into_iter().flatten().flatten().collect()
}

/// The indexes of the pages to request: all, or `n` of them chosen by `seed` (the same
/// sitemap, `n` and seed always give the same pages), in sitemap order.
pub fn sample(len: usize, n: Option<usize>, seed: u64) -> Vec<usize> {
    match n {
        Some(n) if n < len => {
            let mut keyed: Vec<(u64, usize)> =
                (0..len).map(|i| (mix(seed ^ mix(i as u64)), i)).collect();
            keyed.select_nth_unstable(n.saturating_sub(1).min(len - 1));
            let mut chosen: Vec<usize> = keyed[..n].iter().map(|(_, i)| *i).collect();
            chosen.sort_unstable();
            chosen
        }
        _ => (0..len).collect(),
    }
}

/// splitmix64's finaliser: a well-mixed 64-bit hash of `x`.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// One page: skipped when robots.txt disallows it, else requested and judged.
fn page(run: &Run<'_>, url: &str, span: Range<usize>) -> Option<Diagnostic> {
    let (origin, _) = split_origin(url)?;
    if let Some(robots) = run.robots_of(&origin) {
        if let Verdict::Disallowed(_) = robots.verdict(url) {
            return None;
        }
    }
    let result = run.fetcher.fetch(url, Want::Head, &exec::Rated(&run.pace));
    (run.progress)(url);
    let answer = match result {
        Ok(answer) => answer,
        Err(Failure::Refused { url, reason }) => {
            run.refused
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(format!("refused `{url}`: {reason}"));
            return None;
        }
        Err(Failure::Failed { problem, .. }) => {
            return Some(url_status::unreachable(span, url, &problem))
        }
    };
    if answer.status >= 400 {
        return Some(url_status::failed(span, url, answer.status, &answer.reason));
    }
    if !answer.chain.is_empty() {
        return Some(url_status::redirected(span, &answer.chain, &answer.url));
    }
    if (300..400).contains(&answer.status) {
        return Some(url_status::failed(span, url, answer.status, &answer.reason));
    }
    if let Some(tag) = answer.robots_tags.iter().find(|t| header_noindex(t)) {
        return Some(url_noindex::noindex(
            span,
            url,
            &format!("X-Robots-Tag: {tag}"),
        ));
    }
    let html = answer
        .content_type
        .as_deref()
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("text/html"))
        || looks_like_html(&answer.body);
    let signals = if html {
        head_signals(&answer.body)
    } else {
        Default::default()
    };
    if let Some(tag) = &signals.noindex {
        return Some(url_noindex::noindex(span, url, tag));
    }
    let canonical = answer
        .links
        .iter()
        .find_map(|l| link_canonical(l))
        .or(signals.canonical)?;
    let base = url::Url::parse(&answer.url).ok()?;
    let resolved = base.join(&canonical).ok()?;
    let listed = url::Url::parse(url).ok()?;
    (resolved != listed).then(|| url_canonical::elsewhere(span, url, resolved.as_str()))
}

/// The target of a `Link` header's `rel="canonical"` entry: `<https://…>; rel="canonical"`.
fn link_canonical(header: &str) -> Option<String> {
    header.split(',').find_map(|part| {
        let (target, params) = part.split_once(';')?;
        let target = target.trim().strip_prefix('<')?.strip_suffix('>')?;
        params
            .split(';')
            .filter_map(|p| p.split_once('='))
            .any(|(k, v)| {
                k.trim().eq_ignore_ascii_case("rel")
                    && v.trim()
                        .trim_matches('"')
                        .split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("canonical"))
            })
            .then(|| target.to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_deterministic_and_sized() {
        let a = sample(1_000, Some(10), 7);
        assert_eq!(a.len(), 10);
        assert_eq!(a, sample(1_000, Some(10), 7));
        assert_ne!(a, sample(1_000, Some(10), 8));
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(sample(5, Some(10), 1), vec![0, 1, 2, 3, 4]);
        assert_eq!(sample(5, None, 1).len(), 5);
        assert!(sample(5, Some(0), 1).is_empty());
    }

    #[test]
    fn link_headers() {
        assert_eq!(
            link_canonical(r#"<https://a.example/x>; rel="canonical""#).as_deref(),
            Some("https://a.example/x")
        );
        assert_eq!(
            link_canonical(
                r#"<https://a.example/p2>; rel=next, <https://a.example/>; rel=canonical"#
            )
            .as_deref(),
            Some("https://a.example/")
        );
        assert_eq!(link_canonical("<x>; rel=alternate"), None);
    }
}
