//! What the XML stage finds, typed and spanned: the rules word it (`xml-syntax`,
//! `doctype-not-allowed`, `xml-declaration` in `src/rules/input/`).
//!
//! A problem carries the data its message needs: names as the file writes them, and excerpts
//! of longer input text taken with [`crate::values::text::excerpt`] (first line, at most 40
//! characters), so that a problem never copies a long run of the file.

use std::ops::Range;

use crate::values::finding::Edit;

/// One problem the XML stage found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlProblem {
    /// Where it is: a byte range of the checked text.
    pub span: Range<usize>,
    pub kind: XmlKind,
    /// Found beyond [`super::MAX_XML_ERRORS`] and kept only for its fix (fixes were asked for):
    /// counted in the note on the last reported problem, never shown itself.
    pub beyond_cap: bool,
}

impl XmlProblem {
    pub(super) fn new(span: Range<usize>, kind: impl Into<XmlKind>) -> Self {
        XmlProblem {
            span,
            kind: kind.into(),
            beyond_cap: false,
        }
    }
}

/// The problems by the rule that reports them. `span` (in [`XmlProblem`]) is what each
/// underlines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XmlKind {
    // `doctype-not-allowed`
    /// `<!DOCTYPE …>`, blanked out; `entities`: the first three general entities it declares,
    /// of `entity_count` in all.
    Doctype {
        entities: Vec<String>,
        entity_count: usize,
    },
    /// `<!DOCTYPE` never closed with `>`.
    DoctypeUnclosed,
    // `xml-declaration`
    /// A processing instruction whose target is `xml` in some letter case, after the start.
    DeclarationPi {
        target: String,
    },
    // `xml-syntax`
    Syntax(Syntax),
}

impl From<Syntax> for XmlKind {
    fn from(s: Syntax) -> Self {
        XmlKind::Syntax(s)
    }
}

/// What the parser wanted where it found something else (`InvalidChar`, `InvalidChar2`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wanted {
    Byte(u8),
    Text(String),
}

/// What is wrong with a character reference (`&#…;`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharRef {
    /// It names this code point, which XML forbids (a control character, a surrogate).
    Forbidden(u32),
    /// Beyond U+10FFFF.
    OutOfRange,
    /// No `;` after it; `digits`: whether digits follow `&#` (`&#x`).
    Malformed { digits: bool },
}

/// Markup left open at the end of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unclosed {
    Comment,
    Cdata,
    Pi,
}

/// What makes the file not well-formed (`xml-syntax`), with the data its message needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Syntax {
    /// `<` inside an attribute value; `labelled`: found by the quote scan (it is labelled).
    LtInAttribute { labelled: bool },
    /// A second `<?xml …?>` after the root element (a second document).
    DeclarationAfterRoot,
    /// `<?xml …?>` in the middle of the file.
    DeclarationInMiddle,
    /// A prefix bound to no namespace.
    UndeclaredPrefix { prefix: String },
    /// `--` inside the comment at `comment`.
    DashesInComment { comment: Range<usize> },
    /// `]]>` in text; `labelled`: located in its text node.
    CdataEndInText { labelled: bool },
    /// The parser expected this string.
    ExpectedString { expected: String },
    /// Any other parser error, as roxmltree words it.
    Parser(roxmltree::Error),
    /// A closing tag for `expected` is missing before `</actual>`; `open` is the start tag that
    /// is never closed, `literal`: whether it stands in text (a literal `<` perhaps).
    CloseTagMissing {
        actual: String,
        expected: String,
        open: Option<Range<usize>>,
        literal: bool,
    },
    /// `</actual>` is a misspelling of `</expected>`, opened at `open`.
    CloseTagMisspelled {
        actual: String,
        expected: String,
        open: Option<Range<usize>>,
    },
    /// `</actual>` closes no open element: `<actual>` was already closed at `closed`, or the
    /// element open is `open` (its start tag, its name).
    CloseTagStray {
        actual: String,
        closed: Option<Range<usize>>,
        open: Option<(Range<usize>, String)>,
    },
    /// `<!…>` that is no comment, CDATA section or declaration (an excerpt of it).
    MalformedDeclaration { excerpt: String },
    /// An element after the root element ended at `root_end`.
    SecondRoot { root_end: Range<usize> },
    /// Text after the root element ended at `root_end` (an excerpt of it).
    TextAfterRoot {
        excerpt: String,
        root_end: Range<usize>,
    },
    /// Text before the root element, which follows.
    TextBeforeRoot { excerpt: String },
    /// Text and no markup at all; `urls`: it starts like a URL (a text sitemap by its content).
    NotXml { excerpt: String, urls: bool },
    /// Markup the parser cannot read.
    MalformedMarkup,
    /// A `<` that starts no tag.
    BareLt,
    /// A start (`close == false`) or end tag of `name` without its `>`.
    TagNotClosed { name: String, close: bool },
    /// `</` without a name.
    MalformedCloseTag,
    /// `<?` without a name.
    MalformedPi,
    /// An element name that cannot start as it does (an excerpt of it).
    InvalidElementName { excerpt: String },
    /// Neither an attribute name nor `>` where one should be.
    ExpectedAttributeName { found: char },
    /// An attribute value whose `quote` is never closed.
    AttributeValueNotClosed { quote: char },
    /// An attribute value without quotes; `value`: its first 101 characters (enough to tell
    /// whether it is short).
    AttributeNotQuoted { name: String, value: String },
    /// No whitespace before the attribute (an excerpt of its name).
    MissingSpaceBeforeAttribute { excerpt: String },
    /// An attribute without `=` and a value (an excerpt of its name).
    AttributeWithoutValue { excerpt: String },
    /// The parser wanted something else than `found`.
    ExpectedFound { wanted: Wanted, found: char },
    /// An attribute (`namespace`: a namespace declaration, `name` its prefix) twice in one tag,
    /// first at `first`.
    DuplicateAttribute {
        name: String,
        namespace: bool,
        first: Option<Range<usize>>,
    },
    /// A comment, CDATA section or processing instruction open at the end of the file.
    UnclosedMarkup(Unclosed),
    /// The file ends inside the document: `root` is the root's start tag and name when one is
    /// open, `inner` the innermost open element when it is another; `closing` the names of the
    /// open elements, innermost first, at most eight of `open_count`.
    UnexpectedEnd {
        root: Option<(Range<usize>, String)>,
        inner: Option<(Range<usize>, String)>,
        closing: Vec<String>,
        open_count: usize,
    },
    /// No element at all: the file is empty.
    Empty,
    /// No element at all: only whitespace.
    OnlyWhitespace,
    /// No element at all, other than that.
    NoRoot,
    /// `&name;` for an entity the (blanked-out) DOCTYPE declares at `declared`, used `uses`
    /// times in all.
    DtdEntity {
        name: String,
        declared: Range<usize>,
        uses: usize,
    },
    /// `&` that starts no reference; `after`: what follows it (up to 20 characters of a URL);
    /// `fix`: the edit that escapes it.
    BareAmpersand { after: String, fix: Option<Edit> },
    /// `&name` without its `;`.
    MissingSemicolon { name: String },
    /// `&name;` XML does not define; `html`: the code point when HTML does.
    UnknownEntity { name: String, html: Option<u32> },
    /// A bad character reference, as written (an excerpt of it when malformed).
    BadCharRef { written: String, problem: CharRef },
    /// A run of `count` characters XML forbids, starting with `first`; `same`: all the same.
    Forbidden {
        first: char,
        count: usize,
        same: bool,
    },
    /// A processing-instruction target with a colon.
    PiTargetColon { target: String },
    /// No space after a processing-instruction target.
    PiNoSpace { target: String },
    /// `<:name>`.
    ElementColon,
    /// `xmlns:xmlns=…`.
    DeclaresXmlns,
    /// `xmlns:prefix=""`.
    UndeclaresPrefix { prefix: String },
}
