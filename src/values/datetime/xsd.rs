//! What the sitemap XSD (`xsd:date ∪ xsd:dateTime`) says about a valid W3C Datetime.

use super::w3c::Raw;
use super::{q, text, Precision, Problem};

/// For a value that is valid W3C Datetime: the problem the sitemap XSD has
/// with it, if any.
pub(super) fn xsd_note(value: &str, raw: &Raw, precision: Precision) -> Option<Problem> {
    let (missing, fixed, range) = match precision {
        Precision::Year => ("month and day", format!("{value}-01-01"), 0..value.len()),
        Precision::YearMonth => ("a day", format!("{value}-01"), 0..value.len()),
        Precision::Minutes => {
            let t = raw.time?;
            let m = t.minute?;
            let (head, tail) = (text(value, 0, m.end), text(value, m.end, value.len()));
            let hh_mm = text(value, t.hour.start, m.end);
            return Some(Problem {
                range: t.hour.start..m.end,
                message: format!(
                    "time {} has no seconds: valid W3C Datetime, \
                     but the sitemap XSD (xsd:dateTime) rejects it",
                    q(hh_mm)
                ),
                help: Some(format!("add seconds: `{head}:00{tail}`")),
            });
        }
        Precision::Date | Precision::Seconds => return None,
    };
    Some(Problem {
        range,
        message: format!(
            "{} is valid W3C Datetime, but the sitemap XSD (xsd:date/xsd:dateTime) \
             rejects a date without {missing}",
            q(value)
        ),
        help: Some(format!("write a full date: `{fixed}`")),
    })
}
