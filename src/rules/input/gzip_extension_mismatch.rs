//! Rule `gzip-extension-mismatch`: a file named `.gz` that is not gzip-compressed (reported by the input stage).

use crate::declare_rule;
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports a file whose name ends in `.gz` (in any case) but whose content does not start with
    /// the gzip magic bytes `1f 8b`. The content is checked as plain XML.
    ///
    /// ## Why is this bad?
    /// Servers send `.gz` files with a gzip content type or encoding; a crawler that trusts the name
    /// tries to uncompress plain XML and fails ("Compression error"), while one that sniffs succeeds.
    /// The name usually means a build step forgot to compress, or compressed twice and then
    /// decompressed once.
    ///
    /// ## Example
    /// `sitemap.xml.gz` containing `<?xml version="1.0" encoding="UTF-8"?><urlset …>`.
    ///
    /// Use instead:
    /// Compress it (`gzip -9 -c sitemap.xml > sitemap.xml.gz`) or rename it to `sitemap.xml`.
    ///
    /// ## References
    /// - RFC 1952 §2.3.1 (magic bytes `ID1 = 31`, `ID2 = 139`)
    pub static META = {
        name: "gzip-extension-mismatch",
        category: Input,
        severity: Warning,
        summary: "the name ends in `.gz` but the content is not gzip",
    }
}

impl Rule for Check {}

/// A `.gz` name over plain content; `first` is its first character.
pub fn diagnostic(first: Range<usize>) -> Diagnostic {
    Diagnostic::new(
        &META,
        first,
        "the file name ends in `.gz` but the content is not gzip-compressed",
    )
    .with_label("plain content starts here")
    .with_help(
        "compress it (`gzip -9 -c sitemap.xml > sitemap.xml.gz`) or drop `.gz` from the name",
    )
}
