//! The site as served (issue 20): HTTP answers for robots.txt and sitemaps, robots.txt's
//! `Sitemap:` lines and rules, and with `--check-urls` the pages listed. The live check
//! (`crate::live`) and the fetch stage (`crate::pipeline::fetch`) find the problems; these files
//! declare the rules and word their findings.

pub mod http_content_type;
pub mod http_redirect;
pub mod http_status;
pub mod robots_blocked;
pub mod robots_sitemap_line;
pub mod sitemap_is_html;
pub mod url_canonical;
pub mod url_noindex;
pub mod url_status;

/// How a fetched thing is named in messages: `robots.txt`, `sitemap`, `page`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fetched {
    Robots,
    Sitemap,
    Page,
}

impl Fetched {
    pub fn noun(self) -> &'static str {
        match self {
            Fetched::Robots => "robots.txt",
            Fetched::Sitemap => "sitemap",
            Fetched::Page => "page",
        }
    }
}

/// A redirect chain as messages show it: `a → 301 → b → 302 → c`.
pub fn chain_text(chain: &[(String, u16)], last: &str) -> String {
    let mut out = String::new();
    for (url, status) in chain {
        out.push_str(&format!(
            "`{}` → {status} → ",
            crate::diagnostic::shown(url)
        ));
    }
    out.push_str(&format!("`{}`", crate::diagnostic::shown(last)));
    out
}
