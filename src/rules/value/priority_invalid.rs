//! Rule `priority-invalid`: `<priority>` is not a decimal number from 0.0 to 1.0.

use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic, Fix};
use crate::pipeline::model::{Entry, Field, Sitemap, Value};
use crate::rule::{Context, Rule};
use crate::rules::value::{in_range, is_decimal};

declare_rule! {
    /// ## What it does
    /// Checks that `<priority>` is an `xsd:decimal` between 0.0 and 1.0 inclusive: digits with an
    /// optional `.` and an optional leading sign, no exponent (`1e-1`), no decimal comma (`0,5`), no
    /// percent sign, not empty.
    ///
    /// ## Why is this bad?
    /// Validators reject other values and crawlers replace them with the default 0.5 (or, in some
    /// parsers, throw). Google ignores `<priority>` altogether; consider removing it.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><priority>1.5</priority></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><priority>1.0</priority></url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// Safe fixes keep the number the writer wrote: a decimal comma becomes a point (`0,8` →
    /// `0.8`), and an exponent is written out (`5e-1` → `0.5`, by moving the decimal point, no
    /// rounding). Unsafe fixes change the number: a value out of range is clamped to the nearest
    /// bound (`1.5` → `1.0`, `-1` → `0.0`), and a percentage becomes a fraction (`80%` → `0.8`).
    /// No fix for an empty value or words, nor where the value is not written as it reads (a
    /// character reference, a comment inside it).
    ///
    /// ## References
    /// - sitemaps.org protocol, `<priority>`: "Valid values range from 0.0 to 1.0"
    /// - `sitemap.xsd`: `tPriority` (`xsd:decimal`, `minInclusive` 0.0, `maxInclusive` 1.0)
    /// - XML Schema Part 2 §3.2.3 (`decimal` lexical space)
    pub static META = {
        name: "priority-invalid",
        category: Value,
        severity: Error,
        fix: Mixed,
        summary: "`<priority>` is not a decimal from 0.0 to 1.0",
    }
}

/// The usual spellings of a valid priority (`0`, `1`, `0.5`, `0.75`, `1.0`), recognised without
/// the general parse: every other value goes through [`is_decimal`] and [`in_range`].
fn plainly_in_range(v: &[u8]) -> bool {
    match v {
        [b'0' | b'1'] => true,
        [b'0', b'.', frac @ ..] => !frac.is_empty() && frac.iter().all(u8::is_ascii_digit),
        [b'1', b'.', frac @ ..] => !frac.is_empty() && frac.iter().all(|&b| b == b'0'),
        _ => false,
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Priority) else {
            return;
        };
        let v = value.trimmed();
        if plainly_in_range(v.as_bytes()) {
            return;
        }
        if let Some(d) =
            crate::rules::placeholder_finding(&META, v, "`<priority>`", "number", |r| {
                value.source_range_in_trimmed(sitemap.source, r)
            })
        {
            cx.report(d);
            return;
        }
        if is_decimal(v) && in_range(v) {
            return;
        }
        let span = value.span(sitemap.source);
        if cx.skip(&META, span.start) {
            return;
        }
        // The replacement of the whole value, safe when it is the same number.
        let fix = |with: &str, safe: bool| replace(sitemap, value, with, safe);
        let d = if v.is_empty() {
            Diagnostic::new(&META, span, "`<priority>` is empty").with_help(
                "write a number from 0.0 to 1.0 (the default is 0.5), or remove the element",
            )
        } else if is_decimal(v) {
            let clamp = if v.starts_with('-') { "0.0" } else { "1.0" };
            Diagnostic::new(&META, span, format!("priority `{}` is outside 0.0 to 1.0", crate::diagnostic::shown(v)))
                .with_label("out of range")
                .with_help(format!(
                    "priorities are relative, from 0.0 to 1.0 (default 0.5); the nearest allowed value is `{clamp}`"
                ))
                .with_fix_opt(fix(clamp, false))
        } else if v.contains(',') && is_decimal(&v.replace(',', ".")) {
            let fixed = v.replace(',', ".");
            Diagnostic::new(
                &META,
                span,
                format!(
                    "priority `{}` uses a decimal comma",
                    crate::diagnostic::shown(v)
                ),
            )
            .with_help(format!("write `{fixed}`"))
            .with_fix_opt(fix(&fixed, true))
        } else if v.contains(['e', 'E']) && v.parse::<f64>().is_ok() {
            let plain = without_exponent(v).filter(|x| in_range(x));
            let help = match &plain {
                Some(x) => format!("write the plain decimal `{x}`"),
                None => "write a plain decimal from 0.0 to 1.0, such as `0.1`".to_owned(),
            };
            let fixed = plain.and_then(|x| fix(&x, true));
            Diagnostic::new(
                &META,
                span,
                format!(
                    "priority `{}` uses an exponent",
                    crate::diagnostic::shown(v)
                ),
            )
            .with_label("`xsd:decimal` has no exponent")
            .with_help(help)
            .with_fix_opt(fixed)
        } else if let Some(pct) = v.strip_suffix('%') {
            let fraction = match pct.trim().parse::<u32>() {
                Ok(n) if n <= 100 => Some(format_fraction(n)),
                _ => None,
            };
            let help = match &fraction {
                Some(x) => format!("write `{x}`"),
                None => "write a number from 0.0 to 1.0".into(),
            };
            let fixed = fraction.and_then(|x| fix(&x, false));
            Diagnostic::new(
                &META,
                span,
                format!("priority `{}` is a percentage", crate::diagnostic::shown(v)),
            )
            .with_help(help)
            .with_fix_opt(fixed)
        } else {
            Diagnostic::new(
                &META,
                span,
                format!(
                    "priority `{}` is not a decimal number",
                    crate::diagnostic::shown(v)
                ),
            )
            .with_label("expected a number from 0.0 to 1.0")
            .with_help("write a number such as `0.5`; words and symbols are not allowed")
        };
        cx.report(d);
    }
}

/// Replaces the value with `with`: safe when it is the same number written correctly.
fn replace(sitemap: &Sitemap<'_>, value: &Value<'_>, with: &str, safe: bool) -> Option<Fix> {
    let edit = value.replace_trimmed(sitemap.source, with)?;
    let message = format!("replace `{}` with `{with}`", shown(value.trimmed()));
    Some(Fix::safe_if(safe, message, vec![edit]))
}

/// A number with an exponent (`5e-1`, `1.0E0`) written as a plain decimal, exactly (the
/// decimal point moves; nothing is rounded); `None` for anything else or a huge exponent.
fn without_exponent(v: &str) -> Option<String> {
    let (mantissa, exponent) = v.split_once(['e', 'E'])?;
    let exponent: i32 = exponent.parse().ok().filter(|e: &i32| e.abs() <= 20)?;
    let (sign, mantissa) = match mantissa.strip_prefix(['+', '-']) {
        Some(rest) => (&mantissa[..1], rest),
        None => ("", mantissa),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let point = i32::try_from(int.len()).ok()? + exponent;
    let len = i32::try_from(digits.len()).ok()?;
    let plain = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if point >= len {
        format!("{digits}{}", "0".repeat((point - len) as usize))
    } else {
        let (a, b) = digits.split_at(point as usize);
        format!("{a}.{b}")
    };
    // One zero before the point at most: `00.5` is `0.5`.
    let trimmed = plain.trim_start_matches('0');
    let plain = if trimmed.is_empty() || trimmed.starts_with('.') {
        format!("0{trimmed}")
    } else {
        trimmed.to_owned()
    };
    let out = format!("{sign}{plain}");
    is_decimal(&out).then_some(out)
}

fn format_fraction(n: u32) -> String {
    if n == 100 {
        "1.0".into()
    } else if n.is_multiple_of(10) {
        format!("0.{}", n / 10)
    } else {
        format!("0.{n:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut never accepts what the general test rejects, and takes the usual values.
    #[test]
    fn the_shortcut_agrees_with_the_general_test() {
        let values = crate::test_strings::all_strings(
            &["0", "1", "2", "9", ".", "+", "-", " ", "e", ","],
            4,
        );
        for v in &values {
            if plainly_in_range(v.as_bytes()) {
                assert!(is_decimal(v) && in_range(v), "{v:?}");
            }
        }
        for usual in ["0", "1", "0.0", "0.5", "0.75", "1.0", "1.00"] {
            assert!(plainly_in_range(usual.as_bytes()), "{usual}");
        }
    }

    #[test]
    fn exponents_are_written_out_exactly() {
        for (v, plain) in [
            ("1e-1", "0.1"),
            ("5E-01", "0.5"),
            ("1e0", "1"),
            ("1.0e0", "1.0"),
            ("0.25e1", "2.5"),
            ("25e-3", "0.025"),
            ("+3e-1", "+0.3"),
            ("-1e-1", "-0.1"),
            ("1e2", "100"),
        ] {
            assert_eq!(without_exponent(v).as_deref(), Some(plain), "{v}");
        }
        for v in ["e1", "1e", "1e1e1", "1.e", "a1e1", "1e99", "1,5e-1"] {
            assert_eq!(without_exponent(v), None, "{v}");
        }
    }

    fn fixed(priority: &str) -> Option<(String, &'static str, String)> {
        crate::test_fixes::fix_field("priority-invalid", "priority", priority)
    }

    #[test]
    fn same_number_fixes_are_safe_and_changed_numbers_unsafe() {
        let case = |v: &str, to: &str, how: &str| {
            let (text, applicability, _) = fixed(v).unwrap_or_else(|| panic!("{v}: no fix"));
            assert_eq!((text.as_str(), applicability), (to, how), "{v}");
        };
        case("0,8", "0.8", "safe");
        case(" 0,8 ", " 0.8 ", "safe");
        case("5e-1", "0.5", "safe");
        case("1.5", "1.0", "unsafe");
        case("-1", "0.0", "unsafe");
        case("80%", "0.8", "unsafe");
        assert_eq!(fixed("0,8").unwrap().2, "replace `0,8` with `0.8`");
        // Out of range once written out: no safe fix, the help says what to write.
        assert_eq!(fixed("5e1"), None);
        assert_eq!(fixed("high"), None);
        assert_eq!(fixed(""), None);
        assert_eq!(fixed("0&#44;8"), None);
        assert_eq!(fixed("1<!-- -->.5"), None);
    }

    #[test]
    fn decimal_grammar_and_range() {
        for ok in [
            "0", "1", "0.5", ".5", "1.", "+0.3", "-0", "-0.0", "1.000", "000.25",
        ] {
            assert!(is_decimal(ok) && in_range(ok), "{ok}");
        }
        for out in ["1.5", "2", "-0.1", "10", "1.0001"] {
            assert!(is_decimal(out) && !in_range(out), "{out}");
        }
        for bad in ["", ".", "+", "1e-1", "0,5", "0.5.1", " 0.5", "high", "1/2"] {
            assert!(!is_decimal(bad), "{bad}");
        }
    }
}
