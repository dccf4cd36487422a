//! Rule `gzip-invalid`: a gzip file that is truncated, corrupt, or followed by garbage (reported by the input stage).

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::input::GzipProblem;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports gzip input (recognised by its magic bytes `1f 8b`, whatever its name) that does not
    /// decompress cleanly: a stream cut off before its end, a checksum that does not match, corrupt
    /// deflate data, or bytes after the last gzip member. All members of a multi-member file are
    /// read, as `zcat` does, and zero bytes padding the end are ignored, as `gzip -d` does. What was
    /// decoded before the problem is still checked, so a truncated file also gets the XML error of
    /// its cut-off end.
    ///
    /// ## Why is this bad?
    /// Search engines cannot uncompress the file: Google reports "Compression error", Yandex
    /// "Extraction error". A truncated upload usually also loses the closing `</urlset>`.
    ///
    /// ## Example
    /// A `sitemap.xml.gz` whose upload was interrupted, or one with `gzip` output appended twice
    /// with text in between.
    ///
    /// Use instead:
    /// Recreate the file with `gzip -9 sitemap.xml` and check it with `gzip -t sitemap.xml.gz`.
    ///
    /// ## References
    /// - RFC 1952 (gzip file format)
    /// - sitemaps.org FAQ: "You can also use gzip to compress your Sitemaps"
    pub static META = {
        name: "gzip-invalid",
        category: Input,
        severity: Error,
        summary: "gzip data is truncated, corrupt, or followed by garbage",
    }
}

impl Rule for Check {}

/// What the input stage's gunzip reported; `end` is where the decompressed text ends (0 when
/// nothing came out).
pub fn diagnostic(problem: &GzipProblem, end: usize) -> Diagnostic {
    let recovered = if end == 0 {
        "nothing could be decompressed"
    } else {
        "the text decompressed before the problem was checked"
    };
    let (msg, help) = match problem {
        GzipProblem::Truncated => (
            "the gzip data ends unexpectedly: the file is truncated".to_string(),
            format!("recreate the file (`gzip -9 sitemap.xml`) and check it with `gzip -t`; {recovered}"),
        ),
        GzipProblem::Checksum => (
            "the gzip checksum does not match the data: the file is corrupt".to_string(),
            format!("recreate the file with `gzip -9` and upload it in binary mode; {recovered}"),
        ),
        GzipProblem::Corrupt(e) => (
            format!("the gzip data is corrupt ({e})"),
            format!("recreate the file with `gzip -9` and upload it in binary mode; {recovered}"),
        ),
        GzipProblem::TrailingGarbage { bytes } => (
            format!("{bytes} bytes that are not gzip data follow the compressed data"),
            "remove what was appended after the gzip stream; recreate the file with `gzip -9`".to_string(),
        ),
    };
    let label = if end == 0 {
        "no text could be decompressed"
    } else {
        "decompressed text ends here"
    };
    Diagnostic::new(&META, end..end, msg)
        .with_label(label)
        .with_help(help)
}

/// The decompressed data starts with gzip's magic bytes again.
pub fn compressed_twice() -> Diagnostic {
    Diagnostic::new(&META, 0..0, "the file is gzip-compressed twice")
        .with_note("after one decompression the data is gzip again, so it was not checked")
        .with_help("compress the XML once: `gzip -9 -c sitemap.xml > sitemap.xml.gz`")
}
