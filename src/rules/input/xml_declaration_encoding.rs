//! Rule `xml-declaration-encoding`: the XML declaration names an encoding other than UTF-8 (reported by the prolog stage).

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::xml_decl::EncodingValue;
use crate::rule::Rule;
use crate::values::text::{is_xml_space, shortened as show_value};

declare_rule! {
    /// ## What it does
    /// Reports an `encoding` pseudo-attribute in the XML declaration whose value is not `UTF-8`
    /// (case-insensitive), pointing at the value.
    ///
    /// ## Why is this bad?
    /// Sitemaps must be UTF-8. A declaration such as `encoding="ISO-8859-1"` makes parsers decode the
    /// bytes as Latin-1, so every non-ASCII character in a URL or title turns into something else;
    /// and where the bytes really are Latin-1 the file breaks the protocol.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="ISO-8859-1"?>
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
    /// ## Fix
    /// A name the Encoding Standard reads as UTF-8 but spelled differently (`utf8`, ` UTF-8 `,
    /// `unicode-1-1-utf-8`) is replaced by `UTF-8`: a safe fix, as the file was read as UTF-8 to get here.
    /// Another encoding (`ISO-8859-1`) is not fixed: the bytes may need converting, which only a tool
    /// such as `iconv` can do knowing the source encoding.
    ///
    /// ## References
    /// - sitemaps.org protocol: "The file itself must be UTF-8 encoded"
    /// - XML 1.0 §4.3.3 (character encoding in entities)
    pub static META = {
        name: "xml-declaration-encoding",
        category: Encoding,
        severity: Error,
        fix: Safe,
        summary: "the XML declaration names an encoding other than UTF-8",
    }
}

impl Rule for Check {}

/// A declared `encoding` other than `UTF-8`, at `span`; `edit` writes `UTF-8` when the name
/// means it.
pub fn diagnostic(span: Range<usize>, value: &EncodingValue, edit: Option<Edit>) -> Diagnostic {
    let (message, help) = match value {
        EncodingValue::Empty => (
            "`encoding` is empty".to_string(),
            "declare `encoding=\"UTF-8\"`, or leave `encoding` out (UTF-8 is the default)"
                .to_string(),
        ),
        EncodingValue::Whitespace(value) => (
            format!(
                "`encoding` value `{}` has surrounding whitespace",
                show_value(value)
            ),
            "write `encoding=\"UTF-8\"` without spaces".to_string(),
        ),
        EncodingValue::NoHyphen(value) => (
            format!(
                "`encoding` declares `{}`, which is not a valid encoding name",
                show_value(value)
            ),
            "write `UTF-8`, with a hyphen: `encoding=\"UTF-8\"`".to_string(),
        ),
        EncodingValue::Other(value) => (
            format!(
                "`encoding` declares `{}`, but sitemaps must be UTF-8",
                show_value(value)
            ),
            encoding_help(value.trim_matches(is_xml_space)),
        ),
    };
    let d = Diagnostic::new(&META, span, message).with_help(help);
    match edit {
        Some(edit) => d.with_fix(Fix::safe("write `UTF-8`", vec![edit])),
        None => d,
    }
}

/// How to fix a declared encoding other than UTF-8. This text is checked as UTF-8 (a UTF-16 or
/// UTF-32 file is recognised by its bytes, whatever it declares), so a Unicode name is simply
/// wrong; for a legacy one the bytes may have to be converted too.
fn encoding_help(value: &str) -> String {
    let upper = value.to_ascii_uppercase();
    if upper.starts_with("UTF-16")
        || upper.starts_with("UTF-32")
        || upper.starts_with("UCS")
        || upper == "UNICODE"
    {
        format!(
            "the file is not encoded in `{}`: declare `encoding=\"UTF-8\"`",
            show_value(value)
        )
    } else {
        format!(
            "declare `encoding=\"UTF-8\"`; if the bytes really are `{0}`, convert them first: `iconv -f {0} -t UTF-8`",
            show_value(value)
        )
    }
}
