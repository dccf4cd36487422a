//! Rule `loc-not-ascii`: `<loc>` contains non-ASCII characters (a valid IRI) that crawlers want percent-encoded.

use crate::declare_rule;
use crate::pipeline::model::{Entry, Field, Sitemap};
use crate::rule::{Context, Rule};
use crate::rules::loc::url_fix;
use crate::values::uri::{Problem, ProblemKind};

declare_rule! {
    /// ## What it does
    /// Reports raw non-ASCII characters in `<loc>` (such as `café` or a Cyrillic path, or an
    /// internationalised host name). Such a value is a valid IRI (RFC 3987), but the protocol asks
    /// for URLs "URL-escaped and encoded". The help shows the whole URL encoded: the path and query
    /// as UTF-8 percent-escapes, the host in punycode.
    ///
    /// ## Why is this bad?
    /// Google asks for escaped URLs; crawlers and tools that expect RFC 3986 handle raw characters
    /// differently (some encode them as Latin-1, some reject the URL), so the same page may be
    /// fetched under two addresses or not at all.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/café</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/caf%C3%A9</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// A safe fix percent-encodes the non-ASCII characters as UTF-8 (`café` → `caf%C3%A9`) and
    /// converts a non-ASCII host name to punycode: the URI every crawler derives from the IRI.
    /// Invisible characters and direction marks (often pasted by accident) are encoded by an
    /// unsafe fix: removing them may be what was meant. No fix where the value is not written as
    /// it reads (a character reference such as `&#233;`).
    ///
    /// ## References
    /// - sitemaps.org protocol, "Entity escaping": `http://www.example.com/ümlat.html` → `http://www.example.com/%C3%BCmlat.html`
    /// - RFC 3987 §3.1 (mapping IRIs to URIs)
    pub static META = {
        name: "loc-not-ascii",
        category: Url,
        severity: Warning,
        fix: Mixed,
        summary: "`<loc>` has raw non-ASCII characters; percent-encode them",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Loc) else {
            return;
        };
        let Some((d, first, several)) = super::problems_of_kind(
            &META,
            sitemap,
            value,
            ProblemKind::NonAscii,
            "also not ASCII",
        ) else {
            return;
        };
        // Built only for a finding: a clean URL pays nothing for it.
        let all: Vec<&Problem> = value
            .url_problems()
            .iter()
            .filter(|p| p.kind == ProblemKind::NonAscii)
            .collect();
        let fix = url_fix(sitemap.source, value, &all, cx.settings.max_url_length);
        // The help of the first problem speaks of it alone; with more, it speaks of them all.
        let help = match &first.fix {
            Some(url) if several && !is_host(value.trimmed(), first) => {
                let errors = value.url_problems().iter().any(|p| p.kind.is_error());
                let how = "crawlers expect a URI: percent-encode the non-ASCII characters as UTF-8";
                Some(if errors {
                    format!("{how}; with the errors fixed too: `{url}`")
                } else {
                    format!("{how}: `{url}`")
                })
            }
            _ => first.help.clone(),
        };
        cx.report(d.with_help_opt(help).with_fix_opt(fix));
    }
}

/// Whether the problem is the host name (right after `//` or the user info): its help already
/// shows the punycode form and the whole URL encoded.
fn is_host(value: &str, problem: &crate::values::uri::Problem) -> bool {
    let before = &value[..problem.range.start];
    before.ends_with("//") || before.ends_with('@')
}

#[cfg(test)]
mod tests {
    use crate::test_fixes::fix_field;

    #[test]
    fn non_ascii_is_percent_encoded_safely() {
        let fixed = |loc: &str| fix_field("loc-not-ascii", "loc", loc);
        assert_eq!(
            crate::test_fixes::expect_fix(
                fixed("https://www.example.com/café"),
                "https://www.example.com/caf%C3%A9",
                "safe"
            ),
            "replace `é` with `%C3%A9`"
        );
        crate::test_fixes::expect_fix(
            fixed("https://bücher.example/straße?q=é"),
            "https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A9",
            "safe",
        );
        assert_eq!(fixed("https://www.example.com/caf&#233;"), None);
    }
}
