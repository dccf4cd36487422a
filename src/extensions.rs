//! Google's image, video, news and mobile sitemap extensions: content models transcribed from Google's XSDs, and one generic checker.
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
//!   `xsd:anyURI`) with the same lexical rules as the XSDs (whitespace is preserved for types
//!   derived from `xsd:string` and collapsed for the others);
//! - a walker ([`check_root`], [`check_entry`]) that matches the tree against the tables with a
//!   generic sequence matcher and returns [`Problem`]s sorted into three [`Class`]es, one per rule
//!   (`extension-placement`, `extension-structure`, `extension-value`);
//! - [`visit_entry`], the same walk for rules that want the typed elements themselves (value-level
//!   rules such as duration ranges or deprecated tags build on it).
//!
//! The XSDs contain no `xsd:choice`: "one of `video:content_loc` and `video:player_loc`" is only in
//! their documentation, so both are optional here as in the XSD. Elements of other namespaces
//! (`xhtml:link`, PageMap, …) are not judged, except where a Google element's content model
//! (which has no wildcard) forbids them.

use std::ops::Range;

use roxmltree::NodeType;

use crate::diagnostic::{Diagnostic, RuleMeta};
use crate::pipeline::model::{self, ChildKind, Element, Entry, EntryKind, Kind, Sitemap, XSI_NS};
use crate::{values::datetime, values::text, values::uri};

pub use crate::values::namespace::{IMAGE_NS, MOBILE_NS, NEWS_NS, VIDEO_NS};

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

// ---------------------------------------------------------------------------------------------
// Simple-type checks.

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

/// Checks `text`, the value exactly as the document holds it (entities expanded, not trimmed),
/// against `ty`; `None` when the XSD accepts it.
pub fn check_value(ty: SimpleType, text: &str, target: &Target) -> Option<ValueProblem> {
    match ty {
        SimpleType::String => None,
        SimpleType::MaxLength(max) => max_length(text, max, target),
        SimpleType::Enumeration(values) => preserved(
            text,
            target,
            |v| values.contains(&v),
            |t| enumeration(t, values, target),
        ),
        SimpleType::Pattern(p) => preserved(
            text,
            target,
            |v| pattern_matches(p, v),
            |t| pattern_problem(p, t, target),
        ),
        _ => {
            // The other types collapse whitespace: surrounding whitespace is fine.
            let (start, t) = trim(text);
            let mut p = match ty {
                SimpleType::AnyUri => any_uri(t)?,
                SimpleType::NonNegativeInteger => integer(t, target, 0, None)?,
                SimpleType::Seconds { max } => integer(t, target, 0, Some(max))?,
                SimpleType::PositiveInteger => integer(t, target, 1, None)?,
                SimpleType::Decimal { min, max } => decimal(t, target, min, max)?,
                SimpleType::DateOrDateTime => date(t, target)?,
                _ => return None,
            };
            p.range = p.range.start + start..p.range.end + start;
            Some(p)
        }
    }
}

/// The value without surrounding XML whitespace, and where it starts.
fn trim(text: &str) -> (usize, &str) {
    let t = text.trim_start_matches(model::is_xml_space);
    let start = text.len() - t.len();
    (start, t.trim_end_matches(model::is_xml_space))
}

/// `text` in backticks for a message: control characters escaped, the middle of long values
/// elided.
fn code(text: &str) -> String {
    let n = text.chars().count();
    let mut out = String::from("`");
    for (i, c) in text.chars().enumerate() {
        if n > 60 && (40..n - 15).contains(&i) {
            if i == 40 {
                out.push('…');
            }
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '`' => out.push('\''),
            c if c.is_control() => out.push_str(&format!("\\u{{{:04X}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('`');
    out
}

/// `` `a`, `b` or `c` ``.
fn listing(values: &[&str], last: &str) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((only, [])) => only.clone(),
        Some((tail, head)) => format!("{} {last} {tail}", head.join(", ")),
    }
}

/// One spelling per value, ignoring case (`yes`, `no` for `tYesNo`).
fn distinct<'v>(values: &[&'v str]) -> Vec<&'v str> {
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

/// For types derived from `xsd:string`, which keep whitespace: accepts exact matches, reports
/// surrounding whitespace on its own when it is the only problem, and `describe`s the rest (called
/// with the trimmed value, possibly empty).
fn preserved(
    text: &str,
    target: &Target,
    matches: impl Fn(&str) -> bool,
    describe: impl FnOnce(&str) -> ValueProblem,
) -> Option<ValueProblem> {
    if matches(text) {
        return None;
    }
    let (start, t) = trim(text);
    if t.len() != text.len() {
        if t.is_empty() {
            let fix = if matches("") {
                "make it empty".to_string()
            } else {
                let mut p = describe("");
                return Some(ValueProblem {
                    range: 0..text.len(),
                    message: format!("{} holds only whitespace", target.what),
                    label: "whitespace".into(),
                    help: p.help.take(),
                });
            };
            return Some(problem(
                0..text.len(),
                format!("{} holds only whitespace", target.what),
                "whitespace",
                Some(format!("{fix}{}", target.or_remove())),
            ));
        }
        if matches(t) {
            return Some(problem(
                start..start + t.len(),
                format!(
                    "{} value {} has surrounding whitespace",
                    target.what,
                    code(t)
                ),
                "whitespace around this value: the XSD compares it exactly",
                Some(format!("remove the whitespace around {}", code(t))),
            ));
        }
    }
    let mut p = describe(t);
    if !t.is_empty() {
        p.range = p.range.start + start..p.range.end + start;
    }
    Some(p)
}

fn max_length(text: &str, max: usize, target: &Target) -> Option<ValueProblem> {
    let n = text.chars().count();
    if n <= max {
        return None;
    }
    let cut = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    Some(problem(
        cut..text.len(),
        format!(
            "{} is {n} characters long; {} allows at most {max}",
            target.what,
            target.xsd()
        ),
        format!("beyond {max} characters"),
        Some(format!("shorten it to at most {max} characters")),
    ))
}

fn enumeration(t: &str, values: &[&'static str], target: &Target) -> ValueProblem {
    let shown = distinct(values);
    let listed = listing(&shown, "or");
    if t.is_empty() {
        return empty(target, &listed);
    }
    let message = format!("{} is not a valid {}", code(t), target.what);
    let lower = t.to_lowercase();
    // Values the XSD accepts in several spellings (`yes`, `Yes`, `YES`).
    let spellings = |s: &str| -> String {
        let all: Vec<&str> = values
            .iter()
            .copied()
            .filter(|v| v.eq_ignore_ascii_case(s))
            .collect();
        if all.len() > 1 {
            format!(
                "write `{s}`; the XSD accepts {} and no other capitalization",
                listing(&all, "and")
            )
        } else {
            format!("write `{s}` (values are case-sensitive)")
        }
    };
    if let Some(s) = values.iter().find(|v| v.eq_ignore_ascii_case(t)) {
        return problem(
            0..t.len(),
            message,
            format!("did you mean `{s}`?"),
            Some(spellings(s)),
        );
    }
    if values.contains(&"yes") {
        let s = match lower.as_str() {
            "true" | "1" | "y" | "on" | "ja" | "oui" | "si" | "sí" => Some("yes"),
            "false" | "0" | "n" | "off" | "nein" | "non" => Some("no"),
            _ => None,
        };
        if let Some(s) = s {
            return problem(
                0..t.len(),
                message,
                format!("did you mean `{s}`?"),
                Some(format!(
                    "write `{s}`: the XSD takes `yes` or `no`, not booleans"
                )),
            );
        }
    }
    if values.contains(&"Subscription")
        && matches!(lower.as_str(), "open" | "free" | "public" | "none")
    {
        return problem(
            0..t.len(),
            message,
            format!("expected {listed}"),
            Some(format!(
                "leave out {} for articles anyone can read: it takes only {listed}",
                target.what
            )),
        );
    }
    match text::closest(t, &shown) {
        Some(s) => problem(
            0..t.len(),
            message,
            format!("did you mean `{s}`?"),
            Some(format!("write `{s}`; allowed: {listed}")),
        ),
        None => problem(
            0..t.len(),
            message,
            format!("expected {listed}"),
            Some(format!("use {listed}")),
        ),
    }
}

// --- Patterns ---------------------------------------------------------------------------------

/// Whether `v` matches the pattern exactly (XSD patterns are anchored at both ends).
pub fn pattern_matches(p: Pattern, v: &str) -> bool {
    match p {
        Pattern::NewsLanguage => language_ok(v),
        Pattern::NewsGenres => comma_list(v).iter().enumerate().all(|(i, (_, tok))| {
            let body = if i == 0 {
                *tok
            } else {
                tok.trim_start_matches(' ')
            };
            NEWS_GENRE_NAMES.contains(&body)
        }),
        Pattern::StockTickers => {
            v.is_empty() || {
                let items = comma_list(v);
                items.len() <= 5
                    && items.iter().enumerate().all(|(i, (_, tok))| {
                        let body = if i == 0 {
                            *tok
                        } else {
                            tok.trim_start_matches(' ')
                        };
                        ticker_ok(body)
                    })
            }
        }
        Pattern::CountryList => {
            v.is_empty()
                || (!v.starts_with(' ')
                    && !v.ends_with(' ')
                    && v.split(' ')
                        .filter(|t| !t.is_empty())
                        .all(|t| t.len() == 2 && t.bytes().all(|b| b.is_ascii_uppercase())))
        }
        Pattern::PlatformList => {
            v.is_empty() || v.split(' ').all(|t| matches!(t, "web" | "mobile" | "tv"))
        }
        Pattern::Currency => v.len() == 3 && v.bytes().all(|b| b.is_ascii_uppercase()),
    }
}

fn language_ok(v: &str) -> bool {
    v == "zh-cn"
        || v == "zh-tw"
        || ((2..=3).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_lowercase()))
}

fn ticker_ok(t: &str) -> bool {
    match t.split_once(':') {
        Some((exchange, symbol)) => {
            !exchange.is_empty()
                && !symbol.is_empty()
                && exchange.chars().all(is_word_char)
                && symbol.chars().all(is_word_char)
        }
        None => false,
    }
}

/// The pieces of `v` between commas, with their byte ranges.
fn comma_list(v: &str) -> Vec<(Range<usize>, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in v.char_indices() {
        if c == ',' {
            out.push((start..i, &v[start..i]));
            start = i + 1;
        }
    }
    out.push((start..v.len(), &v[start..]));
    out
}

/// XSD's `\w`: any character except punctuation (`\p{P}`), separators (`\p{Z}`) and other
/// (`\p{C}`: controls, format, private use). Exact for ASCII, Latin-1 and the General
/// Punctuation block; other non-ASCII characters count as word characters unless they are
/// whitespace or controls (lenient: no false errors).
pub fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric()
            || matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~');
    }
    !matches!(u32::from(c),
        0x80..=0xA1 | 0xA7 | 0xAB | 0xAD | 0xB6 | 0xB7 | 0xBB | 0xBF
        | 0x2000..=0x2043 | 0x2045..=0x2051 | 0x2053..=0x206F
        | 0x3000..=0x3003 | 0x3008..=0x3011 | 0x3014..=0x301F
        | 0xE000..=0xF8FF | 0xFEFF)
        && !c.is_whitespace()
        && !c.is_control()
}

fn pattern_problem(p: Pattern, t: &str, target: &Target) -> ValueProblem {
    match p {
        Pattern::NewsLanguage => language_problem(t, target),
        Pattern::NewsGenres => genres_problem(t, target),
        Pattern::StockTickers => tickers_problem(t, target),
        Pattern::CountryList => country_problem(t, target),
        Pattern::PlatformList => platform_problem(t, target),
        Pattern::Currency => currency_problem(t, target),
    }
}

fn language_problem(t: &str, target: &Target) -> ValueProblem {
    if t.is_empty() {
        return empty(
            target,
            "the publication's ISO 639 language code, such as `en`",
        );
    }
    let message = format!("{} is not a valid {}", code(t), target.what);
    let label = "expected 2 or 3 lowercase letters, `zh-cn` or `zh-tw`";
    let lower = t.to_lowercase().replace('_', "-");
    let chinese = |rest: &str| match rest {
        "cn" | "sg" | "my" | "hans" | "hans-cn" | "hans-sg" => Some("zh-cn"),
        "tw" | "hk" | "mo" | "hant" | "hant-tw" | "hant-hk" | "hant-mo" => Some("zh-tw"),
        _ => None,
    };
    let help = if language_ok(&lower) {
        format!("write `{lower}`: language codes are lowercase")
    } else if let Some(fix) = lower.strip_prefix("zh-").and_then(chinese) {
        let script = if fix == "zh-cn" {
            "Simplified"
        } else {
            "Traditional"
        };
        format!("write `{fix}` ({script} Chinese): the news XSD spells Chinese only as `zh-cn` or `zh-tw`")
    } else if let Some((primary, _)) = lower.split_once('-').filter(|(p, _)| language_ok(p)) {
        format!(
            "write `{primary}`: the news XSD takes the ISO 639 language code alone; \
             only Chinese has regional forms (`zh-cn`, `zh-tw`)"
        )
    } else if let Some(code) = language_name(&lower) {
        format!("write `{code}`: the news XSD takes the ISO 639 code, not the language's name")
    } else {
        "write the ISO 639 code of the publication's language: 2 or 3 lowercase letters \
         (`en`, `fr`, `haw`), or `zh-cn`/`zh-tw` for Chinese"
            .to_string()
    };
    problem(0..t.len(), message, label, Some(help))
}

fn language_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "english" => "en",
        "french" | "français" | "francais" => "fr",
        "german" | "deutsch" => "de",
        "spanish" | "español" | "espanol" => "es",
        "italian" | "italiano" => "it",
        "portuguese" | "português" | "portugues" => "pt",
        "dutch" | "nederlands" => "nl",
        "russian" => "ru",
        "japanese" => "ja",
        "korean" => "ko",
        "arabic" => "ar",
        "hindi" => "hi",
        "turkish" => "tr",
        "polish" | "polski" => "pl",
        _ => return None,
    })
}

/// Splits a list written with any of `,;|/` and spaces into its items, for corrected values.
fn loose_items(t: &str) -> Vec<&str> {
    t.split([',', ';', '|', '/'])
        .map(|s| s.trim_matches(|c: char| c.is_whitespace()))
        .filter(|s| !s.is_empty())
        .collect()
}

fn genre_of(item: &str) -> Option<&'static str> {
    let key: String = item
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect();
    NEWS_GENRE_NAMES
        .iter()
        .copied()
        .find(|g| g.to_lowercase() == key)
}

fn genres_problem(t: &str, target: &Target) -> ValueProblem {
    let all = listing(&NEWS_GENRE_NAMES, "or");
    if t.is_empty() {
        return empty(
            target,
            &format!("one or more of {all}, separated by commas"),
        );
    }
    // The corrected value, when every item can be mapped to a genre.
    let fixed: Option<Vec<&str>> = loose_items(t)
        .into_iter()
        .flat_map(|item| match genre_of(item) {
            Some(g) => vec![Some(g)],
            None => item.split_whitespace().map(genre_of).collect(),
        })
        .collect();
    let fixed = fixed.filter(|f| !f.is_empty()).map(|f| f.join(", "));
    let with_fix = |help: String| match &fixed {
        Some(f) if f != t => format!("{help}: `{f}`"),
        _ => help,
    };
    let items = comma_list(t);
    let last = items.len() - 1;
    for (i, (range, tok)) in items.iter().enumerate() {
        let lead = if i == 0 {
            0
        } else {
            tok.len() - tok.trim_start_matches(' ').len()
        };
        let body = &tok[lead..];
        let at = range.start + lead;
        if body.is_empty() {
            let comma = if i == last {
                range.start - 1
            } else {
                range.end
            };
            let msg = if i == last {
                format!("{} ends with a comma", target.what)
            } else {
                format!("empty genre in {}", target.what)
            };
            return problem(
                comma..comma + 1,
                msg,
                "no genre here",
                Some(with_fix("remove the extra comma".into())),
            );
        }
        if NEWS_GENRE_NAMES.contains(&body) {
            continue;
        }
        let core = body.trim_end_matches(|c: char| c.is_whitespace());
        if core.len() < body.len() && NEWS_GENRE_NAMES.contains(&core) {
            return problem(
                at + core.len()..at + body.len(),
                format!("space before a comma in {}", target.what),
                "the XSD allows spaces only after a comma",
                Some(with_fix("write `Genre, Genre`".into())),
            );
        }
        if let Some(sep) = body.find([';', '|', '/', '\t', '\n']) {
            let c = body[sep..].chars().next().map_or(1, char::len_utf8);
            return problem(
                at + sep..at + sep + c,
                format!("genres in {} must be separated by commas", target.what),
                "not a comma",
                Some(with_fix("separate genres with `, `".into())),
            );
        }
        let message = format!("{} is not a Google News genre", code(body));
        return match genre_of(core) {
            Some(g) => problem(
                at..at + core.len(),
                message,
                format!("did you mean `{g}`?"),
                Some(with_fix(format!("write `{g}` (genres are case-sensitive)"))),
            ),
            None if fixed.is_some() => problem(
                at..at + core.len(),
                message,
                "several genres need commas between them",
                Some(with_fix("separate genres with `, `".into())),
            ),
            None => problem(
                at..at + core.len(),
                message,
                "not a genre the news XSD allows",
                Some(format!(
                    "genres say what kind of article it is: {all}; topics belong in `<news:keywords>`"
                )),
            ),
        };
    }
    // Not reached for a value the pattern rejects; kept total.
    problem(
        0..t.len(),
        format!("{} is not a valid {}", code(t), target.what),
        "",
        Some(format!("use {all}, separated by commas")),
    )
}

fn tickers_problem(t: &str, target: &Target) -> ValueProblem {
    let items = comma_list(t);
    let last = items.len() - 1;
    for (i, (range, tok)) in items.iter().enumerate() {
        if i == 5 {
            let kept: Vec<&str> = items[..5]
                .iter()
                .map(|(_, s)| s.trim_matches(|c: char| c.is_whitespace()))
                .collect();
            return problem(
                range.start..t.len(),
                format!("more than 5 stock tickers in {}", target.what),
                "the 6th and later",
                Some(format!(
                    "keep the 5 most relevant: the news XSD allows at most 5, e.g. `{}`",
                    kept.join(", ")
                )),
            );
        }
        let lead = if i == 0 {
            0
        } else {
            tok.len() - tok.trim_start_matches(' ').len()
        };
        let body = &tok[lead..];
        let at = range.start + lead;
        if body.is_empty() {
            let comma = if i == last {
                range.start - 1
            } else {
                range.end
            };
            return problem(
                comma..comma + 1,
                if i == last {
                    format!("{} ends with a comma", target.what)
                } else {
                    format!("empty stock ticker in {}", target.what)
                },
                "no ticker here",
                Some("remove the extra comma".into()),
            );
        }
        if ticker_ok(body) {
            continue;
        }
        let core = body.trim_end_matches(|c: char| c.is_whitespace());
        if core.len() < body.len() && ticker_ok(core) {
            return problem(
                at + core.len()..at + body.len(),
                format!("space before a comma in {}", target.what),
                "the XSD allows spaces only after a comma",
                Some("write `EXCHANGE:SYMBOL, EXCHANGE:SYMBOL`".into()),
            );
        }
        let Some(colon) = core.find(':') else {
            let sep = core.find([';', '|', '/', ' ', '\t', '\n']);
            if let (Some(sep), true) = (sep, core.contains(':') || t.contains(':')) {
                return problem(
                    at + sep..at + sep + 1,
                    format!(
                        "stock tickers in {} must be separated by commas",
                        target.what
                    ),
                    "not a comma",
                    Some("separate tickers with `, `".into()),
                );
            }
            return problem(
                at..at + core.len(),
                format!("stock ticker {} has no exchange prefix", code(core)),
                "expected `EXCHANGE:SYMBOL`",
                Some(format!(
                    "prefix it with its stock exchange as Google Finance lists it, e.g. `NASDAQ:{core}`"
                )),
            );
        };
        let (exchange, symbol) = (&core[..colon], &core[colon + 1..]);
        if exchange.trim_end().len() < exchange.len() || symbol.trim_start().len() < symbol.len() {
            let fixed = format!("{}:{}", exchange.trim_end(), symbol.trim_start());
            return problem(
                at..at + core.len(),
                format!("space around the `:` in stock ticker {}", code(core)),
                "no spaces allowed",
                Some(format!("write `{fixed}`")),
            );
        }
        if exchange.is_empty() || symbol.is_empty() {
            let (what, ex) = if exchange.is_empty() {
                ("exchange", "NASDAQ:AAPL")
            } else {
                ("symbol", "NYSE:IBM")
            };
            return problem(
                at..at + core.len(),
                format!("stock ticker {} has no {what}", code(core)),
                "expected `EXCHANGE:SYMBOL`",
                Some(format!("write it as `EXCHANGE:SYMBOL`, e.g. `{ex}`")),
            );
        }
        if let Some((off, c)) = core
            .char_indices()
            .find(|&(i, c)| i != colon && !is_word_char(c))
        {
            let end = at + off + c.len_utf8();
            let (message, label, help) = match c {
                ';' | '|' | '/' => (
                    format!("stock tickers in {} must be separated by commas", target.what),
                    "not a comma",
                    "separate tickers with `, `".to_string(),
                ),
                ':' => (
                    format!("stock ticker {} has more than one `:`", code(core)),
                    "second `:`",
                    "write each ticker as `EXCHANGE:SYMBOL`".to_string(),
                ),
                _ => (
                    format!("{} is not allowed in a stock ticker", code(&c.to_string())),
                    "punctuation and spaces are not allowed",
                    format!(
                        "the news XSD allows only letters, digits and symbols on each side of the `:` \
                         (pattern `{}`); leave this ticker out or write it without {}",
                        Pattern::StockTickers.regex(),
                        code(&c.to_string())
                    ),
                ),
            };
            return problem(at + off..end, message, label, Some(help));
        }
    }
    problem(
        0..t.len(),
        format!("{} is not a valid {}", code(t), target.what),
        "",
        Some("write up to 5 tickers as `EXCHANGE:SYMBOL`, separated by commas".into()),
    )
}

/// Finds the first separator other than a single space in a space-separated list.
fn bad_separator(t: &str, allow_runs: bool) -> Option<(Range<usize>, &'static str)> {
    let bytes = t.as_bytes();
    for (i, c) in t.char_indices() {
        match c {
            ',' | ';' | '|' | '/' | '\t' | '\n' | '\r' => {
                let what = match c {
                    '\t' => "a tab",
                    '\n' | '\r' => "a line break",
                    _ => "not a space",
                };
                return Some((i..i + 1, what));
            }
            ' ' if !allow_runs && bytes.get(i + 1) == Some(&b' ') => {
                let run = t[i..].len() - t[i..].trim_start_matches(' ').len();
                return Some((i..i + run, "more than one space"));
            }
            _ => {}
        }
    }
    None
}

/// The items of a list written with any of the separators people use (`,` `;` `|` `/` or
/// whitespace), for suggesting the space-separated spelling.
fn list_items(t: &str) -> impl Iterator<Item = &str> {
    t.split(|c: char| matches!(c, ',' | ';' | '|' | '/') || c.is_whitespace())
        .filter(|s| !s.is_empty())
}

/// The tokens of a single-space-separated list, each with its byte range in `t`.
fn spaced_tokens(t: &str) -> impl Iterator<Item = (Range<usize>, &str)> {
    t.split(' ').scan(0, |at, tok| {
        let range = *at..*at + tok.len();
        *at += tok.len() + 1;
        Some((range, tok))
    })
}

fn country_problem(t: &str, target: &Target) -> ValueProblem {
    let fixed: Vec<String> = list_items(t).map(str::to_uppercase).collect();
    let fix = if fixed
        .iter()
        .all(|c| c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase()))
    {
        Some(fixed.join(" "))
    } else {
        None
    };
    let with_fix = |help: &str| match &fix {
        Some(f) => format!("{help}: `{f}`"),
        None => help.to_string(),
    };
    if let Some((range, what)) = bad_separator(t, true) {
        return problem(
            range,
            format!(
                "country codes in {} must be separated by spaces",
                target.what
            ),
            what,
            Some(with_fix("separate them with spaces")),
        );
    }
    for (range, tok) in spaced_tokens(t) {
        if tok.is_empty() || (tok.len() == 2 && tok.bytes().all(|b| b.is_ascii_uppercase())) {
            continue;
        }
        let (message, label, help) = if tok.chars().count() == 2
            && tok.chars().all(|c| c.is_ascii_alphabetic())
        {
            (
                format!("country code {} is not uppercase", code(tok)),
                "expected uppercase letters".to_string(),
                with_fix("write ISO 3166 country codes in uppercase"),
            )
        } else if tok.len() == 3 && tok.bytes().all(|b| b.is_ascii_alphabetic()) {
            (
                format!("{} is not a two-letter country code", code(tok)),
                "expected ISO 3166-1 alpha-2".to_string(),
                "use two-letter ISO 3166-1 codes (`US`, not `USA`)".to_string(),
            )
        } else {
            (
                format!("{} is not an ISO 3166 country code", code(tok)),
                "expected two uppercase letters".to_string(),
                "list two-letter ISO 3166-1 codes separated by spaces, e.g. `US CA GB`".to_string(),
            )
        };
        return problem(range, message, label, Some(help));
    }
    problem(
        0..t.len(),
        format!("{} is not a valid {}", code(t), target.what),
        "",
        Some("list two-letter ISO 3166-1 codes separated by spaces, e.g. `US CA GB`".into()),
    )
}

fn platform_of(item: &str) -> Option<&'static str> {
    Some(match item.to_lowercase().as_str() {
        "web" | "desktop" | "browser" | "pc" => "web",
        "mobile" | "phone" | "tablet" | "android" | "ios" => "mobile",
        "tv" | "smarttv" | "smart-tv" | "googletv" | "television" => "tv",
        _ => return None,
    })
}

fn platform_problem(t: &str, target: &Target) -> ValueProblem {
    let items: Vec<&str> = list_items(t).collect();
    let fix: Option<Vec<&str>> = items.iter().map(|i| platform_of(i)).collect();
    let with_fix = |help: &str| match &fix {
        Some(f) => format!("{help}: `{}`", f.join(" ")),
        None => help.to_string(),
    };
    if let Some((range, what)) = bad_separator(t, false) {
        return problem(
            range,
            format!(
                "platforms in {} must be separated by single spaces",
                target.what
            ),
            what,
            Some(with_fix("separate them with one space")),
        );
    }
    for (range, tok) in spaced_tokens(t) {
        if matches!(tok, "web" | "mobile" | "tv") {
            continue;
        }
        let message = format!("{} is not a video platform", code(tok));
        return match platform_of(tok) {
            Some(p) => problem(
                range,
                message,
                format!("did you mean `{p}`?"),
                Some(with_fix("use `web`, `mobile` and `tv` (lowercase)")),
            ),
            None => problem(
                range,
                message,
                "expected `web`, `mobile` or `tv`",
                Some("list `web`, `mobile` or `tv`, separated by single spaces".into()),
            ),
        };
    }
    problem(
        0..t.len(),
        format!("{} is not a valid {}", code(t), target.what),
        "",
        Some("list `web`, `mobile` or `tv`, separated by single spaces".into()),
    )
}

fn currency_problem(t: &str, target: &Target) -> ValueProblem {
    if t.is_empty() {
        return empty(target, "a three-letter ISO 4217 code such as `USD`");
    }
    let message = format!("{} is not an ISO 4217 currency code", code(t));
    let upper = t.to_uppercase();
    let fix = if upper.len() == 3 && upper.bytes().all(|b| b.is_ascii_uppercase()) {
        Some(upper)
    } else {
        match t {
            "$" | "US$" => Some("USD".to_string()),
            "€" => Some("EUR".to_string()),
            "£" => Some("GBP".to_string()),
            _ => None,
        }
    };
    match fix {
        Some(f) => problem(
            0..t.len(),
            message,
            format!("did you mean `{f}`?"),
            Some(format!(
                "write `{f}`: {} takes three uppercase letters",
                target.what
            )),
        ),
        None => problem(
            0..t.len(),
            message,
            "expected three uppercase letters",
            Some("use the three-letter ISO 4217 code, such as `USD` or `EUR`".into()),
        ),
    }
}

// --- Numbers ------------------------------------------------------------------------------------

/// `[+-]?[0-9]+`: the sign and the digits.
fn integer_parts(t: &str) -> Option<(bool, &str)> {
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some((neg, digits))
}

/// The value of a digit string, saturating (digit strings longer than 30 digits count as huge).
fn digits_value(digits: &str) -> u128 {
    let d = digits.trim_start_matches('0');
    if d.len() > 30 {
        return u128::MAX;
    }
    d.parse().unwrap_or(0)
}

/// `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)`: the sign, integer digits and fraction digits.
fn decimal_parts(t: &str) -> Option<(bool, &str, &str)> {
    let (neg, rest) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (int, frac) = rest.split_once('.').unwrap_or((rest, ""));
    let ok = (!int.is_empty() || !frac.is_empty())
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit());
    ok.then_some((neg, int, frac))
}

/// A whole number written another way: `1,000`, `600.0`, `1 000`, an ISO 8601 duration or
/// `mm:ss` for seconds. Returns the corrected value and what was wrong.
fn integer_rewrite(t: &str, seconds: bool) -> Option<(String, &'static str)> {
    let grouped = {
        let parts: Vec<&str> = t.split([',', '.', ' ', '\'', '_']).collect();
        parts.len() > 1
            && parts[0].len() <= 3
            && !parts[0].is_empty()
            && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
            && parts[1..].iter().all(|p| p.len() == 3)
            // One `.` is a decimal point (`600.000`), not a thousands separator.
            && (t.contains([',', ' ', '\'', '_']) || t.matches('.').count() > 1)
    };
    if grouped {
        let digits: String = t.chars().filter(char::is_ascii_digit).collect();
        return Some((digits, "write it without thousands separators"));
    }
    if let Some((neg, int, frac)) = decimal_parts(t) {
        if !neg {
            let whole = digits_value(if int.is_empty() { "0" } else { int });
            let up = frac.as_bytes().first().is_some_and(|&b| b >= b'5');
            let n = whole.saturating_add(u128::from(up));
            let how = if frac.bytes().all(|b| b == b'0') {
                "write it without the decimal point"
            } else {
                "round it to a whole number"
            };
            return Some((n.to_string(), how));
        }
    }
    if seconds {
        if let Some(s) = iso_duration_seconds(t) {
            return Some((
                s.to_string(),
                "this is an ISO 8601 duration; the XSD counts seconds",
            ));
        }
        let parts: Vec<&str> = t.split(':').collect();
        if (2..=3).contains(&parts.len())
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.len() <= 2 && p.bytes().all(|b| b.is_ascii_digit()))
        {
            let total = parts
                .iter()
                .fold(0u128, |acc, p| acc * 60 + digits_value(p));
            return Some((
                total.to_string(),
                "this is a clock time; the XSD counts seconds",
            ));
        }
    }
    None
}

/// `PT1H2M3S`, `PT90S`, `P0DT1H` → seconds.
fn iso_duration_seconds(t: &str) -> Option<u128> {
    let rest = t.strip_prefix(['P', 'p'])?;
    let mut total: u128 = 0;
    let mut num = String::new();
    let mut in_time = false;
    let mut any = false;
    for c in rest.chars() {
        match c.to_ascii_uppercase() {
            'T' if num.is_empty() => in_time = true,
            d if d.is_ascii_digit() || d == '.' => num.push(d),
            unit => {
                let n: f64 = num.parse().ok()?;
                num.clear();
                let factor = match (unit, in_time) {
                    ('D', false) => 86_400.0,
                    ('H', true) => 3_600.0,
                    ('M', true) => 60.0,
                    ('S', true) => 1.0,
                    _ => return None,
                };
                total = total.saturating_add((n * factor).round() as u128);
                any = true;
            }
        }
    }
    (any && num.is_empty()).then_some(total)
}

fn integer(t: &str, target: &Target, min: u128, max: Option<u32>) -> Option<ValueProblem> {
    let seconds = max.is_some();
    if t.is_empty() {
        let fill = if seconds {
            "the duration in whole seconds, such as `600`"
        } else if min > 0 {
            "a whole number from 1, such as `1`"
        } else {
            "a whole number such as `1000`"
        };
        return Some(empty(target, fill));
    }
    let Some((neg, digits)) = integer_parts(t) else {
        let message = format!("{} in {} is not a whole number", code(t), target.what);
        if let Some(ws) = t.find(char::is_whitespace) {
            if integer_rewrite(t, seconds).is_none() {
                return Some(problem(
                    ws..ws + t[ws..].chars().next().map_or(1, char::len_utf8),
                    message,
                    "whitespace inside the number",
                    Some("write only digits".into()),
                ));
            }
        }
        return Some(match integer_rewrite(t, seconds) {
            Some((fixed, how)) => problem(
                0..t.len(),
                message,
                "expected digits only",
                Some(format!("{how}: `{fixed}`")),
            ),
            None => problem(
                0..t.len(),
                message,
                "expected digits only",
                Some("write a whole number made of digits only".into()),
            ),
        });
    };
    let value = digits_value(digits);
    if neg && value > 0 {
        return Some(problem(
            0..t.len(),
            format!("{} in {} is negative", code(t), target.what),
            if min > 0 {
                "must be 1 or more"
            } else {
                "must be 0 or more"
            },
            Some(format!("write a whole number from {min}")),
        ));
    }
    if value < min {
        return Some(problem(
            0..t.len(),
            format!("{} in {} is less than {min}", code(t), target.what),
            format!("numbering starts at {min}"),
            Some(format!(
                "write a whole number from {min}; leave the element out if there is none"
            )),
        ));
    }
    if let Some(max) = max {
        let max = u128::from(max);
        if value > max {
            let help = if value <= max * 1000 {
                format!(
                    "the XSD allows at most {max} seconds (8 hours); if this is in milliseconds, write `{}`",
                    (value + 500) / 1000
                )
            } else {
                format!("the XSD allows at most {max} seconds (8 hours)")
            };
            return Some(problem(
                0..t.len(),
                format!("{} in {} is more than {max} seconds", code(t), target.what),
                format!("longer than {max}"),
                Some(help),
            ));
        }
    }
    None
}

fn decimal(t: &str, target: &Target, min: u32, max: u32) -> Option<ValueProblem> {
    if let Some((neg, int, frac)) = decimal_parts(t) {
        let whole = digits_value(if int.is_empty() { "0" } else { int });
        let has_frac = frac.bytes().any(|b| b != b'0');
        let zero = whole == 0 && !has_frac;
        let below =
            neg && !zero && (min > 0 || whole > 0 || has_frac) || !neg && whole < u128::from(min);
        let above = !neg && (whole > u128::from(max) || whole == u128::from(max) && has_frac);
        if !below && !above {
            return None;
        }
    }
    let range_text = format!("from {min} to {max}");
    if t.is_empty() {
        return Some(empty(
            target,
            &format!("a number {range_text}, such as `4.2`"),
        ));
    }
    let Some((neg, int, frac)) = decimal_parts(t) else {
        let message = format!("{} in {} is not a decimal number", code(t), target.what);
        let comma = t.replacen(',', ".", 1);
        let (label, help) = if decimal_parts(&comma).is_some() {
            ("decimal comma", format!("write a decimal point: `{comma}`"))
        } else if let Some((a, b)) = t.split_once('/') {
            match (decimal_parts(a.trim()), b.trim()) {
                (Some(_), d) if d == max.to_string() => (
                    "a fraction",
                    format!("write only the rating: `{}`", a.trim()),
                ),
                _ => (
                    "a fraction",
                    format!("write a number {range_text}, such as `4.2`"),
                ),
            }
        } else if let Ok(f) = t.parse::<f64>() {
            (
                "exponent notation",
                format!("write it without an exponent: `{f}`"),
            )
        } else {
            (
                "expected a decimal number",
                format!("write a number {range_text}, such as `4.2`"),
            )
        };
        return Some(problem(0..t.len(), message, label, Some(help)));
    };
    let whole = digits_value(if int.is_empty() { "0" } else { int });
    let has_frac = frac.bytes().any(|b| b != b'0');
    let zero = whole == 0 && !has_frac;
    let below =
        neg && !zero && (min > 0 || whole > 0 || has_frac) || !neg && whole < u128::from(min);
    let above = !neg && (whole > u128::from(max) || whole == u128::from(max) && has_frac);
    if below {
        return Some(problem(
            0..t.len(),
            format!("{} in {} is less than {min}", code(t), target.what),
            format!("expected {range_text}"),
            Some(format!("write a number {range_text}")),
        ));
    }
    if above {
        let v: f64 = t.parse().unwrap_or(f64::MAX);
        let help = if v <= 10.0 {
            format!(
                "ratings go {range_text}; if this is out of 10, write `{}`",
                v / 2.0
            )
        } else if v <= 100.0 {
            format!(
                "ratings go {range_text}; if this is a percentage, write `{}`",
                v / 20.0
            )
        } else {
            format!("write a number {range_text}")
        };
        return Some(problem(
            0..t.len(),
            format!("{} in {} is more than {max}", code(t), target.what),
            format!("expected {range_text}"),
            Some(help),
        ));
    }
    None
}

// --- Dates --------------------------------------------------------------------------------------

/// Whether `s` (whitespace already collapsed) is an `xsd:date` or an `xsd:dateTime`, with the
/// limits of libxml2: a year of 4 or more digits (no leading zero beyond 4, not `0000`, at most
/// `i64::MAX`), optionally negative; real calendar days; `24:00:00` as the end of a day; a
/// timezone of at most ±14:00.
pub fn is_xsd_date_or_datetime(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let year_start = i;
    let mut year: i64 = 0;
    while let Some(d) = b.get(i).filter(|d| d.is_ascii_digit()) {
        year = match year
            .checked_mul(10)
            .and_then(|y| y.checked_add(i64::from(d - b'0')))
        {
            Some(y) => y,
            None => return false,
        };
        i += 1;
    }
    let year_len = i - year_start;
    if year_len < 4 || (year_len > 4 && b[year_start] == b'0') || year == 0 {
        return false;
    }
    let two = |at: usize| -> Option<u32> {
        let d = b.get(at..at + 2)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| u32::from(d[0] - b'0') * 10 + u32::from(d[1] - b'0'))
    };
    let (Some(month), Some(day)) = (
        (b.get(i) == Some(&b'-')).then(|| two(i + 1)).flatten(),
        (b.get(i + 3) == Some(&b'-')).then(|| two(i + 4)).flatten(),
    ) else {
        return false;
    };
    i += 6;
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days {
        return false;
    }
    if b.get(i) == Some(&b'T') {
        let (Some(h), Some(m), Some(sec)) = (
            two(i + 1),
            (b.get(i + 3) == Some(&b':')).then(|| two(i + 4)).flatten(),
            (b.get(i + 6) == Some(&b':')).then(|| two(i + 7)).flatten(),
        ) else {
            return false;
        };
        i += 9;
        let mut frac_zero = true;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let start = i;
            while let Some(d) = b.get(i).filter(|d| d.is_ascii_digit()) {
                frac_zero &= *d == b'0';
                i += 1;
            }
            if i == start {
                return false;
            }
        }
        let end_of_day = h == 24 && m == 0 && sec == 0 && frac_zero;
        if (h > 23 && !end_of_day) || m > 59 || sec > 59 {
            return false;
        }
    }
    match b.get(i) {
        None => true,
        Some(b'Z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            let (Some(h), Some(m)) = (
                two(i + 1),
                (b.get(i + 3) == Some(&b':')).then(|| two(i + 4)).flatten(),
            ) else {
                return false;
            };
            i + 6 == b.len() && m <= 59 && h * 60 + m <= 14 * 60
        }
        Some(_) => false,
    }
}

const DATE_FORMS: &str = "`YYYY-MM-DD` (e.g. `2024-11-21`) or `YYYY-MM-DDThh:mm:ssTZD` (e.g. `2024-11-21T10:00:00+00:00`)";

fn date(t: &str, target: &Target) -> Option<ValueProblem> {
    if is_xsd_date_or_datetime(t) {
        return None;
    }
    if t.is_empty() {
        return Some(empty(target, &format!("a date as {DATE_FORMS}")));
    }
    let verdict = datetime::parse(t);
    let first = verdict.problems().first();
    Some(match first {
        Some(p) if !p.range.is_empty() => {
            // The W3C Datetime parser words XSD problems for `<lastmod>`.
            let message = p.message.replace("the sitemap XSD", target.xsd());
            problem(p.range.clone(), message, "", p.help.clone())
        }
        _ => problem(
            0..t.len(),
            format!(
                "{} in {} is not an `xsd:date` or `xsd:dateTime` value",
                code(t),
                target.what
            ),
            "",
            Some(format!("write {DATE_FORMS}")),
        ),
    })
}

// --- URIs ---------------------------------------------------------------------------------------

/// Why a URI reference failed to parse, and where (a byte offset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UriFail {
    At(usize),
    Port(usize, usize),
    Bracket(usize),
}

impl UriFail {
    fn pos(self) -> usize {
        match self {
            UriFail::At(p) | UriFail::Port(p, _) | UriFail::Bracket(p) => p,
        }
    }
}

/// An RFC 3986 URI-reference parser mirroring libxml2's (its acceptance set is what the XSD
/// verdicts of validators are based on). Like libxml2's `xsd:anyURI` check, it reads every
/// character that would need escaping (controls, space, non-ASCII, `<>"{}|\^`` ` ``'`) as `_`.
struct UriParser<'b> {
    b: &'b [u8],
}

/// A byte as libxml2's `xsd:anyURI` check reads it: `_` for a character that would need escaping.
const fn uri_byte(c: u8) -> u8 {
    if !(c >= 32 && c < 127)
        || matches!(
            c,
            b' ' | b'<' | b'>' | b'"' | b'{' | b'}' | b'|' | b'\\' | b'^' | b'`' | b'\''
        )
    {
        b'_'
    } else {
        c
    }
}

/// Classes of (escaped) URI bytes, as bits of [`URI_CLASS`].
const UNRESERVED: u8 = 1;
const SUB_DELIM: u8 = 2;
/// `:` and `@`, the other characters of `pchar`.
const PCHAR_EXTRA: u8 = 4;

const fn uri_class(c: u8) -> u8 {
    let mut class = 0;
    if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~') {
        class |= UNRESERVED;
    }
    if matches!(
        c,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    ) {
        class |= SUB_DELIM;
    }
    if matches!(c, b':' | b'@') {
        class |= PCHAR_EXTRA;
    }
    class
}

/// [`uri_byte`] and [`uri_class`] for every byte (the class is looked up by the escaped byte,
/// and the 0 past the end has none): the parser looks each character up several times.
const URI_TABLES: ([u8; 256], [u8; 256]) = {
    let mut bytes = [0u8; 256];
    let mut class = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        bytes[i] = uri_byte(i as u8);
        class[i] = uri_class(i as u8);
        i += 1;
    }
    (bytes, class)
};
static URI_BYTES: [u8; 256] = URI_TABLES.0;
static URI_CLASS: [u8; 256] = URI_TABLES.1;

impl UriParser<'_> {
    /// The byte at `i` after libxml2's escaping; 0 past the end.
    fn at(&self, i: usize) -> u8 {
        self.b.get(i).map_or(0, |&c| URI_BYTES[usize::from(c)])
    }

    fn is(&self, i: usize, class: u8) -> bool {
        URI_CLASS[usize::from(self.at(i))] & class != 0
    }

    fn unreserved(&self, i: usize) -> bool {
        self.is(i, UNRESERVED)
    }

    fn pct(&self, i: usize) -> bool {
        self.at(i) == b'%'
            && self.at(i + 1).is_ascii_hexdigit()
            && self.at(i + 2).is_ascii_hexdigit()
    }

    fn sub_delim(&self, i: usize) -> bool {
        self.is(i, SUB_DELIM)
    }

    fn pchar(&self, i: usize) -> bool {
        self.is(i, UNRESERVED | SUB_DELIM | PCHAR_EXTRA) || self.pct(i)
    }

    fn step(&self, i: usize) -> usize {
        if self.at(i) == b'%' {
            i + 3
        } else {
            i + 1
        }
    }

    /// A segment; `forbid` stops it (`:` in the first segment of a relative path).
    fn segment(&self, mut i: usize, forbid: u8, allow_empty: bool) -> Result<usize, UriFail> {
        if !self.pchar(i) {
            return if allow_empty {
                Ok(i)
            } else {
                Err(UriFail::At(i))
            };
        }
        while self.pchar(i) && self.at(i) != forbid {
            i = self.step(i);
        }
        Ok(i)
    }

    fn path_abempty(&self, mut i: usize) -> Result<usize, UriFail> {
        while self.at(i) == b'/' {
            i = self.segment(i + 1, 0, true)?;
        }
        Ok(i)
    }

    fn path_absolute(&self, i: usize) -> Result<usize, UriFail> {
        match self.segment(i + 1, 0, false) {
            Ok(j) => self.path_abempty(j),
            Err(_) => Ok(i + 1),
        }
    }

    fn authority(&self, start: usize) -> Result<usize, UriFail> {
        let mut i = start;
        while self.unreserved(i) || self.pct(i) || self.sub_delim(i) || self.at(i) == b':' {
            i = self.step(i);
        }
        i = if self.at(i) == b'@' { i + 1 } else { start };
        if self.at(i) == b'[' {
            let open = i;
            while !matches!(self.at(i), b']' | 0) {
                i += 1;
            }
            if self.at(i) != b']' || i >= self.b.len() {
                return Err(UriFail::Bracket(open));
            }
            i += 1;
        } else {
            while self.unreserved(i) || self.pct(i) || self.sub_delim(i) {
                i = self.step(i);
            }
        }
        if self.at(i) == b':' {
            let port = i + 1;
            let mut j = port;
            let mut value: i32 = 0;
            while self.at(j).is_ascii_digit() {
                value = match value
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(i32::from(self.at(j) - b'0')))
                {
                    Some(v) => v,
                    None => return Err(UriFail::Port(port, self.digits_end(port))),
                };
                j += 1;
            }
            if j == port || !matches!(self.at(j), b'/' | b'?' | b'#' | 0) {
                // No digits, or more than digits: the whole port text is wrong.
                let end = (port..self.b.len())
                    .find(|&k| matches!(self.at(k), b'/' | b'?' | b'#'))
                    .unwrap_or(self.b.len());
                return Err(UriFail::Port(port, end));
            }
            i = j;
        }
        Ok(i)
    }

    fn digits_end(&self, mut i: usize) -> usize {
        while self.at(i).is_ascii_digit() {
            i += 1;
        }
        i
    }

    /// `?query` and `#fragment`, then the end.
    fn tail(&self, mut i: usize) -> Result<(), UriFail> {
        if self.at(i) == b'?' {
            i += 1;
            while self.pchar(i) || matches!(self.at(i), b'/' | b'?') {
                i = self.step(i);
            }
        }
        if self.at(i) == b'#' {
            i += 1;
            while self.pchar(i) || matches!(self.at(i), b'/' | b'?' | b'[' | b']') {
                i = self.step(i);
            }
        }
        if i >= self.b.len() {
            Ok(())
        } else {
            Err(UriFail::At(i))
        }
    }

    fn absolute(&self) -> Result<(), UriFail> {
        if !self.at(0).is_ascii_alphabetic() {
            return Err(UriFail::At(0));
        }
        let mut i = 1;
        while self.at(i).is_ascii_alphanumeric() || matches!(self.at(i), b'+' | b'-' | b'.') {
            i += 1;
        }
        if self.at(i) != b':' {
            return Err(UriFail::At(i));
        }
        i += 1;
        if self.at(i) == b'/' && self.at(i + 1) == b'/' {
            let j = self.authority(i + 2)?;
            i = self.path_abempty(j)?;
        } else if self.at(i) == b'/' {
            i = self.path_absolute(i)?;
        } else if self.pchar(i) {
            let j = self.segment(i, 0, false)?;
            i = self.path_abempty(j)?;
        }
        self.tail(i)
    }

    fn relative(&self) -> Result<(), UriFail> {
        let mut i = 0;
        if self.at(0) == b'/' && self.at(1) == b'/' {
            let j = self.authority(2)?;
            i = self.path_abempty(j)?;
        } else if self.at(0) == b'/' {
            i = self.path_absolute(0)?;
        } else if self.pchar(0) {
            let j = self.segment(0, b':', false)?;
            i = self.path_abempty(j)?;
        }
        self.tail(i)
    }
}

/// Checks a (collapsed) `xsd:anyURI` value.
fn any_uri(t: &str) -> Option<ValueProblem> {
    // A plain `http(s)` URL (the usual value) is an absolute URI that every check accepts.
    if t.is_empty() || uri::is_plain_http_url(t.as_bytes()) {
        return None;
    }
    // A generator's output in place of a URL (a placeholder, an object) is `extension-url`'s to
    // report as such, not noise about the characters of a URI.
    if text::is_json_object(t) || !text::template_placeholders(t, 1).is_empty() {
        return None;
    }
    let parser = UriParser { b: t.as_bytes() };
    let Err(a) = parser.absolute() else {
        return None;
    };
    let Err(r) = parser.relative() else {
        return None;
    };
    let fail = if a.pos() >= r.pos() { a } else { r };
    let char_at = |p: usize| t.get(p..).and_then(|s| s.chars().next()).unwrap_or(' ');
    let one = |p: usize| p..p + char_at(p).len_utf8();
    // crate::values::uri explains http(s) URLs best; use its help for the same spot when it has one.
    let uri_help = |p: usize, kinds: &[uri::ProblemKind]| {
        uri::check_http_url(t)
            .into_iter()
            .find(|q| kinds.contains(&q.kind) && q.range.contains(&p))
            .and_then(|q| q.help)
    };
    use uri::ProblemKind::{BadPercentEscape, InvalidChar, InvalidHost};
    let (range, message, label, help) = match fail {
        UriFail::Port(start, end) => (
            start..end.max(start),
            format!("port {} is not a number", code(&t[start..end.max(start)])),
            "not a port".to_string(),
            "write a numeric port after the `:`, or remove the `:`".to_string(),
        ),
        UriFail::Bracket(p) => (
            p..t.len(),
            "`[` opens an IP literal that is never closed".to_string(),
            "no matching `]`".to_string(),
            "close the IPv6 address with `]`, or percent-encode `[` as `%5B`".to_string(),
        ),
        UriFail::At(p) => match char_at(p) {
            '%' => {
                let end = t[p + 1..]
                    .char_indices()
                    .take(2)
                    .take_while(|(_, c)| c.is_ascii_alphanumeric())
                    .last()
                    .map_or(p + 1, |(i, c)| p + 1 + i + c.len_utf8());
                (
                    p..end,
                    format!("{} is not a valid percent-escape", code(&t[p..end])),
                    "`%` must be followed by two hex digits".to_string(),
                    uri_help(p, &[BadPercentEscape])
                        .unwrap_or_else(|| "write a literal `%` as `%25`".to_string()),
                )
            }
            '#' => (
                one(p),
                "a second `#` in the URL".to_string(),
                "a URL has at most one fragment".to_string(),
                "percent-encode this `#` as `%23`".to_string(),
            ),
            c @ ('[' | ']') => (
                one(p),
                format!("`{c}` outside an IPv6 address"),
                "not allowed here in a URI".to_string(),
                uri_help(p, &[InvalidChar, InvalidHost]).unwrap_or_else(|| {
                    format!(
                        "percent-encode it as `{}`",
                        if c == '[' { "%5B" } else { "%5D" }
                    )
                }),
            ),
            ':' if !t[..p].contains(['/', '?', '#']) => (
                0..p + 1,
                if p == 0 {
                    "the URI starts with `:`".to_string()
                } else {
                    format!("{} is not a valid URI scheme", code(&t[..p]))
                },
                "expected a scheme such as `https`".to_string(),
                "write an absolute URL such as `https://www.example.com/…`; a scheme starts with \
                 a letter and holds only letters, digits, `+`, `-` and `.`"
                    .to_string(),
            ),
            c => (
                one(p),
                format!("{} is not allowed here in a URI", code(&c.to_string())),
                "invalid character".to_string(),
                uri_help(p, &[InvalidChar]).unwrap_or_else(|| {
                    format!(
                        "percent-encode it as `{}`",
                        c.to_string()
                            .bytes()
                            .map(|b| format!("%{b:02X}"))
                            .collect::<String>()
                    )
                }),
            ),
        },
    };
    Some(problem(range, message, label, Some(help)))
}

// ---------------------------------------------------------------------------------------------
// The walk: placement, the sequence matcher, attributes and values.

/// The rule a [`Problem`] belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// An extension element where it does not belong (`extension-placement`).
    Placement,
    /// Children, text or attributes its content model does not allow (`extension-structure`).
    Structure,
    /// A value or attribute value its simple type rejects (`extension-value`).
    Value,
}

/// One problem in extension elements, ready to become a diagnostic of the rule for its class.
#[derive(Debug, Clone)]
pub struct Problem {
    pub class: Class,
    pub span: Range<usize>,
    pub message: String,
    pub label: String,
    pub secondary: Vec<(Range<usize>, String)>,
    pub help: Option<String>,
}

impl Problem {
    pub fn into_diagnostic(self, meta: &'static RuleMeta) -> Diagnostic {
        let mut d = Diagnostic::new(meta, self.span, self.message).with_label(self.label);
        for (span, label) in self.secondary {
            d = d.with_secondary(span, label);
        }
        d.with_help_opt(self.help)
    }
}

/// Problems of `class` in Google extension elements placed directly inside the root element.
pub fn check_root(sitemap: &Sitemap<'_>, class: Class) -> Vec<Problem> {
    let mut walker = Walker::new(sitemap.source, Want::One(class), None);
    if sitemap.kind != Kind::Other {
        let place = Place::Root {
            parent: sitemap.root.qualified_name(sitemap.source),
            index: sitemap.kind == Kind::Index,
        };
        walker.children(foreign(&sitemap.other_children), &place);
    }
    walker.problems
}

/// The problems of every class in the Google extension elements of one entry, found by one walk
/// (the extension rules share it, see [`crate::rules::extension::entry_problems`]).
pub fn check_entry(sitemap: &Sitemap<'_>, entry: &Entry<'_>) -> Vec<Problem> {
    // Only children of other namespaces are extensions; most entries have none.
    if !entry.children.iter().any(|c| c.kind == ChildKind::Foreign) {
        return Vec::new();
    }
    let mut walker = Walker::new(sitemap.source, Want::All, None);
    walker.entry(sitemap, entry);
    walker.problems
}

/// Calls `f` with every element of a Google extension in `entry` that the checker validates
/// against a declaration, with that declaration, in document order: the way for rules to find,
/// say, every `video:duration` (`std::ptr::eq(decl, &VIDEO_DURATION)`).
pub fn visit_entry<'a>(
    sitemap: &Sitemap<'a>,
    entry: &Entry<'a>,
    f: &mut dyn FnMut(&Element<'a>, &'static ElementDecl),
) {
    let mut walker = Walker::new(sitemap.source, Want::Nothing, Some(f));
    walker.entry(sitemap, entry);
}

/// The elements of other namespaces among `children` (the root's or an entry's).
fn foreign<'c, 'a>(children: &'c [model::Child<'a>]) -> impl Iterator<Item = &'c Element<'a>> {
    children
        .iter()
        .filter(|c| c.kind == ChildKind::Foreign)
        .map(|c| &c.element)
}

/// Calls `f` with every Google extension element of `entry` that sits where its XSD puts it, with
/// its declaration, in document order: each `image:image`, `video:video`, `news:news` and
/// `mobile:mobile` directly in the entry, and below them every child whose namespace and name
/// match a particle of its parent's content model (order and counts are not checked).
///
/// The cheap walk for rules that read values: it allocates nothing and validates nothing
/// (misplaced or unknown elements are the structure rules' findings). [`visit_entry`] also
/// reaches misplaced elements, at the cost of the full validation walk.
pub fn visit_declared<'a>(
    source: &str,
    entry: &Entry<'a>,
    f: &mut dyn FnMut(&Element<'a>, &'static ElementDecl),
) {
    for child in entry
        .children
        .iter()
        .filter(|c| c.kind == ChildKind::Foreign)
    {
        let el = &child.element;
        let Some(ext) = el.namespace().and_then(Extension::from_namespace) else {
            continue;
        };
        if el.local_name() != ext.root().name {
            continue;
        }
        let base = el.base();
        f(el, ext.root());
        let Content::Sequence(particles) = ext.root().content else {
            continue;
        };
        let ns = ext.namespace();
        for node in el.node.children().filter(|n| n.is_element()) {
            let Some(decl) = particle_for(particles, node, ns) else {
                continue;
            };
            let child = Element::new(node, base, source);
            f(&child, decl);
            // One more level: `news:publication`, `video:tvshow`.
            if let Content::Sequence(inner) = decl.content {
                for n in node.children().filter(|n| n.is_element()) {
                    if let Some(d) = particle_for(inner, n, ns) {
                        f(&Element::new(n, base, source), d);
                    }
                }
            }
        }
    }
}

fn particle_for(
    particles: &'static [Particle],
    node: roxmltree::Node<'_, '_>,
    ns: &str,
) -> Option<&'static ElementDecl> {
    let name = node.tag_name();
    if name.namespace() != Some(ns) {
        return None;
    }
    particles
        .iter()
        .find(|p| p.element.name == name.name())
        .map(|p| p.element)
}

/// Where a top-level extension element stands.
enum Place<'p> {
    /// Directly inside `<urlset>` or `<sitemapindex>`.
    Root { parent: &'p str, index: bool },
    /// Directly inside a `<url>` or `<sitemap>` entry.
    Entry {
        parent: &'p str,
        kind: EntryKind,
        index: bool,
    },
}

/// `` `<prefix:name>` `` with the prefix the document uses for that namespace here.
fn tag(prefix: Option<&str>, name: &str) -> String {
    match prefix {
        Some(p) => format!("`<{p}:{name}>`"),
        None => format!("`<{name}>`"),
    }
}

/// The plain `prefix:name` (for building examples inside one pair of backticks).
fn qualify(prefix: Option<&str>, name: &str) -> String {
    match prefix {
        Some(p) => format!("{p}:{name}"),
        None => name.to_string(),
    }
}

/// Consecutive children out of order before the same earlier sibling.
struct OrderGroup<'a> {
    /// Particle index of the sibling they must precede (the first child matched to it).
    later: usize,
    /// Particle index, name span and written name of each.
    members: Vec<(usize, Range<usize>, &'a str)>,
}

/// The first child matched to a particle: its name span, its written name, and its position
/// among the matched children.
type FirstMatch<'a> = Option<(Range<usize>, &'a str, usize)>;

/// The most particles a content model has (`video:video` has 23); the sequence matcher keeps its
/// state per particle in arrays of this size instead of allocating.
const MAX_PARTICLES: usize = 24;

const fn max_particles(decl: &ElementDecl) -> usize {
    let Content::Sequence(particles) = decl.content else {
        return 0;
    };
    let mut max = particles.len();
    let mut i = 0;
    while i < particles.len() {
        let inner = max_particles(particles[i].element);
        if inner > max {
            max = inner;
        }
        i += 1;
    }
    max
}

const _: () = {
    let mut i = 0;
    while i < Extension::ALL.len() {
        assert!(max_particles(Extension::ALL[i].root()) <= MAX_PARTICLES);
        i += 1;
    }
};

/// Among the first matches of some particles, the offset of the one that came first.
fn earliest(first: &[FirstMatch<'_>]) -> Option<usize> {
    first
        .iter()
        .enumerate()
        .filter_map(|(k, f)| f.as_ref().map(|&(_, _, pos)| (pos, k)))
        .min()
        .map(|(_, k)| k)
}

/// The callback of [`visit_entry`].
type Visitor<'f, 'a> = &'f mut dyn FnMut(&Element<'a>, &'static ElementDecl);

/// The classes of problems a walk collects.
#[derive(Clone, Copy)]
enum Want {
    /// None ([`visit_entry`]).
    Nothing,
    One(Class),
    All,
}

struct Walker<'a, 'f> {
    source: &'a str,
    want: Want,
    problems: Vec<Problem>,
    visit: Option<Visitor<'f, 'a>>,
}

impl<'a, 'f> Walker<'a, 'f> {
    fn new(source: &'a str, want: Want, visit: Option<Visitor<'f, 'a>>) -> Self {
        Walker {
            source,
            want,
            problems: Vec::new(),
            visit,
        }
    }

    fn wants(&self, class: Class) -> bool {
        match self.want {
            Want::Nothing => false,
            Want::One(c) => c == class,
            Want::All => true,
        }
    }

    fn push(
        &mut self,
        class: Class,
        span: Range<usize>,
        message: String,
        label: impl Into<String>,
        secondary: Vec<(Range<usize>, String)>,
        help: Option<String>,
    ) {
        if self.wants(class) {
            self.problems.push(Problem {
                class,
                span,
                message,
                label: label.into(),
                secondary,
                help,
            });
        }
    }

    fn name(&self, el: &Element<'_>) -> String {
        format!("`<{}>`", el.qualified_name(self.source))
    }

    fn prefix(&self, el: &Element<'_>) -> Option<&'a str> {
        self.source
            .get(el.name_span.clone())
            .and_then(|q| q.split_once(':'))
            .map(|(p, _)| p)
    }

    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'a>) {
        let place = Place::Entry {
            parent: entry.element.qualified_name(sitemap.source),
            kind: entry.kind,
            index: sitemap.kind == Kind::Index,
        };
        self.children(foreign(&entry.children), &place);
    }

    /// The foreign children of the root or an entry. Adjacent children that need the same
    /// wrapper (`image:loc` and `image:title` directly in `<url>`) are reported together.
    /// Elements of other namespaces (`xhtml:link`, judged by the hreflang rules) cost only the
    /// namespace test in [`Walker::top`].
    fn children<'e>(&mut self, children: impl Iterator<Item = &'e Element<'a>>, place: &Place<'_>)
    where
        'a: 'e,
    {
        let mut group: Option<(Vec<&'static ElementDecl>, Vec<Element<'a>>)> = None;
        for el in children {
            let chain = self.top(el, place);
            let adjacent = |members: &[Element<'a>]| {
                members.last().map(|m| m.node) == el.node.prev_sibling_element()
            };
            match (chain, &mut group) {
                (Some(c), Some((g, members)))
                    if adjacent(members)
                        && c.len() == g.len()
                        && c.iter().zip(g.iter()).all(|(a, b)| std::ptr::eq(*a, *b)) =>
                {
                    members.push(el.clone());
                }
                (Some(c), _) => {
                    self.report_unwrapped(group.take(), place);
                    group = Some((c, vec![el.clone()]));
                }
                (None, _) => self.report_unwrapped(group.take(), place),
            }
        }
        self.report_unwrapped(group.take(), place);
    }

    /// Reports extension children placed directly in the root or an entry without the elements
    /// they belong in (`ancestors`, from the global element down).
    fn report_unwrapped(
        &mut self,
        group: Option<(Vec<&'static ElementDecl>, Vec<Element<'a>>)>,
        place: &Place<'_>,
    ) {
        let Some((ancestors, members)) = group else {
            return;
        };
        let Some(first) = members.first() else { return };
        let parent = match place {
            Place::Root { parent, .. } | Place::Entry { parent, .. } => *parent,
        };
        let prefix = self.prefix(first);
        let tags: Vec<String> = members.iter().map(|m| self.name(m)).collect();
        let chain: Vec<String> = ancestors.iter().map(|a| tag(prefix, a.name)).collect();
        let inner = chain.last().cloned().unwrap_or_default();
        let (it, subject) = if members.len() == 1 {
            ("it", tags[0].clone())
        } else {
            ("them", join_and(&tags))
        };
        let help = if ancestors.len() == 1 {
            let wrapper = qualify(prefix, ancestors[0].name);
            let body: String = members
                .iter()
                .map(|m| {
                    let q = m.qualified_name(self.source);
                    format!("<{q}>…</{q}>")
                })
                .collect();
            format!("wrap {it}: `<{wrapper}>{body}</{wrapper}>`")
        } else {
            let verb = if members.len() == 1 {
                "belongs"
            } else {
                "belong"
            };
            format!("{subject} {verb} in {}", chain.join(" → "))
        };
        let secondary = members
            .iter()
            .skip(1)
            .map(|m| (m.name_span.clone(), format!("also belongs inside {inner}")))
            .collect();
        self.push(
            Class::Placement,
            first.name_span.clone(),
            format!("{subject} must be inside {inner}"),
            format!("directly inside `<{parent}>`"),
            secondary,
            Some(help),
        );
    }

    /// An element of a Google namespace directly inside the root or an entry. Returns the
    /// ancestors a non-global element lacks, for [`Walker::report_unwrapped`].
    fn top(&mut self, el: &Element<'a>, place: &Place<'_>) -> Option<Vec<&'static ElementDecl>> {
        let ext = el.namespace().and_then(Extension::from_namespace)?;
        let local = el.local_name();
        let root = ext.root();
        if local == root.name {
            // Whether it stands in a sitemap index, and where.
            let misplaced = match *place {
                Place::Entry {
                    kind: EntryKind::Sitemap,
                    index: true,
                    ..
                } => Some((true, "in a `<sitemap>` entry".to_string())),
                Place::Entry { .. } => None,
                Place::Root { parent, index } => {
                    Some((index, format!("directly inside `<{parent}>`")))
                }
            };
            if let Some((index, label)) = misplaced {
                let name = self.name(el);
                let message = if index {
                    format!("{name} is not allowed in a sitemap index")
                } else {
                    format!("{name} is outside any `<url>`")
                };
                let help = match place {
                    Place::Root { index: false, .. } => format!(
                        "move it into the `<url>` of the page it belongs to: Google reads {name} only inside `<url>`"
                    ),
                    _ => format!(
                        "{name} describes a page: put it in that page's `<url>` in a sitemap (`<urlset>`), not in the index"
                    ),
                };
                self.push(
                    Class::Placement,
                    el.name_span.clone(),
                    message,
                    label,
                    Vec::new(),
                    Some(help),
                );
            }
            self.validate(root, el, true);
            return None;
        }
        match ext.find(local) {
            Some((ancestors, decl)) => {
                self.validate(decl, el, true);
                Some(ancestors)
            }
            None => {
                if self.wants(Class::Structure) {
                    let name = self.name(el);
                    let prefix = self.prefix(el);
                    let names = all_names(ext);
                    let root_tag = tag(prefix, root.name);
                    let (label, help) = match text::closest(local, &names) {
                        Some(s) => (
                            format!("did you mean {}?", tag(prefix, s)),
                            format!("rename it to {}", tag(prefix, s)),
                        ),
                        None => (
                            format!("not declared in {}", ext.xsd()),
                            format!(
                                "the {} extension puts {root_tag} in `<url>`; {} declares no {name}",
                                ext.prefix(),
                                ext.xsd()
                            ),
                        ),
                    };
                    self.push(
                        Class::Structure,
                        el.name_span.clone(),
                        format!(
                            "{name} is not an element of the Google {} extension",
                            ext.prefix()
                        ),
                        label,
                        Vec::new(),
                        Some(help),
                    );
                }
                None
            }
        }
    }

    /// Checks `el` against `decl`: attributes, then content.
    fn validate(&mut self, decl: &'static ElementDecl, el: &Element<'a>, optional: bool) {
        if let Some(f) = self.visit.as_mut() {
            f(el, decl);
        }
        self.attributes(decl, el);
        match decl.content {
            Content::Sequence(particles) => self.sequence(decl, particles, el),
            Content::Simple(ty) => self.simple(decl, ty, el, optional),
            Content::Empty => self.empty_content(el),
        }
    }

    fn attributes(&mut self, decl: &'static ElementDecl, el: &Element<'a>) {
        if el.node.attributes().len() == 0 && decl.attributes.iter().all(|a| !a.required) {
            return;
        }
        let base = el.base();
        let name = self.name(el);
        let mut prefixed_required = Vec::new();
        for attr in el.node.attributes() {
            if attr.namespace() == Some(XSI_NS) {
                continue;
            }
            let declared = decl.attributes.iter().find(|a| a.name == attr.name());
            if let (None, Some(a)) = (attr.namespace(), declared) {
                if self.wants(Class::Value) {
                    let target = Target {
                        what: format!("`{}` on {name}", a.name),
                        optional: !a.required,
                        attribute: true,
                        extension: decl.extension,
                    };
                    if let Some(p) = check_value(a.ty, attr.value(), &target) {
                        let value_range = attr.range_value();
                        let value_span = value_range.start + base..value_range.end + base;
                        let verbatim = self.source.get(value_span.clone()) == Some(attr.value());
                        let span = if p.range.is_empty() {
                            let r = attr.range();
                            r.start + base..r.end + base
                        } else if verbatim {
                            value_span.start + p.range.start..value_span.start + p.range.end
                        } else {
                            value_span
                        };
                        self.push(Class::Value, span, p.message, p.label, Vec::new(), p.help);
                    }
                }
                continue;
            }
            if !self.wants(Class::Structure) {
                continue;
            }
            let q = attr.range_qname();
            let written = self
                .source
                .get(q.start + base..q.end + base)
                .unwrap_or(attr.name())
                .to_string();
            let r = attr.range();
            let names: Vec<&str> = decl.attributes.iter().map(|a| a.name).collect();
            let (label, help) = if let (Some(_), Some(a)) = (attr.namespace(), declared) {
                if a.required {
                    prefixed_required.push(a.name);
                }
                (
                    "attributes of extension elements take no prefix".to_string(),
                    format!(
                        "write it without the prefix: `{}=\"{}\"`",
                        a.name,
                        attr.value()
                    ),
                )
            } else if let Some(s) = text::closest(attr.name(), &names) {
                (
                    format!("did you mean `{s}`?"),
                    format!("rename it to `{s}`"),
                )
            } else if names.is_empty() {
                (
                    format!("not declared in {}", decl.extension.xsd()),
                    format!("remove it: {name} has no attributes"),
                )
            } else {
                (
                    format!("not declared in {}", decl.extension.xsd()),
                    format!("remove it; {name} takes {}", listing(&names, "and")),
                )
            };
            self.push(
                Class::Structure,
                r.start + base..r.end + base,
                format!("unexpected attribute `{written}` on {name}"),
                label,
                Vec::new(),
                Some(help),
            );
        }
        if !self.wants(Class::Structure) {
            return;
        }
        for a in decl.attributes.iter().filter(|a| a.required) {
            let present = el
                .node
                .attributes()
                .any(|x| x.namespace().is_none() && x.name() == a.name);
            if present || prefixed_required.contains(&a.name) {
                continue;
            }
            let example = match a.ty {
                SimpleType::Enumeration(values) => {
                    let shown: Vec<String> = distinct(values)
                        .iter()
                        .map(|v| format!("`{}=\"{v}\"`", a.name))
                        .collect();
                    match shown.split_last() {
                        Some((last, rest)) if !rest.is_empty() => {
                            format!("{} or {last}", rest.join(", "))
                        }
                        _ => shown.join(""),
                    }
                }
                _ => format!("`{}=\"…\"`", a.name),
            };
            self.push(
                Class::Structure,
                el.name_span.clone(),
                format!("{name} has no `{}` attribute", a.name),
                format!("`{}` is required", a.name),
                Vec::new(),
                Some(format!("add {example}")),
            );
        }
    }

    fn simple(
        &mut self,
        decl: &'static ElementDecl,
        ty: SimpleType,
        el: &Element<'a>,
        optional: bool,
    ) {
        let base = el.base();
        if let Some(inner) = el.node.children().find(|n| n.is_element()) {
            if self.wants(Class::Structure) {
                let name = self.name(el);
                let inner_el = Element::new(inner, base, self.source);
                let inner_name = self.name(&inner_el);
                let help = match ty {
                    SimpleType::String | SimpleType::MaxLength(_) => format!(
                        "{name} holds plain text: escape markup as `&lt;…&gt;` or wrap the text in `<![CDATA[…]]>`"
                    ),
                    _ => format!(
                        "put only the value inside {name} (no markup); check for a missing closing tag"
                    ),
                };
                self.push(
                    Class::Structure,
                    inner_el.name_span.clone(),
                    format!("{inner_name} is not allowed inside {name}"),
                    "an element",
                    vec![(el.name_span.clone(), format!("{name} holds text only"))],
                    Some(help),
                );
            }
            return;
        }
        if !self.wants(Class::Value) {
            return;
        }
        let value = model::build_value(el.clone(), base, self.source);
        let mut target = Target {
            what: String::new(),
            optional,
            attribute: false,
            extension: decl.extension,
        };
        // Valid values (nearly all) are judged without building any message text.
        if check_value(ty, &value.text, &target).is_none() {
            return;
        }
        target.what = self.name(el);
        if let Some(p) = check_value(ty, &value.text, &target) {
            let span = if p.range.is_empty() {
                el.span.clone()
            } else {
                value.source_range(self.source, p.range.clone())
            };
            self.push(Class::Value, span, p.message, p.label, Vec::new(), p.help);
        }
    }

    fn empty_content(&mut self, el: &Element<'a>) {
        if !self.wants(Class::Structure) {
            return;
        }
        let base = el.base();
        let Some(node) = el
            .node
            .children()
            .find(|n| n.is_element() || n.node_type() == NodeType::Text)
        else {
            return;
        };
        let span = if node.is_element() {
            Element::new(node, base, self.source).name_span
        } else {
            let r = node.range();
            r.start + base..r.end + base
        };
        let name = self.name(el);
        let q = el.qualified_name(self.source);
        let what = if node.is_element() {
            "an element"
        } else if node
            .text()
            .unwrap_or("")
            .trim_matches(model::is_xml_space)
            .is_empty()
        {
            "whitespace"
        } else {
            "text"
        };
        self.push(
            Class::Structure,
            span,
            format!("{name} must be empty"),
            format!("{what} inside {name}"),
            Vec::new(),
            Some(format!(
                "write it as `<{q}/>`: its schema allows no content, not even whitespace"
            )),
        );
    }

    /// The sequence matcher: reports unknown children, children out of order (labelling the
    /// element they should precede), too many occurrences (labelling the first) and missing
    /// required children, then validates every matched child against its declaration.
    fn sequence(
        &mut self,
        decl: &'static ElementDecl,
        particles: &'static [Particle],
        el: &Element<'a>,
    ) {
        let base = el.base();
        let prefix = self.prefix(el);
        let ns = decl.extension.namespace();
        // Per particle, on the stack (`MAX_PARTICLES` is checked against the tables at compile
        // time): how many children matched it, the first of them, and whether a diagnostic
        // already accounts for it (no "missing" report for it).
        let mut counts = [0u32; MAX_PARTICLES];
        let mut first: [FirstMatch<'a>; MAX_PARTICLES] = std::array::from_fn(|_| None);
        let mut explained = [false; MAX_PARTICLES];
        // How many children matched some particle so far.
        let mut matched = 0usize;
        // Consecutive children out of order before the same sibling, reported together.
        let mut order_group: Option<OrderGroup<'a>> = None;
        // Consecutive children of a missing wrapper (`news:name`, `news:language` directly in
        // `news:news`): the wrapper's particle index and the children, reported together.
        let mut wrap_group: Option<(usize, Vec<Element<'a>>)> = None;

        if let Some(text) = el.node.children().find(|n| {
            n.is_text()
                && !n
                    .text()
                    .unwrap_or("")
                    .trim_matches(model::is_xml_space)
                    .is_empty()
        }) {
            let name = self.name(el);
            let r = text.range();
            let raw = self.source.get(r.start + base..r.end + base).unwrap_or("");
            let lead = raw.len() - raw.trim_start_matches(model::is_xml_space).len();
            let body = raw.trim_matches(model::is_xml_space);
            let span = r.start + base + lead..r.start + base + lead + body.len();
            let shown = text.text().unwrap_or("").trim_matches(model::is_xml_space);
            let first_is_uri = particles
                .first()
                .is_some_and(|p| matches!(p.element.content, Content::Simple(SimpleType::AnyUri)));
            let help = if first_is_uri
                && (shown.starts_with("http://") || shown.starts_with("https://"))
            {
                explained[0] = true;
                let loc = qualify(prefix, particles[0].element.name);
                format!("wrap the URL in `<{loc}>…</{loc}>`")
            } else {
                format!("remove the text; {name} holds only child elements")
            };
            self.push(
                Class::Structure,
                span,
                format!("text is not allowed directly inside {name}"),
                "unexpected text",
                Vec::new(),
                Some(help),
            );
        }

        for node in el.node.children().filter(|n| n.is_element()) {
            let child = Element::new(node, base, self.source);
            let index = if child.namespace() == Some(ns) {
                particles
                    .iter()
                    .position(|p| p.element.name == child.local_name())
            } else {
                None
            };
            let Some(i) = index else {
                self.report_order(decl, particles, el, &first, order_group.take());
                let wrapper = self.unexpected_child(decl, particles, el, &child, &mut explained);
                match (wrapper, &mut wrap_group) {
                    (Some(w), Some((g, members))) if *g == w => members.push(child),
                    (Some(w), _) => {
                        self.report_wrap(particles, el, wrap_group.take());
                        wrap_group = Some((w, vec![child]));
                    }
                    (None, _) => self.report_wrap(particles, el, wrap_group.take()),
                }
                continue;
            };
            self.report_wrap(particles, el, wrap_group.take());
            let particle = &particles[i];
            counts[i] += 1;
            let mut in_group = false;
            let max = particle.max.unwrap_or(u32::MAX);
            // Every duplicate of a single element needs its own fix; a list over its limit
            // (`video:tag`) is reported once, at the first element too many.
            if counts[i] > max && (max == 1 || counts[i] == max + 1) {
                let name = self.name(el);
                let child_name = self.name(&child);
                let (message, label, help) = if max == 1 {
                    let help = if particle.min == 1
                        && i == 0
                        && std::ptr::eq(decl, decl.extension.root())
                    {
                        format!(
                            "one {name} describes one {}: close it before this {child_name} and open a new {name}",
                            decl.name
                        )
                    } else {
                        format!("keep one {child_name}")
                    };
                    (
                        format!("{child_name} appears more than once in {name}"),
                        "duplicate".to_string(),
                        help,
                    )
                } else {
                    let local = child.local_name();
                    let total = el
                        .node
                        .children()
                        .filter(|n| {
                            n.is_element()
                                && n.tag_name().namespace() == Some(ns)
                                && n.tag_name().name() == local
                        })
                        .count();
                    (
                        format!("more than {max} {child_name} elements in {name}"),
                        format!("number {} of {total}", counts[i]),
                        format!(
                            "keep at most {max} {child_name} elements: {} allows no more",
                            decl.extension.xsd()
                        ),
                    )
                };
                let secondary = first[i]
                    .as_ref()
                    .map(|(span, _, _)| vec![(span.clone(), format!("first {child_name} is here"))])
                    .unwrap_or_default();
                self.push(
                    Class::Structure,
                    child.name_span.clone(),
                    message,
                    label,
                    secondary,
                    Some(help),
                );
            } else if counts[i] > max {
                // Already reported at the first element over the limit.
            } else if let Some(later) = earliest(&first[i + 1..particles.len()]).map(|k| k + i + 1)
            {
                let member = (
                    i,
                    child.name_span.clone(),
                    child.qualified_name(self.source),
                );
                match &mut order_group {
                    Some(g) if g.later == later => g.members.push(member),
                    _ => {
                        self.report_order(decl, particles, el, &first, order_group.take());
                        order_group = Some(OrderGroup {
                            later,
                            members: vec![member],
                        });
                    }
                }
                in_group = true;
            }
            if !in_group {
                self.report_order(decl, particles, el, &first, order_group.take());
            }
            if first[i].is_none() {
                first[i] = Some((
                    child.name_span.clone(),
                    child.qualified_name(self.source),
                    matched,
                ));
            }
            matched += 1;
            self.validate(particle.element, &child, particle.min == 0);
        }
        self.report_order(decl, particles, el, &first, order_group.take());
        self.report_wrap(particles, el, wrap_group.take());

        if !self.wants(Class::Structure) {
            return;
        }
        let missing: Vec<usize> = (0..particles.len())
            .filter(|&i| counts[i] < particles[i].min && !explained[i])
            .collect();
        let Some(&first_missing) = missing.first() else {
            return;
        };
        let name = self.name(el);
        let tags: Vec<String> = missing
            .iter()
            .map(|&i| tag(prefix, particles[i].element.name))
            .collect();
        // Where the first missing child goes: before the first child that follows it in order.
        let before = earliest(&first[first_missing + 1..particles.len()])
            .and_then(|k| first[first_missing + 1 + k].as_ref());
        let secondary = before
            .map(|(span, _, _)| vec![(span.clone(), format!("{} belongs before this", tags[0]))])
            .unwrap_or_default();
        let after = (0..first_missing)
            .rev()
            .find(|&j| counts[j] > 0 || explained[j]);
        let q = qualify(prefix, particles[first_missing].element.name);
        let place = match after {
            Some(j) => format!("after {}", tag(prefix, particles[j].element.name)),
            None => format!("at the start of {name}"),
        };
        let (message, label, help) = if missing.len() == 1 {
            (
                format!("{name} has no {}", tags[0]),
                format!("{} is required", tags[0]),
                format!("add `<{q}>…</{q}>` {place}"),
            )
        } else {
            (
                format!("{name} lacks the required {}", join_and(&tags)),
                "required children are missing".to_string(),
                if particles.len() <= 8 {
                    let names: Vec<&str> = particles.iter().map(|p| p.element.name).collect();
                    format!(
                        "add {} (order in {name}: {})",
                        join_and(&tags),
                        names.join(", ")
                    )
                } else {
                    format!("add {}, in this order, {place}", join_and(&tags))
                },
            )
        };
        self.push(
            Class::Structure,
            el.name_span.clone(),
            message,
            label,
            secondary,
            Some(help),
        );
    }

    /// Reports children out of order: `group.members` come after `seen[group.later]` but must
    /// precede it.
    fn report_order(
        &mut self,
        decl: &'static ElementDecl,
        particles: &'static [Particle],
        el: &Element<'a>,
        first: &[FirstMatch<'a>],
        group: Option<OrderGroup<'a>>,
    ) {
        let Some(group) = group else { return };
        let j = group.later;
        let (Some(Some((later_span, later_name, _))), Some((first_i, first_span, _))) =
            (first.get(j), group.members.first())
        else {
            return;
        };
        let name = self.name(el);
        let prefix = self.prefix(el);
        let later = format!("`<{later_name}>`");
        let mut tags: Vec<String> = Vec::new();
        for (_, _, q) in &group.members {
            let t = format!("`<{q}>`");
            if !tags.contains(&t) {
                tags.push(t);
            }
        }
        let single = group.members.len() == 1;
        let subject = match (tags.len(), single) {
            (1, true) => tags[0].clone(),
            (1, false) => format!("{} elements", tags[0]),
            _ => join_and(&tags),
        };
        // Where the XSD puts the element at particle `i`: its neighbours in the sequence.
        let neighbours = |i: usize, it: &str| {
            let before = particles[..i]
                .last()
                .map(|p| format!("after {} and ", tag(prefix, p.element.name)))
                .unwrap_or_default();
            match particles.get(i + 1) {
                Some(p) => format!(
                    "{} puts {it} {before}before {}",
                    decl.extension.xsd(),
                    tag(prefix, p.element.name)
                ),
                None => format!("{} puts {it} last", decl.extension.xsd()),
            }
        };
        let short_order = (particles.len() <= 8).then(|| {
            let names: Vec<&str> = particles.iter().map(|p| p.element.name).collect();
            format!("order in {name}: {}", names.join(", "))
        });
        let mut help = if single {
            let order = short_order.unwrap_or_else(|| neighbours(*first_i, "it"));
            format!("move {} above {later} ({order})", tags[0])
        } else {
            let order = short_order.unwrap_or_else(|| neighbours(j, &later));
            format!("move them above {later}, or move {later} down ({order})")
        };
        let mut deprecated: Vec<String> = Vec::new();
        let mut year = "";
        let involved = group
            .members
            .iter()
            .map(|(i, _, q)| (particles[*i].element, format!("`<{q}>`")))
            .chain(std::iter::once((particles[j].element, later.clone())));
        for (d, t) in involved {
            if let Some(y) = d.deprecated {
                year = y;
                if !deprecated.contains(&t) {
                    deprecated.push(t);
                }
            }
        }
        if !deprecated.is_empty() {
            let them = if deprecated.len() == 1 { "it" } else { "them" };
            help.push_str(&format!(
                "; Google deprecated {} in {year}, so removing {them} also fixes this",
                join_and(&deprecated)
            ));
        }
        let mut secondary = vec![(later_span.clone(), format!("{later} is here"))];
        for (_, span, _) in group.members.iter().skip(1) {
            secondary.push((span.clone(), "also out of order".to_string()));
        }
        self.push(
            Class::Structure,
            first_span.clone(),
            format!("{subject} must come before {later}"),
            "out of order",
            secondary,
            Some(help),
        );
    }

    /// A child the sequence has no particle for.
    fn unexpected_child(
        &mut self,
        decl: &'static ElementDecl,
        particles: &'static [Particle],
        el: &Element<'a>,
        child: &Element<'a>,
        explained: &mut [bool],
    ) -> Option<usize> {
        let name = self.name(el);
        let child_name = self.name(child);
        let prefix = self.prefix(el);
        let local = child.local_name();
        let child_ext = child.namespace().and_then(Extension::from_namespace);
        if child_ext.is_some_and(|e| e.root().name == local) {
            // A top-level extension element nested in another one.
            self.push(
                Class::Placement,
                child.name_span.clone(),
                format!("{child_name} cannot be inside {name}"),
                format!("nested in {name}"),
                Vec::new(),
                Some(format!(
                    "move it out: {child_name} goes directly inside `<url>`, next to {}",
                    tag(prefix, decl.extension.root().name)
                )),
            );
            return None;
        }
        let names: Vec<&str> = particles.iter().map(|p| p.element.name).collect();
        let same_name = particles.iter().position(|p| p.element.name == local);
        let elsewhere = if child_ext == Some(decl.extension) {
            decl.extension.find(local)
        } else {
            None
        };
        let closest = if same_name.is_none() && elsewhere.is_none() {
            alias(local, &names).or_else(|| {
                text::closest(local, &names)
                    .and_then(|s| particles.iter().position(|p| p.element.name == s))
            })
        } else {
            None
        };
        let (label, help) = if let Some(i) = same_name {
            explained[i] = true;
            let want = tag(prefix, local);
            (
                format!("did you mean {want}?"),
                format!(
                    "write {want}: the children of {name} are in the {} namespace (`{}`)",
                    decl.extension.prefix(),
                    decl.extension.namespace()
                ),
            )
        } else if let Some((ancestors, _)) = elsewhere {
            let owner = ancestors
                .last()
                .map(|a| tag(prefix, a.name))
                .unwrap_or_else(|| tag(prefix, decl.extension.root().name));
            // A child of one of this element's children (`news:name` directly in `news:news`):
            // the missing wrapper is explained by this report.
            let below = ancestors
                .iter()
                .position(|a| std::ptr::eq(*a, decl))
                .and_then(|k| ancestors.get(k + 1));
            if let Some(i) =
                below.and_then(|w| particles.iter().position(|p| std::ptr::eq(p.element, *w)))
            {
                explained[i] = true;
                return Some(i);
            }
            (
                format!("not a child of {name}"),
                if ancestors.is_empty() {
                    format!("{child_name} goes directly inside `<url>`")
                } else {
                    format!("{child_name} belongs inside {owner}")
                },
            )
        } else if let Some(i) = closest {
            explained[i] = true;
            let want = tag(prefix, particles[i].element.name);
            (
                format!("did you mean {want}?"),
                format!("rename it to {want}"),
            )
        } else if particles.len() <= 8 {
            let allowed: Vec<String> = names.iter().map(|n| tag(prefix, n)).collect();
            (
                format!("not allowed in {name}"),
                format!("remove it; {name} may contain {}", join_and(&allowed)),
            )
        } else {
            (
                format!("not allowed in {name}"),
                format!(
                    "remove it; {} defines no {child_name} in {name}",
                    decl.extension.xsd()
                ),
            )
        };
        self.push(
            Class::Structure,
            child.name_span.clone(),
            format!("{child_name} is not allowed in {name}"),
            label,
            Vec::new(),
            Some(help),
        );
        None
    }

    /// Reports children that belong inside a wrapper child the element lacks (`news:name` and
    /// `news:language` directly in `news:news` instead of in `news:publication`).
    fn report_wrap(
        &mut self,
        particles: &'static [Particle],
        el: &Element<'a>,
        group: Option<(usize, Vec<Element<'a>>)>,
    ) {
        let Some((w, members)) = group else { return };
        let (Some(first), Some(wrapper)) = (members.first(), particles.get(w)) else {
            return;
        };
        let name = self.name(el);
        let prefix = self.prefix(el);
        let wrap = tag(prefix, wrapper.element.name);
        let wq = qualify(prefix, wrapper.element.name);
        let inner: String = members
            .iter()
            .map(|m| {
                let q = m.qualified_name(self.source);
                format!("<{q}>…</{q}>")
            })
            .collect();
        let tags: Vec<String> = members.iter().map(|m| self.name(m)).collect();
        let message = if members.len() == 1 {
            format!("{} is not allowed in {name}", tags[0])
        } else {
            format!("{} must be inside {wrap}", join_and(&tags))
        };
        let secondary = members
            .iter()
            .skip(1)
            .map(|m| (m.name_span.clone(), format!("also belongs inside {wrap}")))
            .collect();
        self.push(
            Class::Structure,
            first.name_span.clone(),
            message,
            format!("not a child of {name}"),
            secondary,
            Some(format!(
                "wrap {} in {wrap}: `<{wq}>{inner}</{wq}>`",
                if members.len() == 1 { "it" } else { "them" }
            )),
        );
    }
}

/// The particle a common misnaming stands for: `url`, `src`, `link` for `loc`; `thumbnail` or
/// `thumbnail_url` for `thumbnail_loc`.
fn alias(local: &str, names: &[&str]) -> Option<usize> {
    let lower = local.to_ascii_lowercase();
    let mut stem = lower.as_str();
    for suffix in ["url", "link", "src", "href", "uri", "location"] {
        if let Some(s) = stem.strip_suffix(suffix) {
            stem = s.trim_end_matches(['_', '-']);
            break;
        }
    }
    let candidate = if stem.is_empty() {
        "loc".to_string()
    } else {
        format!("{stem}_loc")
    };
    names
        .iter()
        .position(|n| *n == candidate)
        .or_else(|| names.iter().position(|n| *n == format!("{lower}_loc")))
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((only, [])) => only.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Every element name an extension declares.
fn all_names(ext: Extension) -> Vec<&'static str> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut of `any_uri` (a plain http(s) URL) only takes values the libxml2-like
    /// parser accepts as absolute URIs.
    #[test]
    fn plain_http_urls_are_absolute_uris() {
        let hosts = [
            "example.com",
            "a-b.c",
            "1a.b",
            "x",
            "a.123",
            "EXAMPLE.com",
            "xn--a.b",
            "a..b",
        ];
        let ports = ["", ":", ":8080", ":65535", ":65536", ":0"];
        let paths = [
            "",
            "/",
            "/a/b",
            "?q=1&r",
            "/%41%7e",
            "/%zz",
            "/a b",
            "/[x]",
            "/a:b@c",
            "/(x)*+,;=!$'~",
        ];
        let (mut plain, mut total) = (0, 0);
        for scheme in ["http://", "https://", "HTTP://", "ftp://"] {
            for h in hosts {
                for p in ports {
                    for path in paths {
                        let url = format!("{scheme}{h}{p}{path}");
                        total += 1;
                        if uri::is_plain_http_url(url.as_bytes()) {
                            plain += 1;
                            let parser = UriParser { b: url.as_bytes() };
                            assert!(parser.absolute().is_ok(), "{url}");
                        }
                    }
                }
            }
        }
        assert!(plain > 100 && plain < total / 2, "{plain} of {total}");
    }

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
    fn any_uri_matches_libxml2() {
        // Verdicts of xmllint 2.9.14 for `xsd:anyURI` (libxml2's RFC 3986 parser).
        let valid = [
            "https://e.com/(a).jpg",
            "http://ex ample.com/é\"{}|\\^`",
            "a:b",
            "http://h/a#b[c]",
            "http://h/a#b?c/d",
            "mailto:x@y",
            "x y",
            "#",
            "?",
            "http:",
            "http://",
            "http://[::1]:8080/",
            "http://[v1.x]/",
            "h%41",
            "/a:b",
            "./a:b",
            "a/b:c",
            "http://u:p@h/",
        ];
        let invalid = [
            (
                "https://e.com/a b%zz.jpg",
                "`%zz` is not a valid percent-escape",
            ),
            ("https://e.com/a#b#c", "a second `#` in the URL"),
            ("https://e.com/[a].jpg", "`[` outside an IPv6 address"),
            ("http://h/a?b[c]", "`[` outside an IPv6 address"),
            (":foo", "the URI starts with `:`"),
            ("1http://x", "`1http` is not a valid URI scheme"),
            ("é:x", "`é` is not a valid URI scheme"),
            ("a_b:c", "`a_b` is not a valid URI scheme"),
            ("https://e.com:abc/", "port `abc` is not a number"),
            ("https://e.com:443x/", "port `443x` is not a number"),
            ("http://e.com:/", "port `` is not a number"),
            ("//host:99999999999/x", "port `99999999999` is not a number"),
            (
                "https://[::1/",
                "`[` opens an IP literal that is never closed",
            ),
            ("http://a@b@c/", "`@` is not allowed here in a URI"),
            ("http://e.com:80:90/", "port `80:90` is not a number"),
            ("http://h/%41%4", "`%4` is not a valid percent-escape"),
            ("http://h/%", "`%` is not a valid percent-escape"),
        ];
        for v in valid {
            assert_eq!(any_uri(v), None, "{v} should be valid");
        }
        for (v, message) in invalid {
            let p = any_uri(v).unwrap_or_else(|| panic!("{v} should be invalid"));
            assert_eq!(p.message, message, "{v}");
            assert!(v.get(p.range.clone()).is_some(), "{v}: {:?}", p.range);
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

    fn problems(xml: &str, class: Class) -> Vec<Problem> {
        let doc = roxmltree::Document::parse(xml).unwrap();
        let sitemap = crate::pipeline::model::Model::build(&doc, xml, 0);
        let mut out = check_root(&sitemap, class);
        for e in (0..sitemap.entries().len()).filter_map(|i| sitemap.filled(i)) {
            out.extend(
                check_entry(&sitemap, &e)
                    .into_iter()
                    .filter(|p| p.class == class),
            );
        }
        out
    }

    const HEAD: &str = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">"#;

    #[test]
    fn walker_sorts_problems_into_classes() {
        let xml = format!(
            "{HEAD}<image:image><image:loc>https://e.com/a.jpg</image:loc></image:image>\
             <url><loc>https://e.com/</loc><image:loc>x</image:loc>\
             <image:image><image:title>t</image:title><image:loc>%</image:loc></image:image></url></urlset>"
        );
        let placement: Vec<String> = problems(&xml, Class::Placement)
            .into_iter()
            .map(|p| p.message)
            .collect();
        assert_eq!(
            placement,
            [
                "`<image:image>` is outside any `<url>`",
                "`<image:loc>` must be inside `<image:image>`"
            ]
        );
        let structure: Vec<String> = problems(&xml, Class::Structure)
            .into_iter()
            .map(|p| p.message)
            .collect();
        assert_eq!(
            structure,
            ["`<image:loc>` must come before `<image:title>`"]
        );
        let value: Vec<(String, String)> = problems(&xml, Class::Value)
            .into_iter()
            .map(|p| (xml[p.span.clone()].to_string(), p.message))
            .collect();
        assert_eq!(
            value,
            [(
                "%".to_string(),
                "`%` is not a valid percent-escape".to_string()
            )]
        );
    }

    #[test]
    fn visit_entry_reaches_every_declared_element() {
        let xml = format!(
            "{HEAD}<url><loc>https://e.com/</loc><video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc>\
             <video:title>t</video:title><video:description>d</video:description><video:duration>60</video:duration>\
             <video:tvshow><video:show_title>s</video:show_title><video:video_type>full</video:video_type></video:tvshow>\
             </video:video></url></urlset>"
        );
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let sitemap = crate::pipeline::model::Model::build(&doc, &xml, 0);
        let mut seen = Vec::new();
        visit_entry(&sitemap, &sitemap.filled(0).unwrap(), &mut |el, decl| {
            seen.push((el.local_name().to_string(), decl.name));
        });
        let names: Vec<&str> = seen.iter().map(|(_, d)| *d).collect();
        assert_eq!(
            names,
            [
                "video",
                "thumbnail_loc",
                "title",
                "description",
                "duration",
                "tvshow",
                "show_title",
                "video_type"
            ]
        );
        let mut durations = 0;
        visit_entry(&sitemap, &sitemap.filled(0).unwrap(), &mut |_, decl| {
            durations += usize::from(std::ptr::eq(decl, &VIDEO_DURATION));
        });
        assert_eq!(durations, 1);
    }

    #[test]
    fn deep_nesting_is_not_recursed_into() {
        let depth = 20_000;
        let xml = format!(
            "{HEAD}<url><loc>https://e.com/</loc>{}{}</url></urlset>",
            "<video:video>".repeat(depth),
            "</video:video>".repeat(depth)
        );
        let options = roxmltree::ParsingOptions {
            nodes_limit: u32::MAX,
            ..roxmltree::ParsingOptions::default()
        };
        let Ok(doc) = roxmltree::Document::parse_with_options(&xml, options) else {
            return; // the parser's own depth limit; nothing for the walker to do
        };
        let sitemap = crate::pipeline::model::Model::build(&doc, &xml, 0);
        let placement: Vec<_> = check_entry(&sitemap, &sitemap.filled(0).unwrap())
            .into_iter()
            .filter(|p| p.class == Class::Placement)
            .collect();
        assert_eq!(placement.len(), 1);
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
