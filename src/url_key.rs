//! How the location rules compare URLs: the parts of an absolute URL, and a fingerprint of it normalised.
//!
//! [`crate::model::Value::url_key`] computes both once per `<loc>`, for every rule that needs
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
        let b = url.as_bytes();
        let colon = scheme_end(b)?;
        let scheme = 0..colon;
        if scheme.is_empty() {
            return None;
        }
        let auth_start = colon + 3;
        let auth_end =
            memchr::memchr3(b'/', b'?', b'#', &b[auth_start..]).map_or(b.len(), |p| auth_start + p);
        let host_start = memchr::memrchr(b'@', &b[auth_start..auth_end])
            .map_or(auth_start, |p| auth_start + p + 1);
        let (host, port) = if b.get(host_start) == Some(&b'[') {
            let close = memchr::memchr(b']', &b[host_start..auth_end])
                .map_or(auth_end, |p| host_start + p + 1);
            let port = (b.get(close) == Some(&b':')).then(|| close + 1..auth_end);
            (host_start..close, port)
        } else {
            match memchr::memchr(b':', &b[host_start..auth_end]) {
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
    let mut h = WordHasher::default();
    let b = url.as_bytes();
    let Some(p) = parts else {
        h.escaped(b);
        return h.finish_mix();
    };
    h.lowercase(&b[p.scheme.clone()]);
    h.bytes(b"://");
    // User info (rare) as written, then the host without case.
    h.escaped(&b[p.scheme.end + 3..p.host.start]);
    h.lowercase(&b[p.host.clone()]);
    if let Some(port) = &p.port {
        let digits = &url[port.clone()];
        let default = default_port(&url[p.scheme.clone()]);
        if !digits.is_empty() && digits.parse::<u16>().ok() != default {
            h.bytes(b":");
            h.bytes(digits.trim_start_matches('0').as_bytes());
        }
    }
    if p.path.is_empty() {
        h.bytes(b"/");
    }
    h.escaped(&b[p.path.start..]);
    h.finish_mix()
}

/// Hashes a byte stream eight bytes at a time (a folded 128-bit multiply per word), whatever
/// slices it arrives in: the fingerprint depends only on the bytes.
#[derive(Default)]
struct WordHasher {
    state: u64,
    /// Bytes not yet hashed, little-endian, `pending` of them.
    word: u64,
    pending: u32,
    len: u64,
}

const K0: u64 = 0x243f_6a88_85a3_08d3;
const K1: u64 = 0x9e37_79b9_7f4a_7c15;

fn fold_mul(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ ((r >> 64) as u64)
}

impl WordHasher {
    fn absorb(&mut self, w: u64) {
        self.state = fold_mul(self.state ^ w ^ K0, K1);
    }

    fn byte(&mut self, b: u8) {
        self.word |= u64::from(b) << (8 * self.pending);
        self.pending += 1;
        self.len += 1;
        if self.pending == 8 {
            let w = self.word;
            self.absorb(w);
            self.word = 0;
            self.pending = 0;
        }
    }

    fn bytes(&mut self, mut bytes: &[u8]) {
        while self.pending != 0 {
            let Some((&b, rest)) = bytes.split_first() else {
                return;
            };
            self.byte(b);
            bytes = rest;
        }
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut a = [0u8; 8];
            a.copy_from_slice(w);
            self.absorb(u64::from_le_bytes(a));
        }
        self.len += (bytes.len() - words.remainder().len()) as u64;
        for &b in words.remainder() {
            self.byte(b);
        }
    }

    fn lowercase(&mut self, bytes: &[u8]) {
        if bytes.iter().any(u8::is_ascii_uppercase) {
            for &b in bytes {
                self.byte(b.to_ascii_lowercase());
            }
        } else {
            self.bytes(bytes);
        }
    }

    /// Bytes with the two bytes after each `%` upper-cased (the hex digits of an escape).
    fn escaped(&mut self, mut bytes: &[u8]) {
        while let Some(p) = memchr::memchr(b'%', bytes) {
            self.bytes(&bytes[..=p]);
            let hex = &bytes[p + 1..bytes.len().min(p + 3)];
            for &b in hex {
                self.byte(b.to_ascii_uppercase());
            }
            bytes = &bytes[p + 1 + hex.len()..];
        }
        self.bytes(bytes);
    }

    fn finish_mix(&self) -> u64 {
        let mut k = fold_mul(self.state ^ self.word ^ K0, K1);
        k = fold_mul(k ^ self.len, K0);
        k ^= k >> 33;
        k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
        k ^= k >> 33;
        k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        k ^ (k >> 33)
    }
}

/// A `<loc>`'s parts and fingerprint, computed once (see [`crate::model::Value::url_key`]).
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

    #[test]
    fn the_hasher_sees_bytes_not_slices() {
        let text = b"https://example.com/a-long-path/with/segments?and=query%2f&more";
        let mut whole = WordHasher::default();
        whole.bytes(text);
        for cut in 0..text.len() {
            for cut2 in cut..text.len() {
                let mut h = WordHasher::default();
                h.bytes(&text[..cut]);
                h.bytes(&text[cut..cut2]);
                h.bytes(&text[cut2..]);
                assert_eq!(
                    h.finish_mix(),
                    whole.finish_mix(),
                    "cut at {cut} and {cut2}"
                );
            }
        }
        let mut bytewise = WordHasher::default();
        text.iter().for_each(|&b| bytewise.byte(b));
        assert_eq!(bytewise.finish_mix(), whole.finish_mix());
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
