//! Text helpers shared by every layer: edit distance and closest-name lookup for misspelled
//! names and values ("did you mean"), thousands separators, XML whitespace.

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
