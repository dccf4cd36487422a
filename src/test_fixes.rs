//! Test helper: the fixes one rule offers on a document, each applied on its own.

/// A fix applied to the document: the fixed text, `"safe"` or `"unsafe"`, and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub text: String,
    pub applicability: &'static str,
    pub message: String,
}

/// Each finding of rule `rule` on `xml` (checked with `settings`, that rule only unless
/// `settings` says otherwise), with its fix applied alone to `xml`: `None` for a finding
/// without a fix.
pub fn fixes_with(xml: &str, rule: &str, settings: &crate::Settings) -> Vec<Option<Applied>> {
    let report = crate::check_reader("t.xml", xml.as_bytes(), settings).expect("checked");
    report
        .diagnostics
        .iter()
        .filter(|d| d.rule.name == rule)
        .map(|d| {
            let fix = d.fix.as_ref()?;
            let mut text = xml.to_string();
            for e in fix.edits.iter().rev() {
                text.replace_range(e.range.clone(), &e.replacement);
            }
            Some(Applied {
                text,
                applicability: fix.applicability.as_str(),
                message: fix.message.clone(),
            })
        })
        .collect()
}

/// The one finding of `rule` in `<urlset><url>{entry}</url></urlset>`, fixed: the fixed entry,
/// the applicability and the message; `None` when it has no fix. Panics unless there is exactly
/// one finding.
#[track_caller]
pub fn fix_entry(entry: &str, rule: &str) -> Option<(String, &'static str, String)> {
    fix_entry_with(entry, rule, &crate::Settings::only(rule))
}

/// [`fix_entry`] with `settings`.
#[track_caller]
pub fn fix_entry_with(
    entry: &str,
    rule: &str,
    settings: &crate::Settings,
) -> Option<(String, &'static str, String)> {
    const HEAD: &str = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>"#;
    const TAIL: &str = "</url></urlset>";
    let xml = format!("{HEAD}{entry}{TAIL}");
    let mut all = fixes_with(&xml, rule, settings);
    assert_eq!(all.len(), 1, "{entry}: {all:?}");
    let a = all.pop()??;
    let body = a
        .text
        .strip_prefix(HEAD)
        .and_then(|t| t.strip_suffix(TAIL))
        .expect("the fix stays inside the entry")
        .to_string();
    Some((body, a.applicability, a.message))
}

/// The one finding of `rule` on `<{field}>{value}</{field}>` after a valid `<loc>` (or alone
/// when `field` is `loc`), fixed: the fixed value, the applicability and the message.
#[track_caller]
pub fn fix_field(rule: &str, field: &str, value: &str) -> Option<(String, &'static str, String)> {
    let loc = if field == "loc" {
        ""
    } else {
        "<loc>https://www.example.com/</loc>"
    };
    let entry = format!("{loc}<{field}>{value}</{field}>");
    let (text, how, message) = fix_entry(&entry, rule)?;
    let inner = text
        .strip_prefix(loc)
        .and_then(|t| t.strip_prefix(&format!("<{field}>")))
        .and_then(|t| t.strip_suffix(&format!("</{field}>")))
        .expect("the fix stays inside the value")
        .to_string();
    Some((inner, how, message))
}

/// Asserts that `got` (from [`fix_entry`] or [`fix_field`]) is a fix to `to` of applicability
/// `how`, and returns its message.
#[track_caller]
pub fn expect_fix(got: Option<(String, &'static str, String)>, to: &str, how: &str) -> String {
    let (text, applicability, message) = got.unwrap_or_else(|| panic!("no fix (expected `{to}`)"));
    assert_eq!((text.as_str(), applicability), (to, how));
    message
}
