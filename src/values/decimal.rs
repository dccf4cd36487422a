//! `xsd:decimal`, the type of `<priority>`: digits with an optional `.` and an optional leading
//! sign; no exponent, no decimal comma, not empty.

/// Whether `s` is in the lexical space of `xsd:decimal`.
pub fn is_decimal(s: &str) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let all_digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    all_digits(int)
        && frac.is_none_or(all_digits)
        && (!int.is_empty() || frac.is_some_and(|f| !f.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::is_decimal;

    #[test]
    fn decimal_grammar() {
        for ok in [
            "0", "1", "0.5", ".5", "1.", "+0.3", "-0", "000.25", "10", "-7",
        ] {
            assert!(is_decimal(ok), "{ok}");
        }
        for bad in [
            "", ".", "+", "-.", "1e-1", "0,5", "0.5.1", " 0.5", "0.5 ", "high", "1/2", "+-1",
        ] {
            assert!(!is_decimal(bad), "{bad}");
        }
    }
}
