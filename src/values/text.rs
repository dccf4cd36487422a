//! Text helpers shared by every layer: edit distance and closest-name lookup for misspelled
//! names and values ("did you mean"), thousands separators, XML whitespace, and the one escaping
//! of input text for terminals and CI logs ([`visible`]).

use std::borrow::Cow;

/// `52428800` → `52,428,800`.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// XML's whitespace characters (space, tab, CR, LF); other Unicode spaces are content.
pub fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// `s.trim()`, returned at once when `s` starts and ends with printable ASCII (nearly every
/// attribute value): every character `char::is_whitespace` accepts is at most U+0020 or not ASCII.
/// `str::trim` decodes a character at each end first (about 50 instructions a value).
pub fn trim_ws(s: &str) -> &str {
    match (s.as_bytes().first(), s.as_bytes().last()) {
        (Some(&a), Some(&b)) if (0x21..0x80).contains(&a) && (0x21..0x80).contains(&b) => s,
        _ => s.trim(),
    }
}

/// `s.trim_matches(is_xml_space)`, returned at once when neither end is an XML space (all four
/// are ASCII, at most U+0020), as [`trim_ws`] does.
pub fn trim_xml(s: &str) -> &str {
    match (s.as_bytes().first(), s.as_bytes().last()) {
        (Some(&a), Some(&b)) if a > b' ' && b > b' ' => s,
        _ => s.trim_matches(is_xml_space),
    }
}

/// Whether `s` is only XML whitespace (or empty): `s.trim_matches(is_xml_space).is_empty()`, as
/// a byte loop (the indentation between elements is short, and a char-wise trim from both ends
/// costs several times more). Every byte of a non-ASCII character is 0x80 or above.
pub fn is_xml_blank(s: &str) -> bool {
    s.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// How many characters of input text [`excerpt`] keeps.
pub const EXCERPT_CHARS: usize = 40;

/// Input text as a message quotes it: first line only, control characters escaped, at most
/// [`EXCERPT_CHARS`] characters, `…` when cut. The XML stages take their excerpts with it.
pub fn excerpt(s: &str) -> String {
    let line = s.split(['\r', '\n']).next().unwrap_or("");
    let mut out = shortened(line);
    if line.len() < s.len() && line.chars().nth(EXCERPT_CHARS).is_none() {
        out.push('…');
    }
    out
}

/// A short value as a message quotes it: control characters (line breaks too) escaped, at most
/// [`EXCERPT_CHARS`] characters, `…` when cut.
pub fn shortened(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    for c in chars.by_ref().take(EXCERPT_CHARS) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

/// `text` in backticks for a message: control characters escaped, the middle of long values
/// elided.
pub fn backticked(text: &str) -> String {
    let n = text.chars().count();
    let mut out = String::from("`");
    for (i, c) in text.chars().enumerate() {
        if n > 60 && (40..n - 15).contains(&i) {
            if i == 40 {
                out.push('…');
            }
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '`' => out.push('\''),
            c if c.is_control() => out.push_str(&format!("\\u{{{:04X}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('`');
    out
}

/// Levenshtein distance between two strings (by characters).
pub fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The candidate closest to `input` (case-insensitively), if it is close enough to be a likely typo.
pub fn closest<'c>(input: &str, candidates: &[&'c str]) -> Option<&'c str> {
    let lower = input.to_lowercase();
    if lower.chars().count() > 64 {
        return None;
    }
    candidates
        .iter()
        .map(|c| (distance(&lower, c), *c))
        .filter(|(d, c)| *d <= (c.len() / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// A visible stand-in for a character a terminal or CI log would not show, or would act on: C0
/// controls except tab (`␛` for ESC, `␊` for a line feed: the Control Pictures block), DEL (`␡`),
/// and as `<U+XXXX>` the C1 controls (U+0080–U+009F, among them CSI U+009B), the line and
/// paragraph separators U+2028/U+2029, the bidirectional marks, embeddings, overrides and isolates
/// (U+061C, U+200E/U+200F, U+202A–U+202E, U+2066–U+2069), and the invisible format characters
/// U+200B–U+200D, U+2060–U+2065, U+206A–U+206F and U+FEFF. `None` for every other character.
pub fn stand_in(c: char) -> Option<String> {
    match c {
        '\t' => None,
        '\u{0}'..='\u{1F}' => char::from_u32(0x2400 + c as u32).map(String::from),
        '\u{7F}' => Some("\u{2421}".into()),
        '\u{80}'..='\u{9F}'
        | '\u{061C}'
        | '\u{FEFF}'
        | '\u{200B}'..='\u{200F}'
        | '\u{2028}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' => Some(format!("<U+{:04X}>", c as u32)),
        _ => None,
    }
}

/// Text from the input (a file name, a quoted value, a message, a label, a note) made safe for a
/// terminal or a CI log: every character [`stand_in`] names is replaced by its stand-in, so no
/// escape sequence, line break or bidi override reaches the reader, and the result is one line.
///
/// Every text renderer (human, concise, github, statistics) and every stderr line that names a
/// file or quotes a value goes through this one function; the human renderer's source excerpts
/// use the same [`stand_in`]. The machine formats (JSON, SARIF, GitLab, JUnit, Checkstyle) keep
/// exact values under their own escaping.
pub fn visible(s: &str) -> Cow<'_, str> {
    // Printable ASCII and tabs (nearly every message) need no look at each character.
    if s.bytes()
        .all(|b| b == b'\t' || (b' '..b'\x7f').contains(&b))
        || !s.chars().any(|c| stand_in(c).is_some())
    {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match stand_in(c) {
            Some(v) => out.push_str(&v),
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A file name for the start of a line in a text format, through [`visible`]. A name that starts
/// with whitespace or `:` gets a `./` prefix (the same file), so no line of output begins with
/// `::` from input text: the GitHub Actions runner reads such a line (after leading whitespace)
/// as a workflow command, whatever format printed it.
pub fn line_start_name(name: &str) -> Cow<'_, str> {
    let shown = visible(name);
    if shown.starts_with(|c: char| c == ':' || c.is_whitespace()) {
        Cow::Owned(format!("./{shown}"))
    } else {
        shown
    }
}

/// Whether `text` (trimmed) is a JSON object a generator printed where a value belongs
/// (`{"url": "https://…", "width": 300}`).
pub fn is_json_object(text: &str) -> bool {
    text.starts_with('{') && text.ends_with('}') && text.contains(':')
}

/// Template placeholders a generator left unexpanded in `text` (`{{ page.url }}`, `{% url %}`,
/// `${url}`, `<%= url %>`, `<?php echo $url ?>`), in order, at most `max`: each from its opener
/// to its closer, or to the end of `text` when it is not closed. Linear in the length of `text`:
/// each opener's next position is searched for once per time it is passed.
pub fn template_placeholders(text: &str, max: usize) -> Vec<std::ops::Range<usize>> {
    const TEMPLATES: [(&str, &str); 5] = [
        ("{{", "}}"),
        ("{%", "%}"),
        ("${", "}"),
        ("<%", "%>"),
        ("<?", "?>"),
    ];
    let mut found = Vec::new();
    // Every opener starts with one of these: most values (every clean URL) have none, and are
    // passed over in one scan instead of five substring searches.
    if memchr::memchr3(b'{', b'$', b'<', text.as_bytes()).is_none() {
        return found;
    }
    // The next position of each opener at or after `from` (None: no more).
    let mut next: [Option<usize>; 5] = TEMPLATES.map(|(open, _)| text.find(open));
    while found.len() < max {
        let Some((k, start)) = next
            .iter()
            .enumerate()
            .filter_map(|(k, at)| at.map(|at| (k, at)))
            .min_by_key(|&(_, at)| at)
        else {
            break;
        };
        let (open, close) = TEMPLATES[k];
        let end = text[start + open.len()..]
            .find(close)
            .map_or(text.len(), |p| start + open.len() + p + close.len());
        found.push(start..end);
        let from = end;
        for (j, at) in next.iter_mut().enumerate() {
            if at.is_some_and(|at| at < from) {
                *at = text[from..].find(TEMPLATES[j].0).map(|p| from + p);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast trims say what the std ones say, at both ends: XML and other ASCII whitespace,
    /// Unicode spaces (next line, no-break, ideographic), other text.
    #[test]
    fn fast_trims_are_the_std_trims() {
        let ends = [
            "", " ", "\t", "\n", "\r", "\u{b}", "\u{c}", "\u{85}", "\u{a0}", "\u{3000}", "a", "é",
            "!", "\u{7f}",
        ];
        for a in ends {
            for mid in ["", "x", "a b", "€"] {
                for b in ends {
                    let s = format!("{a}{mid}{b}");
                    assert_eq!(trim_ws(&s), s.trim(), "{s:?}");
                    assert_eq!(trim_xml(&s), s.trim_matches(is_xml_space), "{s:?}");
                }
            }
        }
    }

    /// The byte loop says what the char-wise trim says, on XML whitespace, other Unicode spaces
    /// (no-break, ideographic, next line) and text.
    #[test]
    fn xml_blank_is_trim_is_empty() {
        let pieces = [
            "", " ", "\t", "\r\n", "\n    ", "\u{a0}", "\u{3000}", "\u{85}", "x", "é",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let s = format!("{a}{b}{c}");
                    assert_eq!(
                        is_xml_blank(&s),
                        s.trim_matches(is_xml_space).is_empty(),
                        "{s:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn template_placeholders_are_found_in_linear_time() {
        assert_eq!(
            template_placeholders("a {{ x }} b ${y} c {% z", 10),
            vec![2..9, 12..16, 19..23]
        );
        assert_eq!(template_placeholders("<%= a %><? b ?>", 1), vec![0..8]);
        assert!(template_placeholders("https://example.com/{a}", 10).is_empty());
        assert!(is_json_object(r#"{"url": "https://x/"}"#));
        assert!(!is_json_object("{x}"));
        // One kind of opener repeated, the others absent: each search runs once per opener.
        let many = "{{}}".repeat(500_000);
        let start = std::time::Instant::now();
        assert_eq!(template_placeholders(&many, usize::MAX).len(), 500_000);
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
    }

    #[test]
    fn groups_thousands() {
        assert_eq!(group(12), "12");
        assert_eq!(group(2048), "2,048");
        assert_eq!(group(52_428_800), "52,428,800");
    }

    #[test]
    fn finds_typos() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(closest("lastmodd", &["loc", "lastmod"]), Some("lastmod"));
        assert_eq!(closest("Daily", &["daily", "weekly"]), Some("daily"));
        assert_eq!(closest("zzzzzz", &["loc", "lastmod"]), None);
    }

    #[test]
    fn visible_replaces_controls_and_bidi_and_keeps_the_rest() {
        assert_eq!(visible("plain é 例 \t"), "plain é 例 \t");
        assert!(matches!(visible("plain"), Cow::Borrowed(_)));
        assert_eq!(visible("a\nb\r\u{1b}[31m\u{7f}"), "a␊b␍␛[31m␡");
        assert_eq!(
            visible("\u{9b}\u{85}\u{2028}\u{2029}\u{202e}\u{2066}\u{2069}\u{61c}"),
            "<U+009B><U+0085><U+2028><U+2029><U+202E><U+2066><U+2069><U+061C>"
        );
    }

    #[test]
    fn line_start_names_never_open_a_workflow_command() {
        assert_eq!(line_start_name("::warning::x"), "./::warning::x");
        assert_eq!(line_start_name(" ::x"), "./ ::x");
        assert_eq!(line_start_name("\n::x"), "␊::x");
        assert_eq!(line_start_name("a/::x"), "a/::x");
    }
}
