//! How the location rules compare URLs: the parts of an absolute URL, and a fingerprint of it normalised.
//!
//! [`crate::pipeline::model::Value::url_key`] computes both once per `<loc>`, for every rule that needs
//! them (`duplicate-loc`, `loc-mixed-hosts`, `loc-outside-scope`, the checks across files).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;

/// The parts of an absolute `http(s)` URL, as byte ranges of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlParts {
    pub scheme: Range<usize>,
    /// The host (an IPv6 literal keeps its brackets).
    pub host: Range<usize>,
    /// The digits after `:` (possibly empty), when a `:` follows the host.
    pub port: Option<Range<usize>>,
    /// From the first `/` after the authority to the query or fragment (may be empty).
    pub path: Range<usize>,
}

impl UrlParts {
    /// Splits `url` at the first `://`, the authority, and the path. `None` without `://` or a
    /// host. Meant for values without URL errors; on others it still never panics.
    pub fn parse(url: &str) -> Option<UrlParts> {
        let Authority {
            scheme,
            host,
            port,
            end: auth_end,
        } = Authority::parse(url)?;
        let b = url.as_bytes();
        let path_end =
            memchr::memchr2(b'?', b'#', &b[auth_end..]).map_or(b.len(), |p| auth_end + p);
        Some(UrlParts {
            scheme,
            host,
            port,
            path: auth_end..path_end,
        })
    }

    /// The port in effect: the written one, else 80 for `http` and 443 for `https`.
    pub fn effective_port(&self, url: &str) -> Option<u16> {
        match self.port.as_ref().map(|p| &url[p.clone()]) {
            Some(p) if !p.is_empty() => p.parse().ok(),
            _ => default_port(&url[self.scheme.clone()]),
        }
    }

    /// Whether `self` (of `a`) and `other` (of `b`) have the same scheme, host and port
    /// (compared without case, a default port written or not).
    pub fn same_origin(&self, a: &str, other: &UrlParts, b: &str) -> bool {
        a[self.scheme.clone()].eq_ignore_ascii_case(&b[other.scheme.clone()])
            && a[self.host.clone()].eq_ignore_ascii_case(&b[other.host.clone()])
            && self.effective_port(a) == other.effective_port(b)
    }
}

/// The scheme and authority of an absolute URL, as [`UrlParts`] has them, for what needs no
/// more: the host's checks do not read the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authority {
    pub scheme: Range<usize>,
    /// The host (an IPv6 literal keeps its brackets).
    pub host: Range<usize>,
    /// The digits after `:` (possibly empty), when a `:` follows the host.
    pub port: Option<Range<usize>>,
    /// Where the authority ends (the path, query or fragment starts, or the text ends).
    pub end: usize,
}

impl Authority {
    /// The scheme and authority of `url`, split as [`UrlParts::parse`] does; `None` in the same
    /// cases.
    pub fn parse(url: &str) -> Option<Authority> {
        let b = url.as_bytes();
        let colon = scheme_end(b)?;
        let scheme = 0..colon;
        if scheme.is_empty() {
            return None;
        }
        let auth_start = colon + 3;
        // One pass over the authority (short): where it ends, the last `@` and the first `:`
        // after it.
        let (mut auth_end, mut at, mut port_colon) = (b.len(), None, None);
        for (i, &c) in b.iter().enumerate().skip(auth_start) {
            match c {
                b'/' | b'?' | b'#' => {
                    auth_end = i;
                    break;
                }
                b'@' => (at, port_colon) = (Some(i), None),
                b':' if port_colon.is_none() => port_colon = Some(i),
                _ => {}
            }
        }
        let host_start = at.map_or(auth_start, |p| p + 1);
        let (host, port) = if b.get(host_start) == Some(&b'[') {
            let close = memchr::memchr(b']', &b[host_start..auth_end])
                .map_or(auth_end, |p| host_start + p + 1);
            let port = (b.get(close) == Some(&b':')).then(|| close + 1..auth_end);
            (host_start..close, port)
        } else {
            match port_colon {
                Some(p) => (host_start..p, Some(p + 1..auth_end)),
                None => (host_start..auth_end, None),
            }
        };
        if host.is_empty() {
            return None;
        }
        Some(Authority {
            scheme,
            host,
            port,
            end: auth_end,
        })
    }
}

/// Where the first `://` starts (a byte search for `:`: a substring searcher costs more to set
/// up than a short URL takes to scan).
fn scheme_end(b: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = memchr::memchr(b':', &b[from..]) {
        let colon = from + p;
        if b[colon + 1..].starts_with(b"//") {
            return Some(colon);
        }
        from = colon + 1;
    }
    None
}

fn default_port(scheme: &str) -> Option<u16> {
    if scheme.eq_ignore_ascii_case("http") {
        Some(80)
    } else if scheme.eq_ignore_ascii_case("https") {
        Some(443)
    } else {
        None
    }
}

/// A 64-bit fingerprint of `url` after normalising what does not change the resource: scheme
/// and host case, a default port (`:443` for `https`, `:80` for `http`, or an empty `:`), an
/// empty path (same as `/`) and the case of percent-escapes (`%2f` = `%2F`). Allocation-free.
///
/// Two different URLs share a fingerprint with probability about 2⁻⁶⁴ per pair (for a million
/// URLs, about one chance in 30 million that any two do).
pub fn fingerprint(url: &str) -> u64 {
    fingerprint_parts(url, UrlParts::parse(url).as_ref())
}

/// [`fingerprint`] of `url` split into `parts` (`None` when it does not split).
pub fn fingerprint_parts(url: &str, parts: Option<&UrlParts>) -> u64 {
    let b = url.as_bytes();
    // Usually the URL is its own normal form: no escape, no capital before the path, no port, a
    // path. Then it is hashed as it stands, without a copy.
    let plain = memchr::memchr(b'%', b).is_none();
    let normal = plain
        && parts.is_none_or(|p| {
            p.port.is_none()
                && !p.path.is_empty()
                && !b[..p.host.end].iter().any(u8::is_ascii_uppercase)
        });
    if normal {
        hash_bytes(b)
    } else {
        hash_bytes(&normal_form(url, parts))
    }
}

/// The bytes [`fingerprint`] hashes: scheme and host in lower case, no default port, `/` for an
/// empty path, percent-escapes in upper case.
fn normal_form(url: &str, parts: Option<&UrlParts>) -> Vec<u8> {
    let b = url.as_bytes();
    let mut out = Vec::with_capacity(b.len() + 1);
    let Some(p) = parts else {
        escaped(&mut out, b);
        return out;
    };
    out.extend(b[p.scheme.clone()].iter().map(u8::to_ascii_lowercase));
    out.extend_from_slice(b"://");
    // User info (rare) as written, then the host without case.
    escaped(&mut out, &b[p.scheme.end + 3..p.host.start]);
    out.extend(b[p.host.clone()].iter().map(u8::to_ascii_lowercase));
    if let Some(port) = &p.port {
        let digits = &url[port.clone()];
        let default = default_port(&url[p.scheme.clone()]);
        if !digits.is_empty() && digits.parse::<u16>().ok() != default {
            out.push(b':');
            out.extend_from_slice(digits.trim_start_matches('0').as_bytes());
        }
    }
    if p.path.is_empty() {
        out.push(b'/');
    }
    escaped(&mut out, &b[p.path.start..]);
    out
}

/// `bytes` with the two bytes after each `%` upper-cased (the hex digits of an escape).
fn escaped(out: &mut Vec<u8>, mut bytes: &[u8]) {
    while let Some(p) = memchr::memchr(b'%', bytes) {
        out.extend_from_slice(&bytes[..=p]);
        let hex = &bytes[p + 1..bytes.len().min(p + 3)];
        out.extend(hex.iter().map(u8::to_ascii_uppercase));
        bytes = &bytes[p + 1 + hex.len()..];
    }
    out.extend_from_slice(bytes);
}

const K0: u64 = 0x243f_6a88_85a3_08d3;
const K1: u64 = 0x9e37_79b9_7f4a_7c15;

fn fold_mul(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ ((r >> 64) as u64)
}

/// A 64-bit hash of `bytes`, eight bytes at a time (a folded 128-bit multiply per word), with
/// the length and a final mix.
fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut state = 0u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let mut a = [0u8; 8];
        a.copy_from_slice(w);
        state = fold_mul(state ^ u64::from_le_bytes(a) ^ K0, K1);
    }
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    let mut k = fold_mul(state ^ u64::from_le_bytes(last) ^ K0, K1);
    k = fold_mul(k ^ bytes.len() as u64, K0);
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

/// A `<loc>`'s parts and fingerprint, computed once (see [`crate::pipeline::model::Value::url_key`]).
#[derive(Debug, Clone)]
pub struct UrlKey {
    pub parts: Option<UrlParts>,
    pub fingerprint: u64,
}

impl UrlKey {
    pub fn of(url: &str) -> UrlKey {
        let parts = UrlParts::parse(url);
        UrlKey {
            fingerprint: fingerprint_parts(url, parts.as_ref()),
            parts,
        }
    }
}

/// A hasher for keys that are already fingerprints: passes the `u64` through.
#[derive(Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map keyed by fingerprints.
pub type FingerprintMap<V> = HashMap<u64, V, BuildHasherDefault<IdHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_normalise_case_ports_and_escapes() {
        let same = [
            ("https://example.com/a%2fb", "HTTPS://Example.COM:443/a%2Fb"),
            ("http://example.com", "http://example.com:80/"),
            ("http://example.com:/x", "http://example.com/x"),
            ("https://u%3a@example.com/", "https://u%3A@EXAMPLE.com/"),
            ("no scheme %7e", "no scheme %7E"),
        ];
        for (a, b) in same {
            assert_eq!(fingerprint(a), fingerprint(b), "{a} = {b}");
        }
        let different = [
            ("https://example.com/A", "https://example.com/a"),
            ("http://example.com/", "https://example.com/"),
            ("https://example.com:8443/", "https://example.com/"),
            ("https://example.com/?a", "https://example.com/"),
            ("https://www.example.com/", "https://example.com/"),
            ("https://example.com/%", "https://example.com/%25"),
            ("https://example.com/a\0", "https://example.com/a"),
        ];
        for (a, b) in different {
            assert_ne!(fingerprint(a), fingerprint(b), "{a} ≠ {b}");
        }
    }

    /// The shortcut for URLs in normal form hashes what the general way would build: those URLs
    /// are their own normal form, and the others hash their normal form.
    #[test]
    fn urls_in_normal_form_hash_as_themselves() {
        let normal = [
            "https://www.example.com/a/b?c=d",
            "http://example.com/",
            "no scheme",
        ];
        for url in normal {
            let parts = UrlParts::parse(url);
            assert_eq!(normal_form(url, parts.as_ref()), url.as_bytes(), "{url}");
            assert_eq!(fingerprint(url), hash_bytes(url.as_bytes()), "{url}");
        }
        let other = [
            ("HTTPS://EXAMPLE.com:443", "https://example.com/"),
            ("https://u@example.com:8080", "https://u@example.com:8080/"),
            ("https://example.com/%2f?%7e", "https://example.com/%2F?%7E"),
            ("http://example.com:80/x", "http://example.com/x"),
        ];
        for (url, form) in other {
            let parts = UrlParts::parse(url);
            assert_eq!(normal_form(url, parts.as_ref()), form.as_bytes(), "{url}");
            assert_eq!(fingerprint(url), fingerprint(form), "{url}");
        }
    }

    #[test]
    fn fingerprints_of_many_similar_urls_differ() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..200_000u32 {
            let url = format!("https://www.example.com/p/{}/item-{}.html", i % 977, i);
            assert!(seen.insert(fingerprint(&url)), "collision at {url}");
        }
        // Short values and values that differ only in length or in trailing zero bytes.
        let mut short = std::collections::HashSet::new();
        for n in 0..64 {
            assert!(short.insert(fingerprint(&"\0".repeat(n))));
        }
    }

    /// The byte search of `scheme_end` agrees with the plain definition: the first `://`.
    #[test]
    fn scheme_end_is_the_first_colon_slash_slash() {
        for s in [
            "",
            ":",
            "://",
            "a:/b://c",
            "a::://",
            "x:y",
            "http://a://b",
            "é://x",
        ] {
            let want = s.as_bytes().windows(3).position(|w| w == b"://");
            assert_eq!(scheme_end(s.as_bytes()), want, "{s:?}");
        }
    }

    /// The straightforward split [`UrlParts::parse`] must agree with.
    fn parse_reference(url: &str) -> Option<UrlParts> {
        let b = url.as_bytes();
        let colon = b.windows(3).position(|w| w == b"://")?;
        if colon == 0 {
            return None;
        }
        let auth_start = colon + 3;
        let auth_end = b[auth_start..]
            .iter()
            .position(|&c| matches!(c, b'/' | b'?' | b'#'))
            .map_or(b.len(), |p| auth_start + p);
        let host_start = b[auth_start..auth_end]
            .iter()
            .rposition(|&c| c == b'@')
            .map_or(auth_start, |p| auth_start + p + 1);
        let (host, port) = if b.get(host_start) == Some(&b'[') {
            let close = b[host_start..auth_end]
                .iter()
                .position(|&c| c == b']')
                .map_or(auth_end, |p| host_start + p + 1);
            let port = (b.get(close) == Some(&b':')).then(|| close + 1..auth_end);
            (host_start..close, port)
        } else {
            match b[host_start..auth_end].iter().position(|&c| c == b':') {
                Some(p) => (
                    host_start..host_start + p,
                    Some(host_start + p + 1..auth_end),
                ),
                None => (host_start..auth_end, None),
            }
        };
        if host.is_empty() {
            return None;
        }
        let path_end = b[auth_end..]
            .iter()
            .position(|&c| matches!(c, b'?' | b'#'))
            .map_or(b.len(), |p| auth_end + p);
        Some(UrlParts {
            scheme: 0..colon,
            host,
            port,
            path: auth_end..path_end,
        })
    }

    #[test]
    fn url_parts_agree_with_the_reference_split() {
        let mut values = crate::test_strings::all_strings(
            &["h", ":", "/", "@", "[", "]", "?", "#", "1", "é"],
            5,
        );
        for extra in [
            "https://u:p@h:8/x?q#f",
            "http://[::1]:80/",
            "a://b@c@d:1:2/e",
        ] {
            values.push(extra.to_owned());
        }
        for v in &values {
            assert_eq!(UrlParts::parse(v), parse_reference(v), "{v:?}");
        }
    }

    #[test]
    fn url_parts_split_authority_and_path() {
        let u = "https://user@[::1]:8080/a/b?q#f";
        let p = UrlParts::parse(u).unwrap();
        assert_eq!(&u[p.scheme.clone()], "https");
        assert_eq!(&u[p.host.clone()], "[::1]");
        assert_eq!(&u[p.port.clone().unwrap()], "8080");
        assert_eq!(&u[p.path.clone()], "/a/b");
        assert_eq!(p.effective_port(u), Some(8080));
        let u = "http://example.com";
        let p = UrlParts::parse(u).unwrap();
        assert_eq!(p.path, u.len()..u.len());
        assert_eq!(p.effective_port(u), Some(80));
        for junk in ["", "://", "http://", "x", "http://@:", "a:", "%", "%a"] {
            let _ = UrlParts::parse(junk);
            let _ = fingerprint(junk);
        }
    }
}
