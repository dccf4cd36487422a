//! [`check_value`], the simple-type checks of the extension XSDs: hands each type to its
//! check (enumerations here, patterns in `patterns`, numbers and dates in `numbers`, `xsd:anyURI`
//! in [`crate::values::uri::check_any_uri`]).

use super::numbers::{date, decimal, integer};
use super::patterns::{pattern_matches, pattern_problem};
use super::{distinct, empty, listing, problem, trim, SimpleType, Target, ValueProblem};
use crate::values::text::{self, backticked as code};
use crate::values::uri;

/// Checks `text`, the value exactly as the document holds it (entities expanded, not trimmed),
/// against `ty`; `None` when the XSD accepts it.
pub fn check_value(ty: SimpleType, text: &str, target: &Target) -> Option<ValueProblem> {
    match ty {
        SimpleType::String => None,
        SimpleType::MaxLength(max) => max_length(text, max, target),
        SimpleType::Enumeration(values) => preserved(
            text,
            target,
            |v| values.contains(&v),
            |t| enumeration(t, values, target),
        ),
        SimpleType::Pattern(p) => preserved(
            text,
            target,
            |v| pattern_matches(p, v),
            |t| pattern_problem(p, t, target),
        ),
        _ => {
            // The other types collapse whitespace: surrounding whitespace is fine.
            let (start, t) = trim(text);
            let mut p = match ty {
                SimpleType::AnyUri => any_uri(t)?,
                SimpleType::NonNegativeInteger => integer(t, target, 0, None)?,
                SimpleType::Seconds { max } => integer(t, target, 0, Some(max))?,
                SimpleType::PositiveInteger => integer(t, target, 1, None)?,
                SimpleType::Decimal { min, max } => decimal(t, target, min, max)?,
                SimpleType::DateOrDateTime => date(t, target)?,
                _ => return None,
            };
            p.range = p.range.start + start..p.range.end + start;
            Some(p)
        }
    }
}

/// For types derived from `xsd:string`, which keep whitespace: accepts exact matches, reports
/// surrounding whitespace on its own when it is the only problem, and `describe`s the rest (called
/// with the trimmed value, possibly empty).
pub(super) fn preserved(
    text: &str,
    target: &Target,
    matches: impl Fn(&str) -> bool,
    describe: impl FnOnce(&str) -> ValueProblem,
) -> Option<ValueProblem> {
    if matches(text) {
        return None;
    }
    let (start, t) = trim(text);
    if t.len() != text.len() {
        if t.is_empty() {
            let fix = if matches("") {
                "make it empty".to_string()
            } else {
                let mut p = describe("");
                return Some(ValueProblem {
                    range: 0..text.len(),
                    message: format!("{} holds only whitespace", target.what),
                    label: "whitespace".into(),
                    help: p.help.take(),
                });
            };
            return Some(problem(
                0..text.len(),
                format!("{} holds only whitespace", target.what),
                "whitespace",
                Some(format!("{fix}{}", target.or_remove())),
            ));
        }
        if matches(t) {
            return Some(problem(
                start..start + t.len(),
                format!(
                    "{} value {} has surrounding whitespace",
                    target.what,
                    code(t)
                ),
                "whitespace around this value: the XSD compares it exactly",
                Some(format!("remove the whitespace around {}", code(t))),
            ));
        }
    }
    let mut p = describe(t);
    if !t.is_empty() {
        p.range = p.range.start + start..p.range.end + start;
    }
    Some(p)
}

pub(super) fn max_length(text: &str, max: usize, target: &Target) -> Option<ValueProblem> {
    let n = text.chars().count();
    if n <= max {
        return None;
    }
    let cut = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    Some(problem(
        cut..text.len(),
        format!(
            "{} is {n} characters long; {} allows at most {max}",
            target.what,
            target.xsd()
        ),
        format!("beyond {max} characters"),
        Some(format!("shorten it to at most {max} characters")),
    ))
}

pub(super) fn enumeration(t: &str, values: &[&'static str], target: &Target) -> ValueProblem {
    let shown = distinct(values);
    let listed = listing(&shown, "or");
    if t.is_empty() {
        return empty(target, &listed);
    }
    let message = format!("{} is not a valid {}", code(t), target.what);
    let lower = t.to_lowercase();
    // Values the XSD accepts in several spellings (`yes`, `Yes`, `YES`).
    let spellings = |s: &str| -> String {
        let all: Vec<&str> = values
            .iter()
            .copied()
            .filter(|v| v.eq_ignore_ascii_case(s))
            .collect();
        if all.len() > 1 {
            format!(
                "write `{s}`; the XSD accepts {} and no other capitalization",
                listing(&all, "and")
            )
        } else {
            format!("write `{s}` (values are case-sensitive)")
        }
    };
    if let Some(s) = values.iter().find(|v| v.eq_ignore_ascii_case(t)) {
        return problem(
            0..t.len(),
            message,
            format!("did you mean `{s}`?"),
            Some(spellings(s)),
        );
    }
    if values.contains(&"yes") {
        let s = match lower.as_str() {
            "true" | "1" | "y" | "on" | "ja" | "oui" | "si" | "sí" => Some("yes"),
            "false" | "0" | "n" | "off" | "nein" | "non" => Some("no"),
            _ => None,
        };
        if let Some(s) = s {
            return problem(
                0..t.len(),
                message,
                format!("did you mean `{s}`?"),
                Some(format!(
                    "write `{s}`: the XSD takes `yes` or `no`, not booleans"
                )),
            );
        }
    }
    if values.contains(&"Subscription")
        && matches!(lower.as_str(), "open" | "free" | "public" | "none")
    {
        return problem(
            0..t.len(),
            message,
            format!("expected {listed}"),
            Some(format!(
                "leave out {} for articles anyone can read: it takes only {listed}",
                target.what
            )),
        );
    }
    match text::closest(t, &shown) {
        Some(s) => problem(
            0..t.len(),
            message,
            format!("did you mean `{s}`?"),
            Some(format!("write `{s}`; allowed: {listed}")),
        ),
        None => problem(
            0..t.len(),
            message,
            format!("expected {listed}"),
            Some(format!("use {listed}")),
        ),
    }
}

/// Checks a (collapsed) `xsd:anyURI` value: [`uri::check_any_uri`], as a [`ValueProblem`].
fn any_uri(t: &str) -> Option<ValueProblem> {
    let p = uri::check_any_uri(t)?;
    Some(problem(p.range, p.message, p.label, Some(p.help)))
}
