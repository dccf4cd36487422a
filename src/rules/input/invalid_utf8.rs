//! Rule `invalid-utf8`: byte sequences that are not valid UTF-8 (reported by the encoding stage).

use crate::declare_rule;
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports every byte sequence that is not valid UTF-8, at its position (the first 100 one by
    /// one, then a count). A broken character is one sequence: a byte that cannot start a
    /// character, or a lead byte with the continuation bytes after it, such as the encoded
    /// surrogate `ED A0 BD` that CESU-8 writes for half an emoji. Each sequence is replaced by one
    /// U+FFFD so that the rest of the file can be checked.
    ///
    /// ## Why is this bad?
    /// Sitemaps must be UTF-8. Invalid bytes usually come from text pasted in Latin-1 or Windows-1252
    /// (`é` as the single byte `E9`); XML parsers reject the whole file, or crawlers turn the URL into
    /// something else.
    ///
    /// ## Example
    /// A `<loc>` holding `https://example.com/caf` followed by the Latin-1 byte `E9`.
    ///
    /// Use instead:
    /// Convert the file to UTF-8 (`iconv -f WINDOWS-1252 -t UTF-8`), and percent-encode non-ASCII
    /// characters in URLs: `https://example.com/caf%C3%A9`.
    ///
    /// ## References
    /// - sitemaps.org protocol: "The file itself must be UTF-8 encoded"
    /// - RFC 3629 (UTF-8)
    pub static META = {
        name: "invalid-utf8",
        category: Encoding,
        severity: Error,
        summary: "a byte sequence is not valid UTF-8",
    }
}

impl Rule for Check {}

/// The invalid bytes `raw`, decoded as U+FFFD at `span`.
pub fn diagnostic(span: Range<usize>, raw: &[u8]) -> Diagnostic {
    let hex: Vec<String> = raw.iter().map(|b| format!("{b:02X}")).collect();
    let (hint, help) = match raw {
        [b @ 0x80..=0x9F] => (
            format!(
                " (in Windows-1252 this byte is `{}`)",
                encoding_rs::WINDOWS_1252.decode_without_bom_handling(&[*b]).0
            ),
            "the text was saved as Windows-1252: convert it with `iconv -f WINDOWS-1252 -t UTF-8`",
        ),
        [b @ 0xA0..=0xFF] => (
            format!(" (in Latin-1 this byte is `{}`)", char::from(*b)),
            "the text was saved as Latin-1 or Windows-1252: convert it with `iconv -f WINDOWS-1252 -t UTF-8`",
        ),
        [0xED, 0xA0..=0xBF, ..] => (
            " (an encoded UTF-16 surrogate, as CESU-8 or Java's modified UTF-8 write)".to_string(),
            "encode characters outside the BMP as one 4-byte UTF-8 sequence, not as two surrogates",
        ),
        _ => (
            String::new(),
            "save the file as UTF-8 (for example `iconv -f WINDOWS-1252 -t UTF-8`)",
        ),
    };
    Diagnostic::new(
        &META,
        span,
        format!(
            "invalid UTF-8: byte{} {}{hint}",
            if raw.len() == 1 { "" } else { "s" },
            hex.join(" ")
        ),
    )
    .with_label("shown as U+FFFD")
    .with_help(help)
}

/// The `more` invalid sequences the decoder counted but did not list, at the last listed one.
pub fn more(span: Range<usize>, more: usize) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("{more} more invalid UTF-8 sequences were not reported one by one"),
    )
}
