//! Rule `encoding-not-utf8`: the bytes are UTF-16, UTF-32 or EBCDIC instead of UTF-8 (reported by the encoding stage).

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports a file that is not encoded in UTF-8: UTF-16 or UTF-32 (recognised by a byte-order
    /// mark, or without one by the zero bytes of its first characters, `<?xml` or whitespace, as
    /// XML 1.0 Appendix F describes) or EBCDIC. UTF-16 and UTF-32 files are decoded anyway, so the
    /// other rules still run and their positions refer to the decoded text; an `encoding="UTF-16"`
    /// in such a file is part of this one error, not a second one. EBCDIC files cannot be checked
    /// further. A UTF-8 byte-order mark is fine.
    ///
    /// ## Why is this bad?
    /// The protocol says: "The file itself must be UTF-8 encoded." Crawlers that assume UTF-8 see a
    /// file full of NUL bytes and reject it as "Invalid XML" or "Parsing error".
    ///
    /// ## Example
    /// A sitemap saved by a Windows editor as "Unicode" (UTF-16LE with the BOM `FF FE`).
    ///
    /// Use instead:
    /// Save the file as UTF-8 (for example `iconv -f UTF-16 -t UTF-8 in.xml > out.xml`) and declare
    /// `encoding="UTF-8"`.
    ///
    /// ## References
    /// - sitemaps.org protocol, "XML tag definitions": the file must be UTF-8 encoded
    /// - XML 1.0, Appendix F (autodetection of character encodings)
    pub static META = {
        name: "encoding-not-utf8",
        category: Encoding,
        severity: Error,
        summary: "the file is UTF-16, UTF-32 or EBCDIC, not UTF-8",
    }
}

impl Rule for Check {}

/// The file is in `encoding`, which the decoder cannot read: nothing is checked further.
pub fn undecodable(encoding: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        0..0,
        format!("the file is encoded in {encoding}, not UTF-8"),
    )
    .with_help("convert the file to UTF-8; it cannot be checked further")
}

/// The file was decoded from `encoding`, found from its byte-order mark (`bom`) or its first
/// bytes.
pub fn diagnostic(encoding: &str, bom: bool) -> Diagnostic {
    let how = if bom {
        "with a byte-order mark"
    } else {
        "detected from its first bytes"
    };
    Diagnostic::new(
        &META,
        0..0,
        format!("the file is encoded in {encoding} ({how}), but sitemaps must be UTF-8"),
    )
    .with_label("the file starts here")
    .with_note("the file was decoded anyway; positions refer to the decoded text")
    .with_help(format!(
        "convert it: `iconv -f {encoding} -t UTF-8 FILE`, and declare `encoding=\"UTF-8\"`"
    ))
}
