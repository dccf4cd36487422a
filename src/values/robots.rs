//! robots.txt as Google reads it (RFC 9309 and Google's parser): the groups that apply to
//! Googlebot, the `Allow`/`Disallow` rules with `*` and `$`, the `Sitemap:` lines, each with the
//! byte range of its line, so that findings can point at the line that blocks a URL.
//!
//! Our own parser, not the `robotstxt` crate (a port of Google's C++ parser): that crate parses the
//! whole file again for every URL it is asked about (`DefaultMatcher::one_agent_allowed_by_robots`
//! takes the file's text), so 50,000 `<loc>`s would parse robots.txt 50,000 times, and it answers
//! allowed or not without saying which rule decided: its line numbers only reach a parse callback.
//! Here the file is parsed once into the rules that apply ([`Robots::parse`]), and each question
//! ([`Robots::verdict`]) returns the deciding rule with its line.
//!
//! What follows Google's parser:
//! - keys are read without case, with the misspellings Google accepts (`useragent`, `user agent`,
//!   `dissallow`, `disalow`, …); a line without `:` is accepted when its key and value are
//!   separated by a space (`Disallow /x`); `#` starts a comment;
//! - consecutive `User-agent` lines open one group; rules before any `User-agent` line are
//!   ignored; `Sitemap:` lines belong to no group;
//! - the groups naming `googlebot` (the product token, compared without case, up to the first
//!   character that is not a letter, `_` or `-`) all apply, merged; only without such a group do
//!   the `*` groups apply;
//! - a rule matches the URL's path and query from their start; `*` matches any run of characters
//!   and a final `$` the end; the longest pattern (in bytes) wins, and `Allow` wins a tie; an
//!   empty `Disallow` allows everything; `/robots.txt` is always allowed;
//! - patterns and paths are compared with their percent-escapes normalised (non-ASCII bytes and
//!   lower-case escapes written as upper-case `%XX`);
//! - only the first 500 KiB of the file are read, as Google does.

use std::ops::Range;

/// How much of a robots.txt Google reads (500 KiB); the rest is ignored.
pub const MAX_ROBOTS_BYTES: usize = 500 * 1024;

/// The crawler whose groups apply.
const AGENT: &str = "googlebot";

/// One `Allow` or `Disallow` line that applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobotsRule {
    pub allow: bool,
    /// The pattern, percent-escapes normalised.
    pub pattern: String,
    /// The line, without its line break, as a byte range of the text.
    pub line: Range<usize>,
    /// The line's text without its comment, trimmed (`Disallow: /drafts/`).
    pub text: String,
    /// The 1-based line number.
    pub line_number: usize,
}

/// One `Sitemap:` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapLine {
    /// The value, trimmed.
    pub value: String,
    /// The value's byte range in the text (its line's end when the value is empty).
    pub span: Range<usize>,
    /// The 1-based line number.
    pub line_number: usize,
}

/// A parsed robots.txt: the rules for Googlebot, and the sitemaps it lists.
#[derive(Debug, Clone, Default)]
pub struct Robots {
    /// The rules of the groups that apply to Googlebot (or `*`), in file order.
    pub rules: Vec<RobotsRule>,
    /// Whether a group names Googlebot (else the `*` groups apply, if any).
    pub googlebot_group: bool,
    pub sitemaps: Vec<SitemapLine>,
    /// Where the file comes from (a path or URL), for messages.
    pub name: String,
    /// `scheme://host[:port]` of the robots.txt URL, when it was fetched: its rules apply only to
    /// URLs of that origin. `None` (a local file): they apply to every URL's path.
    pub origin: Option<String>,
}

/// What a robots.txt says about one URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict<'a> {
    /// No rule matches, or an `Allow` rule wins.
    Allowed(Option<&'a RobotsRule>),
    /// This `Disallow` rule blocks it.
    Disallowed(&'a RobotsRule),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    UserAgent,
    Allow,
    Disallow,
    Sitemap,
    Other,
}

fn key_of(key: &str) -> Key {
    let k = key.trim().to_ascii_lowercase();
    match k.as_str() {
        "user-agent" | "useragent" | "user agent" | "user_agent" => Key::UserAgent,
        "allow" => Key::Allow,
        "disallow" | "dissallow" | "dissalow" | "disalow" | "diasllow" | "disallaw" => {
            Key::Disallow
        }
        "sitemap" | "site-map" => Key::Sitemap,
        _ => Key::Other,
    }
}

/// The product token of a `User-agent` value, lower case: `Googlebot/2.1` → `googlebot`.
fn product_token(value: &str) -> String {
    value
        .chars()
        .take_while(|c| c.is_ascii_alphabetic() || *c == '_' || *c == '-')
        .collect::<String>()
        .to_ascii_lowercase()
}

impl Robots {
    /// Parses `text` (at most its first [`MAX_ROBOTS_BYTES`]); `name` names it in messages.
    pub fn parse(text: &str, name: &str, origin: Option<String>) -> Robots {
        let mut end = text.len().min(MAX_ROBOTS_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let text = &text[..end];
        // Rules of the Googlebot groups and of the `*` groups; which apply is known at the end.
        let (mut google, mut star) = (Vec::new(), Vec::new());
        let mut googlebot_group = false;
        let mut sitemaps = Vec::new();
        // The group being read: whether it names Googlebot or `*`, and whether its agent lines
        // are over (a rule was read).
        let (mut for_google, mut for_star, mut in_rules, mut seen_agent) =
            (false, false, false, false);
        let mut at = 0;
        for (i, raw) in text.split_inclusive('\n').enumerate() {
            let start = at;
            at += raw.len();
            let line = raw.trim_end_matches(['\n', '\r']);
            let line_range = start..start + line.len();
            let content = line.split('#').next().unwrap_or("");
            let (key, value, value_at) = match content.find(':') {
                Some(colon) => (&content[..colon], &content[colon + 1..], colon + 1),
                None => {
                    // Google accepts a space for the colon: `Disallow /x`.
                    let t = content.trim_start();
                    let lead = content.len() - t.len();
                    match t.find([' ', '\t']) {
                        Some(sp) => (&t[..sp], &t[sp + 1..], lead + sp + 1),
                        None => continue,
                    }
                }
            };
            let trimmed = value.trim();
            let value_start = start + value_at + (value.len() - value.trim_start().len());
            match key_of(key) {
                Key::UserAgent => {
                    if in_rules || !seen_agent {
                        (for_google, for_star, in_rules) = (false, false, false);
                    }
                    seen_agent = true;
                    let token = product_token(trimmed);
                    if trimmed.starts_with('*') {
                        for_star = true;
                    } else if token == AGENT {
                        for_google = true;
                        googlebot_group = true;
                    }
                }
                key @ (Key::Allow | Key::Disallow) => {
                    if !seen_agent {
                        continue;
                    }
                    in_rules = true;
                    if trimmed.is_empty() {
                        // An empty rule matches nothing.
                        continue;
                    }
                    let rule = RobotsRule {
                        allow: key == Key::Allow,
                        pattern: normalise(trimmed),
                        line: line_range.clone(),
                        text: content.trim().to_owned(),
                        line_number: i + 1,
                    };
                    if for_google {
                        google.push(rule.clone());
                    }
                    if for_star {
                        star.push(rule);
                    }
                }
                Key::Sitemap => sitemaps.push(SitemapLine {
                    value: trimmed.to_owned(),
                    span: if trimmed.is_empty() {
                        line_range.end..line_range.end
                    } else {
                        value_start..value_start + trimmed.len()
                    },
                    line_number: i + 1,
                }),
                Key::Other => {
                    if seen_agent {
                        in_rules = true;
                    }
                }
            }
        }
        Robots {
            rules: if googlebot_group { google } else { star },
            googlebot_group,
            sitemaps,
            name: name.to_owned(),
            origin,
        }
    }

    /// What the rules say about `url` (an absolute URL, or a path): the deciding rule, if any.
    /// A URL of another origin than [`Robots::origin`] is allowed without a rule.
    pub fn verdict(&self, url: &str) -> Verdict<'_> {
        let path = match split_origin(url) {
            Some((origin, path)) => {
                if let Some(own) = &self.origin {
                    if !origin.eq_ignore_ascii_case(own) {
                        return Verdict::Allowed(None);
                    }
                }
                path
            }
            None => url,
        };
        let path = if path.is_empty() { "/" } else { path };
        let path = path.split('#').next().unwrap_or(path);
        if path == "/robots.txt" {
            return Verdict::Allowed(None);
        }
        let path = normalise(path);
        let mut best: Option<&RobotsRule> = None;
        for rule in &self.rules {
            if !matches(&rule.pattern, &path) {
                continue;
            }
            best = match best {
                Some(b)
                    if b.pattern.len() > rule.pattern.len()
                        || (b.pattern.len() == rule.pattern.len() && (b.allow || !rule.allow)) =>
                {
                    Some(b)
                }
                _ => Some(rule),
            };
        }
        match best {
            Some(rule) if !rule.allow => Verdict::Disallowed(rule),
            other => Verdict::Allowed(other),
        }
    }
}

/// `scheme://host[:port]` (lower case) and the rest from the path on, when `url` is absolute.
pub fn split_origin(url: &str) -> Option<(String, &str)> {
    let colon = url.find("://")?;
    let scheme = &url[..colon];
    if scheme.is_empty()
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+')
    {
        return None;
    }
    let rest = &url[colon + 3..];
    let auth_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..auth_end];
    let host_port = authority.rsplit('@').next().unwrap_or(authority);
    let mut origin = format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        host_port.to_ascii_lowercase()
    );
    // The default port is the same origin as none.
    for (s, port) in [("http", ":80"), ("https", ":443")] {
        if scheme.eq_ignore_ascii_case(s) && origin.ends_with(port) {
            origin.truncate(origin.len() - port.len());
        }
    }
    Some((origin, &rest[auth_end..]))
}

/// Percent-escapes made comparable: non-ASCII and control bytes escaped, escapes in upper case.
fn normalise(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' && i + 2 < b.len() && hex(b[i + 1]) && hex(b[i + 2]) {
            out.push('%');
            out.push(b[i + 1].to_ascii_uppercase() as char);
            out.push(b[i + 2].to_ascii_uppercase() as char);
            i += 3;
            continue;
        }
        if !(0x20..0x80).contains(&c) || c == b' ' {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push(c as char);
        }
        i += 1;
    }
    out
}

fn hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

/// Whether `pattern` (`*` any run, a final `$` the end) matches `path` from its start: the set
/// of positions reachable in `path` is carried along the pattern, so the cost is at most
/// pattern × path steps, never exponential.
pub fn matches(pattern: &str, path: &str) -> bool {
    let (pattern, anchored) = match pattern.strip_suffix('$') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let p = pattern.as_bytes();
    let s = path.as_bytes();
    // The plain case: a prefix (or, anchored, the whole path).
    if !p.contains(&b'*') {
        return if anchored { s == p } else { s.starts_with(p) };
    }
    // The literal before the first `*` must start the path.
    let first = p.iter().position(|&c| c == b'*').unwrap_or(p.len());
    if !s.starts_with(&p[..first]) {
        return false;
    }
    // reach[j]: the pattern read so far can end at path position j.
    let mut reach = vec![false; s.len() + 1];
    reach[first] = true;
    for &c in &p[first..] {
        if c == b'*' {
            let Some(lowest) = reach.iter().position(|&r| r) else {
                return false;
            };
            for r in &mut reach[lowest..] {
                *r = true;
            }
        } else {
            let mut any = false;
            for j in (0..s.len()).rev() {
                reach[j + 1] = reach[j] && s[j] == c;
                any |= reach[j + 1];
            }
            reach[0] = false;
            if !any {
                return false;
            }
        }
    }
    if anchored {
        reach[s.len()]
    } else {
        reach.iter().any(|&r| r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocked(robots: &str, path: &str) -> bool {
        matches!(
            Robots::parse(robots, "robots.txt", None).verdict(path),
            Verdict::Disallowed(_)
        )
    }

    #[test]
    fn googles_examples() {
        // Google's documentation, "URL matching based on path values".
        assert!(matches("/fish", "/fish.html"));
        assert!(matches("/fish", "/fish/salmon.html"));
        assert!(!matches("/fish", "/Fish.asp"));
        assert!(matches("/fish*", "/fishheads/yummy.html"));
        assert!(matches("/fish/", "/fish/?id=anything"));
        assert!(!matches("/fish/", "/fish"));
        assert!(matches("/*.php", "/folder/filename.php?parameters"));
        assert!(matches("/*.php$", "/filename.php"));
        assert!(!matches("/*.php$", "/filename.php?parameters"));
        assert!(!matches("/*.php$", "/filename.php5"));
        assert!(matches("/fish*.php", "/fishheads/catfish.php?parameters"));
        assert!(!matches("/fish*.php", "/Fish.PHP"));
        assert!(matches("*", "/anything"));
        assert!(matches("/a*b*c$", "/axxbyyc"));
        assert!(!matches("/a*b*c$", "/axxbyycd"));
    }

    #[test]
    fn longest_match_wins_and_allow_wins_ties() {
        let r = "User-agent: *\nAllow: /p\nDisallow: /\n";
        assert!(!blocked(r, "/page"));
        assert!(blocked(r, "/other"));
        let r = "User-agent: *\nAllow: /folder\nDisallow: /folder\n";
        assert!(!blocked(r, "/folder/page"));
        let r = "User-agent: *\nAllow: /page\nDisallow: /*.htm\n";
        assert!(blocked(r, "/page.htm"));
        let r = "User-agent: *\nAllow: /$\nDisallow: /\n";
        assert!(!blocked(r, "/"));
        assert!(blocked(r, "/page.htm"));
    }

    #[test]
    fn googlebot_group_replaces_star_and_groups_merge() {
        let r = "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot/2.1\nDisallow: /private\n\n\
                 User-agent: bingbot\nDisallow: /all\nuser-agent: GOOGLEBOT\nDisallow: /tmp\n";
        let robots = Robots::parse(r, "robots.txt", None);
        assert!(robots.googlebot_group);
        assert!(!blocked(r, "/public"));
        assert!(blocked(r, "/private/x"));
        assert!(blocked(r, "/tmp/x"));
        assert!(!blocked(r, "/all"));
        // Consecutive agent lines share their rules.
        let r = "User-agent: bingbot\nUser-agent: googlebot\nDisallow: /x\n";
        assert!(blocked(r, "/x"));
        // `googlebot-news` is another crawler.
        let r = "User-agent: googlebot-news\nDisallow: /\n";
        assert!(!blocked(r, "/x"));
    }

    #[test]
    fn lines_are_kept_and_odd_spellings_read() {
        let r = "# comment\nuser-agent: *\ndisalow: /a # why\nDisallow /b\nDisallow:\n\
                 Sitemap: https://example.com/s.xml\r\nsitemap:/relative.xml\n";
        let robots = Robots::parse(r, "robots.txt", None);
        assert_eq!(robots.rules.len(), 2);
        let Verdict::Disallowed(rule) = robots.verdict("https://example.com/a/1") else {
            panic!("not blocked");
        };
        assert_eq!(rule.line_number, 3);
        assert_eq!(&r[rule.line.clone()], "disalow: /a # why");
        assert!(blocked(r, "/b"));
        assert_eq!(robots.sitemaps.len(), 2);
        assert_eq!(robots.sitemaps[0].value, "https://example.com/s.xml");
        assert_eq!(
            &r[robots.sitemaps[0].span.clone()],
            "https://example.com/s.xml"
        );
        assert_eq!(&r[robots.sitemaps[1].span.clone()], "/relative.xml");
        assert_eq!(robots.sitemaps[1].line_number, 7);
    }

    #[test]
    fn origins_escapes_and_robots_txt() {
        let r = "User-agent: *\nDisallow: /caf%c3%a9\nDisallow: /robots.txt\n";
        let robots = Robots::parse(r, "x", Some("https://example.com".into()));
        assert!(matches!(
            robots.verdict("https://EXAMPLE.com:443/café"),
            Verdict::Disallowed(_)
        ));
        assert!(matches!(
            robots.verdict("https://other.example/café"),
            Verdict::Allowed(None)
        ));
        assert!(matches!(
            robots.verdict("https://example.com/robots.txt"),
            Verdict::Allowed(None)
        ));
        // Rules before any agent line, and no groups at all, block nothing.
        assert!(!blocked("Disallow: /\n", "/x"));
        assert!(!blocked("", "/x"));
    }

    #[test]
    fn hostile_patterns_stay_linear() {
        let pattern = "/".to_string() + &"*a".repeat(2_000) + "$";
        let path = "/".to_string() + &"a".repeat(1_999) + "b";
        let t = std::time::Instant::now();
        assert!(!matches(&pattern, &path));
        assert!(t.elapsed().as_secs() < 5);
    }
}
