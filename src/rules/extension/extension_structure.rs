//! Rule `extension-structure`: Google image, video, news or mobile elements with children, text or attributes their XSD does not allow.

use crate::declare_rule;
use crate::pipeline::model::{Entry, Sitemap};
use crate::rule::{Context, Rule};
use crate::rules::extension::walk::{self, Class};

declare_rule! {
    /// ## What it does
    /// Checks the content of Google's extension elements against the content models of Google's
    /// XSDs. Each of `<image:image>`, `<video:video>`, `<video:tvshow>`, `<news:news>` and
    /// `<news:publication>` is an ordered sequence of children, each with a minimum and maximum
    /// count. Reported, each at the offending element:
    ///
    /// - a child the sequence does not define (`<image:url>`, `<news:name>` directly in
    ///   `<news:news>`, an element of another namespace), with the likely intended name;
    /// - a child out of order, with the element it should precede labelled (the XSDs' order, e.g.
    ///   `image:loc`, `caption`, `geo_location`, `title`, `license`);
    /// - a child that appears more often than allowed (a second `<image:loc>`, a 33rd
    ///   `<video:tag>`), with the first one labelled;
    /// - a missing required child (`<video:title>`, `<news:publication_date>`, …);
    /// - text directly inside an element that holds only elements, and elements inside an element
    ///   that holds only text (`<image:caption><b>…</b></image:caption>`);
    /// - content in `<mobile:mobile>`, which must be empty;
    /// - attributes the XSD does not declare, and missing required attributes
    ///   (`relationship` on `<video:restriction>` and `<video:platform>`, `type` on `<video:id>`).
    ///
    /// Unknown names in a Google namespace directly inside `<url>` (`<image:images>`) are reported
    /// too. Values are checked by `extension-value`, positions outside these elements by
    /// `extension-placement`.
    ///
    /// ## Why is this bad?
    /// The official `sitemap.xsd` validates extension elements strictly against Google's XSDs, so
    /// schema validators such as `xmllint --schema` reject the whole file ("This element is not
    /// expected", "Missing child element(s)"). Google documents the same elements as required; a
    /// video without a title or thumbnail, or a news article without a publication date, is not
    /// indexed.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
    ///   <url>
    ///     <loc>https://www.example.com/videos/grilling-steaks.html</loc>
    ///     <video:video>
    ///       <video:title>Grilling steaks for summer</video:title>
    ///       <video:thumbnail_loc>https://www.example.com/thumbs/123.jpg</video:thumbnail_loc>
    ///       <video:description>Alkis shows you how to get perfectly done steaks every time</video:description>
    ///       <video:content_loc>https://www.example.com/video123.mp4</video:content_loc>
    ///     </video:video>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
    ///   <url>
    ///     <loc>https://www.example.com/videos/grilling-steaks.html</loc>
    ///     <video:video>
    ///       <video:thumbnail_loc>https://www.example.com/thumbs/123.jpg</video:thumbnail_loc>
    ///       <video:title>Grilling steaks for summer</video:title>
    ///       <video:description>Alkis shows you how to get perfectly done steaks every time</video:description>
    ///       <video:content_loc>https://www.example.com/video123.mp4</video:content_loc>
    ///     </video:video>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - `sitemap-image.xsd`: `image` is `<xsd:sequence>` loc, caption?, geo_location?, title?, license?
    /// - `sitemap-video.xsd`: `video` is `<xsd:sequence>` thumbnail_loc, title, description,
    ///   content_loc?, player_loc?, …, id*; `tvshow` is show_title, video_type, episode_title?,
    ///   season_number?, episode_number?, premier_date?
    /// - `sitemap-news.xsd`: `news` is `<xsd:sequence>` publication (name, language), access?,
    ///   genres?, publication_date, title, keywords?, stock_tickers?
    /// - `sitemap-mobile.xsd`: `mobile` is an empty `<xsd:complexType/>`
    /// - Google Search Central, "Image sitemaps", "Video sitemaps", "News sitemaps"
    pub static META = {
        name: "extension-structure",
        category: Structure,
        severity: Error,
        summary: "image, video, news or mobile elements with children, text or attributes their XSD does not allow",
    }
}

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        for p in walk::check_root(sitemap, Class::Structure) {
            cx.report(p.into_diagnostic(&META));
        }
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        for p in super::entry_problems(sitemap, entry, Class::Structure, cx) {
            cx.report(p.into_diagnostic(&META));
        }
    }
}
