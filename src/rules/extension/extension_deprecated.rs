//! Rule `extension-deprecated`: an image or video tag or attribute Google deprecated in 2022 (`image:caption`, `video:category`, …).

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Sitemap};
use crate::rule::{Context, Rule};
use crate::rules::extension::has_extension;
use crate::values::extension::{self as ext, ElementDecl};

declare_rule! {
    /// ## What it does
    /// Reports the tags and attributes of Google's image and video extensions that Google
    /// deprecated in 2022 and removed from its documentation, though the XSDs still declare them:
    ///
    /// - image: `<image:caption>`, `<image:title>`, `<image:geo_location>`, `<image:license>`;
    /// - video: `<video:category>`, `<video:gallery_loc>`, `<video:price>`, `<video:tvshow>`
    ///   (with its children), and the `allow_embed` and `autoplay` attributes of
    ///   `<video:player_loc>`.
    ///
    /// They are still valid against the XSDs, so this is a warning.
    ///
    /// ## Why is this bad?
    /// Google ignores them: they make the file larger (image titles and captions often double
    /// the size of an image sitemap) and suggest that the information is used when it is not.
    /// Google reads an image's description from the page (`alt` text, captions) and licence
    /// information from IPTC photo metadata or structured data.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
    ///   <url>
    ///     <loc>https://www.example.com/sample.html</loc>
    ///     <image:image>
    ///       <image:loc>https://www.example.com/image.jpg</image:loc>
    ///       <image:caption>A dog on a beach</image:caption>
    ///     </image:image>
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
    /// - Google Search Central blog, "Simplifying the image and video sitemap extensions"
    ///   (May 2022): the deprecated tags and attributes, and that Google stopped using them
    /// - Google Search Central, "Image sitemaps" and "Video sitemaps": the current tags
    pub static META = {
        name: "extension-deprecated",
        category: Structure,
        severity: Warning,
        summary: "an image or video tag or attribute that Google deprecated in 2022",
    }
}

/// The help for a deprecated element.
fn help(decl: &'static ElementDecl, year: &str) -> String {
    if std::ptr::eq(decl, &ext::VIDEO_TVSHOW) {
        return format!("remove it and its children: Google stopped using them in {year}");
    }
    let instead =
        if std::ptr::eq(decl, &ext::IMAGE_CAPTION) || std::ptr::eq(decl, &ext::IMAGE_TITLE) {
            "; it describes images from the page (their `alt` text and the text around them)"
        } else if std::ptr::eq(decl, &ext::IMAGE_LICENSE) {
            "; give the licence in the image's IPTC metadata or in structured data on the page"
        } else {
            ""
        };
    format!("remove it: Google stopped using it in {year}{instead}")
}

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if !has_extension(entry, &[ext::IMAGE_NS, ext::VIDEO_NS]) {
            return;
        }
        let source = sitemap.source;
        super::for_declared(sitemap, entry, cx, &mut |el, decl, cx| {
            if let Some(year) = decl.deprecated {
                cx.report_at(&META, el.name_span.clone(), |span| {
                    let name = format!(
                        "`<{}>`",
                        crate::diagnostic::shown(el.qualified_name(source))
                    );
                    Diagnostic::new(&META, span, format!("{name} is deprecated"))
                        .with_label(format!("Google deprecated it in {year}"))
                        .with_help(help(decl, year))
                });
            }
            if decl.attributes.iter().all(|a| a.deprecated.is_none()) {
                return;
            }
            for attr in el.node.attributes() {
                if attr.namespace().is_some() {
                    continue;
                }
                let Some(year) = decl
                    .attributes
                    .iter()
                    .find(|a| a.name == attr.name())
                    .and_then(|a| a.deprecated)
                else {
                    continue;
                };
                let r = attr.range();
                let base = el.base();
                cx.report_at(&META, r.start + base..r.end + base, |span| {
                    Diagnostic::new(
                        &META,
                        span,
                        format!(
                            "the `{}` attribute of `<{}>` is deprecated",
                            crate::diagnostic::shown(attr.name()),
                            crate::diagnostic::shown(el.qualified_name(source))
                        ),
                    )
                    .with_label(format!("Google deprecated it in {year}"))
                    .with_help(format!(
                        "remove the attribute: Google stopped using it in {year}"
                    ))
                });
            }
        });
    }
}
