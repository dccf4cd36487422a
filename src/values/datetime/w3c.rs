//! The lenient scanner of the W3C Datetime grammar: reads what it can and records every
//! deviation.

use std::ops::Range;

use super::{accepted, fmt_offset, num_at, q, text, zone_offset, Problem};

// ---------------------------------------------------------------------------
// The lenient scanner
// ---------------------------------------------------------------------------

/// A run of digits: its value (saturating) and byte range.
#[derive(Debug, Clone, Copy)]
pub(super) struct Num {
    pub(super) val: u32,
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Num {
    pub(super) fn len(self) -> usize {
        self.end - self.start
    }
    pub(super) fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Time {
    pub(super) hour: Num,
    pub(super) minute: Option<Num>,
    pub(super) second: Option<Num>,
    /// Byte range of the fraction digits.
    pub(super) frac: Option<(usize, usize)>,
    pub(super) end: usize,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum TzKind {
    Utc,
    Offset {
        negative: bool,
        hours: Num,
        minutes: Option<Num>,
    },
    /// A zone name such as `EST` (always comes with an issue).
    Named(i32),
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Tz {
    pub(super) kind: TzKind,
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Tz {
    pub(super) fn offset_minutes(self) -> i32 {
        match self.kind {
            TzKind::Utc => 0,
            TzKind::Named(m) => m,
            TzKind::Offset {
                negative,
                hours,
                minutes,
            } => {
                let total = i64::from(hours.val) * 60 + i64::from(minutes.map_or(0, |m| m.val));
                let total = i32::try_from(total).unwrap_or(i32::MAX);
                if negative {
                    -total
                } else {
                    total
                }
            }
        }
    }

    pub(super) fn render(self) -> String {
        match self.kind {
            TzKind::Utc => "Z".to_owned(),
            _ => fmt_offset(self.offset_minutes()),
        }
    }
}

#[derive(Debug, Clone)]
pub(super) struct Raw {
    pub(super) year: Num,
    pub(super) month: Option<Num>,
    pub(super) day: Option<Num>,
    pub(super) time: Option<Time>,
    pub(super) tz: Option<Tz>,
}

pub(super) struct Scan<'a> {
    pub(super) s: &'a str,
    pub(super) b: &'a [u8],
    pub(super) pos: usize,
    pub(super) issues: Vec<Problem>,
    /// False once an issue was found whose correction cannot be derived.
    pub(super) fixable: bool,
    /// False when the components could not be identified reliably.
    pub(super) check_ranges: bool,
    /// False once an issue was found whose correction drops or assumes something the value
    /// does not say (trailing text, a timezone after a date, a zone name with several meanings).
    pub(super) certain: bool,
}

impl<'a> Scan<'a> {
    pub(super) fn new(s: &'a str) -> Self {
        Scan {
            s,
            b: s.as_bytes(),
            pos: 0,
            issues: Vec::new(),
            fixable: true,
            check_ranges: true,
            certain: true,
        }
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    pub(super) fn digit_at(&self, i: usize) -> bool {
        self.b.get(i).is_some_and(u8::is_ascii_digit)
    }

    pub(super) fn text(&self, start: usize, end: usize) -> &'a str {
        text(self.s, start, end)
    }

    pub(super) fn issue(&mut self, range: Range<usize>, message: String, help: String) {
        self.issues.push(Problem {
            range,
            message,
            help: Some(help),
        });
    }

    pub(super) fn hard_issue(&mut self, range: Range<usize>, message: String, help: String) {
        self.fixable = false;
        self.issue(range, message, help);
    }

    pub(super) fn digits(&mut self) -> Option<Num> {
        let start = self.pos;
        let mut val: u32 = 0;
        while let Some(c) = self.peek() {
            if !c.is_ascii_digit() {
                break;
            }
            val = val.saturating_mul(10).saturating_add(u32::from(c - b'0'));
            self.pos += 1;
        }
        (self.pos > start).then_some(Num {
            val,
            start,
            end: self.pos,
        })
    }

    /// A date separator (`-`, `/`, `.`) followed by a digit.
    pub(super) fn date_sep(&self) -> Option<u8> {
        match self.peek() {
            Some(c @ (b'-' | b'/' | b'.')) if self.digit_at(self.pos + 1) => Some(c),
            _ => None,
        }
    }

    pub(super) fn run(&mut self) -> Option<Raw> {
        let (year, month, day) = self.date()?;
        let time = self.time(day.is_some());
        let tz = self.tz();
        if let (Some(tz), None) = (tz, time) {
            self.certain = false;
            let tz_text = self.text(tz.start, tz.end);
            let date = self.text(year.start, day.or(month).map_or(year.end, |n| n.end));
            let with_time = format!("{date}T00:00:00{}", tz.render());
            let help = if !self.issues.is_empty() || !accepted(date) {
                "drop it, or add a time before it".to_owned()
            } else if day.is_some() && accepted(&with_time) {
                format!("drop it (`{date}`) or add a time before it (`{with_time}`)")
            } else {
                format!("drop it (`{date}`)")
            };
            self.issue(
                tz.start..tz.end,
                format!(
                    "timezone {} after a date: W3C Datetime allows a timezone only after a time",
                    q(tz_text)
                ),
                help,
            );
        }
        if self.pos < self.b.len() {
            self.certain = false;
            let after = if tz.is_some() {
                "timezone"
            } else if time.is_some() {
                "time"
            } else {
                "date"
            };
            let rest = self.text(self.pos, self.b.len());
            let help = if rest == "T" {
                "remove it, or add a time after it".to_owned()
            } else {
                "remove it".to_owned()
            };
            self.issue(
                self.pos..self.b.len(),
                format!("unexpected {} after the {after}", q(rest)),
                help,
            );
        }
        Some(Raw {
            year,
            month,
            day,
            time,
            tz,
        })
    }

    /// Reads the date part in whatever layout it has and returns year, month
    /// and day, recording every deviation from `YYYY[-MM[-DD]]`.
    #[allow(clippy::type_complexity)]
    pub(super) fn date(&mut self) -> Option<(Num, Option<Num>, Option<Num>)> {
        let a = self.digits()?;
        if a.len() == 8 && self.date_sep().is_none() {
            let (y, m, d) = (
                num_at(self.b, a.start, a.start + 4),
                num_at(self.b, a.start + 4, a.start + 6),
                num_at(self.b, a.start + 6, a.end),
            );
            self.issue(
                a.range(),
                format!(
                    "date {} is in ISO 8601 basic format (no separators)",
                    q(self.text(a.start, a.end))
                ),
                "W3C Datetime uses the extended format `YYYY-MM-DD`".to_owned(),
            );
            return Some((y, Some(m), Some(d)));
        }
        let mut seps: [u8; 2] = [b'-'; 2];
        let mut b = None;
        let mut c = None;
        if let Some(sep) = self.date_sep() {
            seps[0] = sep;
            self.pos += 1;
            b = self.digits();
            if let Some(sep) = self.date_sep() {
                seps[1] = sep;
                self.pos += 1;
                c = self.digits();
            }
        }
        let date_range = a.start..self.pos;
        let date_text = self.text(a.start, self.pos);
        match (b, c) {
            (Some(b), Some(c)) if c.len() == 4 && a.len() <= 2 && b.len() <= 2 => {
                Some(self.year_last(date_range, seps[0], a, b, c))
            }
            (Some(_), Some(last)) if a.len() <= 2 && last.len() <= 2 => {
                self.check_ranges = false;
                self.hard_issue(
                    date_range,
                    format!("date {} has no 4-digit year", q(date_text)),
                    "W3C Datetime dates are `YYYY-MM-DD` with the full 4-digit year first"
                        .to_owned(),
                );
                Some((a, b, c))
            }
            (Some(b), None) if b.len() == 4 && a.len() <= 2 => {
                self.issue(
                    date_range,
                    format!(
                        "{} is month-first (`MM{}YYYY`)",
                        q(date_text),
                        char::from(seps[0])
                    ),
                    "W3C Datetime is year-first `YYYY-MM`".to_owned(),
                );
                Some((b, Some(a), None))
            }
            _ => {
                let used = if b.is_none() {
                    0
                } else if c.is_none() {
                    1
                } else {
                    2
                };
                if let Some(&bad) = seps[..used].iter().find(|&&s| s != b'-') {
                    self.issue(
                        date_range,
                        format!(
                            "date separator `{}` in {} must be `-`",
                            char::from(bad),
                            q(date_text)
                        ),
                        "separate year, month and day with `-`".to_owned(),
                    );
                }
                self.year_digits(a);
                if let Some(b) = b {
                    if !(b.len() == 1 && b.val == 0) {
                        self.two_digits(b, "month");
                    }
                }
                if let Some(c) = c {
                    if !(c.len() == 1 && c.val == 0) {
                        self.two_digits(c, "day");
                    }
                }
                Some((a, b, c))
            }
        }
    }

    /// `DD/MM/YYYY`, `MM/DD/YYYY` and friends: returns (year, month, day).
    pub(super) fn year_last(
        &mut self,
        range: Range<usize>,
        sep: u8,
        a: Num,
        b: Num,
        year: Num,
    ) -> (Num, Option<Num>, Option<Num>) {
        let date_text = self.text(range.start, range.end);
        let s = char::from(sep);
        let hint = "W3C Datetime is year-first `YYYY-MM-DD`".to_owned();
        if a.val > 12 && b.val <= 12 {
            self.issue(
                range,
                format!("{} is day-first (`DD{s}MM{s}YYYY`)", q(date_text)),
                hint,
            );
            (year, Some(b), Some(a))
        } else if b.val > 12 && a.val <= 12 {
            self.issue(
                range,
                format!("{} is month-first (`MM{s}DD{s}YYYY`)", q(date_text)),
                hint,
            );
            (year, Some(a), Some(b))
        } else if a.val == b.val && a.val <= 12 {
            self.issue(range, format!("{} puts the year last", q(date_text)), hint);
            (year, Some(b), Some(a))
        } else if a.val <= 12 {
            let plain = a.val == 0 || b.val == 0 || year.val == 0;
            self.hard_issue(
                range,
                format!(
                    "{} puts the year last and is ambiguous (day-first or month-first)",
                    q(date_text)
                ),
                if plain { hint } else { format!(
                    "W3C Datetime is year-first `YYYY-MM-DD`: `{y:04}-{b:02}-{a:02}` if it is day-first, `{y:04}-{a:02}-{b:02}` if it is month-first",
                    y = year.val,
                    a = a.val,
                    b = b.val
                ) },
            );
            (year, Some(b), Some(a))
        } else {
            self.check_ranges = false;
            self.hard_issue(
                range,
                format!(
                    "{} puts the year last, and neither `{}` nor `{}` is a month",
                    q(date_text),
                    self.text(a.start, a.end),
                    self.text(b.start, b.end)
                ),
                hint,
            );
            (year, Some(b), Some(a))
        }
    }

    pub(super) fn year_digits(&mut self, y: Num) {
        let t = self.text(y.start, y.end);
        match y.len() {
            4 => {}
            2 => self.hard_issue(
                y.range(),
                format!("year {} has only 2 digits", q(t)),
                format!("W3C Datetime needs the full 4-digit year, e.g. `20{t}` or `19{t}`"),
            ),
            n if n > 4 && (1..=9999).contains(&y.val) => self.issue(
                y.range(),
                format!("year {} must have exactly 4 digits", q(t)),
                format!("write it with 4 digits (`{:04}`)", y.val),
            ),
            n => self.hard_issue(
                y.range(),
                format!(
                    "year {} has {n} digit{}",
                    q(t),
                    if n == 1 { "" } else { "s" }
                ),
                "W3C Datetime years have exactly 4 digits, from `0001` to `9999`".to_owned(),
            ),
        }
    }

    pub(super) fn two_digits(&mut self, n: Num, what: &str) {
        let t = self.text(n.start, n.end);
        match n.len() {
            2 => {}
            1 => self.issue(
                n.range(),
                format!("{what} {} is not zero-padded", q(t)),
                format!("write it with 2 digits (`{:02}`)", n.val),
            ),
            _ if n.val <= 99 => self.issue(
                n.range(),
                format!("{what} {} must have exactly 2 digits", q(t)),
                format!("write it with 2 digits (`{:02}`)", n.val),
            ),
            _ => self.hard_issue(
                n.range(),
                format!("{what} {} must have exactly 2 digits", q(t)),
                format!("W3C Datetime writes the {what} with exactly 2 digits"),
            ),
        }
    }

    /// The date/time separator and the time, if any.
    pub(super) fn time(&mut self, has_day: bool) -> Option<Time> {
        let start = self.pos;
        match self.peek()? {
            b'T' if self.digit_at(start + 1) => self.pos += 1,
            b't' if self.digit_at(start + 1) => {
                self.issue(
                    start..start + 1,
                    "lowercase `t` between date and time".to_owned(),
                    "W3C Datetime separates date and time with an uppercase `T`".to_owned(),
                );
                self.pos += 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' => {
                let mut j = start;
                while matches!(self.b.get(j), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                    j += 1;
                }
                let mut k = j;
                while self.digit_at(k) {
                    k += 1;
                }
                if k == j || self.b.get(k) != Some(&b':') {
                    return None;
                }
                let by = if self.b[start..j].iter().all(|&c| c == b' ') {
                    "a space"
                } else if self.b[start..j].iter().any(|&c| c == b'\n' || c == b'\r') {
                    "a line break"
                } else {
                    "whitespace"
                };
                self.issue(
                    start..j,
                    format!("date and time are separated by {by}"),
                    "W3C Datetime separates date and time with `T`".to_owned(),
                );
                self.pos = j;
            }
            _ => return None,
        }
        if !has_day {
            self.hard_issue(
                start..self.pos,
                "a time needs a full date before it".to_owned(),
                "W3C Datetime allows a time only after `YYYY-MM-DD`".to_owned(),
            );
        }
        let h = self.digits()?;
        let (hour, minute, second) = if self.peek() == Some(b':') {
            self.pos += 1;
            self.two_digits(h, "hour");
            let m = self.digits();
            match m {
                Some(m) => self.two_digits(m, "minute"),
                None => self.hard_issue(
                    h.start..self.pos,
                    format!(
                        "time {} has no minutes after the `:`",
                        q(self.text(h.start, self.pos))
                    ),
                    "W3C Datetime times are `hh:mm:ss`".to_owned(),
                ),
            }
            let mut s = None;
            if m.is_some() && self.peek() == Some(b':') && self.digit_at(self.pos + 1) {
                self.pos += 1;
                s = self.digits();
                if let Some(s) = s {
                    self.two_digits(s, "second");
                }
            }
            (h, m, s)
        } else {
            let t = self.text(h.start, h.end);
            match h.len() {
                4 | 6 => {
                    let hh = num_at(self.b, h.start, h.start + 2);
                    let mm = num_at(self.b, h.start + 2, h.start + 4);
                    let ss = (h.len() == 6).then(|| num_at(self.b, h.start + 4, h.end));
                    let colons = if ss.is_some() { "hh:mm:ss" } else { "hh:mm" };
                    self.issue(
                        h.range(),
                        format!("time {} is in ISO 8601 basic format (no colons)", q(t)),
                        format!("W3C Datetime writes times as `{colons}`"),
                    );
                    (hh, Some(mm), ss)
                }
                1 | 2 => {
                    self.two_digits(h, "hour");
                    self.issue(
                        h.range(),
                        format!("time {} has no minutes", q(t)),
                        "W3C Datetime times are `hh:mm:ss`".to_owned(),
                    );
                    (h, None, None)
                }
                _ => {
                    self.hard_issue(
                        h.range(),
                        format!("time {} is not `hh:mm:ss`", q(t)),
                        "W3C Datetime times are `hh:mm:ss`".to_owned(),
                    );
                    (h, None, None)
                }
            }
        };
        let mut frac = None;
        if second.is_none()
            && minute.is_some()
            && matches!(self.peek(), Some(b'.' | b','))
            && self.digit_at(self.pos + 1)
        {
            let p = self.pos;
            self.pos += 1;
            let _ = self.digits();
            self.hard_issue(
                p..self.pos,
                format!(
                    "fraction {} after minutes: W3C Datetime allows a fraction only after seconds",
                    q(self.text(p, self.pos))
                ),
                "write the time as `hh:mm:ss` or `hh:mm:ss.s`".to_owned(),
            );
        } else if second.is_some() {
            let p = self.pos;
            match self.peek() {
                Some(b'.') if self.digit_at(p + 1) => {
                    self.pos += 1;
                    frac = self.digits().map(|n| (n.start, n.end));
                }
                Some(b'.') => {
                    self.issue(
                        p..p + 1,
                        "the fraction after `.` has no digits".to_owned(),
                        "remove the `.`, or add digits after it".to_owned(),
                    );
                    self.pos += 1;
                }
                Some(b',') if self.digit_at(p + 1) => {
                    self.pos += 1;
                    let digits = self.digits();
                    frac = digits.map(|n| (n.start, n.end));
                    let t = self.text(p, self.pos);
                    self.issue(
                        p..self.pos,
                        format!("decimal comma in {}", q(t)),
                        format!(
                            "W3C Datetime separates the fraction of a second with `.` (`.{}`)",
                            self.text(p + 1, self.pos)
                        ),
                    );
                }
                _ => {}
            }
        }
        Some(Time {
            hour,
            minute,
            second,
            frac,
            end: self.pos,
        })
    }

    /// A timezone designator (or something meant as one) at the cursor.
    pub(super) fn tz(&mut self) -> Option<Tz> {
        let ws_start = self.pos;
        let mut start = ws_start;
        while matches!(self.b.get(start), Some(b' ' | b'\t')) {
            start += 1;
        }
        let c = *self.b.get(start)?;
        let had_ws = start > ws_start;
        if (c == b'+' || c == b'-') && self.digit_at(start + 1) {
            self.pos = start;
            let tz = self.offset(c == b'-');
            if tz.is_some() && had_ws {
                self.issue(
                    ws_start..start,
                    "space before the timezone".to_owned(),
                    "remove the space: the offset follows the time directly".to_owned(),
                );
            }
            if tz.is_none() {
                self.pos = ws_start;
            }
            return tz;
        }
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let mut end = start;
        while self.b.get(end).is_some_and(u8::is_ascii_alphabetic) {
            end += 1;
        }
        if end > start + 1
            && matches!(c, b'Z' | b'z')
            && zone_offset(self.text(start, end)).is_none()
        {
            end = start + 1;
        }
        let word = self.text(start, end);
        let kind = if word == "Z" || word == "z" {
            if word == "z" {
                self.issue(
                    start..end,
                    "lowercase `z` as timezone".to_owned(),
                    "W3C Datetime writes UTC as an uppercase `Z`".to_owned(),
                );
            }
            if had_ws {
                self.issue(
                    ws_start..start,
                    "space before the timezone".to_owned(),
                    "remove the space: `Z` follows the time directly".to_owned(),
                );
            }
            TzKind::Utc
        } else {
            let offset = zone_offset(word)?;
            let (kind, spelled) = if offset == 0 {
                (TzKind::Utc, "Z".to_owned())
            } else {
                // `CST` is also China's, `EST` Australia's: the offset is a reading.
                self.certain = false;
                (TzKind::Named(offset), fmt_offset(offset))
            };
            self.issue(
                ws_start..end,
                format!("timezone name {} is not a W3C Datetime timezone", q(word)),
                format!(
                    "W3C Datetime writes UTC as `Z` and other zones as an offset `+hh:mm`/`-hh:mm`, here `{spelled}`"
                ),
            );
            kind
        };
        self.pos = end;
        Some(Tz { kind, start, end })
    }

    /// `+hh:mm`/`-hh:mm` and its misspellings; the cursor is on the sign.
    pub(super) fn offset(&mut self, negative: bool) -> Option<Tz> {
        let start = self.pos;
        self.pos += 1;
        let sign = if negative { '-' } else { '+' };
        let d = self.digits()?;
        let (hours, minutes) = match d.len() {
            1 | 2 => {
                let minutes = if self.peek() == Some(b':') && self.digit_at(self.pos + 1) {
                    self.pos += 1;
                    self.digits()
                } else {
                    None
                };
                match minutes {
                    Some(m) => {
                        self.two_digits(d, "offset hour");
                        self.two_digits(m, "offset minute");
                    }
                    None => self.issue(
                        start..self.pos,
                        format!("offset {} has no minutes", q(self.text(start, self.pos))),
                        format!("add the minutes (`{sign}{:02}:00`)", d.val),
                    ),
                }
                (d, minutes)
            }
            4 => {
                let h = num_at(self.b, d.start, d.start + 2);
                let m = num_at(self.b, d.start + 2, d.end);
                self.issue(
                    start..self.pos,
                    format!(
                        "offset {} needs a colon between hours and minutes",
                        q(self.text(start, self.pos))
                    ),
                    format!("write it with a colon (`{sign}{:02}:{:02}`)", h.val, m.val),
                );
                (h, Some(m))
            }
            _ => {
                self.hard_issue(
                    start..self.pos,
                    format!(
                        "offset {} is not `+hh:mm` or `-hh:mm`",
                        q(self.text(start, self.pos))
                    ),
                    "write the offset from UTC as `+hh:mm` or `-hh:mm`, e.g. `+01:00`".to_owned(),
                );
                (d, None)
            }
        };
        Some(Tz {
            kind: TzKind::Offset {
                negative,
                hours,
                minutes,
            },
            start,
            end: self.pos,
        })
    }
}
