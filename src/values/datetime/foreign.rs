//! Values that are not W3C Datetime at all: Unix timestamps, RFC 2822/HTTP dates, bare
//! times, month names, non-ASCII digits.

use std::fmt::Write as _;
use std::ops::Range;

use super::calendar::days_in_month;
use super::w3c::Num;
use super::{
    accepted, fmt_offset, num_at, q, text, zone_offset, Problem, FORMS, MONTHS, PLACEHOLDER_TZ,
    WEEKDAYS,
};

// ---------------------------------------------------------------------------
// Foreign formats that do not start like a date
// ---------------------------------------------------------------------------

/// Unix timestamps, RFC 2822/HTTP-style dates and times without a date.
pub(super) fn foreign(value: &str) -> Option<Problem> {
    unix_timestamp(value)
        .or_else(|| month_name_date(value))
        .or_else(|| time_only(value))
}

pub(super) fn unix_timestamp(value: &str) -> Option<Problem> {
    let b = value.as_bytes();
    if !(9..=13).contains(&b.len()) || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n: i64 = value.parse().ok()?;
    let (secs, unit) = if b.len() >= 12 {
        (n / 1000, "milliseconds")
    } else {
        (n, "seconds")
    };
    let converted = chrono::DateTime::from_timestamp(secs, 0)
        .filter(|dt| (1..=9999).contains(&chrono::Datelike::year(dt)))
        .map(|dt| {
            use chrono::{Datelike, Timelike};
            format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
                dt.year(),
                dt.month(),
                dt.day(),
                dt.hour(),
                dt.minute(),
                dt.second()
            )
        });
    let help = match converted {
        Some(c) => format!("convert it to `YYYY-MM-DDThh:mm:ssTZD`: `{c}`"),
        None => "convert it to `YYYY-MM-DDThh:mm:ssTZD`".to_owned(),
    };
    Some(Problem {
        range: 0..value.len(),
        message: format!(
            "{} looks like a Unix timestamp ({unit} since 1970), not a W3C Datetime value",
            q(value)
        ),
        help: Some(help),
    })
}

pub(super) fn time_only(value: &str) -> Option<Problem> {
    let b = value.as_bytes();
    let starts_t =
        matches!(b.first(), Some(b'T' | b't')) && b.get(1).is_some_and(u8::is_ascii_digit);
    let lead = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let clock = (1..=2).contains(&lead)
        && b.get(lead) == Some(&b':')
        && b.get(lead + 1).is_some_and(u8::is_ascii_digit);
    if !(starts_t || clock) {
        return None;
    }
    Some(Problem {
        range: 0..value.len(),
        message: format!(
            "{} is a time without a date: W3C Datetime values start with a 4-digit year",
            q(value)
        ),
        help: Some(
            "write the date and the time as `YYYY-MM-DDThh:mm:ssTZD`, e.g. `2024-11-21T10:00:00+00:00`"
                .to_owned(),
        ),
    })
}

/// Dates with a month name: `Thu, 21 Nov 2024 10:00:00 GMT`, `Nov 21, 2024`,
/// `21 November 2024`, `2024-Nov-21`, asctime... Converted when the pieces are
/// unambiguous.
pub(super) fn month_name_date(value: &str) -> Option<Problem> {
    let b = value.as_bytes();
    let mut month: Option<(u32, Range<usize>)> = None;
    let mut months_seen = 0;
    let mut nums: Vec<Num> = Vec::new();
    let mut time: Option<(u32, u32, u32)> = None;
    let mut zone: Option<i32> = None;
    let mut convertible = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() {
            let mut j = i;
            while b.get(j).is_some_and(u8::is_ascii_alphabetic) {
                j += 1;
            }
            let word = text(value, i, j);
            let weekday = word.len() >= 3 && WEEKDAYS.iter().any(|w| prefix_of(word, w));
            if let Some(m) = month_of(word) {
                months_seen += 1;
                month = Some((m, i..j));
            } else if let Some(z) = zone_offset(word).or((word == "Z").then_some(0)) {
                zone = Some(z);
            } else if !weekday {
                convertible = false;
            }
            i = j;
        } else if c.is_ascii_digit() {
            let mut j = i;
            while b.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            let n = num_at(b, i, j);
            let signed = i > 0 && matches!(b.get(i - 1), Some(b'+' | b'-'));
            if b.get(j) == Some(&b':') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
                let mut k = j + 1;
                while b.get(k).is_some_and(u8::is_ascii_digit) {
                    k += 1;
                }
                let mm = num_at(b, j + 1, k);
                let mut ss = 0;
                if b.get(k) == Some(&b':') && b.get(k + 1).is_some_and(u8::is_ascii_digit) {
                    let mut l = k + 1;
                    while b.get(l).is_some_and(u8::is_ascii_digit) {
                        l += 1;
                    }
                    ss = num_at(b, k + 1, l).val;
                    k = l;
                }
                if time.is_some() || n.val > 23 || mm.val > 59 || ss > 59 {
                    convertible = false;
                }
                time = Some((n.val, mm.val, ss));
                j = k;
            } else if signed && time.is_some() && n.len() == 4 {
                let minutes = (n.val / 100 * 60 + n.val % 100) as i32;
                if n.val % 100 > 59 || minutes > 14 * 60 {
                    convertible = false;
                }
                zone = Some(if b.get(i - 1) == Some(&b'-') {
                    -minutes
                } else {
                    minutes
                });
            } else {
                nums.push(n);
            }
            i = j;
        } else {
            if !matches!(c, b' ' | b',' | b'-' | b'/' | b'.' | b'+' | b'(' | b')') {
                convertible = false;
            }
            i += 1;
        }
    }
    let (m, m_range) = month?;
    let month_text = text(value, m_range.start, m_range.end);
    let years: Vec<&Num> = nums.iter().filter(|n| n.len() == 4).collect();
    let days: Vec<&Num> = nums.iter().filter(|n| n.len() <= 2).collect();
    let mut converted = None;
    if convertible && months_seen == 1 && years.len() == 1 && days.len() == 1 && nums.len() == 2 {
        let (y, d) = (years[0].val, days[0].val);
        if (1..=9999).contains(&y) && d >= 1 && d <= days_in_month(y, m) {
            let mut s = format!("{y:04}-{m:02}-{d:02}");
            if let Some((hh, mm, ss)) = time {
                let _ = write!(s, "T{hh:02}:{mm:02}:{ss:02}");
                match zone {
                    Some(0) => s.push('Z'),
                    Some(z) => s.push_str(&fmt_offset(z)),
                    None => {
                        s.push_str(PLACEHOLDER_TZ);
                    }
                }
            }
            converted = Some((s, time.is_some() && zone.is_none()));
        }
    }
    let message = if value.bytes().any(|c| c == b' ' || c == b',') {
        format!(
            "{} is an RFC 2822/HTTP-style date, not W3C Datetime",
            q(value)
        )
    } else {
        format!(
            "{} writes the month as a name ({}), not as a W3C Datetime number",
            q(value),
            q(month_text)
        )
    };
    let help = match converted {
        Some((s, false)) => format!("write it as `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssTZD`: `{s}`"),
        Some((s, true)) => format!(
            "write it as `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssTZD`: `{s}` (assuming UTC; use the real offset)"
        ),
        None => format!("write {FORMS}"),
    };
    Some(Problem {
        range: 0..value.len(),
        message,
        help: Some(help),
    })
}

pub(super) fn month_of(word: &str) -> Option<u32> {
    if word.len() < 3 {
        return None;
    }
    if word.eq_ignore_ascii_case("sept") {
        return Some(9);
    }
    let i = MONTHS.iter().position(|m| prefix_of(word, m))?;
    u32::try_from(i + 1).ok()
}

/// `word` (ASCII) is a case-insensitive prefix of `full`.
pub(super) fn prefix_of(word: &str, full: &str) -> bool {
    full.get(..word.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(word))
}

// ---------------------------------------------------------------------------
// Non-ASCII input
// ---------------------------------------------------------------------------

pub(super) fn non_ascii(value: &str, suggest: bool) -> Problem {
    let Some((i, c)) = value.char_indices().find(|(_, c)| !c.is_ascii()) else {
        return Problem {
            range: 0..value.len(),
            message: format!("{} is not a W3C Datetime value", q(value)),
            help: Some(format!("write {FORMS}")),
        };
    };
    let hint = match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE63}' | '\u{FF0D}' => {
            "use the ASCII hyphen-minus `-`"
        }
        '\u{FF10}'..='\u{FF19}' => "use ASCII digits `0`-`9`",
        '\u{FF1A}' | '\u{2236}' => "use the ASCII colon `:`",
        '\u{FF0B}' => "use the ASCII plus sign `+`",
        '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => "remove this invisible character",
        c if c.is_whitespace() => "remove this space (between date and time, write `T`)",
        _ => "remove it",
    };
    let mut help = hint.to_owned();
    if suggest {
        let mut fixed = String::with_capacity(value.len());
        for ch in value.chars() {
            match ch {
                '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE63}' | '\u{FF0D}' => fixed.push('-'),
                '\u{FF10}'..='\u{FF19}' => {
                    let d = u32::from(ch) - 0xFF10;
                    fixed.push(char::from_digit(d, 10).unwrap_or('0'));
                }
                '\u{FF1A}' | '\u{2236}' => fixed.push(':'),
                '\u{FF0B}' => fixed.push('+'),
                '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => {}
                _ => fixed.push(ch),
            }
        }
        if fixed.is_ascii() && accepted(&fixed) {
            let _ = write!(help, ": `{fixed}`");
        }
    }
    Problem {
        range: i..i + c.len_utf8(),
        message: format!(
            "`{c}` (U+{:04X}) is not an ASCII character: W3C Datetime uses only ASCII digits, `-`, `:`, `.`, `+`, `T` and `Z`",
            u32::from(c)
        ),
        help: Some(help),
    }
}
