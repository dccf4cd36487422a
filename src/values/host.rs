//! Hosts that cannot be reached from the public internet: `localhost`, loopback, private and
//! link-local addresses, and the names reserved for local networks (`.local`, `.internal`,
//! `.home.arpa`). A sitemap that lists them leaked the build machine's address.

use std::net::{Ipv4Addr, Ipv6Addr};

/// Why `host` (a URL's host as written: a name, an IPv4 address, or an IPv6 literal in
/// brackets) cannot be reached from the public internet, if it cannot. Hosts are compared the way
/// browsers and crawlers read them: case-insensitively, with a trailing dot, percent-escapes,
/// IDNA and the numeric IPv4 forms (`2130706433` is `127.0.0.1`) resolved by the `url` crate.
/// Ordinary names cost a few string comparisons: only a host that may be an address or is
/// spelled unusually is parsed.
pub fn private_host(host: &str) -> Option<&'static str> {
    if host.starts_with(|c: char| c.is_ascii_digit() || c == '[')
        || host.bytes().any(|b| b == b'%' || !b.is_ascii())
    {
        match url::Host::parse(host).ok()? {
            url::Host::Ipv4(a) => ipv4_reason(a),
            url::Host::Ipv6(a) => ipv6_reason(a),
            url::Host::Domain(d) => name_reason(&d),
        }
    } else {
        name_reason(host)
    }
}

/// The name suffixes of private networks, with what [`private_host`] says of them.
const PRIVATE_SUFFIXES: [(&str, &str); 4] = [
    (
        ".localhost",
        "`localhost` is the machine the sitemap was built on",
    ),
    (
        ".local",
        "`.local` names are resolved only inside a local network (mDNS)",
    ),
    (".internal", "`.internal` is reserved for private networks"),
    (".home.arpa", "`.home.arpa` is reserved for home networks"),
];

fn name_reason(name: &str) -> Option<&'static str> {
    // Compared without case and without a lowercase copy: every `<loc>` host comes here.
    let name = name.strip_suffix('.').unwrap_or(name).as_bytes();
    let last = name.last()?.to_ascii_lowercase();
    let ends = |suffix: &str| {
        let suffix = suffix.as_bytes();
        name.eq_ignore_ascii_case(&suffix[1..])
            || (name.len() > suffix.len()
                && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix))
    };
    // A suffix is compared only when its last letter is the name's: most names (`.com`,
    // `.org`) end in none of them.
    PRIVATE_SUFFIXES
        .iter()
        .find(|(suffix, _)| suffix.as_bytes().last() == Some(&last) && ends(suffix))
        .map(|&(_, reason)| reason)
}

/// Whether two URL hosts as written name the same host, read as [`private_host`] reads them
/// (case, a trailing dot, percent-escapes, IDNA, numeric IPv4 forms): `LocalHost.` is
/// `localhost`, `2130706433` is `127.0.0.1`, `[0:0::1]` is `[::1]`.
pub fn same_host(a: &str, b: &str) -> bool {
    let read = |h: &str| {
        let h = h.strip_suffix('.').unwrap_or(h);
        url::Host::parse(h).ok()
    };
    a.eq_ignore_ascii_case(b) || read(a).is_some_and(|x| Some(x) == read(b))
}

/// Why an address a host resolved to cannot be reached from the public internet (loopback,
/// private, link-local, unspecified), if it cannot: what `--allow-private-hosts` allows.
pub fn private_ip(ip: std::net::IpAddr) -> Option<&'static str> {
    match ip {
        std::net::IpAddr::V4(a) => ipv4_reason(a),
        std::net::IpAddr::V6(a) => ipv6_reason(a),
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

    #[test]
    fn same_hosts_are_read_as_crawlers_read_them() {
        for (a, b) in [
            ("localhost", "LocalHost."),
            ("127.0.0.1", "2130706433"),
            ("[::1]", "[0:0::1]"),
            ("Staging.Internal", "staging.internal"),
        ] {
            assert!(same_host(a, b), "{a} {b}");
        }
        for (a, b) in [
            ("localhost", "app.localhost"),
            ("127.0.0.1", "127.0.0.2"),
            ("10.0.0.5", "192.168.0.5"),
        ] {
            assert!(!same_host(a, b), "{a} {b}");
        }
    }

    #[test]
    fn private_hosts_are_found() {
        for host in [
            "localhost",
            "LOCALHOST.",
            "app.localhost",
            "127.0.0.1",
            "2130706433",
            "10.0.0.5",
            "172.16.3.4",
            "192.168.1.10",
            "169.254.1.1",
            "0.0.0.0",
            "[::1]",
            "[fd00::1]",
            "[fe80::1]",
            "[::ffff:192.168.0.1]",
            "printer.local",
            "api.internal",
            "nas.home.arpa",
            "Printer.LOCAL",
            "API.Internal.",
            "NAS.Home.ARPA",
            "loc%61lhost",
        ] {
            assert!(private_host(host).is_some(), "{host}");
        }
    }

    #[test]
    fn public_hosts_pass() {
        for host in [
            "www.example.com",
            "example.org",
            "example.net",
            "localhost.example.com",
            "mylocal",
            "local.example",
            "8.8.8.8",
            "1und1.de",
            "[2001:db8::1]",
            "bücher.example",
            "",
        ] {
            assert_eq!(private_host(host), None, "{host}");
        }
    }
}
