//! Rule `invalid-utf8`: byte sequences that are not valid UTF-8 (reported by the encoding stage).

use crate::declare_rule;
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
