//! Rule `extension-limits`: more than 1,000 `<image:image>` in one `<url>`, or more than 1,000 `<news:news>` in one sitemap.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{ChildKind, Element, Entry, Sitemap};
use crate::rule::{Collector, Context, Rule};
use crate::values::extension as ext;
use crate::values::text::group;

declare_rule! {
    /// ## What it does
    /// Checks the count limits of Google's image and news sitemaps, which the XSDs do not
    /// express:
    ///
    /// - at most 1,000 `<image:image>` in one `<url>`;
    /// - at most 1,000 `<news:news>` in one sitemap file.
    ///
    /// ## Why is this bad?
    /// Google reads no more than these: images past the 1,000th of a page and articles past
    /// the 1,000th of a news sitemap may be ignored. A news sitemap that long usually also
    /// lists articles older than two days, which do not belong in it.
    ///
    /// ## Example
    /// A `<url>` with 1,001 `<image:image>` elements, or a news sitemap with 1,001
    /// `<news:news>` elements:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
    ///   <url>
    ///     <loc>https://www.example.com/gallery.html</loc>
    ///     <image:image><image:loc>https://www.example.com/photos/1.jpg</image:loc></image:image>
    ///     <!-- … 1,000 more … -->
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// at most 1,000 images per page (the most important ones), and news sitemaps of at most
    /// 1,000 recent articles each (split them, listed in a sitemap index, if more were
    /// published in the last two days).
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
    ///   <url>
    ///     <loc>https://www.example.com/gallery.html</loc>
    ///     <image:image><image:loc>https://www.example.com/photos/1.jpg</image:loc></image:image>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - Google Search Central, "Image sitemaps": "You can include up to 1,000 `<image:image>`
    ///   tags for each `<url>` tag"
    /// - Google Search Central, "News sitemaps": "Include up to 1,000 `<news:news>` tags in a
    ///   news sitemap"; "split them into multiple sitemaps and use a sitemap index file"
    pub static META = {
        name: "extension-limits",
        category: Limits,
        severity: Error,
        summary: "more than 1,000 `<image:image>` in a `<url>`, or more than 1,000 `<news:news>` in a sitemap",
    }
}

/// The most `<image:image>` per `<url>` and `<news:news>` per sitemap Google reads.
pub const MAX_ITEMS: usize = 1_000;

/// Whether `el` is the top-level element `local` of the extension in `namespace`.
fn is(el: &Element<'_>, namespace: &str, local: &str) -> bool {
    el.namespace() == Some(namespace) && el.local_name() == local
}

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let mut images = entry
            .children
            .iter()
            .filter(|c| c.kind == ChildKind::Foreign && is(&c.element, ext::IMAGE_NS, "image"));
        let Some(over) = images.nth(MAX_ITEMS) else {
            return;
        };
        let total = MAX_ITEMS + 1 + images.count();
        let source = sitemap.source;
        let name = over.element.qualified_name(source);
        let entry_name = entry.element.qualified_name(source);
        cx.report_at(&META, over.element.name_span.clone(), |span| {
            Diagnostic::new(
                &META,
                span,
                format!(
                    "more than {} `<{name}>` in one `<{entry_name}>`",
                    group(MAX_ITEMS as u64)
                ),
            )
            .with_label(format!(
                "`<{name}>` number {} is over the limit",
                group(MAX_ITEMS as u64 + 1)
            ))
            .with_secondary(
                entry.element.name_span.clone(),
                format!("this `<{entry_name}>` has {} images", group(total as u64)),
            )
            .with_help(format!(
                "keep at most {} images for this page, the ones that matter most in search",
                group(MAX_ITEMS as u64)
            ))
        });
    }

    fn collector<'a>(&self, _sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        Some(Box::new(NewsCount::default()))
    }
}

/// Counts `<news:news>` over the file; remembers the first one over the limit.
#[derive(Default)]
struct NewsCount {
    count: usize,
    over: Option<Range<usize>>,
    name: String,
}

impl<'a> Collector<'a> for NewsCount {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        for c in &entry.children {
            if c.kind == ChildKind::Foreign && is(&c.element, ext::NEWS_NS, "news") {
                self.count += 1;
                if self.count == MAX_ITEMS + 1 {
                    self.over = Some(c.element.name_span.clone());
                    self.name = c.element.qualified_name(sitemap.source).to_string();
                }
            }
        }
    }

    fn finish(self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        let Some(span) = self.over else { return };
        let name = &self.name;
        let root = sitemap.root.qualified_name(sitemap.source);
        cx.report_at(&META, span, |span| Diagnostic::new(
                &META,
                span,
                format!(
                    "more than {} `<{name}>` in one sitemap",
                    group(MAX_ITEMS as u64)
                ),
            )
            .with_label(format!(
                "`<{name}>` number {} is over the limit",
                group(MAX_ITEMS as u64 + 1)
            ))
            .with_secondary(
                sitemap.root.name_span.clone(),
                format!(
                    "this `<{root}>` has {} news articles",
                    group(self.count as u64)
                ),
            )
            .with_help(format!(
                "list only articles of the last two days, and split them into news sitemaps of at most {} `<{name}>` each, listed in a sitemap index",
                group(MAX_ITEMS as u64)
            )),
        );
    }
}
