//! Text sitemaps (one URL per line): lines that hold something else than one URL.
//!
//! What a text sitemap's URLs are worth is judged by the `<loc>` rules, which see each URL line
//! as an entry (see [`crate::pipeline::text_sitemap`]); these rules judge the lines themselves.

use crate::values::text::visible;

pub mod text_blank_line;
pub mod text_line_invalid;
pub mod text_line_whitespace;

/// Characters of a line quoted in a message at most.
const QUOTED_CHARS: usize = 60;

/// `s` as a message quotes it: at most [`QUOTED_CHARS`] characters (then `…`), every invisible
/// or control character named (see [`visible`]).
pub(crate) fn quoted(s: &str) -> String {
    let cut = s
        .char_indices()
        .nth(QUOTED_CHARS)
        .map_or(s.len(), |(i, _)| i);
    let more = if cut < s.len() { "…" } else { "" };
    format!("{}{more}", visible(&s[..cut]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_short_and_visible() {
        assert_eq!(quoted("a\u{1b}b"), "a\u{241b}b");
        let long = "x".repeat(200);
        assert_eq!(quoted(&long).chars().count(), QUOTED_CHARS + 1);
    }
}
