//! Rule `extension-placement`: a Google image, video, news or mobile element outside the `<url>` entry it must be in.

use crate::declare_rule;
use crate::pipeline::model::{Entry, Sitemap};
use crate::rule::{Context, Rule};
use crate::rules::extension::walk::{self, Class};

declare_rule! {
    /// ## What it does
    /// Checks where elements of Google's sitemap extensions stand. `<image:image>`,
    /// `<video:video>`, `<news:news>` and `<mobile:mobile>` belong directly inside a `<url>`
    /// entry; their children (`<image:loc>`, `<video:title>`, `<news:publication>`, …) belong
    /// inside them. Reported: an extension element directly inside `<urlset>` or in a sitemap index
    /// (`<sitemapindex>` or its `<sitemap>` entries), one extension element nested in another
    /// (`<image:image>` inside `<video:video>`), and a child element without its parent
    /// (`<image:loc>` directly inside `<url>`). Elements inside `<loc>` and the other text-only
    /// sitemap elements are reported by `unexpected-child-element`, and extension elements before
    /// `<loc>` by `element-order`.
    ///
    /// ## Why is this bad?
    /// Google reads extension data only where its XSDs put it: an image that is not inside an
    /// `<image:image>` of a `<url>` is attached to no page and is ignored. Schema validation with
    /// the official `sitemap.xsd` and Google's XSDs fails ("No matching global element declaration
    /// available, but demanded by the strict wildcard" for `<image:loc>` in `<url>`; "This
    /// element is not expected" for elements nested in the wrong place).
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
    ///   <url>
    ///     <loc>https://www.example.com/sample.html</loc>
    ///     <image:loc>https://www.example.com/image.jpg</image:loc>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
    ///   <url>
    ///     <loc>https://www.example.com/sample.html</loc>
    ///     <image:image>
    ///       <image:loc>https://www.example.com/image.jpg</image:loc>
    ///     </image:image>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - `sitemap-image.xsd`: the global element `image` (its children are local to it)
    /// - `sitemap-video.xsd`: the global element `video`; `sitemap-news.xsd`: `news`;
    ///   `sitemap-mobile.xsd`: `mobile`
    /// - `sitemap.xsd`: `tUrl` admits other namespaces through
    ///   `<xsd:any namespace="##other" processContents="strict"/>`
    /// - Google Search Central, "Image sitemaps", "Video sitemaps", "News sitemaps"
    pub static META = {
        name: "extension-placement",
        category: Structure,
        severity: Error,
        summary: "a Google image, video, news or mobile element outside the `<url>` it belongs in",
    }
}

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        for p in walk::check_root(sitemap, Class::Placement) {
            cx.report(p.into_diagnostic(&META));
        }
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        for p in super::entry_problems(sitemap, entry, Class::Placement, cx) {
            cx.report(p.into_diagnostic(&META));
        }
    }
}
