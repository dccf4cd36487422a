//! Rule `xml-declaration`: a malformed or misplaced XML declaration, or a wrong `version`/`standalone` (reported by the prolog stage).

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::xml_decl::Declaration;
use crate::rule::Rule;
use crate::values::text::{excerpt, shortened as show_value};

declare_rule! {
    /// ## What it does
    /// Checks the `<?xml … ?>` declaration, which the XML parser itself accepts too leniently:
    /// `version` must be `1.0`, `standalone` must be `yes` or `no`, the pseudo-attributes must come in
    /// the order version, encoding, standalone, the target must be lowercase `xml`, and nothing but
    /// whitespace (see `leading-whitespace`) may precede it. A processing instruction named `xml` in
    /// any case elsewhere in the file is reported too; other processing instructions, such as
    /// `<?xml-stylesheet …?>`, are fine. A malformed or misplaced declaration is reported once here
    /// and then ignored, so the rest of the file is still checked.
    ///
    /// ## Why is this bad?
    /// Strict XML parsers, and so some crawlers, reject these files as not well-formed.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="2.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
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
    /// - XML 1.0 §2.8 (prolog and XML declaration), §2.9 (standalone), §2.6 (reserved PI target `xml`)
    pub static META = {
        name: "xml-declaration",
        category: Encoding,
        severity: Error,
        summary: "malformed or misplaced XML declaration, or a wrong `version`/`standalone`",
    }
}

impl Rule for Check {}

/// A processing instruction named `xml` (`target`, in some letter case) after the start of the
/// file, at `span`.
pub fn misplaced_pi(span: Range<usize>, target: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("processing instruction `{target}` looks like a misplaced XML declaration"),
    )
    .with_help("the target `xml` is reserved in any letter case; keep one `<?xml version=\"1.0\" encoding=\"UTF-8\"?>` at the very start of the file and remove this one")
}

/// The well-formed declaration suggested in help texts.
const GOOD_DECL: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

/// An example value for a pseudo-attribute, for help texts.
fn example(name: &str) -> String {
    let value = match name {
        "version" => "1.0",
        "encoding" => "UTF-8",
        "standalone" => "yes",
        _ => "…",
    };
    format!("{}=\"{value}\"", excerpt(name))
}

/// What is wrong with the XML declaration (or before it), at `span`.
pub fn diagnostic(span: Range<usize>, found: &Declaration) -> Diagnostic {
    let show = excerpt;
    let (message, help) = match found {
        Declaration::StrayBoms { count } => (
            if *count == 1 {
                "stray byte order mark (U+FEFF) before the XML declaration".to_string()
            } else {
                format!("{count} stray byte order marks (U+FEFF) before the XML declaration")
            },
            format!(
                "remove {}: a file may start with at most one byte order mark, directly followed by `<?xml` \
                 (an extra one usually comes from concatenating or re-encoding files)",
                if *count == 1 { "it" } else { "them" }
            ),
        ),
        Declaration::CommentBefore => (
            "comment before the XML declaration".to_string(),
            "move the comment below the XML declaration: nothing may come before `<?xml`"
                .to_string(),
        ),
        Declaration::ContentBefore { excerpt } => (
            format!("unexpected `{excerpt}` before the XML declaration"),
            "remove everything before `<?xml`: the XML declaration must be the very first thing in the file"
                .to_string(),
        ),
        Declaration::TargetCase { written } => (
            format!("the XML declaration must start with lowercase `<?xml`, not `<?{written}`"),
            "write `<?xml`: the declaration's name is case-sensitive".to_string(),
        ),
        Declaration::EndsWithGt => (
            "the XML declaration must end with `?>`, not `>`".to_string(),
            format!("write `?>`, as in `{GOOD_DECL}`"),
        ),
        Declaration::Unexpected { found } => (
            format!("unexpected `{found}` in the XML declaration"),
            format!("a well-formed declaration reads `{GOOD_DECL}`"),
        ),
        Declaration::MissingSpace { name } => (
            format!("missing whitespace before `{}`", show(name)),
            "separate the pseudo-attributes of the XML declaration with a space".to_string(),
        ),
        Declaration::ExpectedEq { name } => (
            format!("expected `=` after `{}`", show(name)),
            format!("write `{}`", example(name)),
        ),
        Declaration::NoValue { name } => (
            format!("`{}` has no value", show(name)),
            format!("write `{}`", example(name)),
        ),
        Declaration::Unquoted { name, value } => (
            format!("the value of `{}` must be quoted", show(name)),
            format!("write `{}=\"{}\"`", show(name), show(value)),
        ),
        Declaration::MismatchedQuotes { name, open, close } => (
            format!(
                "mismatched quotes around the value of `{}`: it opens with `{open}` but closes with `{close}`",
                show(name),
            ),
            format!("use the same quote on both sides: `{}`", example(name)),
        ),
        Declaration::UnterminatedValue { name, quote } => (
            format!(
                "unterminated value of `{}`: missing closing `{quote}`",
                show(name),
            ),
            format!("write `{}`", example(name)),
        ),
        Declaration::UnknownAttribute { name } => (
            format!("unknown pseudo-attribute `{}` in the XML declaration", show(name)),
            "the XML declaration only takes `version`, `encoding` and `standalone`, in that order"
                .to_string(),
        ),
        Declaration::NameCase { name, canonical } => (
            format!("`{name}` must be lowercase `{canonical}`"),
            format!(
                "pseudo-attribute names are case-sensitive: write `{}`",
                example(canonical)
            ),
        ),
        Declaration::Duplicate { canonical } => (
            format!("duplicate `{canonical}` in the XML declaration"),
            format!("remove the second `{canonical}`"),
        ),
        Declaration::VersionNotFirst => (
            "`version` must come first in the XML declaration".to_string(),
            "put `version=\"1.0\"` right after `<?xml`: the order is `version`, `encoding`, `standalone`"
                .to_string(),
        ),
        Declaration::EncodingAfterStandalone => (
            "`encoding` must come before `standalone`".to_string(),
            "the order is `version`, `encoding`, `standalone`".to_string(),
        ),
        Declaration::NoVersion => (
            "the XML declaration has no `version`: it is required and must come first"
                .to_string(),
            format!("write `{GOOD_DECL}`"),
        ),
        Declaration::Unterminated => (
            "unterminated XML declaration: missing `?>`".to_string(),
            format!("close the declaration with `?>`, as in `{GOOD_DECL}`"),
        ),
        Declaration::VersionEmpty => (
            "the XML version is empty: sitemaps are XML 1.0".to_string(),
            VERSION_HELP.to_string(),
        ),
        Declaration::VersionWhitespace(value) => (
            format!("XML version `{}` contains whitespace", show_value(value)),
            VERSION_HELP.to_string(),
        ),
        Declaration::Version11 => (
            "XML version `1.1` is not allowed: sitemaps are XML 1.0".to_string(),
            VERSION_HELP.to_string(),
        ),
        Declaration::VersionUnknown(value) => (
            format!(
                "XML version `{}` does not exist: sitemaps are XML 1.0",
                show_value(value)
            ),
            VERSION_HELP.to_string(),
        ),
        Declaration::StandaloneEmpty => ("`standalone` is empty".to_string(), STANDALONE_HELP.to_string()),
        Declaration::StandaloneOther(value) => (
            format!(
                "`standalone` must be `yes` or `no`, not `{}`",
                show_value(value)
            ),
            STANDALONE_HELP.to_string(),
        ),
    };
    Diagnostic::new(&META, span, message).with_help(help)
}

const VERSION_HELP: &str = "write `version=\"1.0\"`";
const STANDALONE_HELP: &str = "`standalone` takes `yes` or `no` (lowercase)";
