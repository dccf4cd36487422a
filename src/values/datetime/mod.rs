//! Parses and classifies `<lastmod>` values as W3C Datetime, explaining every problem precisely.
//!
//! The W3C Datetime profile (<https://www.w3.org/TR/NOTE-datetime>) allows six
//! granularities: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDThh:mmTZD`,
//! `YYYY-MM-DDThh:mm:ssTZD` and `YYYY-MM-DDThh:mm:ss.sTZD`, with
//! TZD = `Z` | `+hh:mm` | `-hh:mm`. The official sitemap XSD types `<lastmod>`
//! as `xsd:date ∪ xsd:dateTime`, which accepts a different set, and Google
//! rejects times without a timezone. [`parse`] sorts a value into a [`Verdict`]
//! that says which of these accept it.
//!
//! The parser is hand-written over ASCII bytes. One lenient pass reads the value
//! and records every deviation from the grammar (wrong separators, missing
//! zero padding, basic format, offsets without a colon, ...) together with the
//! components it could still read, so that calendar and clock checks and a
//! corrected spelling can be derived from the same pass. Foreign formats that do
//! not start like a date (Unix timestamps, RFC 2822/HTTP dates, bare times) are
//! recognised only after that pass failed. A valid value is parsed without
//! allocating.

use std::fmt::Write as _;
use std::ops::Range;

mod calendar;
mod foreign;
mod w3c;
mod xsd;

pub use calendar::format_utc;
use calendar::{days_from_civil, days_in_month, range_check};
use foreign::{foreign, non_ascii};
use w3c::{Num, Raw, Scan};
use xsd::xsd_note;

/// Which precision the value has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// `YYYY`
    Year,
    /// `YYYY-MM`
    YearMonth,
    /// `YYYY-MM-DD`
    Date,
    /// `YYYY-MM-DDThh:mmTZD`
    Minutes,
    /// `YYYY-MM-DDThh:mm:ss[.s+]TZD` (or without TZD for [`Verdict::MissingTimezone`])
    Seconds,
}

/// A successfully parsed value (all fields already range-checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct W3cDateTime {
    pub year: i32,
    pub month: Option<u32>,
    pub day: Option<u32>,
    pub hour: Option<u32>,
    pub minute: Option<u32>,
    pub second: Option<u32>,
    pub nanosecond: u32,
    /// Offset from UTC in minutes (`Z` = 0); None when no timezone was given.
    pub offset_minutes: Option<i32>,
    pub precision: Precision,
}

impl W3cDateTime {
    /// Seconds since the Unix epoch of the earliest instant the value denotes
    /// (missing month/day = 1, missing time = 00:00:00, missing offset = UTC).
    ///
    /// Total on any field values (it never panics or overflows), so it also
    /// accepts values built by hand.
    pub fn unix_seconds(&self) -> i64 {
        let month = i64::from(self.month.unwrap_or(1).clamp(1, 12));
        let day = i64::from(self.day.unwrap_or(1));
        let days = days_from_civil(i64::from(self.year), month, day);
        let secs = i64::from(self.hour.unwrap_or(0)) * 3600
            + i64::from(self.minute.unwrap_or(0)) * 60
            + i64::from(self.second.unwrap_or(0));
        days * 86_400 + secs - i64::from(self.offset_minutes.unwrap_or(0)) * 60
    }
}

/// One problem, located by a byte range inside the value passed to `parse` (a
/// non-empty range on char boundaries whenever the value is non-empty; for an
/// empty value 0..0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub range: Range<usize>,
    pub message: String,
    pub help: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ss[.s+]TZD`: valid for W3C, for the
    /// official XSD (xsd:date ∪ xsd:dateTime) and for Google.
    Valid(W3cDateTime),
    /// Valid W3C Datetime that the official sitemap XSD rejects: `YYYY`,
    /// `YYYY-MM`, `YYYY-MM-DDThh:mmTZD` (no seconds).
    W3cOnly(W3cDateTime, Problem),
    /// `YYYY-MM-DDThh:mm:ss[.s+]` with no timezone: the XSD accepts it, W3C
    /// Datetime requires a TZD and Google Search Console rejects it.
    MissingTimezone(W3cDateTime, Problem),
    /// Anything else: impossible calendar/clock values or a foreign format. One
    /// or more problems, the most useful first.
    Invalid(Vec<Problem>),
}

impl Verdict {
    /// The parsed value, unless the verdict is [`Verdict::Invalid`].
    pub fn datetime(&self) -> Option<&W3cDateTime> {
        match self {
            Verdict::Valid(dt) | Verdict::W3cOnly(dt, _) | Verdict::MissingTimezone(dt, _) => {
                Some(dt)
            }
            Verdict::Invalid(_) => None,
        }
    }

    /// Every problem of the verdict (empty for [`Verdict::Valid`]).
    pub fn problems(&self) -> &[Problem] {
        match self {
            Verdict::Valid(_) => &[],
            Verdict::W3cOnly(_, p) | Verdict::MissingTimezone(_, p) => std::slice::from_ref(p),
            Verdict::Invalid(ps) => ps,
        }
    }
}

/// Parses and classifies one `<lastmod>` value, already trimmed of XML whitespace.
pub fn parse(value: &str) -> Verdict {
    parse_with(value, true)
}

/// The offset shown in corrected values when the original has a time but no
/// timezone: a placeholder the author should replace with the real offset.
const PLACEHOLDER_TZ: &str = "+00:00";

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// Timezone names seen in the wild and their offsets in minutes.
const ZONES: [(&str, i32); 13] = [
    ("UTC", 0),
    ("GMT", 0),
    ("UT", 0),
    ("EST", -300),
    ("EDT", -240),
    ("CST", -360),
    ("CDT", -300),
    ("MST", -420),
    ("MDT", -360),
    ("PST", -480),
    ("PDT", -420),
    ("CET", 60),
    ("CEST", 120),
];

/// The UTC offset in minutes of a zone abbreviation (`GMT`, `CET`, …).
fn zone_offset(word: &str) -> Option<i32> {
    ZONES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(word))
        .map(|&(_, m)| m)
}

const FORMS: &str = "`YYYY-MM-DD` (e.g. `2024-11-21`) or `YYYY-MM-DDThh:mm:ssTZD` (e.g. `2024-11-21T10:00:00+00:00`)";

// ---------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------

/// `suggest` = derive corrected values for help texts (off when checking such a
/// corrected value, so the recursion is one level deep at most).
fn parse_with(value: &str, suggest: bool) -> Verdict {
    match parse_plain(value.as_bytes()) {
        Some(dt) => Verdict::Valid(dt),
        None => parse_full(value, suggest),
    }
}

/// The two forms almost every sitemap uses, when valid: `YYYY-MM-DD` and
/// `YYYY-MM-DDThh:mm:ss[.s+]TZD` with TZD = `Z` | `+hh:mm` | `-hh:mm`, read in one pass
/// without allocating. `None` for anything else (other forms, any deviation, any value out
/// of range): [`parse_full`] then decides. Where this returns a value, [`parse_full`] returns
/// `Verdict::Valid` of the same value (the tests compare them on many generated values).
fn parse_plain(b: &[u8]) -> Option<W3cDateTime> {
    let two = |i: usize| -> Option<u32> {
        match b.get(i..i + 2)? {
            &[x @ b'0'..=b'9', y @ b'0'..=b'9'] => {
                Some(u32::from(x - b'0') * 10 + u32::from(y - b'0'))
            }
            _ => None,
        }
    };
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year = two(0)? * 100 + two(2)?;
    let (month, day) = (two(5)?, two(8)?);
    // Every month has 28 days: the calendar is asked only about the days after.
    if year == 0
        || !(1..=12).contains(&month)
        || day == 0
        || (day > 28 && day > days_in_month(year, month))
    {
        return None;
    }
    let mut dt = W3cDateTime {
        year: i32::try_from(year).ok()?,
        month: Some(month),
        day: Some(day),
        hour: None,
        minute: None,
        second: None,
        nanosecond: 0,
        offset_minutes: None,
        precision: Precision::Date,
    };
    if b.len() == 10 {
        return Some(dt);
    }
    if b.len() < 20 || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (hour, minute, second) = (two(11)?, two(14)?, two(17)?);
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut i = 19;
    if b[i] == b'.' {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return None;
        }
        dt.nanosecond = nanos(std::str::from_utf8(&b[start..i]).ok()?);
    }
    let offset = match b[i..] {
        [b'Z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let (h, m) = (two(i + 1)?, two(i + 4)?);
            let total = i32::try_from(h * 60 + m).ok()?;
            if m > 59 || total > 14 * 60 {
                return None;
            }
            if sign == b'-' {
                -total
            } else {
                total
            }
        }
        _ => return None,
    };
    dt.hour = Some(hour);
    dt.minute = Some(minute);
    dt.second = Some(second);
    dt.offset_minutes = Some(offset);
    dt.precision = Precision::Seconds;
    Some(dt)
}

/// [`parse_with`] without the fast path for the common valid forms.
fn parse_full(value: &str, suggest: bool) -> Verdict {
    if value.is_empty() {
        return Verdict::Invalid(vec![Problem {
            range: 0..0,
            message: "`lastmod` is empty".to_owned(),
            help: Some(format!(
                "write a date or a date and time, as {FORMS}, or remove the element"
            )),
        }]);
    }
    if !value.is_ascii() {
        return Verdict::Invalid(vec![non_ascii(value, suggest)]);
    }
    let mut scan = Scan::new(value);
    let raw = scan.run();
    if let Some(raw) = &raw {
        if scan.issues.is_empty() {
            return classify(value, raw, Vec::new(), true, true, suggest);
        }
    }
    if let Some(problem) = foreign(value) {
        return Verdict::Invalid(vec![problem]);
    }
    match raw {
        Some(raw) => classify(
            value,
            &raw,
            scan.issues,
            scan.fixable,
            scan.check_ranges,
            suggest,
        ),
        None => Verdict::Invalid(vec![Problem {
            range: 0..value.len(),
            message: format!("{} is not a W3C Datetime value", q(value)),
            help: Some(format!("write {FORMS}")),
        }]),
    }
}

/// A corrected spelling of an invalid value (see [`repair`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// The value rewritten as W3C Datetime.
    pub value: String,
    /// Whether it says exactly what the original said (separators, padding, an offset's colon,
    /// a space for `T` before a timezone). `false` when it assumes or drops something: a
    /// timezone added to a time without one, trailing text or a zone name dropped or read.
    pub certain: bool,
}

/// The value an invalid `<lastmod>` (one [`parse`] calls [`Verdict::Invalid`]) most likely
/// meant, rewritten as acceptable W3C Datetime: the corrected value the help of its first
/// problem shows. `None` when no correction can be derived (impossible dates, ambiguous or
/// foreign forms) or the value is not invalid.
pub fn repair(value: &str) -> Option<Repair> {
    if value.is_empty() || !value.is_ascii() || parse_plain(value.as_bytes()).is_some() {
        return None;
    }
    let mut scan = Scan::new(value);
    let raw = scan.run()?;
    if !scan.fixable || foreign(value).is_some() {
        return None;
    }
    let mut problems = Vec::new();
    if !scan.check_ranges || range_check(value, &raw, &mut problems) > 0 {
        return None;
    }
    let fixed = render_fix(value, &raw);
    if fixed == value || !accepted(&fixed) || !matches!(parse(value), Verdict::Invalid(_)) {
        return None;
    }
    let assumed_zone = raw.time.is_some() && raw.tz.is_none();
    Some(Repair {
        value: fixed,
        certain: scan.certain && !assumed_zone,
    })
}

/// Whether a corrected value we are about to suggest is acceptable W3C Datetime.
fn accepted(v: &str) -> bool {
    matches!(
        parse_with(v, false),
        Verdict::Valid(_) | Verdict::W3cOnly(..)
    )
}

/// Range checks, completeness (seconds/timezone) and the final verdict.
fn classify(
    value: &str,
    raw: &Raw,
    issues: Vec<Problem>,
    fixable: bool,
    check_ranges: bool,
    suggest: bool,
) -> Verdict {
    let mut problems = issues;
    let mut range_problems = 0;
    if check_ranges {
        range_problems = range_check(value, raw, &mut problems);
    }
    if let Some(t) = raw.time {
        if raw.tz.is_none() {
            let at = t.end.saturating_sub(1)..t.end;
            let time_text = text(value, t.hour.start, t.end);
            if t.second.is_none() && t.minute.is_some() {
                problems.push(Problem {
                    range: at,
                    message: format!(
                        "time {} has neither seconds nor a timezone: both W3C Datetime and the XSD reject it",
                        q(time_text)
                    ),
                    help: Some(
                        "add seconds and a timezone (`Z` for UTC, or the offset from UTC)"
                            .to_owned(),
                    ),
                });
            } else if problems.is_empty() {
                let dt = build(value, raw);
                let problem = Problem {
                    range: at,
                    message: format!(
                        "{} has no timezone: W3C Datetime requires one after a time, and Google Search Console reports \"Invalid date\"",
                        q(value)
                    ),
                    help: Some(format!(
                        "append `Z` if the time is UTC, or its offset from UTC such as `+00:00` or `-05:00`: `{value}Z`"
                    )),
                };
                return Verdict::MissingTimezone(dt, problem);
            } else {
                problems.push(Problem {
                    range: at,
                    message: format!("time {} has no timezone", q(time_text)),
                    help: Some(
                        "W3C Datetime and Google require a timezone after a time: append `Z` for UTC or an offset such as `+00:00`"
                            .to_owned(),
                    ),
                });
            }
        }
    }
    if problems.is_empty() {
        let dt = build(value, raw);
        return match xsd_note(value, raw, dt.precision) {
            Some(p) => Verdict::W3cOnly(dt, p),
            None => Verdict::Valid(dt),
        };
    }
    problems.sort_by_key(|p| p.range.start);
    if suggest && fixable && range_problems == 0 {
        let fixed = render_fix(value, raw);
        let ok = accepted(&fixed);
        let several = problems.len() > 1;
        // `render_fix` completes a time without timezone with a placeholder offset.
        let assumed = if raw.time.is_some() && raw.tz.is_none() {
            " (assuming UTC; use the real offset)"
        } else {
            ""
        };
        if let (true, Some(first)) = (ok, problems.first_mut()) {
            let quoted = format!("`{fixed}`");
            let help = first.help.take().unwrap_or_default();
            first.help = Some(if help.contains(&quoted) {
                help
            } else if several {
                format!("{help}; fixing every problem gives {quoted}{assumed}")
            } else {
                format!("{help}: {quoted}{assumed}")
            });
        }
    }
    Verdict::Invalid(problems)
}

fn build(value: &str, raw: &Raw) -> W3cDateTime {
    let (hour, minute, second, nanosecond) = match raw.time {
        Some(t) => (
            Some(t.hour.val),
            t.minute.map(|m| m.val),
            t.second.map(|s| s.val),
            t.frac.map_or(0, |(a, b)| nanos(text(value, a, b))),
        ),
        None => (None, None, None, 0),
    };
    let precision = if raw.month.is_none() {
        Precision::Year
    } else if raw.day.is_none() {
        Precision::YearMonth
    } else if hour.is_none() {
        Precision::Date
    } else if second.is_none() {
        Precision::Minutes
    } else {
        Precision::Seconds
    };
    W3cDateTime {
        year: i32::try_from(raw.year.val).unwrap_or(i32::MAX),
        month: raw.month.map(|m| m.val),
        day: raw.day.map(|d| d.val),
        hour,
        minute,
        second,
        nanosecond,
        offset_minutes: raw.tz.map(|tz| tz.offset_minutes()),
        precision,
    }
}

/// The value rewritten from its components: separators, padding and offsets
/// normalised, garbage and a timezone without a time dropped, a time completed
/// to `hh:mm:ss`, and `+00:00` added when it has no timezone.
fn render_fix(value: &str, raw: &Raw) -> String {
    let mut s = String::with_capacity(32);
    let _ = write!(s, "{:04}", raw.year.val);
    if let Some(m) = raw.month {
        let _ = write!(s, "-{:02}", m.val);
    }
    if let Some(d) = raw.day {
        let _ = write!(s, "-{:02}", d.val);
    }
    if let Some(t) = raw.time {
        let _ = write!(s, "T{:02}:{:02}", t.hour.val, t.minute.map_or(0, |m| m.val));
        match t.second {
            Some(sec) => {
                let _ = write!(s, ":{:02}", sec.val);
                if let Some((a, b)) = t.frac {
                    s.push('.');
                    s.push_str(text(value, a, b));
                }
            }
            // Seconds too, so that the corrected value is also valid for the XSD.
            None => s.push_str(":00"),
        }
        match raw.tz {
            Some(tz) => s.push_str(&tz.render()),
            None => s.push_str(PLACEHOLDER_TZ),
        }
    }
    s
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

/// `s[start..end]`, or "" when that is not a valid char range.
fn text(s: &str, start: usize, end: usize) -> &str {
    s.get(start..end).unwrap_or("")
}

/// The value of the ASCII digits `b[start..end]` (saturating).
fn num_at(b: &[u8], start: usize, end: usize) -> Num {
    let val = b.get(start..end).unwrap_or(&[]).iter().fold(0u32, |v, &c| {
        v.saturating_mul(10)
            .saturating_add(u32::from(c.wrapping_sub(b'0')))
    });
    Num { val, start, end }
}

/// Nanoseconds of the fraction digits (only the first 9 count).
fn nanos(digits: &str) -> u32 {
    let mut n: u32 = 0;
    let mut count = 0;
    for c in digits.bytes().take(9) {
        n = n * 10 + u32::from(c.wrapping_sub(b'0') % 10);
        count += 1;
    }
    for _ in count..9 {
        n *= 10;
    }
    n
}

fn fmt_offset(minutes: i32) -> String {
    let sign = if minutes < 0 { '-' } else { '+' };
    let a = minutes.unsigned_abs();
    format!("{sign}{:02}:{:02}", a / 60, a % 60)
}

/// User text in backticks, shortened to 40 chars.
fn q(s: &str) -> String {
    let shown = match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    };
    // Line breaks and other controls would break the message: show them escaped (`\n`).
    let mut out = String::with_capacity(shown.len() + 2);
    out.push('`');
    for c in shown.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn format_utc_of_unix_seconds() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(1_732_190_400), "2024-11-21T12:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_utc(-1), "1969-12-31T23:59:59Z");
    }

    use super::*;
    use chrono::{NaiveDate, TimeZone, Utc};

    #[track_caller]
    fn valid(v: &str) -> W3cDateTime {
        match parse(v) {
            Verdict::Valid(dt) => dt,
            other => panic!("{v:?}: expected Valid, got {other:#?}"),
        }
    }

    /// The fast path may only answer where the full parser says `Valid` with the same value.
    #[track_caller]
    fn fast_agrees(v: &str) -> bool {
        let fast = parse_plain(v.as_bytes());
        let full = parse_full(v, true);
        if let Some(dt) = &fast {
            assert_eq!(full, Verdict::Valid(dt.clone()), "fast path accepted {v:?}");
        }
        assert_eq!(parse(v), full, "{v:?}");
        fast.is_some()
    }

    #[test]
    fn fast_path_takes_the_common_forms() {
        for v in [
            "2024-11-21",
            "2024-02-29",
            "2000-02-29",
            "0001-01-01",
            "9999-12-31",
            "2024-11-21T10:00:00Z",
            "2024-11-21T23:59:59+00:00",
            "2024-11-21T00:00:00-05:30",
            "2024-11-21T10:00:00.5Z",
            "2024-11-21T10:00:00.123456789012+14:00",
            "2024-11-21T10:00:00-14:00",
            "2024-11-21T10:00:00-00:00",
        ] {
            assert!(fast_agrees(v), "{v} should take the fast path");
        }
        let dt = parse_plain(b"2024-11-21T10:20:30.25-05:30").unwrap();
        assert_eq!(
            (
                dt.hour,
                dt.minute,
                dt.second,
                dt.nanosecond,
                dt.offset_minutes
            ),
            (Some(10), Some(20), Some(30), 250_000_000, Some(-330))
        );
    }

    #[test]
    fn fast_path_agrees_with_full_parser() {
        let years = [
            "2024", "0000", "0001", "1900", "2000", "2023", "2100", "9999", "999", "20245",
        ];
        let months = [
            "11", "00", "01", "02", "04", "06", "09", "12", "13", "1", "99", "1a",
        ];
        let days = [
            "21", "00", "01", "09", "28", "29", "30", "31", "32", "3", "99", "001",
        ];
        let seps = ["-", "/", ".", ""];
        let times = [
            "",
            "T10:00:00",
            "T00:00:00",
            "T23:59:59",
            "T24:00:00",
            "T23:60:00",
            "T23:59:60",
            "T10:00",
            "T10",
            "T1:00:00",
            "T10:0:00",
            "T10:00:0",
            "T10:00:000",
            "T100000",
            "t10:00:00",
            " 10:00:00",
            "T10:00:00.",
            "T10:00:00.5",
            "T10:00:00,5",
            "T10:00:00.000000000001",
            "T",
            "T10:00:00:00",
            "Tab:cd:ef",
        ];
        let zones = [
            "", "Z", "z", "+00:00", "-00:00", "+05:30", "-05:30", "+14:00", "-14:00", "+14:01",
            "+13:59", "+15:00", "+00:60", "+0000", "+00", "+0:00", "+00:0", "+000:00", " Z",
            " +01:00", "UTC", "GMT", "ZZ", "Z ", "+01:00 ", "+01:00x", "x", "\n", "+01:00Z",
        ];
        let mut fast = 0;
        let mut total = 0;
        for (a, year) in years.iter().enumerate() {
            for (b, month) in months.iter().enumerate() {
                for (c, day) in days.iter().enumerate() {
                    for (d, sep) in seps.iter().enumerate() {
                        for (e, time) in times.iter().enumerate() {
                            for (f, zone) in zones.iter().enumerate() {
                                // At most three parts differ from `2024-11-21`, no time, no zone
                                // (the time counts once: a date-only value is the plain one).
                                let unusual = [a, b, c, d, e, f].iter().filter(|&&i| i > 0).count();
                                if unusual > 3 {
                                    continue;
                                }
                                let v = format!("{year}{sep}{month}{sep}{day}{time}{zone}");
                                total += 1;
                                fast += usize::from(fast_agrees(&v));
                            }
                        }
                    }
                }
            }
        }
        assert!(fast > 500 && fast < total / 2, "{fast} of {total}");
    }

    proptest::proptest! {
        #[test]
        fn fast_path_never_disagrees(
            v in proptest::prop_oneof![
                "[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,12})?(Z|[+-][0-9]{2}:[0-9]{2})?)?",
                "[0-2][0-9]{3}-[01][0-9]-[0-3][0-9](T[0-2][0-9]:[0-6][0-9]:[0-6][0-9](\\.[0-9]{0,3})?(Z|[+-]1[0-5]:[0-6][0-9])?)?",
                "20[0-9]{2}[-T:.+Z0-9]{6,26}",
            ],
        ) {
            if let Some(dt) = parse_plain(v.as_bytes()) {
                proptest::prop_assert_eq!(parse_full(&v, true), Verdict::Valid(dt), "{:?}", v);
            }
        }
    }

    #[track_caller]
    fn w3c_only(v: &str) -> (W3cDateTime, Problem) {
        match parse(v) {
            Verdict::W3cOnly(dt, p) => (dt, p),
            other => panic!("{v:?}: expected W3cOnly, got {other:#?}"),
        }
    }

    #[track_caller]
    fn missing_tz(v: &str) -> (W3cDateTime, Problem) {
        match parse(v) {
            Verdict::MissingTimezone(dt, p) => (dt, p),
            other => panic!("{v:?}: expected MissingTimezone, got {other:#?}"),
        }
    }

    #[track_caller]
    fn invalid(v: &str) -> Vec<Problem> {
        match parse(v) {
            Verdict::Invalid(ps) => {
                assert!(!ps.is_empty(), "{v:?}: Invalid without problems");
                ps
            }
            other => panic!("{v:?}: expected Invalid, got {other:#?}"),
        }
    }

    /// The first problem, checked to point at `at` and to mention each of `words`.
    #[track_caller]
    fn first(v: &str, at: &str, words: &[&str]) -> Problem {
        let p = invalid(v).remove(0);
        assert_eq!(&v[p.range.clone()], at, "{v:?}: range of {p:#?}");
        for w in words {
            assert!(p.message.contains(w), "{v:?}: message lacks {w:?}: {p:#?}");
        }
        p
    }

    #[track_caller]
    fn help(p: &Problem) -> &str {
        p.help.as_deref().expect("a help text")
    }

    #[track_caller]
    fn help_has(p: &Problem, s: &str) {
        assert!(help(p).contains(s), "help lacks {s:?}: {p:#?}");
    }

    fn chrono_unix(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> i64 {
        Utc.from_utc_datetime(
            &NaiveDate::from_ymd_opt(y, mo, d)
                .and_then(|d| d.and_hms_opt(h, mi, s))
                .expect("valid test date"),
        )
        .timestamp()
    }

    // ---- valid ---------------------------------------------------------

    #[test]
    fn date_is_valid() {
        let dt = valid("2024-11-21");
        assert_eq!(
            dt,
            W3cDateTime {
                year: 2024,
                month: Some(11),
                day: Some(21),
                hour: None,
                minute: None,
                second: None,
                nanosecond: 0,
                offset_minutes: None,
                precision: Precision::Date,
            }
        );
        assert_eq!(dt.unix_seconds(), chrono_unix(2024, 11, 21, 0, 0, 0));
    }

    #[test]
    fn datetime_with_z_is_valid() {
        let dt = valid("2024-11-21T10:20:30Z");
        assert_eq!(
            (dt.hour, dt.minute, dt.second),
            (Some(10), Some(20), Some(30))
        );
        assert_eq!(dt.offset_minutes, Some(0));
        assert_eq!(dt.precision, Precision::Seconds);
        assert_eq!(dt.unix_seconds(), chrono_unix(2024, 11, 21, 10, 20, 30));
    }

    #[test]
    fn datetime_with_offsets_is_valid() {
        assert_eq!(valid("2024-11-21T10:00:00+01:00").offset_minutes, Some(60));
        assert_eq!(
            valid("2024-11-21T10:00:00-08:00").offset_minutes,
            Some(-480)
        );
        assert_eq!(valid("2024-11-21T10:00:00+05:45").offset_minutes, Some(345));
        assert_eq!(valid("2024-11-21T10:00:00-00:00").offset_minutes, Some(0));
        assert_eq!(valid("2024-11-21T10:00:00+14:00").offset_minutes, Some(840));
        assert_eq!(
            valid("2024-11-21T10:00:00-14:00").offset_minutes,
            Some(-840)
        );
        let dt = valid("2024-11-21T10:00:00+01:00");
        assert_eq!(dt.unix_seconds(), chrono_unix(2024, 11, 21, 9, 0, 0));
        let dt = valid("2024-11-21T10:00:00-08:30");
        assert_eq!(dt.unix_seconds(), chrono_unix(2024, 11, 21, 18, 30, 0));
    }

    #[test]
    fn fractions_are_valid() {
        assert_eq!(valid("2024-11-21T10:00:00.5Z").nanosecond, 500_000_000);
        assert_eq!(
            valid("2024-11-21T10:00:00.123+01:00").nanosecond,
            123_000_000
        );
        assert_eq!(valid("2024-11-21T10:00:00.000000001Z").nanosecond, 1);
        // More than 9 digits are allowed; the extra ones are dropped.
        let dt = valid("2024-11-21T10:00:00.1234567891234Z");
        assert_eq!(dt.nanosecond, 123_456_789);
        assert_eq!(dt.precision, Precision::Seconds);
        assert_eq!(dt.unix_seconds(), chrono_unix(2024, 11, 21, 10, 0, 0));
    }

    #[test]
    fn calendar_edges_are_valid() {
        valid("2024-02-29");
        valid("2000-02-29");
        valid("2023-02-28");
        valid("2024-04-30");
        valid("2024-12-31T23:59:59Z");
        valid("0001-01-01");
        valid("9999-12-31T23:59:59+14:00");
        valid("2024-01-01T00:00:00Z");
        assert_eq!(valid("1970-01-01T00:00:00Z").unix_seconds(), 0, "the epoch");
        assert_eq!(
            valid("0001-01-01").unix_seconds(),
            chrono_unix(1, 1, 1, 0, 0, 0)
        );
        assert_eq!(
            valid("9999-12-31T23:59:59Z").unix_seconds(),
            chrono_unix(9999, 12, 31, 23, 59, 59)
        );
    }

    #[test]
    fn every_day_of_some_years_agrees_with_chrono() {
        for y in [1600, 1900, 1970, 2000, 2023, 2024, 2100] {
            for m in 0..=13u32 {
                for d in 0..=32u32 {
                    let v = format!("{y:04}-{m:02}-{d:02}");
                    let expected = NaiveDate::from_ymd_opt(y, m, d);
                    match (parse(&v), expected) {
                        (Verdict::Valid(dt), Some(_)) => {
                            assert_eq!(dt.unix_seconds(), chrono_unix(y, m, d, 0, 0, 0), "{v}")
                        }
                        (Verdict::Invalid(ps), None) => {
                            assert!(ps[0].range.start >= 5, "{v}: {ps:?}")
                        }
                        (other, e) => panic!("{v}: {other:?} but chrono says {e:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn unix_seconds_of_partial_values() {
        let (dt, _) = w3c_only("2024");
        assert_eq!(dt.unix_seconds(), chrono_unix(2024, 1, 1, 0, 0, 0));
        let (dt, _) = w3c_only("2024-05");
        assert_eq!(dt.unix_seconds(), chrono_unix(2024, 5, 1, 0, 0, 0));
        let (dt, _) = w3c_only("2005-06-03T04:20-08:00");
        assert_eq!(dt.unix_seconds(), chrono_unix(2005, 6, 3, 12, 20, 0));
        let (dt, _) = missing_tz("2024-11-21T10:00:00");
        assert_eq!(dt.unix_seconds(), chrono_unix(2024, 11, 21, 10, 0, 0));
    }

    #[test]
    fn unix_seconds_is_total_on_hand_built_values() {
        let dt = W3cDateTime {
            year: i32::MIN,
            month: Some(u32::MAX),
            day: Some(u32::MAX),
            hour: Some(u32::MAX),
            minute: Some(u32::MAX),
            second: Some(u32::MAX),
            nanosecond: u32::MAX,
            offset_minutes: Some(i32::MIN),
            precision: Precision::Seconds,
        };
        let _ = dt.unix_seconds();
        let dt = W3cDateTime {
            year: i32::MAX,
            offset_minutes: Some(i32::MAX),
            ..dt
        };
        let _ = dt.unix_seconds();
    }

    #[test]
    fn verdict_accessors() {
        assert!(parse("2024-11-21").problems().is_empty());
        assert!(parse("2024-11-21").datetime().is_some());
        assert_eq!(parse("2024").problems().len(), 1);
        assert!(parse("2024").datetime().is_some());
        assert_eq!(parse("2024-11-21T10:00:00").problems().len(), 1);
        assert!(parse("2024/11/21").datetime().is_none());
        assert_eq!(parse("2024/11/21").problems().len(), 1);
    }

    // ---- W3C-only (the XSD rejects them) -------------------------------

    #[test]
    fn year_only_is_w3c_only() {
        let (dt, p) = w3c_only("2024");
        assert_eq!(dt.precision, Precision::Year);
        assert_eq!((dt.year, dt.month, dt.day), (2024, None, None));
        assert_eq!(p.range, 0..4);
        assert!(p.message.contains("XSD") && p.message.contains("xsd:date"));
        help_has(&p, "`2024-01-01`");
    }

    #[test]
    fn year_month_is_w3c_only() {
        let (dt, p) = w3c_only("2024-05");
        assert_eq!(dt.precision, Precision::YearMonth);
        assert_eq!(dt.month, Some(5));
        assert!(p.message.contains("XSD"));
        help_has(&p, "`2024-05-01`");
    }

    #[test]
    fn minutes_with_timezone_are_w3c_only() {
        let v = "2005-06-03T04:20-08:00";
        let (dt, p) = w3c_only(v);
        assert_eq!(dt.precision, Precision::Minutes);
        assert_eq!((dt.hour, dt.minute, dt.second), (Some(4), Some(20), None));
        assert_eq!(dt.offset_minutes, Some(-480));
        assert_eq!(&v[p.range.clone()], "04:20");
        assert!(p.message.contains("xsd:dateTime"));
        help_has(&p, "`2005-06-03T04:20:00-08:00`");
        let (_, p) = w3c_only("2024-01-01T10:00Z");
        help_has(&p, "`2024-01-01T10:00:00Z`");
    }

    // ---- missing timezone ----------------------------------------------

    #[test]
    fn seconds_without_timezone() {
        let v = "2024-11-21T10:00:00";
        let (dt, p) = missing_tz(v);
        assert_eq!(dt.offset_minutes, None);
        assert_eq!(dt.precision, Precision::Seconds);
        assert_eq!(p.range, v.len() - 1..v.len());
        assert!(p.message.contains("timezone") && p.message.contains("Google"));
        help_has(&p, "`Z`");
        help_has(&p, "`+00:00`");
        help_has(&p, "`2024-11-21T10:00:00Z`");
        let (dt, p) = missing_tz("2024-11-21T10:00:00.25");
        assert_eq!(dt.nanosecond, 250_000_000);
        help_has(&p, "`2024-11-21T10:00:00.25Z`");
    }

    #[test]
    fn minutes_without_timezone_are_invalid() {
        let p = first("2024-01-01T10:00", "0", &["`10:00`", "seconds", "timezone"]);
        help_has(&p, "`2024-01-01T10:00:00+00:00`");
    }

    #[test]
    fn timezone_after_date_is_invalid() {
        let p = first(
            "2024-01-01Z",
            "Z",
            &["W3C Datetime allows a timezone only after a time", "`Z`"],
        );
        help_has(&p, "`2024-01-01`");
        help_has(&p, "`2024-01-01T00:00:00Z`");
        let p = first("2024-01-01+02:00", "+02:00", &["only after a time"]);
        help_has(&p, "`2024-01-01`");
        help_has(&p, "`2024-01-01T00:00:00+02:00`");
        first("2024-01-01-05:00", "-05:00", &["only after a time"]);
        first("2024Z", "Z", &["only after a time"]);
    }

    // ---- impossible values ---------------------------------------------

    #[test]
    fn month_13() {
        let p = first("2024-13-01", "13", &["month `13` does not exist"]);
        help_has(&p, "`01` to `12`");
        help_has(&p, "`2024-01-13`");
        first("2024-00-10", "00", &["month `00` does not exist"]);
        let p = first("2024-13", "13", &["month `13`"]);
        assert!(!help(&p).contains("day"));
    }

    #[test]
    fn february_29_outside_leap_years() {
        let p = first(
            "2023-02-29",
            "29",
            &["2023 is not a leap year: February has 28 days"],
        );
        help_has(&p, "`2023-02-28`");
        first("1900-02-29", "29", &["1900 is not a leap year"]);
        first("2100-02-29T10:00:00Z", "29", &["2100 is not a leap year"]);
    }

    #[test]
    fn days_beyond_the_month() {
        let p = first(
            "2024-02-30",
            "30",
            &["day `30`", "February 2024 has 29 days"],
        );
        help_has(&p, "`2024-02-29`");
        let p = first("2024-04-31", "31", &["day `31`", "April has 30 days"]);
        help_has(&p, "`2024-04-30`");
        first("2024-06-31", "31", &["June has 30 days"]);
        first("2024-01-32", "32", &["day `32`", "January has 31 days"]);
        first("2024-01-00", "00", &["day `00` does not exist"]);
        let ps = invalid("2024-13-45");
        assert_eq!(ps.len(), 2);
        assert!(ps[1].message.contains("day `45`"));
    }

    #[test]
    fn year_zero() {
        let p = first("0000-01-01", "0000", &["year `0000`"]);
        help_has(&p, "`0001`");
        first("0000", "0000", &["year `0000`"]);
    }

    #[test]
    fn impossible_clock_values() {
        let p = first("2024-01-01T25:00:00Z", "25", &["hour `25` does not exist"]);
        help_has(&p, "`00` to `23`");
        let p = first(
            "2024-01-01T10:61:00Z",
            "61",
            &["minute `61` does not exist"],
        );
        help_has(&p, "`00` to `59`");
        let p = first(
            "2024-01-01T10:00:60Z",
            "60",
            &["second `60`", "leap second"],
        );
        help_has(&p, "`59`");
        first(
            "2024-01-01T10:00:61Z",
            "61",
            &["second `61` does not exist"],
        );
        first("2024-01-01T10:60Z", "60", &["minute `60`"]);
        first("2024-01-01T24:00:01Z", "24", &["hour `24` does not exist"]);
    }

    #[test]
    fn midnight_24() {
        let p = first(
            "2024-11-21T24:00:00Z",
            "24:00:00",
            &["`24:00:00`", "XSD", "W3C"],
        );
        help_has(&p, "`00:00:00` of the next day");
        help_has(&p, "`2024-11-22T00:00:00Z`");
        let p = first("2024-12-31T24:00:00+01:00", "24:00:00", &[]);
        help_has(&p, "`2025-01-01T00:00:00+01:00`");
        let p = first("2024-02-28T24:00:00Z", "24:00:00", &[]);
        help_has(&p, "`2024-02-29T00:00:00Z`");
        let p = first("2023-02-28T24:00Z", "24:00", &[]);
        help_has(&p, "`2023-03-01T00:00:00Z`");
        first("2024-11-21T24:00:00.000Z", "24:00:00.000", &[]);
        let p = first("9999-12-31T24:00:00Z", "24:00:00", &[]);
        assert_eq!(help(&p), "use `00:00:00` of the next day");
    }

    #[test]
    fn offsets_out_of_range() {
        let p = first("2024-01-01T10:00:00+15:00", "+15:00", &["beyond ±14:00"]);
        help_has(&p, "`-14:00` to `+14:00`");
        first(
            "2024-01-01T10:00:00-14:01",
            "-14:01",
            &["offset `-14:01`", "±14:00"],
        );
        first("2024-01-01T10:00:00+14:30", "+14:30", &["±14:00"]);
        first("2024-01-01T10:00:00+01:75", "75", &["offset minutes `75`"]);
        first("2024-01-01T10:00:00+99:00", "+99:00", &["±14:00"]);
    }

    #[test]
    fn several_impossible_values_are_all_reported_in_order() {
        let ps = invalid("2023-02-29T25:61:60+15:00");
        let at: Vec<&str> = ps
            .iter()
            .map(|p| &"2023-02-29T25:61:60+15:00"[p.range.clone()])
            .collect();
        assert_eq!(at, ["29", "25", "61", "60", "+15:00"]);
        assert!(ps.iter().all(|p| !help(p).contains("fixing every problem")));
    }

    #[test]
    fn impossible_value_and_missing_timezone() {
        let ps = invalid("2024-02-30T10:00:00");
        assert_eq!(ps.len(), 2);
        assert!(ps[0].message.contains("day `30`"));
        assert!(ps[1].message.contains("no timezone"));
    }

    // ---- foreign formats -----------------------------------------------

    #[test]
    fn slash_separators() {
        let p = first("2024/11/21", "2024/11/21", &["`/`", "`-`"]);
        help_has(&p, "`2024-11-21`");
        let p = first("2024.11.21", "2024.11.21", &["`.`"]);
        help_has(&p, "`2024-11-21`");
        let p = first("2024-11/21", "2024-11/21", &["`/`"]);
        help_has(&p, "`2024-11-21`");
        let p = first("2024/11", "2024/11", &["`/`"]);
        help_has(&p, "`2024-11`");
        let ps = invalid("2023/02/29");
        assert_eq!(ps.len(), 2);
        assert!(ps[1].message.contains("not a leap year"));
        assert!(!help(&ps[0]).contains("2023-02-29`"));
    }

    #[test]
    fn day_first_dates() {
        let p = first("21/11/2024", "21/11/2024", &["day-first", "`DD/MM/YYYY`"]);
        help_has(&p, "year-first `YYYY-MM-DD`");
        help_has(&p, "`2024-11-21`");
        let p = first("21-11-2024", "21-11-2024", &["day-first", "`DD-MM-YYYY`"]);
        help_has(&p, "`2024-11-21`");
        let p = first("21.11.2024", "21.11.2024", &["day-first"]);
        help_has(&p, "`2024-11-21`");
        let p = first("1/2/2024", "1/2/2024", &["ambiguous"]);
        help_has(&p, "`2024-02-01`");
        let p = first("5/5/2024", "5/5/2024", &["year last"]);
        help_has(&p, "`2024-05-05`");
    }

    #[test]
    fn month_first_dates() {
        let p = first("11/21/2024", "11/21/2024", &["month-first", "`MM/DD/YYYY`"]);
        help_has(&p, "year-first `YYYY-MM-DD`");
        help_has(&p, "`2024-11-21`");
        let p = first("11/2024", "11/2024", &["month-first", "`MM/YYYY`"]);
        help_has(&p, "`2024-11`");
        let p = first("11/21/2024 10:00:00", "11/21/2024", &["month-first"]);
        help_has(&p, "`2024-11-21T10:00:00+00:00`");
    }

    #[test]
    fn ambiguous_day_month_order() {
        let p = first("01/02/2024", "01/02/2024", &["ambiguous"]);
        help_has(&p, "`2024-02-01` if it is day-first");
        help_has(&p, "`2024-01-02` if it is month-first");
        let p = first(
            "21/13/2024",
            "21/13/2024",
            &["neither `21` nor `13` is a month"],
        );
        help_has(&p, "`YYYY-MM-DD`");
        assert_eq!(invalid("21/13/2024").len(), 1);
    }

    #[test]
    fn space_between_date_and_time() {
        let v = "2024-11-21 10:00:00";
        let ps = invalid(v);
        assert_eq!(&v[ps[0].range.clone()], " ");
        assert!(ps[0].message.contains("separated by a space"));
        help_has(&ps[0], "`T`");
        help_has(&ps[0], "`2024-11-21T10:00:00+00:00`");
        assert!(ps[1].message.contains("no timezone"));
        let p = first("2024-11-21 10:00:00Z", " ", &["space"]);
        help_has(&p, "`2024-11-21T10:00:00Z`");
        let p = first("2024-11-21  10:00:00+01:00", "  ", &["space"]);
        help_has(&p, "`2024-11-21T10:00:00+01:00`");
    }

    #[test]
    fn space_and_no_seconds() {
        let v = "2024-11-21 10:00";
        let ps = invalid(v);
        assert_eq!(ps.len(), 2);
        assert_eq!(&v[ps[0].range.clone()], " ");
        help_has(&ps[0], "`2024-11-21T10:00:00+00:00`");
        assert!(ps[1].message.contains("neither seconds nor a timezone"));
        assert_eq!(&v[ps[1].range.clone()], "0");
    }

    #[test]
    fn missing_timezone_points_at_the_last_char_of_the_time() {
        let v = "2024-11-21T10:00:00.125";
        let (_, p) = missing_tz(v);
        assert_eq!(p.range, 22..23);
        let v = "2024-11-21T10:00";
        assert_eq!(invalid(v)[0].range, 15..16);
    }

    #[test]
    fn lowercase_t_and_z() {
        let p = first("2024-11-21t10:00:00Z", "t", &["lowercase `t`"]);
        help_has(&p, "`T`");
        help_has(&p, "`2024-11-21T10:00:00Z`");
        let p = first("2024-11-21T10:00:00z", "z", &["lowercase `z`"]);
        help_has(&p, "`Z`");
        help_has(&p, "`2024-11-21T10:00:00Z`");
        let ps = invalid("2024-11-21t10:00:00z");
        assert_eq!(ps.len(), 2);
        help_has(&ps[0], "`2024-11-21T10:00:00Z`");
    }

    #[test]
    fn offsets_without_colon_or_minutes() {
        let p = first("2024-11-21T10:00:00+0100", "+0100", &["colon"]);
        help_has(&p, "`+01:00`");
        help_has(&p, "`2024-11-21T10:00:00+01:00`");
        let p = first("2024-11-21T10:00:00-0530", "-0530", &["colon"]);
        help_has(&p, "`2024-11-21T10:00:00-05:30`");
        let p = first(
            "2024-11-21T10:00:00+01",
            "+01",
            &["offset `+01` has no minutes"],
        );
        help_has(&p, "`+01:00`");
        help_has(&p, "`2024-11-21T10:00:00+01:00`");
        let p = first("2024-11-21T10:00:00+1", "+1", &["no minutes"]);
        help_has(&p, "`2024-11-21T10:00:00+01:00`");
        let p = first("2024-11-21T10:00:00+1:00", "1", &["not zero-padded"]);
        help_has(&p, "`2024-11-21T10:00:00+01:00`");
        let p = first("2024-11-21T10:00:00+100", "+100", &["`+hh:mm`"]);
        assert!(!help(&p).contains("2024"));
        first("2024-11-21T10:00:00+1500", "+1500", &["colon"]);
        assert!(invalid("2024-11-21T10:00:00+1500")[1]
            .message
            .contains("±14:00"));
    }

    #[test]
    fn timezone_names_and_spaces() {
        let v = "2024-11-21T10:00:00 GMT";
        let p = first(v, " GMT", &["`GMT`"]);
        help_has(&p, "`2024-11-21T10:00:00Z`");
        assert_eq!(invalid(v).len(), 1);
        let p = first("2024-11-21T10:00:00UTC", "UTC", &["`UTC`"]);
        help_has(&p, "`2024-11-21T10:00:00Z`");
        let p = first("2024-11-21T10:00:00 EST", " EST", &["`EST`"]);
        help_has(&p, "`2024-11-21T10:00:00-05:00`");
        let p = first(
            "2024-11-21T10:00:00 +01:00",
            " ",
            &["space before the timezone"],
        );
        help_has(&p, "`2024-11-21T10:00:00+01:00`");
        let p = first("2024-11-21T10:00:00 Z", " ", &["space"]);
        help_has(&p, "`2024-11-21T10:00:00Z`");
    }

    #[test]
    fn iso_basic_format() {
        let p = first("20241121", "20241121", &["basic format"]);
        help_has(&p, "`2024-11-21`");
        let v = "20241121T100000Z";
        let ps = invalid(v);
        assert_eq!(&v[ps[0].range.clone()], "20241121");
        help_has(&ps[0], "`2024-11-21T10:00:00Z`");
        assert_eq!(&v[ps[1].range.clone()], "100000");
        assert!(ps[1].message.contains("basic format"));
        let p = first("2024-11-21T1000Z", "1000", &["basic format"]);
        // Corrections add the seconds the XSD needs, so they are valid for it too.
        help_has(&p, "`2024-11-21T10:00:00Z`");
        let p = first("20241121T100000+0100", "20241121", &[]);
        help_has(&p, "`2024-11-21T10:00:00+01:00`");
        let ps = invalid("20241321");
        assert!(ps.iter().any(|p| p.message.contains("month `13`")));
    }

    #[test]
    fn missing_zero_padding() {
        let p = first("2025-8-10", "8", &["month `8`", "not zero-padded"]);
        help_has(&p, "`2025-08-10`");
        let p = first("2025-08-1", "1", &["day `1`", "not zero-padded"]);
        help_has(&p, "`2025-08-01`");
        let v = "2024-1-5T10:00:00Z";
        let ps = invalid(v);
        assert_eq!(ps.len(), 2);
        assert_eq!(&v[ps[0].range.clone()], "1");
        assert_eq!(&v[ps[1].range.clone()], "5");
        help_has(&ps[0], "`2024-01-05T10:00:00Z`");
        let p = first("2024-11-21T9:05:03Z", "9", &["hour `9`"]);
        help_has(&p, "`2024-11-21T09:05:03Z`");
        let p = first("2024-1", "1", &["month `1`"]);
        help_has(&p, "`2024-01`");
        let p = first("2024-011-21", "011", &["exactly 2 digits"]);
        help_has(&p, "`2024-11-21`");
        first("2024-123-21", "123", &["exactly 2 digits"]);
        let p = first("2024-1-32", "1", &[]);
        assert!(!help(&p).contains("`2024-"));
    }

    #[test]
    fn time_without_date() {
        let p = first("T10:00:00", "T10:00:00", &["without a date"]);
        help_has(&p, "`YYYY-MM-DDThh:mm:ssTZD`");
        first("10:00", "10:00", &["without a date"]);
        first("10:00:00Z", "10:00:00Z", &["without a date"]);
        first("t10:00", "t10:00", &["without a date"]);
        first("9:30", "9:30", &["without a date"]);
    }

    #[test]
    fn empty_value() {
        let ps = invalid("");
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].range, 0..0);
        assert_eq!(ps[0].message, "`lastmod` is empty");
        assert!(ps[0].help.is_some());
    }

    #[test]
    fn unix_timestamps() {
        let p = first("1700000000", "1700000000", &["Unix timestamp", "seconds"]);
        help_has(&p, "`2023-11-14T22:13:20Z`");
        let p = first("1700000000123", "1700000000123", &["milliseconds"]);
        help_has(&p, "`2023-11-14T22:13:20Z`");
        let p = first("999999999", "999999999", &["Unix timestamp"]);
        help_has(&p, "`2001-09-09T01:46:39Z`");
        let p = first("99999999999", "99999999999", &["Unix timestamp"]);
        help_has(&p, "`5138-11-16T09:46:39Z`");
    }

    #[test]
    fn rfc_2822_and_http_dates() {
        let v = "Thu, 21 Nov 2024 10:00:00 GMT";
        let p = first(v, v, &["RFC 2822/HTTP-style date"]);
        help_has(&p, "`YYYY-MM-DD`");
        help_has(&p, "`2024-11-21T10:00:00Z`");
        let p = first("Nov 21, 2024", "Nov 21, 2024", &["RFC 2822/HTTP-style"]);
        help_has(&p, "`2024-11-21`");
        let p = first(
            "Thu, 21 Nov 2024 10:00:00 +0100",
            "Thu, 21 Nov 2024 10:00:00 +0100",
            &[],
        );
        help_has(&p, "`2024-11-21T10:00:00+01:00`");
        let p = first(
            "Thu, 21 Nov 2024 10:00:00 -0800",
            "Thu, 21 Nov 2024 10:00:00 -0800",
            &[],
        );
        help_has(&p, "`2024-11-21T10:00:00-08:00`");
        let p = first("21 November 2024", "21 November 2024", &["RFC 2822"]);
        help_has(&p, "`2024-11-21`");
        let p = first("September 5, 2024", "September 5, 2024", &[]);
        help_has(&p, "`2024-09-05`");
        let p = first("Thu Nov 21 10:00:00 2024", "Thu Nov 21 10:00:00 2024", &[]);
        help_has(&p, "`2024-11-21T10:00:00+00:00`");
        help_has(&p, "assuming UTC");
        let p = first("2024-Nov-21", "2024-Nov-21", &["month as a name", "`Nov`"]);
        help_has(&p, "`2024-11-21`");
        // Not convertible: 2-digit year, impossible day.
        let p = first(
            "Thursday, 21-Nov-24 10:00:00 GMT",
            "Thursday, 21-Nov-24 10:00:00 GMT",
            &["RFC 2822"],
        );
        assert_eq!(help(&p), format!("write {FORMS}"));
        let p = first("Feb 30, 2024", "Feb 30, 2024", &["RFC 2822"]);
        assert_eq!(help(&p), format!("write {FORMS}"));
    }

    #[test]
    fn wrong_year_lengths() {
        let p = first("24-11-21", "24-11-21", &["no 4-digit year"]);
        help_has(&p, "`YYYY-MM-DD`");
        let p = first("24", "24", &["year `24`", "2 digits"]);
        help_has(&p, "`2024`");
        first("20245-01-01", "20245", &["year `20245` has 5 digits"]);
        first("202-01-01", "202", &["year `202` has 3 digits"]);
        first("2", "2", &["has 1 digit"]);
        first("2-01-01", "2-01-01", &["no 4-digit year"]);
        let p = first("02024-01-01", "02024", &["exactly 4 digits"]);
        help_has(&p, "`2024-01-01`");
        let long = "9".repeat(50);
        let p = first(&long, &long, &["has 50 digits"]);
        assert!(p.message.contains('…'));
    }

    #[test]
    fn trailing_garbage() {
        let p = first("2024-11-21abc", "abc", &["unexpected `abc` after the date"]);
        help_has(&p, "`2024-11-21`");
        let p = first("2024-11-21T10:00:00Zabc", "abc", &["after the timezone"]);
        help_has(&p, "`2024-11-21T10:00:00Z`");
        let p = first(
            "2024-11-21T10:00:00+01:00[Europe/Paris]",
            "[Europe/Paris]",
            &["after the timezone"],
        );
        help_has(&p, "`2024-11-21T10:00:00+01:00`");
        let p = first("2024-11-21T", "T", &["unexpected `T`"]);
        help_has(&p, "add a time");
        first("2024-", "-", &["unexpected `-`"]);
        first("2024-11-21T10:00:00Z ", " ", &["unexpected"]);
        first("2024-11-21T10:00:00+01:00:00", ":00", &["unexpected"]);
    }

    #[test]
    fn bad_fractions() {
        let p = first("2024-11-21T10:00:00.Z", ".", &["no digits"]);
        help_has(&p, "`2024-11-21T10:00:00Z`");
        let p = first("2024-11-21T10:00:00.", ".", &["no digits"]);
        help_has(&p, "`2024-11-21T10:00:00+00:00`");
        let p = first("2024-11-21T10:00:00,5Z", ",5", &["decimal comma"]);
        help_has(&p, "`.5`");
        help_has(&p, "`2024-11-21T10:00:00.5Z`");
        let p = first(
            "2024-11-21T10:00.5Z",
            ".5",
            &["fraction `.5` after minutes"],
        );
        help_has(&p, "`hh:mm:ss.s`");
        assert_eq!(invalid("2024-11-21T10:00.5Z").len(), 1);
        first("2024-11-21T10:00,5Z", ",5", &["after minutes"]);
    }

    #[test]
    fn whitespace_between_date_and_time() {
        let p = first(
            "2024-11-21\n10:00:00Z",
            "\n",
            &["separated by a line break"],
        );
        help_has(&p, "`2024-11-21T10:00:00Z`");
        let p = first("2024-11-21\t10:00:00Z", "\t", &["separated by whitespace"]);
        help_has(&p, "`2024-11-21T10:00:00Z`");
    }

    #[test]
    fn corrected_times_are_valid_for_the_xsd_too() {
        for v in [
            "2024-11-21T10:00+01",
            "2024-11-21T1000Z",
            "2024-11-21T10Z",
            "2024-11-21 10:00",
            "2024-11-21t10:00z",
            "2024/11/21 10:00 UTC",
        ] {
            let help = help(&invalid(v)[0]).to_owned();
            let fixed = help
                .rsplit('`')
                .nth(1)
                .unwrap_or_else(|| panic!("{v:?}: no value in {help:?}"));
            assert!(
                matches!(parse(fixed), Verdict::Valid(_)),
                "{v:?}: {help:?} suggests {fixed:?}, {:?}",
                parse(fixed)
            );
        }
    }

    #[test]
    fn incomplete_times() {
        let p = first("2024-11-21T10Z", "10", &["no minutes"]);
        help_has(&p, "`2024-11-21T10:00:00Z`");
        let ps = invalid("2024-11-21T10");
        assert_eq!(ps.len(), 2);
        help_has(&ps[0], "`2024-11-21T10:00:00+00:00`");
        first("2024-11-21T10:Z", "10:", &["no minutes"]);
        first("2024-05T10:00Z", "T", &["full date"]);
        first("2024-11-21T123Z", "123", &["`hh:mm:ss`"]);
    }

    #[test]
    fn generic_garbage() {
        for v in [
            "hello",
            "-2024-01-01",
            "+2024",
            "now",
            "?",
            "T",
            "Z",
            "yesterday",
        ] {
            let ps = invalid(v);
            assert_eq!(ps.len(), 1, "{v}");
            assert_eq!(ps[0].range, 0..v.len(), "{v}");
            help_has(&ps[0], "`YYYY-MM-DD`");
        }
    }

    #[test]
    fn non_ascii_characters() {
        let v = "2024\u{2010}11\u{2010}21";
        let p = first(v, "\u{2010}", &["U+2010", "ASCII"]);
        help_has(&p, "`-`");
        help_has(&p, "`2024-11-21`");
        let v = "２０２４-11-21";
        let p = first(v, "２", &["U+FF12"]);
        help_has(&p, "`2024-11-21`");
        let v = "\u{FEFF}2024-11-21";
        let p = first(v, "\u{FEFF}", &["U+FEFF"]);
        help_has(&p, "invisible");
        help_has(&p, "`2024-11-21`");
        let v = "2024-11-21\u{00A0}10:00:00Z";
        let p = first(v, "\u{00A0}", &["U+00A0"]);
        help_has(&p, "`T`");
        let v = "2024年11月21日";
        let p = first(v, "年", &[]);
        assert_eq!(invalid(v).len(), 1);
        assert!(!help(&p).contains("`2024"));
        first("2024-11-21T10:00:00Zé", "é", &["U+00E9"]);
        first("é", "é", &[]);
    }

    // ---- properties ----------------------------------------------------

    /// Checks the invariants every verdict must satisfy.
    fn check_invariants(v: &str, verdict: &Verdict) {
        let ps = verdict.problems();
        if let Verdict::Invalid(ps) = verdict {
            assert!(!ps.is_empty(), "{v:?}");
        }
        for p in ps {
            if v.is_empty() {
                assert_eq!(p.range, 0..0);
            } else {
                assert!(p.range.start < p.range.end, "{v:?}: empty range {p:?}");
                assert!(p.range.end <= v.len(), "{v:?}: {p:?}");
                assert!(v.is_char_boundary(p.range.start), "{v:?}: {p:?}");
                assert!(v.is_char_boundary(p.range.end), "{v:?}: {p:?}");
            }
            let first_char = p.message.chars().next().expect("a message");
            assert!(!first_char.is_ascii_uppercase(), "{v:?}: {p:?}");
            assert!(!p.message.ends_with('.'), "{v:?}: {p:?}");
            let h = p.help.as_deref().expect("every problem has a help");
            assert!(!h.is_empty() && !h.ends_with('.'), "{v:?}: {p:?}");
            // Lowercase start, unless the first word is an acronym (`W3C`, `UTC`).
            let word = h.split(' ').next().unwrap_or("");
            let acronym = word.len() > 1
                && word
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
            assert!(
                acronym || !h.starts_with(|c: char| c.is_ascii_uppercase()),
                "{v:?}: {p:?}"
            );
            // Every concrete value suggested in a help is itself acceptable.
            for (i, token) in h.split('`').enumerate() {
                let concrete = i % 2 == 1
                    && token.len() >= 7
                    && token.as_bytes()[..4].iter().all(u8::is_ascii_digit)
                    && token.as_bytes()[4] == b'-';
                if concrete {
                    assert!(
                        matches!(parse(token), Verdict::Valid(_) | Verdict::W3cOnly(..)),
                        "{v:?}: suggestion {token:?} is not valid: {:?}",
                        parse(token)
                    );
                }
            }
        }
        match verdict {
            Verdict::Valid(dt) => check_faithful(v, dt),
            Verdict::W3cOnly(dt, p) | Verdict::MissingTimezone(dt, p) => {
                check_faithful(v, dt);
                let h = help(p);
                let fixed = h.rsplit('`').nth(1).expect("a corrected value");
                assert!(
                    matches!(parse(fixed), Verdict::Valid(_)),
                    "{v:?} -> {fixed:?}"
                );
            }
            Verdict::Invalid(_) => {}
        }
    }

    /// The fields of a parsed value spell the value again, and are in range.
    fn check_faithful(v: &str, dt: &W3cDateTime) {
        let mut s = format!("{:04}", dt.year);
        if let Some(m) = dt.month {
            s += &format!("-{m:02}");
        }
        if let Some(d) = dt.day {
            s += &format!("-{d:02}");
        }
        if let (Some(h), Some(mi)) = (dt.hour, dt.minute) {
            s += &format!("T{h:02}:{mi:02}");
        }
        if let Some(sec) = dt.second {
            s += &format!(":{sec:02}");
        }
        assert!(v.starts_with(&s), "{v:?} vs {s:?} from {dt:?}");
        let rest = &v[s.len()..];
        let tz_len = match dt.offset_minutes {
            None => 0,
            Some(_) if rest.ends_with('Z') => 1,
            Some(_) => 6,
        };
        let (frac, tz) = rest.split_at(rest.len() - tz_len);
        assert!(
            frac.is_empty() || (frac.len() > 1 && frac.starts_with('.')),
            "{v:?}"
        );
        if let Some(off) = dt.offset_minutes {
            if tz != "Z" {
                assert_eq!(
                    tz,
                    format!(
                        "{}{:02}:{:02}",
                        if tz.starts_with('-') { '-' } else { '+' },
                        off.unsigned_abs() / 60,
                        off.unsigned_abs() % 60
                    ),
                    "{v:?}"
                );
            }
            assert!(off.unsigned_abs() <= 840, "{v:?}");
        }
        let date = NaiveDate::from_ymd_opt(dt.year, dt.month.unwrap_or(1), dt.day.unwrap_or(1));
        assert!(date.is_some() && dt.year >= 1, "{v:?}");
        assert!(
            dt.hour.unwrap_or(0) < 24 && dt.minute.unwrap_or(0) < 60 && dt.second.unwrap_or(0) < 60
        );
        let expected = chrono_unix(
            dt.year,
            dt.month.unwrap_or(1),
            dt.day.unwrap_or(1),
            dt.hour.unwrap_or(0),
            dt.minute.unwrap_or(0),
            dt.second.unwrap_or(0),
        ) - i64::from(dt.offset_minutes.unwrap_or(0)) * 60;
        assert_eq!(dt.unix_seconds(), expected, "{v:?}");
    }

    #[test]
    fn invariants_hold_for_all_listed_cases() {
        let cases = [
            "",
            "2024",
            "2024-05",
            "2024-11-21",
            "2024-11-21T10:00:00Z",
            "2024-11-21T10:00Z",
            "2024-11-21T10:00:00",
            "2024-11-21T10:00",
            "2024-01-01Z",
            "2024-13-01",
            "2023-02-29",
            "2024-02-30",
            "2024-04-31",
            "2024-01-00",
            "2024-01-01T25:00:00Z",
            "2024-11-21T24:00:00Z",
            "2024-01-01T10:61:00Z",
            "2024-01-01T10:00:60Z",
            "2024-01-01T10:00:00+15:00",
            "2024/11/21",
            "21/11/2024",
            "21-11-2024",
            "11/21/2024",
            "2024-11-21 10:00:00",
            "2024-11-21t10:00:00",
            "2024-11-21T10:00:00+0100",
            "2024-11-21T10:00:00+01",
            "2024-11-21T10:00:00z",
            "20241121",
            "20241121T100000Z",
            "2025-8-10",
            "2025-08-1",
            "2024-1-5T10:00:00",
            "T10:00:00",
            "10:00",
            "1700000000",
            "Thu, 21 Nov 2024 10:00:00 GMT",
            "Nov 21, 2024",
            "24",
            "20245",
            "2024-11-21abc",
            "2024-11-21T10:00:00.Z",
            "2024-11-21T10:00:00,5Z",
            "1/2/2024",
            "31/02/2024",
            "02/31/2024",
            "13/13/2024",
        ];
        for v in cases {
            check_invariants(v, &parse(v));
        }
    }

    fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
        std::env::var(name).ok()?.parse().ok()
    }

    /// A tiny deterministic generator (xorshift) for mutation fuzzing.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn mutation_fuzz_never_panics_and_keeps_invariants() {
        let seeds = [
            "2024-11-21T10:20:30.5+01:00",
            "2024-02-29",
            "2005-06-03T04:20-08:00",
            "2024",
            "2024-05",
            "21/11/2024 10:00:00",
            "Thu, 21 Nov 2024 10:00:00 GMT",
            "20241121T100000Z",
            "1700000000",
        ];
        let alphabet: Vec<char> = "0123456789012345-:TZtz+.,/ 9-:T\u{2010}é２年\u{FEFF}ABCNov"
            .chars()
            .collect();
        // W3C_FUZZ_ITERS=n (and W3C_FUZZ_SEED) run a longer search.
        let iters = env_number("W3C_FUZZ_ITERS").unwrap_or(30_000);
        let mut rng = Rng(env_number("W3C_FUZZ_SEED").unwrap_or(0x9E37_79B9_7F4A_7C15));
        let mut valid_count = 0;
        for _ in 0..iters {
            let mut chars: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
            for _ in 0..=rng.below(3) {
                let c = alphabet[rng.below(alphabet.len())];
                match rng.below(3) {
                    0 if !chars.is_empty() => {
                        let i = rng.below(chars.len());
                        chars[i] = c;
                    }
                    1 if !chars.is_empty() => {
                        chars.remove(rng.below(chars.len()));
                    }
                    _ => {
                        let i = rng.below(chars.len() + 1);
                        chars.insert(i, c);
                    }
                }
            }
            let v: String = chars.into_iter().collect();
            let verdict = parse(&v);
            if matches!(verdict, Verdict::Valid(_)) {
                valid_count += 1;
            }
            check_invariants(&v, &verdict);
        }
        assert!(
            valid_count > iters / 300,
            "the fuzzer should hit valid values too"
        );
    }

    #[test]
    fn random_ascii_never_panics() {
        let mut rng = Rng(env_number("W3C_FUZZ_SEED").unwrap_or(12345));
        for _ in 0..env_number("W3C_FUZZ_ITERS").unwrap_or(20_000) {
            let len = rng.below(30);
            let v: String = (0..len)
                .map(|_| char::from(b" !+,-./0123456789:TZtzGMTNovMon"[rng.below(31)]))
                .collect();
            check_invariants(&v, &parse(&v));
        }
    }

    #[test]
    fn long_values_do_not_overflow() {
        let long_digits = "9".repeat(10_000);
        check_invariants(&long_digits, &parse(&long_digits));
        let v = format!("2024-11-21T10:00:00.{}Z", "9".repeat(10_000));
        assert_eq!(valid(&v).nanosecond, 999_999_999);
        let v = format!("2024-11-21T10:00:00+{}", "9".repeat(100));
        check_invariants(&v, &parse(&v));
        let v = format!("2024-{}-21", "9".repeat(100));
        check_invariants(&v, &parse(&v));
        let v = format!("2024-11-21{}", "x".repeat(1000));
        let ps = invalid(&v);
        assert!(ps[0].message.chars().count() < 100);
    }
}
