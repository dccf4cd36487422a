//! Rule `priority-invalid`: `<priority>` is not a decimal number from 0.0 to 1.0.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Field, Sitemap};
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
    /// ## References
    /// - sitemaps.org protocol, `<priority>`: "Valid values range from 0.0 to 1.0"
    /// - `sitemap.xsd`: `tPriority` (`xsd:decimal`, `minInclusive` 0.0, `maxInclusive` 1.0)
    /// - XML Schema Part 2 §3.2.3 (`decimal` lexical space)
    pub static META = {
        name: "priority-invalid",
        category: Value,
        severity: Error,
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
        } else if v.contains(['e', 'E']) && v.parse::<f64>().is_ok() {
            let help = match v.parse::<f64>() {
                Ok(x) if (0.0..=1.0).contains(&x) && is_decimal(&x.to_string()) => {
                    format!("write the plain decimal `{x}`")
                }
                _ => "write a plain decimal from 0.0 to 1.0, such as `0.1`".to_owned(),
            };
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
        } else if let Some(pct) = v.strip_suffix('%') {
            let help = match pct.trim().parse::<u32>() {
                Ok(n) if n <= 100 => format!("write `{}`", format_fraction(n)),
                _ => "write a number from 0.0 to 1.0".into(),
            };
            Diagnostic::new(
                &META,
                span,
                format!("priority `{}` is a percentage", crate::diagnostic::shown(v)),
            )
            .with_help(help)
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
