//! Rule `loc-credentials`: `<loc>` carries a user name or password (`user:pass@host`).

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Field, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::uri::ProblemKind;

declare_rule! {
    /// ## What it does
    /// Reports user information in the authority of `<loc>`: `https://user:secret@example.com/` or
    /// `https://user@example.com/`.
    ///
    /// ## Why is this bad?
    /// A sitemap is public: credentials in it are leaked to everyone who reads it. Crawlers drop
    /// them (or the URL), and browsers warn about such links. It usually means a staging URL leaked
    /// into the production build.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://admin:secret@www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - RFC 3986 §3.2.1 and §7.5 (user information; "use of the format user:password … is deprecated")
    pub static META = {
        name: "loc-credentials",
        category: Url,
        severity: Warning,
        summary: "`<loc>` contains a user name or password",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Loc) else {
            return;
        };
        for p in value
            .url_problems()
            .iter()
            .filter(|p| p.kind == ProblemKind::Credentials)
        {
            cx.report_at(
                &META,
                value.source_range_in_trimmed(sitemap.source, p.range.clone()),
                |span| {
                    Diagnostic::new(&META, span, p.message.clone()).with_help_opt(p.help.clone())
                },
            );
        }
    }
}
