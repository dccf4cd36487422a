//! Rule `input-too-large`: the uncompressed file exceeds the protocol's 50 MiB limit (reported by the input stage).

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::rule::Rule;
use crate::values::text::group;

declare_rule! {
    /// ## What it does
    /// Reports a file whose uncompressed size is larger than 52,428,800 bytes (50 MiB); a file of
    /// exactly 52,428,800 bytes is fine. The check applies to plain files, stdin and the
    /// decompressed content of gzip files (all members together, so a file split into several gzip
    /// members cannot slip through). The checker stops reading at the limit (it never holds more
    /// than 52,428,801 bytes), so the file is not checked further: a gzip bomb costs no more than
    /// a 50 MiB file.
    ///
    /// ## Why is this bad?
    /// The sitemaps.org protocol says sitemaps and sitemap indexes "must be no larger than 50MB
    /// (52,428,800 bytes)" uncompressed. Google reports "Sitemap file size error" and Yandex
    /// "Maximum file size exceeded"; the file is not processed.
    ///
    /// ## Example
    /// A 60 MB `sitemap.xml`, or a 2 MB `sitemap.xml.gz` that expands to 60 MB.
    ///
    /// Use instead:
    /// Split the URLs over several sitemaps of at most 50,000 URLs and 50 MiB each, and list them in a
    /// sitemap index.
    ///
    /// ## References
    /// - sitemaps.org protocol, "Sitemap index" and FAQ: the 50,000 URL / 52,428,800 byte limits
    pub static META = {
        name: "input-too-large",
        category: Input,
        severity: Error,
        summary: "uncompressed size exceeds 52,428,800 bytes (50 MiB)",
    }
}

impl Rule for Check {}

/// The input stage stopped reading at `max_size` bytes: of the file, or of its decompressed
/// content when it is gzip.
pub fn diagnostic(gzip: bool, max_size: u64) -> Diagnostic {
    let what = if gzip { "decompressed content" } else { "file" };
    Diagnostic::new(
        &META,
        0..0,
        format!(
            "the {what} is larger than {} bytes (50 MiB)",
            group(max_size)
        ),
    )
    .with_note(format!(
        "reading stopped at {} bytes; the file was not checked further",
        group(max_size)
    ))
    .with_help("split it into several sitemaps of at most 50,000 URLs and 50 MiB each, listed in a sitemap index")
}
