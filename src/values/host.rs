//! Hosts that cannot be reached from the public internet: `localhost`, loopback, private and
//! link-local addresses, and the names reserved for local networks (`.local`, `.internal`,
//! `.home.arpa`). A sitemap that lists them leaked the build machine's address.

use std::net::{Ipv4Addr, Ipv6Addr};
use std::ops::Range;

/// A host of a URL that only the local machine or network can reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrivateHost {
    /// The host in the URL (`localhost`, `192.168.1.2`, `[::1]`).
    pub range: Range<usize>,
    /// Why, in a few words: "the loopback address".
    pub reason: &'static str,
}

/// The private host of the absolute URL `url`, if its host is one. Hosts are compared the way
/// browsers and crawlers read them: case-insensitively, with a trailing dot, percent-escapes,
/// IDNA and the numeric IPv4 forms (`http://2130706433/` is `127.0.0.1`) resolved by the `url`
/// crate. Ordinary names cost a few string comparisons: only a host that may be an address or
/// is spelled unusually is parsed.
pub fn private_host(url: &str) -> Option<PrivateHost> {
    let range = host_range(url)?;
    let raw = &url[range.clone()];
    let reason = if raw.starts_with(|c: char| c.is_ascii_digit())
        || raw.starts_with('[')
        || raw.contains('%')
        || !raw.is_ascii()
    {
        match url::Url::parse(url).ok()?.host()? {
            url::Host::Ipv4(a) => ipv4_reason(a),
            url::Host::Ipv6(a) => ipv6_reason(a),
            url::Host::Domain(d) => name_reason(d),
        }
    } else {
        name_reason(raw)
    }?;
    Some(PrivateHost { range, reason })
}

/// The host part of `scheme://[userinfo@]host[:port]/…`, without looking further.
fn host_range(url: &str) -> Option<Range<usize>> {
    let start = url.find("://")? + 3;
    let rest = &url[start..];
    let end = rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host_start = authority.rfind('@').map_or(0, |at| at + 1);
    let host = &authority[host_start..];
    let host_len = if host.starts_with('[') {
        host.find(']').map_or(host.len(), |e| e + 1)
    } else {
        host.rfind(':').unwrap_or(host.len())
    };
    (host_len > 0).then(|| start + host_start..start + host_start + host_len)
}

fn name_reason(name: &str) -> Option<&'static str> {
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    let ends =
        |suffix: &str| name == suffix[1..] || (name.len() > suffix.len() && name.ends_with(suffix));
    if ends(".localhost") {
        Some("`localhost` is the machine the sitemap was built on")
    } else if ends(".local") {
        Some("`.local` names are resolved only inside a local network (mDNS)")
    } else if ends(".internal") {
        Some("`.internal` is reserved for private networks")
    } else if ends(".home.arpa") {
        Some("`.home.arpa` is reserved for home networks")
    } else {
        None
    }
}

fn ipv4_reason(a: Ipv4Addr) -> Option<&'static str> {
    if a.is_loopback() {
        Some("it is the loopback address of the machine itself")
    } else if a.is_private() {
        Some("it is a private network address")
    } else if a.is_link_local() {
        Some("it is a link-local address")
    } else if a.is_unspecified() || a.octets()[0] == 0 {
        Some("it is the unspecified address")
    } else {
        None
    }
}

fn ipv6_reason(a: Ipv6Addr) -> Option<&'static str> {
    if let Some(v4) = a.to_ipv4_mapped() {
        return ipv4_reason(v4);
    }
    let first = a.segments()[0];
    if a.is_loopback() {
        Some("it is the loopback address of the machine itself")
    } else if a.is_unspecified() {
        Some("it is the unspecified address")
    } else if first & 0xfe00 == 0xfc00 {
        Some("it is a unique local (private) address")
    } else if first & 0xffc0 == 0xfe80 {
        Some("it is a link-local address")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(url: &str) -> Option<&str> {
        private_host(url).map(|p| &url[p.range])
    }

    #[test]
    fn private_hosts_are_found() {
        for (url, h) in [
            ("http://localhost:1313/blog/", "localhost"),
            ("http://LOCALHOST./", "LOCALHOST."),
            ("https://app.localhost/", "app.localhost"),
            ("http://127.0.0.1:8080/a", "127.0.0.1"),
            ("http://2130706433/", "2130706433"),
            ("http://10.0.0.5/", "10.0.0.5"),
            ("http://172.16.3.4/", "172.16.3.4"),
            ("http://192.168.1.10/x", "192.168.1.10"),
            ("http://169.254.1.1/", "169.254.1.1"),
            ("http://0.0.0.0:3000/", "0.0.0.0"),
            ("http://[::1]:8080/", "[::1]"),
            ("http://[fd00::1]/", "[fd00::1]"),
            ("http://[fe80::1]/", "[fe80::1]"),
            ("http://[::ffff:192.168.0.1]/", "[::ffff:192.168.0.1]"),
            ("https://printer.local/", "printer.local"),
            ("https://api.internal/x", "api.internal"),
            ("https://nas.home.arpa/", "nas.home.arpa"),
            ("https://user:pw@localhost/", "localhost"),
            ("http://loc%61lhost/", "loc%61lhost"),
        ] {
            assert_eq!(host(url), Some(h), "{url}");
        }
    }

    #[test]
    fn public_hosts_pass() {
        for url in [
            "https://www.example.com/",
            "https://example.org/",
            "https://example.net/",
            "https://localhost.example.com/",
            "https://mylocal/",
            "https://local.example/",
            "http://8.8.8.8/",
            "http://1und1.de/",
            "http://[2001:db8::1]/",
            "https://bücher.example/",
            "not a url",
            "https:///",
        ] {
            assert_eq!(host(url), None, "{url}");
        }
    }
}
