//! Rule `gzip-invalid`: a gzip file that is truncated, corrupt, or followed by garbage (reported by the input stage).

use crate::declare_rule;
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
