//! Rule `extension-value`: a Google image, video or news value or attribute value that its XSD's simple type rejects.

use crate::declare_rule;
use crate::pipeline::model::{Entry, Sitemap};
use crate::rule::{Context, Rule};
use crate::rules::extension::walk::{self, Class};

declare_rule! {
    /// ## What it does
    /// Checks the text of Google's extension elements and the values of their attributes against
    /// the simple types of Google's XSDs, exactly as a schema validator does:
    ///
    /// - enumerations: `yes`/`no` (also `Yes`/`YES`, `No`/`NO`) for `video:family_friendly`,
    ///   `video:requires_subscription`, `video:live` and `allow_embed`; `allow`/`deny` for
    ///   `relationship`; `video:video_type`; `type` and `resolution` on `video:price`; `type` on
    ///   `video:id`; `Subscription`/`Registration` for `news:access`;
    /// - patterns: `news:language` (`zh-cn`, `zh-tw` or 2-3 lowercase letters, so `en-US` is
    ///   rejected), `news:genres`, `news:stock_tickers` (at most 5 `EXCHANGE:SYMBOL`),
    ///   `video:restriction` (uppercase two-letter country codes), `video:platform` (`web`,
    ///   `mobile`, `tv`), `currency` (three uppercase letters);
    /// - numbers: `video:duration` and the `duration` of `video:content_segment_loc` (whole
    ///   seconds, at most 28800), `video:view_count` (whole number), `video:rating` (decimal from 0
    ///   to 5), `video:season_number`/`episode_number` (from 1);
    /// - lengths: `video:title` (100 characters), `video:description` (2048), `video:category`
    ///   (256);
    /// - dates: `video:publication_date`, `video:expiration_date`, `video:premier_date` and
    ///   `news:publication_date` must be an `xsd:date` or `xsd:dateTime` (a time needs seconds);
    /// - URLs (`xsd:anyURI`: `image:loc`, `video:thumbnail_loc`, …): only what schema validators
    ///   reject for that type (libxml2's RFC 3986 check): a `%` not followed by two hex digits, a
    ///   second `#`, `[` or `]` outside an IPv6 host, a port that is not a number, a malformed
    ///   scheme. Relative URLs and spaces pass, as they do for the type.
    ///
    /// Types derived from `xsd:string` keep whitespace, so `<video:live> yes </video:live>` is
    /// rejected; numbers, dates and URLs may have surrounding whitespace.
    ///
    /// ## Why is this bad?
    /// Schema validators reject the file, and Google ignores or misreads the value: a duration of
    /// `PT10M` is not a number of seconds, `true` is not `yes`. Google's documentation asks for
    /// the same formats (for `news:language` an ISO 639 code such as `en`, with `zh-cn` and
    /// `zh-tw` as the only exceptions).
    ///
    /// ## Example
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
    ///       <video:duration>PT10M</video:duration>
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
    ///       <video:duration>600</video:duration>
    ///     </video:video>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - `sitemap-video.xsd`: `tYesNo`, `tCountryList`, `tPlatformList`; `duration`
    ///   (`xsd:nonNegativeInteger`, `maxInclusive` 28800), `rating` (`xsd:decimal` 0 to 5),
    ///   `view_count`, `title`/`description`/`category` (`maxLength`), the `xsd:date` ∪
    ///   `xsd:dateTime` unions, the attributes of `player_loc`, `restriction`, `price`,
    ///   `platform`, `id`
    /// - `sitemap-news.xsd`: `language` (pattern `zh-cn|zh-tw|([a-z]{2,3})`), `access`, `genres`,
    ///   `publication_date`, `stock_tickers`
    /// - `sitemap-image.xsd`: `loc`, `license` (`xsd:anyURI`)
    /// - XML Schema Part 2: `anyURI`, `decimal`, `nonNegativeInteger`, `date`, `dateTime`
    pub static META = {
        name: "extension-value",
        category: Value,
        severity: Error,
        summary: "an image, video or news value or attribute value that Google's XSD rejects",
    }
}

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        for p in walk::check_root(sitemap, Class::Value) {
            cx.report(p.into_diagnostic(&META));
        }
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        for p in super::entry_problems(sitemap, entry, Class::Value, cx) {
            cx.report(p.into_diagnostic(&META));
        }
    }
}
