//! Parses `hreflang` values as the subset of BCP 47 Google accepts, with precise problems and fixes for the common mistakes.
//!
//! Google's hreflang documentation asks for a language code (ISO 639-1), optionally a script
//! (ISO 15924) and a region (ISO 3166-1 alpha-2), or `x-default` for the fallback page. This
//! module accepts exactly that, following BCP 47 (RFC 5646):
//!
//! - language: an ISO 639-1 two-letter code, or a three-letter ISO 639-2/3 code only for
//!   languages that have no two-letter code (`fil`, `yue`); BCP 47 §2.2.1 requires the shortest
//!   code, so `eng` is reported with `en` as the fix;
//! - script: an ISO 15924 four-letter code (`zh-Hant`);
//! - region: an ISO 3166-1 alpha-2 code (`en-GB`), or a UN M.49 three-digit area registered in
//!   the IANA subtag registry (`es-419`);
//! - `x-default`.
//!
//! Subtags are case-insensitive (RFC 5646 §2.1.1), so `EN-us` is valid. Extended language,
//! variant, extension and private-use subtags are rejected: Google does not use them.
//!
//! [`parse`] allocates nothing for a valid value. For an invalid one it returns one [`Problem`]:
//! the first mistake, with its byte range inside the value, and, when every mistake of the value
//! can be repaired (`en_US`, `en-UK`, `jp`, `eng`, `US-en`, `x_default`), the corrected value.

use std::ops::Range;

use crate::values::iso_codes;

/// A valid `hreflang` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hreflang {
    /// `x-default`: the page for users whose language matches no other alternate.
    XDefault,
    /// A language tag; the ranges index the value.
    Tag {
        language: Range<usize>,
        script: Option<Range<usize>>,
        region: Option<Range<usize>>,
    },
}

/// What is wrong with an `hreflang` value: its first mistake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Byte range of the offending text inside the value (the whole value when it is empty).
    pub range: Range<usize>,
    /// What is wrong, lowercase, without a final period.
    pub message: String,
    /// A short label for the range.
    pub label: String,
    /// How to fix it; names `fix` when there is one.
    pub help: String,
    /// The value with every mistake corrected, when that can be derived (it parses as valid).
    pub fix: Option<String>,
}

/// The UN M.49 areas the IANA language subtag registry lists as region subtags.
const M49_REGIONS: [&str; 31] = [
    "001", "002", "003", "005", "009", "011", "013", "014", "015", "017", "018", "019", "021",
    "029", "030", "034", "035", "039", "053", "054", "057", "061", "142", "143", "145", "150",
    "151", "154", "155", "202", "419",
];

/// Parses `value` (the attribute value as written, not trimmed).
pub fn parse(value: &str) -> Result<Hreflang, Box<Problem>> {
    if value.eq_ignore_ascii_case("x-default") {
        return Ok(Hreflang::XDefault);
    }
    strict(value).ok_or_else(|| Box::new(diagnose(value)))
}

/// Whether two valid values are the same tag (BCP 47 tags are case-insensitive).
pub fn same(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// The strict grammar, without allocation; `None` on any mistake.
fn strict(value: &str) -> Option<Hreflang> {
    let mut parts = value.split('-');
    let mut at = 0;
    let mut next = |parts: &mut std::str::Split<'_, char>| {
        parts.next().map(|p| {
            let r = at..at + p.len();
            at += p.len() + 1;
            r
        })
    };
    let language = next(&mut parts)?;
    if !is_language(&value[language.clone()]) {
        return None;
    }
    let mut script = None;
    let mut region = None;
    let mut sub = next(&mut parts);
    if let Some(r) = sub.clone() {
        if is_script(&value[r.clone()]) {
            script = Some(r);
            sub = next(&mut parts);
        }
    }
    if let Some(r) = sub.clone() {
        if is_region(&value[r.clone()]) {
            region = Some(r);
            sub = next(&mut parts);
        }
    }
    if sub.is_some() {
        return None;
    }
    Some(Hreflang::Tag {
        language,
        script,
        region,
    })
}

/// Copies an ASCII-letter subtag of at most `N` bytes into a buffer, applying `case` per index.
fn cased<const N: usize>(s: &str, case: impl Fn(usize, u8) -> u8) -> Option<([u8; N], usize)> {
    if s.len() > N || !s.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let mut buf = [0u8; N];
    for (i, b) in s.bytes().enumerate() {
        buf[i] = case(i, b);
    }
    Some((buf, s.len()))
}

fn with_case<const N: usize, T>(
    s: &str,
    case: impl Fn(usize, u8) -> u8,
    f: impl FnOnce(&str) -> T,
) -> Option<T> {
    let (buf, len) = cased::<N>(s, case)?;
    std::str::from_utf8(&buf[..len]).ok().map(f)
}

fn lower(_: usize, b: u8) -> u8 {
    b.to_ascii_lowercase()
}

fn title(i: usize, b: u8) -> u8 {
    if i == 0 {
        b.to_ascii_uppercase()
    } else {
        b.to_ascii_lowercase()
    }
}

fn is_alpha(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphabetic())
}

/// The two-letter codes of a table as bits `26 * first + second` (letters counted from `a`),
/// so that the hot lookups of valid values test one bit instead of searching strings.
struct Pairs([u64; 11]);

impl Pairs {
    /// Adds `code` if it is two ASCII letters (either case).
    const fn with(mut self, code: &str) -> Self {
        if let Some(bit) = pair_bit(code.as_bytes()) {
            self.0[bit / 64] |= 1 << (bit % 64);
        }
        self
    }

    fn contains(&self, code: &str) -> bool {
        pair_bit(code.as_bytes()).is_some_and(|bit| self.0[bit / 64] & (1 << (bit % 64)) != 0)
    }
}

const fn pair_bit(code: &[u8]) -> Option<usize> {
    if code.len() != 2 || !code[0].is_ascii_alphabetic() || !code[1].is_ascii_alphabetic() {
        return None;
    }
    let a = code[0].to_ascii_lowercase() - b'a';
    let b = code[1].to_ascii_lowercase() - b'a';
    Some(a as usize * 26 + b as usize)
}

/// The codes (first column) of a table as [`Pairs`], at compile time.
macro_rules! pairs_of {
    ($table:expr) => {{
        let mut pairs = Pairs([0; 11]);
        let mut i = 0;
        while i < $table.len() {
            pairs = pairs.with($table[i].0);
            i += 1;
        }
        pairs
    }};
}

/// [`iso_codes::LANGUAGES_2`] (lowercase codes) as [`Pairs`].
static LANGUAGE_PAIRS: Pairs = pairs_of!(iso_codes::LANGUAGES_2);

/// [`iso_codes::COUNTRIES`] (uppercase codes) as [`Pairs`].
static COUNTRY_PAIRS: Pairs = pairs_of!(iso_codes::COUNTRIES);

/// A two-letter ISO 639-1 code, or a three-letter code of a language without one.
fn is_language(s: &str) -> bool {
    if !is_alpha(s) {
        return false;
    }
    match s.len() {
        2 => LANGUAGE_PAIRS.contains(s),
        3 => {
            with_case::<3, _>(s, lower, |l| {
                iso_codes::is_language_3(l) && iso_codes::language_2_of_3(l).is_none()
            }) == Some(true)
        }
        _ => false,
    }
}

fn is_script(s: &str) -> bool {
    s.len() == 4
        && is_alpha(s)
        && with_case::<4, _>(s, title, |t| iso_codes::script(t).is_some()) == Some(true)
}

fn is_region(s: &str) -> bool {
    match s.len() {
        2 => COUNTRY_PAIRS.contains(s),
        3 => M49_REGIONS.contains(&s),
        _ => false,
    }
}

/// Country codes (and other near misses) written where the language goes, with the language
/// meant: (written, language code, explanation).
const LANGUAGE_MISTAKES: &[(&str, &str, &str)] = &[
    (
        "cn",
        "zh",
        "`CN` is the country code of China; Chinese is `zh`",
    ),
    (
        "cz",
        "cs",
        "`CZ` is the country code of Czechia; Czech is `cs`",
    ),
    (
        "dk",
        "da",
        "`DK` is the country code of Denmark; Danish is `da`",
    ),
    (
        "gr",
        "el",
        "`GR` is the country code of Greece; Greek is `el`",
    ),
    (
        "in",
        "id",
        "`in` is the withdrawn code of Indonesian; use `id`",
    ),
    ("iw", "he", "`iw` is the withdrawn code of Hebrew; use `he`"),
    (
        "ji",
        "yi",
        "`ji` is the withdrawn code of Yiddish; use `yi`",
    ),
    (
        "jp",
        "ja",
        "`JP` is the country code of Japan; Japanese is `ja`",
    ),
    (
        "jw",
        "jv",
        "`jw` is the withdrawn code of Javanese; use `jv`",
    ),
    (
        "mo",
        "ro",
        "`mo` is the withdrawn code of Moldavian; use `ro`",
    ),
    (
        "ua",
        "uk",
        "`UA` is the country code of Ukraine; Ukrainian is `uk`",
    ),
];

/// Country codes written alone, with the tag most likely meant.
const COUNTRY_ALONE: &[(&str, &str)] = &[
    ("at", "de-AT"),
    ("au", "en-AU"),
    ("gb", "en-GB"),
    ("hk", "zh-HK"),
    ("mx", "es-MX"),
    ("nz", "en-NZ"),
    ("tw", "zh-TW"),
    ("uk", "en-GB"),
    ("us", "en-US"),
];

/// Region codes that are not ISO 3166-1 alpha-2 codes but are written as if they were.
fn region_mistake(upper: &str) -> Option<(Option<&'static str>, &'static str)> {
    Some(match upper {
        "UK" => (
            Some("GB"),
            "the United Kingdom's ISO 3166-1 code is `GB`, not `UK`",
        ),
        "EU" => (
            None,
            "`EU` is not a country: list one alternate per country (`en-IE`, `de-AT`, …), or use the language alone",
        ),
        "UN" => (None, "`UN` is not a country"),
        _ => return None,
    })
}

/// A subtag as found by the lenient tokenizer.
struct Sub {
    range: Range<usize>,
    /// The separator before it, if not `-` (for the first subtag, never set).
    bad_separator: Option<Range<usize>>,
}

/// A mistake found while repairing.
struct Mistake {
    range: Range<usize>,
    message: String,
    label: String,
    help: String,
}

/// Finds the first mistake of an invalid value and, if possible, the corrected value.
fn diagnose(value: &str) -> Problem {
    if value.is_empty() {
        return Problem {
            range: 0..0,
            message: "empty value".into(),
            label: "no language code".into(),
            help: "write the page's language code (`en`, `en-GB`), or `x-default` for the fallback page".into(),
            fix: None,
        };
    }
    let trimmed = value.trim_matches(|c: char| c.is_ascii_whitespace());
    if trimmed.len() != value.len() {
        let lead = value.len()
            - value
                .trim_start_matches(|c: char| c.is_ascii_whitespace())
                .len();
        if trimmed.is_empty() {
            return Problem {
                range: 0..value.len(),
                message: "blank value".into(),
                label: "only whitespace".into(),
                help: "write the page's language code (`en`, `en-GB`), or `x-default` for the fallback page".into(),
                fix: None,
            };
        }
        let inner = parse(trimmed);
        let range = if lead > 0 {
            0..lead
        } else {
            lead + trimmed.len()..value.len()
        };
        return match inner {
            Ok(_) => Problem {
                range,
                message: "whitespace around the code".into(),
                label: "whitespace".into(),
                help: format!("remove the whitespace: `{trimmed}`"),
                fix: Some(trimmed.to_owned()),
            },
            Err(p) => Problem {
                range: p.range.start + lead..p.range.end + lead,
                ..*p
            },
        };
    }
    if let Some(p) = x_default_near_miss(value) {
        return p;
    }
    let subs = tokenize(value);
    let (mistakes, fixed) = repair(value, &subs);
    let fix = fixed.filter(|f| f != value && parse(f).is_ok());
    let Some(first) = mistakes.into_iter().next() else {
        // Every subtag passed the lenient reading; this is not expected, but say something true.
        return Problem {
            range: 0..value.len(),
            message: format!("`{value}` is not a valid language code"),
            label: "not a BCP 47 language tag".into(),
            help: "write a language code (`en`), optionally with a script and a region (`zh-Hant-TW`), or `x-default`".into(),
            fix: None,
        };
    };
    let help = match &fix {
        Some(f) if !first.help.contains(&format!("`{f}`")) => format!("{}: `{f}`", first.help),
        _ => first.help,
    };
    Problem {
        range: first.range,
        message: first.message,
        label: first.label,
        help,
        fix,
    }
}

fn x_default_near_miss(value: &str) -> Option<Problem> {
    let lower = value.to_ascii_lowercase();
    let squeezed: String = lower.chars().filter(|c| c.is_ascii_alphabetic()).collect();
    let near = squeezed == "default"
        || squeezed == "xdefault"
        || (lower.len() >= 7 && crate::values::text::distance(&lower, "x-default") <= 2);
    near.then(|| Problem {
        range: 0..value.len(),
        message: "misspelt `x-default`".into(),
        label: "not a language code".into(),
        help: "write `x-default` for the page shown to users whose language matches no alternate"
            .into(),
        fix: Some("x-default".into()),
    })
}

/// Splits on `-`, and on `_`, spaces and `.` (remembered as bad separators).
fn tokenize(value: &str) -> Vec<Sub> {
    let mut subs = Vec::new();
    let mut start = 0;
    let mut bad = None;
    for (i, c) in value.char_indices() {
        if matches!(c, '-' | '_' | ' ' | '.') {
            subs.push(Sub {
                range: start..i,
                bad_separator: bad.take(),
            });
            if c != '-' {
                bad = Some(i..i + 1);
            }
            start = i + 1;
        }
    }
    subs.push(Sub {
        range: start..value.len(),
        bad_separator: bad,
    });
    subs
}

/// The language name → code table, searched only for invalid values.
fn language_by_name(name: &str) -> Option<&'static str> {
    iso_codes::LANGUAGES_2
        .iter()
        .find(|(_, n, _)| n.eq_ignore_ascii_case(name))
        .map(|(code, _, _)| *code)
}

/// `replacement` in the case style of `written` (all lowercase or all uppercase), else as is.
fn styled(written: &str, replacement: &str) -> String {
    if written.bytes().all(|b| !b.is_ascii_uppercase()) {
        replacement.to_ascii_lowercase()
    } else if written.bytes().all(|b| !b.is_ascii_lowercase()) && written.len() > 1 {
        replacement.to_ascii_uppercase()
    } else {
        replacement.to_owned()
    }
}

/// Reads the subtags leniently, collecting mistakes in order and the repaired subtags; the
/// repaired value is `None` when some mistake cannot be repaired.
fn repair(value: &str, subs: &[Sub]) -> (Vec<Mistake>, Option<String>) {
    let mut mistakes = Vec::new();
    let mut out: Vec<String> = Vec::new();
    let mut repairable = true;
    let text = |r: &Range<usize>| &value[r.clone()];
    for sub in subs {
        if let Some(sep) = &sub.bad_separator {
            let c = &value[sep.clone()];
            let shown = if c == " " { "a space" } else { c };
            mistakes.push(Mistake {
                range: sep.clone(),
                message: format!(
                    "subtags separated by {}",
                    if c == " " {
                        shown.to_owned()
                    } else {
                        format!("`{shown}`")
                    }
                ),
                label: "BCP 47 separates subtags with `-`".into(),
                help: "separate the language, script and region with hyphens".into(),
            });
        }
        if sub.range.is_empty() {
            let at = sub.range.start.min(value.len());
            let r = if at > 0 {
                at - 1..at
            } else {
                at..(at + 1).min(value.len())
            };
            mistakes.push(Mistake {
                range: r,
                message: "empty subtag".into(),
                label: "nothing on this side of the separator".into(),
                help: "remove the extra separator".into(),
            });
        }
    }
    let subs: Vec<&Sub> = subs.iter().filter(|s| !s.range.is_empty()).collect();
    if subs.is_empty() {
        return (mistakes, None);
    }

    // The language.
    let first = subs[0];
    let lang = text(&first.range);
    let lang_lower = lang.to_ascii_lowercase();
    let second_is_language = subs
        .get(1)
        .is_some_and(|s| is_language(text(&s.range)) && !is_region(text(&s.range)));
    let mut rest_from = 1;
    if is_language(lang) {
        out.push(lang.to_owned());
    } else if lang.len() == 2
        && is_alpha(lang)
        && iso_codes::country(&lang.to_ascii_uppercase()).is_some()
        && second_is_language
        && subs.len() == 2
    {
        // `US-en`: region and language swapped.
        let l = text(&subs[1].range);
        mistakes.push(Mistake {
            range: first.range.start..subs[1].range.end,
            message: "the region comes before the language".into(),
            label: "language first, then region".into(),
            help: "write the language first".into(),
        });
        out.push(l.to_owned());
        out.push(lang.to_owned());
        rest_from = 2;
    } else if let Some((_, code, why)) = LANGUAGE_MISTAKES.iter().find(|m| m.0 == lang_lower) {
        mistakes.push(Mistake {
            range: first.range.clone(),
            message: format!("`{lang}` is not a language code"),
            label: "not an ISO 639-1 language code".into(),
            help: (*why).to_owned(),
        });
        out.push(styled(lang, code));
    } else if lang.len() == 2
        && is_alpha(lang)
        && iso_codes::country(&lang.to_ascii_uppercase()).is_some()
    {
        let meant = COUNTRY_ALONE.iter().find(|m| m.0 == lang_lower);
        let help = match meant {
            Some(_) if subs.len() == 1 => format!(
                "`{}` is a country; hreflang starts with the page's language, then the country",
                lang.to_ascii_uppercase()
            ),
            _ => format!(
                "`{}` is a country; hreflang starts with the page's language, then the country (for example `en-{}`)",
                lang.to_ascii_uppercase(),
                lang.to_ascii_uppercase()
            ),
        };
        mistakes.push(Mistake {
            range: first.range.clone(),
            message: format!("`{lang}` is a country code, not a language code"),
            label: "a region without a language".into(),
            help,
        });
        match meant {
            Some((_, tag)) if subs.len() == 1 => {
                // Keep the user's case for the region part.
                let (l, r) = tag.split_once('-').unwrap_or((tag, ""));
                out.push(l.to_owned());
                out.push(styled(lang, r));
            }
            _ => repairable = false,
        }
    } else if lang.len() == 3 && is_alpha(lang) {
        match iso_codes::language_2_of_3(&lang_lower) {
            Some(two) => {
                mistakes.push(Mistake {
                    range: first.range.clone(),
                    message: format!(
                        "`{lang}` is a three-letter code for a language that has a two-letter one"
                    ),
                    label: format!("ISO 639-1 has `{two}`"),
                    help: format!(
                        "use the ISO 639-1 code `{two}` (BCP 47 takes the shortest code)"
                    ),
                });
                out.push(styled(lang, two));
            }
            None => {
                mistakes.push(Mistake {
                    range: first.range.clone(),
                    message: format!("`{lang}` is not an ISO 639 language code"),
                    label: "unknown language".into(),
                    help: "use the page's ISO 639-1 language code, such as `en` or `de`".into(),
                });
                repairable = false;
            }
        }
    } else if let Some(code) = is_alpha(lang).then(|| language_by_name(lang)).flatten() {
        mistakes.push(Mistake {
            range: first.range.clone(),
            message: format!("`{lang}` is a language name, not a code"),
            label: format!("the code is `{code}`"),
            help: format!("use the ISO 639-1 code `{code}`"),
        });
        out.push(code.to_owned());
    } else {
        mistakes.push(Mistake {
            range: first.range.clone(),
            message: format!("`{lang}` is not a language code"),
            label: "not an ISO 639-1 language code".into(),
            help: "start with the page's ISO 639-1 language code, such as `en` or `de`".into(),
        });
        repairable = false;
    }

    // Script, then region; nothing after.
    let mut script_seen = false;
    let mut region_seen = false;
    for sub in &subs[rest_from..] {
        let s = text(&sub.range);
        if is_script(s) && !script_seen {
            script_seen = true;
            if region_seen {
                mistakes.push(Mistake {
                    range: sub.range.clone(),
                    message: format!("script `{s}` after the region"),
                    label: "the script goes before the region".into(),
                    help: "write language, script, region in that order".into(),
                });
                let region = out.pop().unwrap_or_default();
                out.push(s.to_owned());
                out.push(region);
            } else {
                out.push(s.to_owned());
            }
            continue;
        }
        if is_region(s) && !region_seen {
            region_seen = true;
            out.push(s.to_owned());
            continue;
        }
        if !region_seen && s.len() == 2 && is_alpha(s) {
            region_seen = true;
            let up = s.to_ascii_uppercase();
            match region_mistake(&up) {
                Some((fix, why)) => {
                    mistakes.push(Mistake {
                        range: sub.range.clone(),
                        message: format!("`{s}` is not a country code"),
                        label: "not an ISO 3166-1 alpha-2 code".into(),
                        help: why.to_owned(),
                    });
                    match fix {
                        Some(f) => out.push(styled(s, f)),
                        None => repairable = false,
                    }
                }
                None => {
                    let also = if iso_codes::language_2(&s.to_ascii_lowercase()).is_some() {
                        format!(" (`{s}` is a language code)")
                    } else {
                        String::new()
                    };
                    mistakes.push(Mistake {
                        range: sub.range.clone(),
                        message: format!("`{s}` is not a country code{also}"),
                        label: "not an ISO 3166-1 alpha-2 code".into(),
                        help: "the region is a two-letter ISO 3166-1 country code (`GB`, `US`); leave it out to target the language everywhere".into(),
                    });
                    repairable = false;
                }
            }
            continue;
        }
        if !region_seen && s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit()) {
            region_seen = true;
            mistakes.push(Mistake {
                range: sub.range.clone(),
                message: format!("`{s}` is not a UN M.49 region of BCP 47"),
                label: "unknown region number".into(),
                help: "use a two-letter ISO 3166-1 country code, or an M.49 area such as `419` (Latin America)".into(),
            });
            repairable = false;
            continue;
        }
        if !script_seen && !region_seen && s.len() == 4 && is_alpha(s) {
            script_seen = true;
            mistakes.push(Mistake {
                range: sub.range.clone(),
                message: format!("`{s}` is not an ISO 15924 script code"),
                label: "unknown script".into(),
                help: "use an ISO 15924 script code such as `Latn`, `Cyrl` or `Hant`, or leave the script out".into(),
            });
            repairable = false;
            continue;
        }
        mistakes.push(Mistake {
            range: sub.range.clone(),
            message: format!("unsupported subtag `{s}`"),
            label: "Google reads only language, script and region".into(),
            help: "remove it; hreflang takes a language, optionally a script and a region".into(),
        });
        // Dropping extra subtags keeps the part Google reads.
        if is_alpha(s) && s.len() == 3 && !region_seen && !script_seen {
            // An extended language or alpha-3 country: its meaning is unclear.
            repairable = false;
        }
    }
    let fixed = repairable.then(|| out.join("-"));
    (mistakes, fixed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(v: &str) {
        assert!(parse(v).is_ok(), "{v} should be valid: {:?}", parse(v));
    }

    fn bad(v: &str) -> Problem {
        let p = *parse(v).expect_err(v);
        if let Some(f) = &p.fix {
            assert!(parse(f).is_ok(), "fix `{f}` of `{v}` is not valid");
            assert!(
                p.help.contains(&format!("`{f}`")),
                "help names the fix: {p:?}"
            );
        }
        assert!(p.range.end <= v.len());
        assert!(!p.message.ends_with('.') && !p.help.ends_with('.'));
        p
    }

    #[test]
    fn valid_values() {
        for v in [
            "en",
            "en-GB",
            "en-gb",
            "EN-us",
            "de-AT",
            "zh-Hant",
            "zh-hant-tw",
            "zh-Hans-CN",
            "sr-Latn",
            "es-419",
            "x-default",
            "X-Default",
            "fil",
            "fil-PH",
            "yue-HK",
            "uk",
            "pt-br",
        ] {
            ok(v);
        }
    }

    #[test]
    fn pairs_agree_with_the_tables() {
        for a in b'A'..=b'z' {
            for b in b'A'..=b'z' {
                let Ok(code) = std::str::from_utf8(&[a, b]).map(str::to_owned) else {
                    continue;
                };
                assert_eq!(
                    LANGUAGE_PAIRS.contains(&code),
                    code.bytes().all(|c| c.is_ascii_alphabetic())
                        && iso_codes::language_2(&code.to_ascii_lowercase()).is_some(),
                    "{code}"
                );
                assert_eq!(
                    COUNTRY_PAIRS.contains(&code),
                    code.bytes().all(|c| c.is_ascii_alphabetic())
                        && iso_codes::country(&code.to_ascii_uppercase()).is_some(),
                    "{code}"
                );
            }
        }
    }

    #[test]
    fn parts_are_located() {
        assert_eq!(
            parse("zh-Hant-TW").unwrap(),
            Hreflang::Tag {
                language: 0..2,
                script: Some(3..7),
                region: Some(8..10)
            }
        );
        assert_eq!(parse("x-default").unwrap(), Hreflang::XDefault);
    }

    #[test]
    fn underscore() {
        let p = bad("en_US");
        assert_eq!(p.range, 2..3);
        assert_eq!(p.fix.as_deref(), Some("en-US"));
        assert_eq!(bad("pt_br").fix.as_deref(), Some("pt-br"));
        assert_eq!(bad("en US").fix.as_deref(), Some("en-US"));
    }

    #[test]
    fn united_kingdom() {
        let p = bad("en-UK");
        assert_eq!(p.range, 3..5);
        assert_eq!(p.fix.as_deref(), Some("en-GB"));
        assert_eq!(bad("en-uk").fix.as_deref(), Some("en-gb"));
        assert_eq!(bad("en_uk").fix.as_deref(), Some("en-gb"));
    }

    #[test]
    fn european_union_has_no_fix() {
        let p = bad("en-EU");
        assert_eq!(p.range, 3..5);
        assert!(p.fix.is_none());
        assert!(p.help.contains("not a country"));
    }

    #[test]
    fn region_alone() {
        let p = bad("US");
        assert_eq!(p.range, 0..2);
        assert_eq!(p.fix.as_deref(), Some("en-US"));
        assert_eq!(bad("gb").fix.as_deref(), Some("en-gb"));
        assert!(bad("fr-gb-us").fix.is_some());
        assert!(bad("CL").fix.is_none());
        ok("DE"); // German
        ok("uk"); // Ukrainian
    }

    #[test]
    fn country_codes_as_languages() {
        assert_eq!(bad("jp").fix.as_deref(), Some("ja"));
        assert_eq!(bad("cn").fix.as_deref(), Some("zh"));
        assert_eq!(bad("cn-CN").fix.as_deref(), Some("zh-CN"));
        assert_eq!(bad("JP").fix.as_deref(), Some("JA"));
        assert_eq!(bad("iw").fix.as_deref(), Some("he"));
        ok("fr");
    }

    #[test]
    fn three_letter_codes() {
        let p = bad("eng");
        assert_eq!(p.fix.as_deref(), Some("en"));
        assert_eq!(bad("deu-DE").fix.as_deref(), Some("de-DE"));
        assert_eq!(bad("ger").fix.as_deref(), Some("de"));
        assert!(bad("xyz").fix.is_none());
    }

    #[test]
    fn x_default_misspelt() {
        for v in ["default", "x_default", "xdefault", "x-defualt", "X_DEFAULT"] {
            assert_eq!(bad(v).fix.as_deref(), Some("x-default"), "{v}");
        }
    }

    #[test]
    fn other_mistakes() {
        assert_eq!(bad("US-en").fix.as_deref(), Some("en-US"));
        assert_eq!(bad("English").fix.as_deref(), Some("en"));
        assert_eq!(bad("en-US-Latn").fix.as_deref(), Some("en-Latn-US"));
        assert_eq!(bad("en-").range, 2..3);
        assert_eq!(bad(" en").fix.as_deref(), Some("en"));
        assert_eq!(bad("en-GB ").range, 5..6);
        assert!(bad("").fix.is_none());
        assert!(bad("en-XX").fix.is_none());
        assert!(bad("en-999").fix.is_none());
        assert!(bad("en-Xyzw").fix.is_none());
        assert!(bad("en-en").message.contains("language code"));
        assert!(bad("zh-yue").fix.is_none());
        assert_eq!(bad("en-US-x-private").range, 6..7);
        assert!(bad("é").fix.is_none());
        assert!(bad("--").fix.is_none());
    }
}
