//! The numeric and date types of the extensions: `xsd:integer` ranges (durations in seconds,
//! counts), `xsd:decimal` ranges (ratings), and `xsd:date` or `xsd:dateTime`.

use super::{empty, problem, Target, ValueProblem};
use crate::values::datetime;
use crate::values::text::backticked as code;

pub(super) fn integer_parts(t: &str) -> Option<(bool, &str)> {
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some((neg, digits))
}

/// The value of a digit string, saturating (digit strings longer than 30 digits count as huge).
pub(super) fn digits_value(digits: &str) -> u128 {
    let d = digits.trim_start_matches('0');
    if d.len() > 30 {
        return u128::MAX;
    }
    d.parse().unwrap_or(0)
}

/// `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)`: the sign, integer digits and fraction digits.
pub(super) fn decimal_parts(t: &str) -> Option<(bool, &str, &str)> {
    let (neg, rest) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (int, frac) = rest.split_once('.').unwrap_or((rest, ""));
    let ok = (!int.is_empty() || !frac.is_empty())
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit());
    ok.then_some((neg, int, frac))
}

/// A whole number written another way: `1,000`, `600.0`, `1 000`, an ISO 8601 duration or
/// `mm:ss` for seconds. Returns the corrected value and what was wrong.
pub(super) fn integer_rewrite(t: &str, seconds: bool) -> Option<(String, &'static str)> {
    let grouped = {
        let parts: Vec<&str> = t.split([',', '.', ' ', '\'', '_']).collect();
        parts.len() > 1
            && parts[0].len() <= 3
            && !parts[0].is_empty()
            && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
            && parts[1..].iter().all(|p| p.len() == 3)
            // One `.` is a decimal point (`600.000`), not a thousands separator.
            && (t.contains([',', ' ', '\'', '_']) || t.matches('.').count() > 1)
    };
    if grouped {
        let digits: String = t.chars().filter(char::is_ascii_digit).collect();
        return Some((digits, "write it without thousands separators"));
    }
    if let Some((neg, int, frac)) = decimal_parts(t) {
        if !neg {
            let whole = digits_value(if int.is_empty() { "0" } else { int });
            let up = frac.as_bytes().first().is_some_and(|&b| b >= b'5');
            let n = whole.saturating_add(u128::from(up));
            let how = if frac.bytes().all(|b| b == b'0') {
                "write it without the decimal point"
            } else {
                "round it to a whole number"
            };
            return Some((n.to_string(), how));
        }
    }
    if seconds {
        if let Some(s) = iso_duration_seconds(t) {
            return Some((
                s.to_string(),
                "this is an ISO 8601 duration; the XSD counts seconds",
            ));
        }
        let parts: Vec<&str> = t.split(':').collect();
        if (2..=3).contains(&parts.len())
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.len() <= 2 && p.bytes().all(|b| b.is_ascii_digit()))
        {
            let total = parts
                .iter()
                .fold(0u128, |acc, p| acc * 60 + digits_value(p));
            return Some((
                total.to_string(),
                "this is a clock time; the XSD counts seconds",
            ));
        }
    }
    None
}

/// `PT1H2M3S`, `PT90S`, `P0DT1H` → seconds.
pub(super) fn iso_duration_seconds(t: &str) -> Option<u128> {
    let rest = t.strip_prefix(['P', 'p'])?;
    let mut total: u128 = 0;
    let mut num = String::new();
    let mut in_time = false;
    let mut any = false;
    for c in rest.chars() {
        match c.to_ascii_uppercase() {
            'T' if num.is_empty() => in_time = true,
            d if d.is_ascii_digit() || d == '.' => num.push(d),
            unit => {
                let n: f64 = num.parse().ok()?;
                num.clear();
                let factor = match (unit, in_time) {
                    ('D', false) => 86_400.0,
                    ('H', true) => 3_600.0,
                    ('M', true) => 60.0,
                    ('S', true) => 1.0,
                    _ => return None,
                };
                total = total.saturating_add((n * factor).round() as u128);
                any = true;
            }
        }
    }
    (any && num.is_empty()).then_some(total)
}

pub(super) fn integer(
    t: &str,
    target: &Target,
    min: u128,
    max: Option<u32>,
) -> Option<ValueProblem> {
    let seconds = max.is_some();
    if t.is_empty() {
        let fill = if seconds {
            "the duration in whole seconds, such as `600`"
        } else if min > 0 {
            "a whole number from 1, such as `1`"
        } else {
            "a whole number such as `1000`"
        };
        return Some(empty(target, fill));
    }
    let Some((neg, digits)) = integer_parts(t) else {
        let message = format!("{} in {} is not a whole number", code(t), target.what);
        if let Some(ws) = t.find(char::is_whitespace) {
            if integer_rewrite(t, seconds).is_none() {
                return Some(problem(
                    ws..ws + t[ws..].chars().next().map_or(1, char::len_utf8),
                    message,
                    "whitespace inside the number",
                    Some("write only digits".into()),
                ));
            }
        }
        return Some(match integer_rewrite(t, seconds) {
            Some((fixed, how)) => problem(
                0..t.len(),
                message,
                "expected digits only",
                Some(format!("{how}: `{fixed}`")),
            ),
            None => problem(
                0..t.len(),
                message,
                "expected digits only",
                Some("write a whole number made of digits only".into()),
            ),
        });
    };
    let value = digits_value(digits);
    if neg && value > 0 {
        return Some(problem(
            0..t.len(),
            format!("{} in {} is negative", code(t), target.what),
            if min > 0 {
                "must be 1 or more"
            } else {
                "must be 0 or more"
            },
            Some(format!("write a whole number from {min}")),
        ));
    }
    if value < min {
        return Some(problem(
            0..t.len(),
            format!("{} in {} is less than {min}", code(t), target.what),
            format!("numbering starts at {min}"),
            Some(format!(
                "write a whole number from {min}; leave the element out if there is none"
            )),
        ));
    }
    if let Some(max) = max {
        let max = u128::from(max);
        if value > max {
            let help = if value <= max * 1000 {
                format!(
                    "the XSD allows at most {max} seconds (8 hours); if this is in milliseconds, write `{}`",
                    (value + 500) / 1000
                )
            } else {
                format!("the XSD allows at most {max} seconds (8 hours)")
            };
            return Some(problem(
                0..t.len(),
                format!("{} in {} is more than {max} seconds", code(t), target.what),
                format!("longer than {max}"),
                Some(help),
            ));
        }
    }
    None
}

pub(super) fn decimal(t: &str, target: &Target, min: u32, max: u32) -> Option<ValueProblem> {
    if let Some((neg, int, frac)) = decimal_parts(t) {
        let whole = digits_value(if int.is_empty() { "0" } else { int });
        let has_frac = frac.bytes().any(|b| b != b'0');
        let zero = whole == 0 && !has_frac;
        let below =
            neg && !zero && (min > 0 || whole > 0 || has_frac) || !neg && whole < u128::from(min);
        let above = !neg && (whole > u128::from(max) || whole == u128::from(max) && has_frac);
        if !below && !above {
            return None;
        }
    }
    let range_text = format!("from {min} to {max}");
    if t.is_empty() {
        return Some(empty(
            target,
            &format!("a number {range_text}, such as `4.2`"),
        ));
    }
    let Some((neg, int, frac)) = decimal_parts(t) else {
        let message = format!("{} in {} is not a decimal number", code(t), target.what);
        let comma = t.replacen(',', ".", 1);
        let (label, help) = if decimal_parts(&comma).is_some() {
            ("decimal comma", format!("write a decimal point: `{comma}`"))
        } else if let Some((a, b)) = t.split_once('/') {
            match (decimal_parts(a.trim()), b.trim()) {
                (Some(_), d) if d == max.to_string() => (
                    "a fraction",
                    format!("write only the rating: `{}`", a.trim()),
                ),
                _ => (
                    "a fraction",
                    format!("write a number {range_text}, such as `4.2`"),
                ),
            }
        } else if let Ok(f) = t.parse::<f64>() {
            (
                "exponent notation",
                format!("write it without an exponent: `{f}`"),
            )
        } else {
            (
                "expected a decimal number",
                format!("write a number {range_text}, such as `4.2`"),
            )
        };
        return Some(problem(0..t.len(), message, label, Some(help)));
    };
    let whole = digits_value(if int.is_empty() { "0" } else { int });
    let has_frac = frac.bytes().any(|b| b != b'0');
    let zero = whole == 0 && !has_frac;
    let below =
        neg && !zero && (min > 0 || whole > 0 || has_frac) || !neg && whole < u128::from(min);
    let above = !neg && (whole > u128::from(max) || whole == u128::from(max) && has_frac);
    if below {
        return Some(problem(
            0..t.len(),
            format!("{} in {} is less than {min}", code(t), target.what),
            format!("expected {range_text}"),
            Some(format!("write a number {range_text}")),
        ));
    }
    if above {
        let v: f64 = t.parse().unwrap_or(f64::MAX);
        let help = if v <= 10.0 {
            format!(
                "ratings go {range_text}; if this is out of 10, write `{}`",
                v / 2.0
            )
        } else if v <= 100.0 {
            format!(
                "ratings go {range_text}; if this is a percentage, write `{}`",
                v / 20.0
            )
        } else {
            format!("write a number {range_text}")
        };
        return Some(problem(
            0..t.len(),
            format!("{} in {} is more than {max}", code(t), target.what),
            format!("expected {range_text}"),
            Some(help),
        ));
    }
    None
}

// --- Dates --------------------------------------------------------------------------------------

/// Whether `s` (whitespace already collapsed) is an `xsd:date` or an `xsd:dateTime`, with the
/// limits of libxml2: a year of 4 or more digits (no leading zero beyond 4, not `0000`, at most
/// `i64::MAX`), optionally negative; real calendar days; `24:00:00` as the end of a day; a
/// timezone of at most ±14:00.
pub fn is_xsd_date_or_datetime(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let year_start = i;
    let mut year: i64 = 0;
    while let Some(d) = b.get(i).filter(|d| d.is_ascii_digit()) {
        year = match year
            .checked_mul(10)
            .and_then(|y| y.checked_add(i64::from(d - b'0')))
        {
            Some(y) => y,
            None => return false,
        };
        i += 1;
    }
    let year_len = i - year_start;
    if year_len < 4 || (year_len > 4 && b[year_start] == b'0') || year == 0 {
        return false;
    }
    let two = |at: usize| -> Option<u32> {
        let d = b.get(at..at + 2)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| u32::from(d[0] - b'0') * 10 + u32::from(d[1] - b'0'))
    };
    let (Some(month), Some(day)) = (
        (b.get(i) == Some(&b'-')).then(|| two(i + 1)).flatten(),
        (b.get(i + 3) == Some(&b'-')).then(|| two(i + 4)).flatten(),
    ) else {
        return false;
    };
    i += 6;
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days {
        return false;
    }
    if b.get(i) == Some(&b'T') {
        let (Some(h), Some(m), Some(sec)) = (
            two(i + 1),
            (b.get(i + 3) == Some(&b':')).then(|| two(i + 4)).flatten(),
            (b.get(i + 6) == Some(&b':')).then(|| two(i + 7)).flatten(),
        ) else {
            return false;
        };
        i += 9;
        let mut frac_zero = true;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let start = i;
            while let Some(d) = b.get(i).filter(|d| d.is_ascii_digit()) {
                frac_zero &= *d == b'0';
                i += 1;
            }
            if i == start {
                return false;
            }
        }
        let end_of_day = h == 24 && m == 0 && sec == 0 && frac_zero;
        if (h > 23 && !end_of_day) || m > 59 || sec > 59 {
            return false;
        }
    }
    match b.get(i) {
        None => true,
        Some(b'Z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            let (Some(h), Some(m)) = (
                two(i + 1),
                (b.get(i + 3) == Some(&b':')).then(|| two(i + 4)).flatten(),
            ) else {
                return false;
            };
            i + 6 == b.len() && m <= 59 && h * 60 + m <= 14 * 60
        }
        Some(_) => false,
    }
}

const DATE_FORMS: &str = "`YYYY-MM-DD` (e.g. `2024-11-21`) or `YYYY-MM-DDThh:mm:ssTZD` (e.g. `2024-11-21T10:00:00+00:00`)";

pub(super) fn date(t: &str, target: &Target) -> Option<ValueProblem> {
    if is_xsd_date_or_datetime(t) {
        return None;
    }
    if t.is_empty() {
        return Some(empty(target, &format!("a date as {DATE_FORMS}")));
    }
    let verdict = datetime::parse(t);
    let first = verdict.problems().first();
    Some(match first {
        Some(p) if !p.range.is_empty() => {
            // The W3C Datetime parser words XSD problems for `<lastmod>`.
            let message = p.message.replace("the sitemap XSD", target.xsd());
            problem(p.range.clone(), message, "", p.help.clone())
        }
        _ => problem(
            0..t.len(),
            format!(
                "{} in {} is not an `xsd:date` or `xsd:dateTime` value",
                code(t),
                target.what
            ),
            "",
            Some(format!("write {DATE_FORMS}")),
        ),
    })
}
