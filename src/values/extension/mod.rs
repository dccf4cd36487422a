//! Google's image, video, news and mobile sitemap extensions as their XSDs define them: the content
//! models as data and the checks of their simple types. Pure: the walk that matches documents
//! against these tables is `rules::extension::walk`.
//!
//! Google publishes one XSD per extension (`sitemap-image.xsd`, `sitemap-video.xsd`,
//! `sitemap-news.xsd`, `sitemap-mobile.xsd`). Each declares one global element, the one that goes
//! in `<url>` (`image:image`, …), and its content. The official `sitemap.xsd` admits extension
//! elements through a *strict* wildcard, so schema validators check them against these XSDs.
//!
//! This module holds:
//!
//! - the content models as data ([`ElementDecl`]: an ordered sequence of [`Particle`]s with
//!   `minOccurs`/`maxOccurs`, simple content of a [`SimpleType`], or empty content; plus the
//!   [`AttributeDecl`]s), transcribed element by element from the XSDs;
//! - [`check_value`], the simple-type checks (enumerations, patterns, numeric ranges, dates,
//!   `xsd:anyURI` through [`crate::values::uri::check_any_uri`]) with the same lexical rules as
//!   the XSDs (whitespace is preserved for types derived from `xsd:string` and collapsed for the
//!   others).
//!
//! The XSDs contain no `xsd:choice`: "one of `video:content_loc` and `video:player_loc`" is only in
//! their documentation, so both are optional here as in the XSD.

mod check;
mod numbers;
mod patterns;

pub use crate::values::namespace::{IMAGE_NS, MOBILE_NS, NEWS_NS, VIDEO_NS};
use std::ops::Range;

pub use check::check_value;
pub use numbers::is_xsd_date_or_datetime;
pub use patterns::{is_word_char, pattern_matches};

/// One of Google's sitemap extensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Extension {
    Image,
    Video,
    News,
    Mobile,
}

impl Extension {
    pub const ALL: [Extension; 4] = [
        Extension::Image,
        Extension::Video,
        Extension::News,
        Extension::Mobile,
    ];

    pub fn namespace(self) -> &'static str {
        match self {
            Extension::Image => IMAGE_NS,
            Extension::Video => VIDEO_NS,
            Extension::News => NEWS_NS,
            Extension::Mobile => MOBILE_NS,
        }
    }

    pub fn from_namespace(namespace: &str) -> Option<Extension> {
        Extension::ALL
            .into_iter()
            .find(|e| e.namespace() == namespace)
    }

    /// The conventional prefix (`image`), which also names the extension in messages.
    pub fn prefix(self) -> &'static str {
        match self {
            Extension::Image => "image",
            Extension::Video => "video",
            Extension::News => "news",
            Extension::Mobile => "mobile",
        }
    }

    /// The schema's file name, as cited in messages.
    pub fn xsd(self) -> &'static str {
        match self {
            Extension::Image => "sitemap-image.xsd",
            Extension::Video => "sitemap-video.xsd",
            Extension::News => "sitemap-news.xsd",
            Extension::Mobile => "sitemap-mobile.xsd",
        }
    }

    /// The one global element of the XSD: the element that goes directly inside `<url>`.
    pub const fn root(self) -> &'static ElementDecl {
        match self {
            Extension::Image => &IMAGE,
            Extension::Video => &VIDEO,
            Extension::News => &NEWS,
            Extension::Mobile => &MOBILE,
        }
    }

    /// The declaration of the element named `local` anywhere in this extension, with its
    /// ancestors from the root down to its parent (empty for the root itself).
    pub fn find(self, local: &str) -> Option<(Vec<&'static ElementDecl>, &'static ElementDecl)> {
        // The tables are a few levels deep; an explicit stack keeps the search iterative.
        let mut stack: Vec<(Vec<&'static ElementDecl>, &'static ElementDecl)> =
            vec![(Vec::new(), self.root())];
        while let Some((ancestors, decl)) = stack.pop() {
            if decl.name == local {
                return Some((ancestors, decl));
            }
            if let Content::Sequence(particles) = decl.content {
                for p in particles.iter().rev() {
                    let mut path = ancestors.clone();
                    path.push(decl);
                    stack.push((path, p.element));
                }
            }
        }
        None
    }
}

/// An element declaration of an extension XSD.
#[derive(Debug)]
pub struct ElementDecl {
    pub extension: Extension,
    /// The local name (`loc` for `image:loc`).
    pub name: &'static str,
    pub content: Content,
    /// The attributes the XSD declares (all unqualified: `attributeFormDefault` is the default).
    pub attributes: &'static [AttributeDecl],
    /// The year Google deprecated the element, though the XSD still declares it.
    pub deprecated: Option<&'static str>,
}

/// What an element may contain.
#[derive(Debug, Clone, Copy)]
pub enum Content {
    /// Element-only content: `<xsd:sequence>` of element particles, in order.
    Sequence(&'static [Particle]),
    /// Text of a simple type (a simple type or `<xsd:simpleContent>`).
    Simple(SimpleType),
    /// Nothing at all, not even whitespace (`<xsd:complexType/>`).
    Empty,
}

/// One element of a sequence, with its `minOccurs` and `maxOccurs` (`None` = `unbounded`).
#[derive(Debug)]
pub struct Particle {
    pub element: &'static ElementDecl,
    pub min: u32,
    pub max: Option<u32>,
}

/// An attribute declaration.
#[derive(Debug)]
pub struct AttributeDecl {
    pub name: &'static str,
    pub ty: SimpleType,
    /// `use="required"`.
    pub required: bool,
    /// The year Google deprecated the attribute, though the XSD still declares it.
    pub deprecated: Option<&'static str>,
}

/// The simple types the extension XSDs use, each checked exactly as the XSD defines it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimpleType {
    /// `xsd:string`: any text.
    String,
    /// `xsd:string` with `maxLength` (in characters).
    MaxLength(usize),
    /// An enumeration on `xsd:string`: exactly one of these (case and whitespace count).
    Enumeration(&'static [&'static str]),
    /// `xsd:anyURI`.
    AnyUri,
    /// `xsd:nonNegativeInteger`.
    NonNegativeInteger,
    /// `xsd:nonNegativeInteger` with `maxInclusive`: a duration in seconds.
    Seconds { max: u32 },
    /// `xsd:integer` with `minInclusive value="1"`.
    PositiveInteger,
    /// `xsd:decimal` with `minInclusive` and `maxInclusive` (whole-number bounds).
    Decimal { min: u32, max: u32 },
    /// The union of `xsd:date` and `xsd:dateTime`.
    DateOrDateTime,
    /// A `<xsd:pattern>` on `xsd:string`.
    Pattern(Pattern),
}

/// The patterns of the extension XSDs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// `news:language`: `zh-cn|zh-tw|([a-z]{2,3})`.
    NewsLanguage,
    /// `news:genres`: a comma-separated list of Google News genres.
    NewsGenres,
    /// `news:stock_tickers`: `(\w+:\w+(, *\w+:\w+){0,4})?`.
    StockTickers,
    /// `video:restriction` (`tCountryList`): `([A-Z]{2}( +[A-Z]{2})*)?`.
    CountryList,
    /// `video:platform` (`tPlatformList`): `((web|mobile|tv)( (web|mobile|tv))*)?`.
    PlatformList,
    /// `video:price/@currency`: `[A-Z]{3}`.
    Currency,
}

impl Pattern {
    /// The pattern as the XSD writes it.
    pub fn regex(self) -> &'static str {
        match self {
            Pattern::NewsLanguage => "zh-cn|zh-tw|([a-z]{2,3})",
            Pattern::NewsGenres => "(PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated)(, *(PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated))*",
            Pattern::StockTickers => r"(\w+:\w+(, *\w+:\w+){0,4})?",
            Pattern::CountryList => "([A-Z]{2}( +[A-Z]{2})*)?",
            Pattern::PlatformList => "((web|mobile|tv)( (web|mobile|tv))*)?",
            Pattern::Currency => "[A-Z]{3}",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The tables, transcribed from the XSDs in their order.

const fn text(extension: Extension, name: &'static str, ty: SimpleType) -> ElementDecl {
    ElementDecl {
        extension,
        name,
        content: Content::Simple(ty),
        attributes: &[],
        deprecated: None,
    }
}

const fn one(element: &'static ElementDecl) -> Particle {
    Particle {
        element,
        min: 1,
        max: Some(1),
    }
}

const fn optional(element: &'static ElementDecl) -> Particle {
    Particle {
        element,
        min: 0,
        max: Some(1),
    }
}

const fn repeated(element: &'static ElementDecl, max: Option<u32>) -> Particle {
    Particle {
        element,
        min: 0,
        max,
    }
}

const fn attribute(name: &'static str, ty: SimpleType, required: bool) -> AttributeDecl {
    AttributeDecl {
        name,
        ty,
        required,
        deprecated: None,
    }
}

/// An optional attribute Google deprecated in `year`.
const fn deprecated_attribute(
    name: &'static str,
    ty: SimpleType,
    year: &'static str,
) -> AttributeDecl {
    AttributeDecl {
        name,
        ty,
        required: false,
        deprecated: Some(year),
    }
}

use Extension::{Image as I, Mobile as M, News as N, Video as V};
use SimpleType as T;

/// `tYesNo` of the video XSD: "all-lowercase, all-uppercase or starting with capital".
pub const YES_NO: &[&str] = &["yes", "Yes", "YES", "no", "No", "NO"];
const RELATIONSHIP: SimpleType = T::Enumeration(&["allow", "deny"]);

// sitemap-image.xsd: image = sequence(loc, caption?, geo_location?, title?, license?).
pub static IMAGE_LOC: ElementDecl = text(I, "loc", T::AnyUri);
pub static IMAGE_CAPTION: ElementDecl = ElementDecl {
    deprecated: Some("2022"),
    ..text(I, "caption", T::String)
};
pub static IMAGE_GEO_LOCATION: ElementDecl = ElementDecl {
    deprecated: Some("2022"),
    ..text(I, "geo_location", T::String)
};
pub static IMAGE_TITLE: ElementDecl = ElementDecl {
    deprecated: Some("2022"),
    ..text(I, "title", T::String)
};
pub static IMAGE_LICENSE: ElementDecl = ElementDecl {
    deprecated: Some("2022"),
    ..text(I, "license", T::AnyUri)
};
pub static IMAGE: ElementDecl = ElementDecl {
    extension: I,
    name: "image",
    content: Content::Sequence(&[
        one(&IMAGE_LOC),
        optional(&IMAGE_CAPTION),
        optional(&IMAGE_GEO_LOCATION),
        optional(&IMAGE_TITLE),
        optional(&IMAGE_LICENSE),
    ]),
    attributes: &[],
    deprecated: None,
};

// sitemap-video.xsd.
pub static VIDEO_THUMBNAIL_LOC: ElementDecl = text(V, "thumbnail_loc", T::AnyUri);
pub static VIDEO_TITLE: ElementDecl = text(V, "title", T::MaxLength(100));
pub static VIDEO_DESCRIPTION: ElementDecl = text(V, "description", T::MaxLength(2048));
pub static VIDEO_CONTENT_LOC: ElementDecl = text(V, "content_loc", T::AnyUri);
pub static VIDEO_PLAYER_LOC: ElementDecl = ElementDecl {
    attributes: &[
        deprecated_attribute("allow_embed", T::Enumeration(YES_NO), "2022"),
        deprecated_attribute("autoplay", T::String, "2022"),
    ],
    ..text(V, "player_loc", T::AnyUri)
};
pub static VIDEO_DURATION: ElementDecl = text(V, "duration", T::Seconds { max: 28800 });
pub static VIDEO_EXPIRATION_DATE: ElementDecl = text(V, "expiration_date", T::DateOrDateTime);
pub static VIDEO_RATING: ElementDecl = text(V, "rating", T::Decimal { min: 0, max: 5 });
pub static VIDEO_CONTENT_SEGMENT_LOC: ElementDecl = ElementDecl {
    attributes: &[attribute("duration", T::Seconds { max: 28800 }, false)],
    ..text(V, "content_segment_loc", T::AnyUri)
};
pub static VIDEO_VIEW_COUNT: ElementDecl = text(V, "view_count", T::NonNegativeInteger);
pub static VIDEO_PUBLICATION_DATE: ElementDecl = text(V, "publication_date", T::DateOrDateTime);
pub static VIDEO_TAG: ElementDecl = text(V, "tag", T::String);
pub static VIDEO_CATEGORY: ElementDecl = ElementDecl {
    deprecated: Some("2022"),
    ..text(V, "category", T::MaxLength(256))
};
pub static VIDEO_FAMILY_FRIENDLY: ElementDecl = text(V, "family_friendly", T::Enumeration(YES_NO));
pub static VIDEO_RESTRICTION: ElementDecl = ElementDecl {
    attributes: &[attribute("relationship", RELATIONSHIP, true)],
    ..text(V, "restriction", T::Pattern(Pattern::CountryList))
};
pub static VIDEO_GALLERY_LOC: ElementDecl = ElementDecl {
    deprecated: Some("2022"),
    attributes: &[attribute("title", T::String, false)],
    ..text(V, "gallery_loc", T::AnyUri)
};
pub static VIDEO_PRICE: ElementDecl = ElementDecl {
    deprecated: Some("2022"),
    attributes: &[
        attribute("currency", T::Pattern(Pattern::Currency), false),
        attribute(
            "type",
            T::Enumeration(&["purchase", "PURCHASE", "rent", "RENT"]),
            false,
        ),
        attribute(
            "resolution",
            T::Enumeration(&["sd", "SD", "hd", "HD"]),
            false,
        ),
    ],
    ..text(V, "price", T::String)
};
pub static VIDEO_REQUIRES_SUBSCRIPTION: ElementDecl =
    text(V, "requires_subscription", T::Enumeration(YES_NO));
pub static VIDEO_UPLOADER: ElementDecl = ElementDecl {
    attributes: &[attribute("info", T::AnyUri, false)],
    ..text(V, "uploader", T::String)
};
pub static VIDEO_SHOW_TITLE: ElementDecl = text(V, "show_title", T::String);
pub static VIDEO_VIDEO_TYPE: ElementDecl = text(
    V,
    "video_type",
    T::Enumeration(&["full", "preview", "clip", "interview", "news", "other"]),
);
pub static VIDEO_EPISODE_TITLE: ElementDecl = text(V, "episode_title", T::String);
pub static VIDEO_SEASON_NUMBER: ElementDecl = text(V, "season_number", T::PositiveInteger);
pub static VIDEO_EPISODE_NUMBER: ElementDecl = text(V, "episode_number", T::PositiveInteger);
pub static VIDEO_PREMIER_DATE: ElementDecl = text(V, "premier_date", T::DateOrDateTime);
pub static VIDEO_TVSHOW: ElementDecl = ElementDecl {
    extension: V,
    name: "tvshow",
    content: Content::Sequence(&[
        one(&VIDEO_SHOW_TITLE),
        one(&VIDEO_VIDEO_TYPE),
        optional(&VIDEO_EPISODE_TITLE),
        optional(&VIDEO_SEASON_NUMBER),
        optional(&VIDEO_EPISODE_NUMBER),
        optional(&VIDEO_PREMIER_DATE),
    ]),
    attributes: &[],
    deprecated: Some("2022"),
};
pub static VIDEO_PLATFORM: ElementDecl = ElementDecl {
    attributes: &[attribute("relationship", RELATIONSHIP, true)],
    ..text(V, "platform", T::Pattern(Pattern::PlatformList))
};
pub static VIDEO_LIVE: ElementDecl = text(V, "live", T::Enumeration(YES_NO));
pub static VIDEO_ID: ElementDecl = ElementDecl {
    attributes: &[attribute(
        "type",
        T::Enumeration(&[
            "tms:series",
            "tms:program",
            "rovi:series",
            "rovi:program",
            "freebase",
            "url",
        ]),
        true,
    )],
    ..text(V, "id", T::String)
};
pub static VIDEO: ElementDecl = ElementDecl {
    extension: V,
    name: "video",
    content: Content::Sequence(&[
        one(&VIDEO_THUMBNAIL_LOC),
        one(&VIDEO_TITLE),
        one(&VIDEO_DESCRIPTION),
        optional(&VIDEO_CONTENT_LOC),
        optional(&VIDEO_PLAYER_LOC),
        optional(&VIDEO_DURATION),
        optional(&VIDEO_EXPIRATION_DATE),
        optional(&VIDEO_RATING),
        repeated(&VIDEO_CONTENT_SEGMENT_LOC, None),
        optional(&VIDEO_VIEW_COUNT),
        optional(&VIDEO_PUBLICATION_DATE),
        repeated(&VIDEO_TAG, Some(32)),
        optional(&VIDEO_CATEGORY),
        optional(&VIDEO_FAMILY_FRIENDLY),
        optional(&VIDEO_RESTRICTION),
        optional(&VIDEO_GALLERY_LOC),
        repeated(&VIDEO_PRICE, None),
        optional(&VIDEO_REQUIRES_SUBSCRIPTION),
        optional(&VIDEO_UPLOADER),
        optional(&VIDEO_TVSHOW),
        optional(&VIDEO_PLATFORM),
        optional(&VIDEO_LIVE),
        repeated(&VIDEO_ID, None),
    ]),
    attributes: &[],
    deprecated: None,
};

// sitemap-news.xsd.
pub static NEWS_NAME: ElementDecl = text(N, "name", T::String);
pub static NEWS_LANGUAGE: ElementDecl = text(N, "language", T::Pattern(Pattern::NewsLanguage));
pub static NEWS_PUBLICATION: ElementDecl = ElementDecl {
    extension: N,
    name: "publication",
    content: Content::Sequence(&[one(&NEWS_NAME), one(&NEWS_LANGUAGE)]),
    attributes: &[],
    deprecated: None,
};
pub static NEWS_ACCESS: ElementDecl = text(
    N,
    "access",
    T::Enumeration(&["Subscription", "Registration"]),
);
pub static NEWS_GENRES: ElementDecl = text(N, "genres", T::Pattern(Pattern::NewsGenres));
pub static NEWS_PUBLICATION_DATE: ElementDecl = text(N, "publication_date", T::DateOrDateTime);
pub static NEWS_TITLE: ElementDecl = text(N, "title", T::String);
pub static NEWS_KEYWORDS: ElementDecl = text(N, "keywords", T::String);
pub static NEWS_STOCK_TICKERS: ElementDecl =
    text(N, "stock_tickers", T::Pattern(Pattern::StockTickers));
pub static NEWS: ElementDecl = ElementDecl {
    extension: N,
    name: "news",
    content: Content::Sequence(&[
        one(&NEWS_PUBLICATION),
        optional(&NEWS_ACCESS),
        optional(&NEWS_GENRES),
        one(&NEWS_PUBLICATION_DATE),
        one(&NEWS_TITLE),
        optional(&NEWS_KEYWORDS),
        optional(&NEWS_STOCK_TICKERS),
    ]),
    attributes: &[],
    deprecated: None,
};

// sitemap-mobile.xsd: `<xsd:complexType/>`, an empty element.
pub static MOBILE: ElementDecl = ElementDecl {
    extension: M,
    name: "mobile",
    content: Content::Empty,
    attributes: &[],
    deprecated: None,
};

/// The genres of `news:genres`.
pub const NEWS_GENRE_NAMES: [&str; 6] = [
    "PressRelease",
    "Satire",
    "Blog",
    "OpEd",
    "Opinion",
    "UserGenerated",
];

/// Every element name an extension declares.
pub fn all_names(ext: Extension) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut stack = vec![ext.root()];
    while let Some(d) = stack.pop() {
        out.push(d.name);
        if let Content::Sequence(ps) = d.content {
            stack.extend(ps.iter().map(|p| p.element));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// What the simple-type checks share.

/// What a checked value belongs to, for messages.
#[derive(Debug, Clone)]
pub struct Target {
    /// How messages name it: `` `<news:language>` `` or `` `relationship` on `<video:platform>` ``.
    pub what: String,
    /// Whether the element or attribute may be left out (then removing it is a fix).
    pub optional: bool,
    /// Whether it is an attribute (for "remove the attribute").
    pub attribute: bool,
    /// The extension whose XSD defines it.
    pub extension: Extension,
}

impl Target {
    fn or_remove(&self) -> &'static str {
        match (self.optional, self.attribute) {
            (false, _) => "",
            (true, false) => ", or remove the element",
            (true, true) => ", or remove the attribute",
        }
    }

    fn xsd(&self) -> &'static str {
        self.extension.xsd()
    }
}

/// A value its simple type rejects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueProblem {
    /// Byte range of the offending part inside the checked text; empty for an empty value.
    pub range: Range<usize>,
    pub message: String,
    /// Shown under the underline.
    pub label: String,
    pub help: Option<String>,
}

fn problem(
    range: Range<usize>,
    message: String,
    label: impl Into<String>,
    help: Option<String>,
) -> ValueProblem {
    ValueProblem {
        range,
        message,
        label: label.into(),
        help,
    }
}

/// The value without surrounding XML whitespace, and where it starts.
fn trim(text: &str) -> (usize, &str) {
    let t = text.trim_start_matches(crate::values::text::is_xml_space);
    let start = text.len() - t.len();
    (start, t.trim_end_matches(crate::values::text::is_xml_space))
}

/// `` `a`, `b` or `c` ``.
pub fn listing(values: &[&str], last: &str) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((only, [])) => only.clone(),
        Some((tail, head)) => format!("{} {last} {tail}", head.join(", ")),
    }
}

/// One spelling per value, ignoring case (`yes`, `no` for `tYesNo`).
pub fn distinct<'v>(values: &[&'v str]) -> Vec<&'v str> {
    let mut out: Vec<&str> = Vec::new();
    for v in values {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(v)) {
            out.push(v);
        }
    }
    out
}

fn empty(target: &Target, fill: &str) -> ValueProblem {
    problem(
        0..0,
        format!("{} is empty", target.what),
        "",
        Some(format!("write {fill}{}", target.or_remove())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(ext: Extension) -> Target {
        Target {
            what: "`<x>`".into(),
            optional: true,
            attribute: false,
            extension: ext,
        }
    }

    /// Every declaration, with its extension.
    fn all_decls() -> Vec<&'static ElementDecl> {
        let mut out = Vec::new();
        for ext in Extension::ALL {
            let mut stack = vec![ext.root()];
            while let Some(d) = stack.pop() {
                out.push(d);
                if let Content::Sequence(ps) = d.content {
                    stack.extend(ps.iter().map(|p| p.element));
                }
            }
        }
        out
    }

    #[test]
    fn tables_are_consistent() {
        for ext in Extension::ALL {
            assert_eq!(Extension::from_namespace(ext.namespace()), Some(ext));
            let mut names = all_names(ext);
            let n = names.len();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), n, "{ext:?}: element names must be unique");
            for name in names {
                let (ancestors, decl) = ext.find(name).unwrap();
                assert_eq!(decl.name, name);
                assert_eq!(decl.extension, ext);
                assert!(ancestors.iter().all(|a| a.extension == ext));
            }
        }
        for d in all_decls() {
            if let Content::Sequence(ps) = d.content {
                for p in ps {
                    assert_eq!(p.element.extension, d.extension);
                    assert!(p.max.is_none_or(|m| m >= p.min.max(1)));
                }
            }
        }
        let Content::Sequence(video) = VIDEO.content else {
            panic!("video is a sequence")
        };
        assert_eq!(video.len(), 23);
        assert_eq!(video[0].element.name, "thumbnail_loc");
        assert_eq!(video[22].element.name, "id");
        assert_eq!(
            Extension::News.find("language").map(|(a, _)| a.len()),
            Some(2)
        );
    }

    #[test]
    fn dates_match_libxml2() {
        // Verdicts of xmllint 2.9.14 (`xsd:date` ∪ `xsd:dateTime`).
        let valid = [
            "2024-05-10",
            "2024-05-10Z",
            "2024-05-10+02:00",
            "2024-05-10+14:00",
            "2024-05-10-14:00",
            "2024-05-10T24:00:00",
            "2024-05-10T24:00:00.0",
            "2024-05-10T24:00:00Z",
            "2024-05-10T10:00:00",
            "2024-05-10T10:00:00.5",
            "2024-05-10T10:00:00.5Z",
            "2024-05-10T10:00:00-00:00",
            "2024-05-10T10:00:00+13:59",
            "2024-05-10T10:00:00.123456789012Z",
            "12024-05-10",
            "-2024-05-10",
            "-0001-01-01",
            "10000-01-01",
            "123456789-01-01",
            "2024-02-29",
            "2000-02-29",
            "0004-02-29",
            "-0004-02-29",
            "400000-02-29",
        ];
        let invalid = [
            "",
            "2024",
            "2024-05",
            "2024-5-10",
            "+2024-05-10",
            "0000-05-10",
            "-0000-01-01",
            "02024-05-10",
            "2023-02-29",
            "1900-02-29",
            "-0001-02-29",
            "2024-02-30",
            "2024-04-31T10:00:00Z",
            "2024-05-10+14:01",
            "2024-05-10+15:00",
            "2024-05-10T24:00:01",
            "2024-05-10T24:00:00.5",
            "2024-05-10T23:59:60",
            "2024-05-10T10:00:00.Z",
            "2024-05-10T10:00:00.",
            "2024-05-10T10:00Z",
            "2024-05-10T10:00",
            "2024-05-10t10:00:00Z",
            "2024-05-10T10:00:00z",
            "2024-05-10T10:00:00+0200",
            "2024-05-10T10:00:00+1:00",
            "2024-05-10T10:00:00+01:0",
            "2024-05-10T10:00:00+00:60",
            "2024-05-10T10:00:00-14:01",
            "2024-05-10T10:00:00+14:59",
            "2024-05-10T1:00:00Z",
            "2024-05-10 10:00:00",
            "2024-05-10T10:00:00 Z",
            "12345678901234567890123-02-29",
        ];
        for v in valid {
            assert!(is_xsd_date_or_datetime(v), "{v} should be valid");
        }
        for v in invalid {
            assert!(!is_xsd_date_or_datetime(v), "{v} should be invalid");
        }
    }

    #[test]
    fn patterns_match_the_xsd() {
        use Pattern::*;
        let cases: &[(Pattern, &str, bool)] = &[
            (NewsLanguage, "en", true),
            (NewsLanguage, "haw", true),
            (NewsLanguage, "zh-cn", true),
            (NewsLanguage, "zh-tw", true),
            (NewsLanguage, "zh", true),
            (NewsLanguage, "en-US", false),
            (NewsLanguage, "zh-CN", false),
            (NewsLanguage, "EN", false),
            (NewsLanguage, "engl", false),
            (NewsLanguage, "", false),
            (NewsGenres, "PressRelease, Blog", true),
            (NewsGenres, "PressRelease,Blog", true),
            (NewsGenres, "Blog,  Satire", true),
            (NewsGenres, "Blog ,Opinion", false),
            (NewsGenres, "Blog,", false),
            (NewsGenres, "blog", false),
            (NewsGenres, "", false),
            (NewsGenres, " Blog", false),
            (StockTickers, "", true),
            (StockTickers, "NASDAQ:A, NYSE:B", true),
            (StockTickers, "A:B,C:D,E:F,G:H,I:J", true),
            (StockTickers, "A:B,C:D,E:F,G:H,I:J,K:L", false),
            (StockTickers, "NASDAQ:A$", true),
            (StockTickers, "NASDAQ:é", true),
            (StockTickers, "NASDAQ:A_B", false),
            (StockTickers, "NASDAQ:A.B", false),
            (StockTickers, "NASDAQ:A¡", false),
            (StockTickers, "NASDAQ:A·", false),
            (StockTickers, "NASDAQ:A\u{2010}", false),
            (StockTickers, "NASDAQ:A\u{200B}", false),
            (StockTickers, "NASDAQ:A\u{3000}", false),
            (StockTickers, "NASDAQ:A©", true),
            (StockTickers, "A:B:C", false),
            (StockTickers, "AAPL", false),
            (StockTickers, " ", false),
            (CountryList, "", true),
            (CountryList, "US CA", true),
            (CountryList, "US  CA", true),
            (CountryList, " US", false),
            (CountryList, "US,CA", false),
            (CountryList, "us", false),
            (CountryList, "USA", false),
            (CountryList, "US\tCA", false),
            (PlatformList, "", true),
            (PlatformList, "web mobile tv", true),
            (PlatformList, "web  tv", false),
            (PlatformList, "Web", false),
            (PlatformList, "desktop", false),
            (Currency, "USD", true),
            (Currency, "usd", false),
            (Currency, "US", false),
        ];
        for &(p, v, ok) in cases {
            assert_eq!(pattern_matches(p, v), ok, "{p:?} {v:?}");
        }
    }

    #[test]
    fn values_report_precise_ranges_and_fixes() {
        let t = target(Extension::Video);
        let check = |ty, v: &str| check_value(ty, v, &t);
        assert_eq!(check(SimpleType::Enumeration(YES_NO), "Yes"), None);
        let p = check(SimpleType::Enumeration(YES_NO), "  no ").unwrap();
        assert_eq!(p.range, 2..4);
        let p = check(SimpleType::Seconds { max: 28800 }, " PT1H ").unwrap();
        assert_eq!(p.range, 1..5);
        assert!(p.help.unwrap().ends_with("`3600`"));
        assert_eq!(check(SimpleType::Seconds { max: 28800 }, " +28800 "), None);
        assert_eq!(check(SimpleType::Seconds { max: 28800 }, "-0"), None);
        assert!(check(SimpleType::Seconds { max: 28800 }, "28801").is_some());
        assert_eq!(check(SimpleType::NonNegativeInteger, "0099"), None);
        assert!(check(SimpleType::NonNegativeInteger, "-1").is_some());
        assert!(check(SimpleType::PositiveInteger, "-0").is_some());
        assert_eq!(check(SimpleType::PositiveInteger, "+1"), None);
        for ok in ["5", "5.", ".5", "+5.000", "-0.0", "0"] {
            assert_eq!(
                check(SimpleType::Decimal { min: 0, max: 5 }, ok),
                None,
                "{ok}"
            );
        }
        for bad in ["5.01", "-0.1", "1e0", "4,5", "", "."] {
            assert!(
                check(SimpleType::Decimal { min: 0, max: 5 }, bad).is_some(),
                "{bad}"
            );
        }
        let p = check(SimpleType::Pattern(Pattern::NewsLanguage), "en-US").unwrap();
        assert!(p.help.unwrap().starts_with("write `en`"));
        let p = check(SimpleType::Pattern(Pattern::NewsGenres), "Blog, sports").unwrap();
        assert_eq!(p.range, 6..12);
        let p = check(SimpleType::MaxLength(3), "abcdé").unwrap();
        assert_eq!(p.range, 3..6);
        assert_eq!(check(SimpleType::AnyUri, "  https://e.com/a b  "), None);
        let p = check(SimpleType::AnyUri, "  https://e.com/%zz").unwrap();
        assert_eq!(p.range, 16..19);
        let p = check(SimpleType::DateOrDateTime, " 2024-05-10T10:00Z").unwrap();
        assert!(p.message.contains("sitemap-video.xsd"), "{}", p.message);
        assert_eq!(check(SimpleType::DateOrDateTime, " 2024-05-10Z "), None);
    }

    proptest::proptest! {
        #[test]
        fn check_value_never_panics_and_ranges_fit(
            text in proptest::prop_oneof!["\\PC{0,40}", "[0-9a-zA-Z:/?#@%.,;+ _\\[\\]\\-\t\n]{0,30}"],
            which in 0usize..14,
        ) {
            let types = [
                SimpleType::String,
                SimpleType::MaxLength(5),
                SimpleType::Enumeration(YES_NO),
                SimpleType::AnyUri,
                SimpleType::NonNegativeInteger,
                SimpleType::Seconds { max: 28800 },
                SimpleType::PositiveInteger,
                SimpleType::Decimal { min: 0, max: 5 },
                SimpleType::DateOrDateTime,
                SimpleType::Pattern(Pattern::NewsLanguage),
                SimpleType::Pattern(Pattern::NewsGenres),
                SimpleType::Pattern(Pattern::StockTickers),
                SimpleType::Pattern(Pattern::CountryList),
                SimpleType::Pattern(Pattern::PlatformList),
            ];
            let t = target(Extension::Video);
            for ty in [types[which], SimpleType::Pattern(Pattern::Currency)] {
                if let Some(p) = check_value(ty, &text, &t) {
                    proptest::prop_assert!(text.get(p.range.clone()).is_some(), "{:?} {:?}", ty, p.range);
                    proptest::prop_assert!(!p.message.ends_with('.'));
                }
            }
        }
    }
}
