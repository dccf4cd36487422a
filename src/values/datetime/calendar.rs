//! Calendar and clock checks of what the scanner read, and the calendar maths (chrono's).

use std::fmt::Write as _;
use std::ops::Range;

use chrono::{DateTime, Datelike, NaiveDate, Timelike};

use super::w3c::{Num, Raw, Tz, TzKind};
use super::{accepted, q, text, Problem, MONTHS};

/// `2024-11-21T12:00:00Z` for Unix seconds (UTC, second precision), for messages about "now".
pub fn format_utc(secs: i64) -> String {
    // chrono reads the time within a 400-year cycle from the epoch; whole cycles extend that to
    // any year.
    let (cycles, secs) = (secs.div_euclid(CYCLE_SECS), secs.rem_euclid(CYCLE_SECS));
    // Always in chrono's range (the default, the epoch, is never used).
    let dt = DateTime::from_timestamp(secs, 0).unwrap_or_default();
    let year = i64::from(dt.year()) + cycles * 400;
    format!(
        "{year:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        dt.month(),
        dt.day(),
        dt.hour(),
        dt.minute(),
        dt.second()
    )
}

// ---------------------------------------------------------------------------
// Calendar and clock checks
// ---------------------------------------------------------------------------

/// Pushes a problem for every impossible calendar or clock value; returns how many.
pub(super) fn range_check(value: &str, raw: &Raw, problems: &mut Vec<Problem>) -> usize {
    let before = problems.len();
    let mut push = |range: Range<usize>, message: String, help: String| {
        problems.push(Problem {
            range,
            message,
            help: Some(help),
        });
    };
    let t = |n: Num| q(text(value, n.start, n.end));
    let year = raw.year;
    if year.len() == 4 && year.val == 0 {
        push(
            year.range(),
            "year `0000` does not exist".to_owned(),
            "years go from `0001` to `9999` (the XSD has no year zero)".to_owned(),
        );
    }
    let month = raw.month.filter(|m| m.len() <= 2);
    let month_ok = month.map(|m| (1..=12).contains(&m.val));
    if let (Some(m), Some(false)) = (month, month_ok) {
        let mut help = "months go from `01` to `12`".to_owned();
        if let Some(d) = raw.day {
            if (1..=12).contains(&d.val)
                && m.val >= 13
                && m.val <= days_in_month(year.val, d.val)
                && year.len() == 4
                && year.val > 0
            {
                let _ = write!(
                    help,
                    "; if {} is the day, write month before day: `{:04}-{:02}-{:02}`",
                    t(m),
                    year.val,
                    d.val,
                    m.val
                );
            }
        }
        push(m.range(), format!("month {} does not exist", t(m)), help);
    }
    if let Some(d) = raw.day.filter(|d| d.len() <= 2) {
        if d.val == 0 {
            push(
                d.range(),
                format!("day {} does not exist", t(d)),
                "days start at `01`".to_owned(),
            );
        } else if let (Some(m), Some(true)) = (month, month_ok) {
            // With a malformed year, only days beyond the month's maximum in
            // any year are reported (February: 29).
            let year_ok = year.len() == 4 && year.val > 0;
            let dim = if year_ok {
                days_in_month(year.val, m.val)
            } else {
                days_in_month(2000, m.val)
            };
            if d.val > dim {
                let name = (m.val as usize)
                    .checked_sub(1)
                    .and_then(|i| MONTHS.get(i))
                    .copied()
                    .unwrap_or("the month");
                let year_text = text(value, year.start, year.end);
                let message = if !year_ok {
                    format!("day {} does not exist: {name} has at most {dim} days", t(d))
                } else if m.val == 2 && d.val == 29 {
                    format!("{year_text} is not a leap year: February has 28 days")
                } else if m.val == 2 {
                    format!(
                        "day {} does not exist: February {year_text} has {dim} days",
                        t(d)
                    )
                } else {
                    format!("day {} does not exist: {name} has {dim} days", t(d))
                };
                let last = format!("{:04}-{:02}-{dim:02}", year.val, m.val);
                let help = if year_ok && accepted(&last) {
                    format!("the last day of {name} {year_text} is `{last}`")
                } else {
                    format!("days in {name} go from `01` to `{dim:02}`")
                };
                push(d.range(), message, help);
            }
        } else if d.val > 31 {
            push(
                d.range(),
                format!("day {} does not exist", t(d)),
                "days go from `01` to `31`".to_owned(),
            );
        }
    }
    if let Some(time) = raw.time {
        let h = time.hour;
        let is_midnight = time.minute.is_some_and(|m| m.val == 0)
            && time.second.is_none_or(|s| s.val == 0)
            && time
                .frac
                .is_none_or(|(a, b)| text(value, a, b).bytes().all(|c| c == b'0'));
        if h.len() <= 2 && h.val == 24 && is_midnight {
            let shown = text(value, h.start, time.end);
            let mut help = "use `00:00:00` of the next day".to_owned();
            if let Some(next) = next_day(raw) {
                let tz = raw.tz.map(Tz::render).unwrap_or_default();
                let fixed = format!("{next}T00:00:00{tz}");
                if accepted(&fixed) {
                    let _ = write!(help, ": `{fixed}`");
                }
            }
            push(
                h.start..time.end,
                format!(
                    "{} is not allowed: W3C Datetime hours go from `00` to `23` (the XSD accepts `24:00:00`, W3C Datetime does not)",
                    q(shown)
                ),
                help,
            );
        } else if h.len() <= 2 && h.val > 23 {
            push(
                h.range(),
                format!("hour {} does not exist", t(h)),
                "hours go from `00` to `23`".to_owned(),
            );
        }
        if let Some(m) = time.minute.filter(|m| m.len() <= 2 && m.val > 59) {
            push(
                m.range(),
                format!("minute {} does not exist", t(m)),
                "minutes go from `00` to `59`".to_owned(),
            );
        }
        if let Some(s) = time.second.filter(|s| s.len() <= 2 && s.val >= 60) {
            if s.val == 60 {
                push(
                    s.range(),
                    "second `60` (a leap second) is not allowed".to_owned(),
                    "neither W3C Datetime nor the XSD allows leap seconds: seconds go from `00` to `59`; use `59`".to_owned(),
                );
            } else {
                push(
                    s.range(),
                    format!("second {} does not exist", t(s)),
                    "seconds go from `00` to `59`".to_owned(),
                );
            }
        }
    }
    if let Some(tz) = raw.tz {
        if let TzKind::Offset { hours, minutes, .. } = tz.kind {
            if let Some(m) = minutes.filter(|m| m.len() <= 2 && m.val > 59) {
                push(
                    m.range(),
                    format!("offset minutes {} do not exist", t(m)),
                    "offset minutes go from `00` to `59`".to_owned(),
                );
            } else if hours.len() <= 2 && tz.offset_minutes().unsigned_abs() > 14 * 60 {
                let shown = q(text(value, tz.start, tz.end));
                push(
                    tz.start..tz.end,
                    format!("offset {shown} is beyond ±14:00"),
                    "UTC offsets go from `-14:00` to `+14:00`".to_owned(),
                );
            }
        }
    }
    problems.len() - before
}

/// `YYYY-MM-DD` of the day after the date of `raw`, when that date is complete and valid.
pub(super) fn next_day(raw: &Raw) -> Option<String> {
    let (y, m, d) = (raw.year, raw.month?, raw.day?);
    if y.len() != 4 || !(1..=9999).contains(&y.val) {
        return None;
    }
    let next = NaiveDate::from_ymd_opt(i32::try_from(y.val).ok()?, m.val, d.val)?.succ_opt()?;
    let (y, m, d) = (next.year(), next.month(), next.day());
    (y <= 9999).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// Days in month `m` (1..=12) of year `y`, by chrono: a year's leap rule repeats every 400
/// years, so any `u32` year maps into chrono's range.
pub(super) fn days_in_month(y: u32, m: u32) -> u32 {
    let y = 2000 + i32::try_from(y % 400).unwrap_or(0);
    NaiveDate::from_ymd_opt(y, m, 1).map_or(31, |d| u32::from(d.num_days_in_month()))
}

/// Days from 1970-01-01 to the given proleptic Gregorian date (month 1..=12;
/// the day may be out of range and then simply counts on).
pub(super) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    // chrono counts the days of a year 2000..2400 (always a date for a month 1..=12); whole
    // 400-year cycles extend that to any year.
    let (cycles, y) = (y.div_euclid(400), y.rem_euclid(400));
    let first = i32::try_from(y)
        .ok()
        .zip(u32::try_from(m).ok())
        .and_then(|(y, m)| NaiveDate::from_ymd_opt(2000 + y, m, 1));
    let since_epoch = first.map_or(0, |f| i64::from(f.num_days_from_ce()) - EPOCH_DAYS_FROM_CE);
    (cycles - 5) * CYCLE_DAYS + since_epoch + d - 1
}

/// Days in 400 Gregorian years.
const CYCLE_DAYS: i64 = 146_097;
const CYCLE_SECS: i64 = CYCLE_DAYS * 86_400;
/// chrono's `num_days_from_ce` of 1970-01-01.
const EPOCH_DAYS_FROM_CE: i64 = 719_163;
