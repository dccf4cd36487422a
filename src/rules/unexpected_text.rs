//! Rule `unexpected-text`: text directly inside `urlset`, `sitemapindex`, `url` or `sitemap`, where only elements belong.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{Entry, Kind, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Reports non-whitespace text directly inside the root or an entry, where the schema allows
    /// only elements (whitespace between elements is fine).
    ///
    /// ## Why is this bad?
    /// The schema's content model for these elements is element-only, so validators reject the file.
    /// The text is usually a URL that lost its `<loc>` tags, a template variable that printed
    /// nothing but punctuation, or debug output.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>https://www.example.com/<loc>https://www.example.com/</loc></url>
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
    /// - `sitemap.xsd`, `siteindex.xsd`: complex types with element-only content
    pub static META = {
        name: "unexpected-text",
        category: Structure,
        severity: Error,
        summary: "text where only elements are allowed",
    }
}

pub struct Check;

fn report(span: std::ops::Range<usize>, parent: &str, source: &str, cx: &mut Context<'_>) {
    let text = source.get(span.clone()).unwrap_or("").trim();
    let trimmed_start = span.start + source[span.clone()].find(|c: char| !c.is_whitespace()).unwrap_or(0);
    let span = trimmed_start..trimmed_start + text.len();
    let looks_like_url = text.starts_with("http://") || text.starts_with("https://");
    let help = if looks_like_url {
        "wrap the URL in `<loc>…</loc>`".to_string()
    } else {
        "remove the text; only child elements belong here".to_string()
    };
    cx.report(
        Diagnostic::new(&META, span, format!("text is not allowed directly inside `<{parent}>`"))
            .with_label("unexpected text")
            .with_help(help),
    );
}

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        if sitemap.kind == Kind::Other {
            return;
        }
        for span in &sitemap.stray_text {
            report(span.clone(), sitemap.root.local_name(), sitemap.source, cx);
        }
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        for span in &entry.stray_text {
            report(span.clone(), entry.kind.name(), sitemap.source, cx);
        }
    }
}
