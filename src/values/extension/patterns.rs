//! The XSD patterns of the extensions (`news:language`, `news:genres`, `news:stock_tickers`,
//! country and platform lists, currencies): whether a value matches, and what is wrong when not.

use std::ops::Range;

use super::{empty, listing, problem, Target, ValueProblem};
use super::{Pattern, NEWS_GENRE_NAMES};
use crate::values::text::backticked as code;

/// Whether `v` matches the pattern exactly (XSD patterns are anchored at both ends).
pub fn pattern_matches(p: Pattern, v: &str) -> bool {
    match p {
        Pattern::NewsLanguage => language_ok(v),
        Pattern::NewsGenres => comma_list(v).iter().enumerate().all(|(i, (_, tok))| {
            let body = if i == 0 {
                *tok
            } else {
                tok.trim_start_matches(' ')
            };
            NEWS_GENRE_NAMES.contains(&body)
        }),
        Pattern::StockTickers => {
            v.is_empty() || {
                let items = comma_list(v);
                items.len() <= 5
                    && items.iter().enumerate().all(|(i, (_, tok))| {
                        let body = if i == 0 {
                            *tok
                        } else {
                            tok.trim_start_matches(' ')
                        };
                        ticker_ok(body)
                    })
            }
        }
        Pattern::CountryList => {
            v.is_empty()
                || (!v.starts_with(' ')
                    && !v.ends_with(' ')
                    && v.split(' ')
                        .filter(|t| !t.is_empty())
                        .all(|t| t.len() == 2 && t.bytes().all(|b| b.is_ascii_uppercase())))
        }
        Pattern::PlatformList => {
            v.is_empty() || v.split(' ').all(|t| matches!(t, "web" | "mobile" | "tv"))
        }
        Pattern::Currency => v.len() == 3 && v.bytes().all(|b| b.is_ascii_uppercase()),
    }
}

pub(super) fn language_ok(v: &str) -> bool {
    v == "zh-cn"
        || v == "zh-tw"
        || ((2..=3).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_lowercase()))
}

pub(super) fn ticker_ok(t: &str) -> bool {
    match t.split_once(':') {
        Some((exchange, symbol)) => {
            !exchange.is_empty()
                && !symbol.is_empty()
                && exchange.chars().all(is_word_char)
                && symbol.chars().all(is_word_char)
        }
        None => false,
    }
}

/// The pieces of `v` between commas, with their byte ranges.
pub(super) fn comma_list(v: &str) -> Vec<(Range<usize>, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in v.char_indices() {
        if c == ',' {
            out.push((start..i, &v[start..i]));
            start = i + 1;
        }
    }
    out.push((start..v.len(), &v[start..]));
    out
}

/// XSD's `\w`: any character except punctuation (`\p{P}`), separators (`\p{Z}`) and other
/// (`\p{C}`: controls, format, private use). Exact for ASCII, Latin-1 and the General
/// Punctuation block; other non-ASCII characters count as word characters unless they are
/// whitespace or controls (lenient: no false errors).
pub fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric()
            || matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~');
    }
    !matches!(u32::from(c),
        0x80..=0xA1 | 0xA7 | 0xAB | 0xAD | 0xB6 | 0xB7 | 0xBB | 0xBF
        | 0x2000..=0x2043 | 0x2045..=0x2051 | 0x2053..=0x206F
        | 0x3000..=0x3003 | 0x3008..=0x3011 | 0x3014..=0x301F
        | 0xE000..=0xF8FF | 0xFEFF)
        && !c.is_whitespace()
        && !c.is_control()
}

pub(super) fn pattern_problem(p: Pattern, t: &str, target: &Target) -> ValueProblem {
    match p {
        Pattern::NewsLanguage => language_problem(t, target),
        Pattern::NewsGenres => genres_problem(t, target),
        Pattern::StockTickers => tickers_problem(t, target),
        Pattern::CountryList => country_problem(t, target),
        Pattern::PlatformList => platform_problem(t, target),
        Pattern::Currency => currency_problem(t, target),
    }
}

pub(super) fn language_problem(t: &str, target: &Target) -> ValueProblem {
    if t.is_empty() {
        return empty(
            target,
            "the publication's ISO 639 language code, such as `en`",
        );
    }
    let message = format!("{} is not a valid {}", code(t), target.what);
    let label = "expected 2 or 3 lowercase letters, `zh-cn` or `zh-tw`";
    let lower = t.to_lowercase().replace('_', "-");
    let chinese = |rest: &str| match rest {
        "cn" | "sg" | "my" | "hans" | "hans-cn" | "hans-sg" => Some("zh-cn"),
        "tw" | "hk" | "mo" | "hant" | "hant-tw" | "hant-hk" | "hant-mo" => Some("zh-tw"),
        _ => None,
    };
    let help = if language_ok(&lower) {
        format!("write `{lower}`: language codes are lowercase")
    } else if let Some(fix) = lower.strip_prefix("zh-").and_then(chinese) {
        let script = if fix == "zh-cn" {
            "Simplified"
        } else {
            "Traditional"
        };
        format!("write `{fix}` ({script} Chinese): the news XSD spells Chinese only as `zh-cn` or `zh-tw`")
    } else if let Some((primary, _)) = lower.split_once('-').filter(|(p, _)| language_ok(p)) {
        format!(
            "write `{primary}`: the news XSD takes the ISO 639 language code alone; \
             only Chinese has regional forms (`zh-cn`, `zh-tw`)"
        )
    } else if let Some(code) = language_name(&lower) {
        format!("write `{code}`: the news XSD takes the ISO 639 code, not the language's name")
    } else {
        "write the ISO 639 code of the publication's language: 2 or 3 lowercase letters \
         (`en`, `fr`, `haw`), or `zh-cn`/`zh-tw` for Chinese"
            .to_string()
    };
    problem(0..t.len(), message, label, Some(help))
}

pub(super) fn language_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "english" => "en",
        "french" | "français" | "francais" => "fr",
        "german" | "deutsch" => "de",
        "spanish" | "español" | "espanol" => "es",
        "italian" | "italiano" => "it",
        "portuguese" | "português" | "portugues" => "pt",
        "dutch" | "nederlands" => "nl",
        "russian" => "ru",
        "japanese" => "ja",
        "korean" => "ko",
        "arabic" => "ar",
        "hindi" => "hi",
        "turkish" => "tr",
        "polish" | "polski" => "pl",
        _ => return None,
    })
}

/// Splits a list written with any of `,;|/` and spaces into its items, for corrected values.
pub(super) fn loose_items(t: &str) -> Vec<&str> {
    t.split([',', ';', '|', '/'])
        .map(|s| s.trim_matches(|c: char| c.is_whitespace()))
        .filter(|s| !s.is_empty())
        .collect()
}

pub(super) fn genre_of(item: &str) -> Option<&'static str> {
    let key: String = item
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect();
    NEWS_GENRE_NAMES
        .iter()
        .copied()
        .find(|g| g.to_lowercase() == key)
}

pub(super) fn genres_problem(t: &str, target: &Target) -> ValueProblem {
    let all = listing(&NEWS_GENRE_NAMES, "or");
    if t.is_empty() {
        return empty(
            target,
            &format!("one or more of {all}, separated by commas"),
        );
    }
    // The corrected value, when every item can be mapped to a genre.
    let fixed: Option<Vec<&str>> = loose_items(t)
        .into_iter()
        .flat_map(|item| match genre_of(item) {
            Some(g) => vec![Some(g)],
            None => item.split_whitespace().map(genre_of).collect(),
        })
        .collect();
    let fixed = fixed.filter(|f| !f.is_empty()).map(|f| f.join(", "));
    let with_fix = |help: String| match &fixed {
        Some(f) if f != t => format!("{help}: `{f}`"),
        _ => help,
    };
    let items = comma_list(t);
    let last = items.len() - 1;
    for (i, (range, tok)) in items.iter().enumerate() {
        let lead = if i == 0 {
            0
        } else {
            tok.len() - tok.trim_start_matches(' ').len()
        };
        let body = &tok[lead..];
        let at = range.start + lead;
        if body.is_empty() {
            let comma = if i == last {
                range.start - 1
            } else {
                range.end
            };
            let msg = if i == last {
                format!("{} ends with a comma", target.what)
            } else {
                format!("empty genre in {}", target.what)
            };
            return problem(
                comma..comma + 1,
                msg,
                "no genre here",
                Some(with_fix("remove the extra comma".into())),
            );
        }
        if NEWS_GENRE_NAMES.contains(&body) {
            continue;
        }
        let core = body.trim_end_matches(|c: char| c.is_whitespace());
        if core.len() < body.len() && NEWS_GENRE_NAMES.contains(&core) {
            return problem(
                at + core.len()..at + body.len(),
                format!("space before a comma in {}", target.what),
                "the XSD allows spaces only after a comma",
                Some(with_fix("write `Genre, Genre`".into())),
            );
        }
        if let Some(sep) = body.find([';', '|', '/', '\t', '\n']) {
            let c = body[sep..].chars().next().map_or(1, char::len_utf8);
            return problem(
                at + sep..at + sep + c,
                format!("genres in {} must be separated by commas", target.what),
                "not a comma",
                Some(with_fix("separate genres with `, `".into())),
            );
        }
        let message = format!("{} is not a Google News genre", code(body));
        return match genre_of(core) {
            Some(g) => problem(
                at..at + core.len(),
                message,
                format!("did you mean `{g}`?"),
                Some(with_fix(format!("write `{g}` (genres are case-sensitive)"))),
            ),
            None if fixed.is_some() => problem(
                at..at + core.len(),
                message,
                "several genres need commas between them",
                Some(with_fix("separate genres with `, `".into())),
            ),
            None => problem(
                at..at + core.len(),
                message,
                "not a genre the news XSD allows",
                Some(format!(
                    "genres say what kind of article it is: {all}; topics belong in `<news:keywords>`"
                )),
            ),
        };
    }
    // Not reached for a value the pattern rejects; kept total.
    problem(
        0..t.len(),
        format!("{} is not a valid {}", code(t), target.what),
        "",
        Some(format!("use {all}, separated by commas")),
    )
}

pub(super) fn tickers_problem(t: &str, target: &Target) -> ValueProblem {
    let items = comma_list(t);
    let last = items.len() - 1;
    for (i, (range, tok)) in items.iter().enumerate() {
        if i == 5 {
            let kept: Vec<&str> = items[..5]
                .iter()
                .map(|(_, s)| s.trim_matches(|c: char| c.is_whitespace()))
                .collect();
            return problem(
                range.start..t.len(),
                format!("more than 5 stock tickers in {}", target.what),
                "the 6th and later",
                Some(format!(
                    "keep the 5 most relevant: the news XSD allows at most 5, e.g. `{}`",
                    kept.join(", ")
                )),
            );
        }
        let lead = if i == 0 {
            0
        } else {
            tok.len() - tok.trim_start_matches(' ').len()
        };
        let body = &tok[lead..];
        let at = range.start + lead;
        if body.is_empty() {
            let comma = if i == last {
                range.start - 1
            } else {
                range.end
            };
            return problem(
                comma..comma + 1,
                if i == last {
                    format!("{} ends with a comma", target.what)
                } else {
                    format!("empty stock ticker in {}", target.what)
                },
                "no ticker here",
                Some("remove the extra comma".into()),
            );
        }
        if ticker_ok(body) {
            continue;
        }
        let core = body.trim_end_matches(|c: char| c.is_whitespace());
        if core.len() < body.len() && ticker_ok(core) {
            return problem(
                at + core.len()..at + body.len(),
                format!("space before a comma in {}", target.what),
                "the XSD allows spaces only after a comma",
                Some("write `EXCHANGE:SYMBOL, EXCHANGE:SYMBOL`".into()),
            );
        }
        let Some(colon) = core.find(':') else {
            let sep = core.find([';', '|', '/', ' ', '\t', '\n']);
            if let (Some(sep), true) = (sep, core.contains(':') || t.contains(':')) {
                return problem(
                    at + sep..at + sep + 1,
                    format!(
                        "stock tickers in {} must be separated by commas",
                        target.what
                    ),
                    "not a comma",
                    Some("separate tickers with `, `".into()),
                );
            }
            return problem(
                at..at + core.len(),
                format!("stock ticker {} has no exchange prefix", code(core)),
                "expected `EXCHANGE:SYMBOL`",
                Some(format!(
                    "prefix it with its stock exchange as Google Finance lists it, e.g. `NASDAQ:{core}`"
                )),
            );
        };
        let (exchange, symbol) = (&core[..colon], &core[colon + 1..]);
        if exchange.trim_end().len() < exchange.len() || symbol.trim_start().len() < symbol.len() {
            let fixed = format!("{}:{}", exchange.trim_end(), symbol.trim_start());
            return problem(
                at..at + core.len(),
                format!("space around the `:` in stock ticker {}", code(core)),
                "no spaces allowed",
                Some(format!("write `{fixed}`")),
            );
        }
        if exchange.is_empty() || symbol.is_empty() {
            let (what, ex) = if exchange.is_empty() {
                ("exchange", "NASDAQ:AAPL")
            } else {
                ("symbol", "NYSE:IBM")
            };
            return problem(
                at..at + core.len(),
                format!("stock ticker {} has no {what}", code(core)),
                "expected `EXCHANGE:SYMBOL`",
                Some(format!("write it as `EXCHANGE:SYMBOL`, e.g. `{ex}`")),
            );
        }
        if let Some((off, c)) = core
            .char_indices()
            .find(|&(i, c)| i != colon && !is_word_char(c))
        {
            let end = at + off + c.len_utf8();
            let (message, label, help) = match c {
                ';' | '|' | '/' => (
                    format!("stock tickers in {} must be separated by commas", target.what),
                    "not a comma",
                    "separate tickers with `, `".to_string(),
                ),
                ':' => (
                    format!("stock ticker {} has more than one `:`", code(core)),
                    "second `:`",
                    "write each ticker as `EXCHANGE:SYMBOL`".to_string(),
                ),
                _ => (
                    format!("{} is not allowed in a stock ticker", code(&c.to_string())),
                    "punctuation and spaces are not allowed",
                    format!(
                        "the news XSD allows only letters, digits and symbols on each side of the `:` \
                         (pattern `{}`); leave this ticker out or write it without {}",
                        Pattern::StockTickers.regex(),
                        code(&c.to_string())
                    ),
                ),
            };
            return problem(at + off..end, message, label, Some(help));
        }
    }
    problem(
        0..t.len(),
        format!("{} is not a valid {}", code(t), target.what),
        "",
        Some("write up to 5 tickers as `EXCHANGE:SYMBOL`, separated by commas".into()),
    )
}

/// Finds the first separator other than a single space in a space-separated list.
pub(super) fn bad_separator(t: &str, allow_runs: bool) -> Option<(Range<usize>, &'static str)> {
    let bytes = t.as_bytes();
    for (i, c) in t.char_indices() {
        match c {
            ',' | ';' | '|' | '/' | '\t' | '\n' | '\r' => {
                let what = match c {
                    '\t' => "a tab",
                    '\n' | '\r' => "a line break",
                    _ => "not a space",
                };
                return Some((i..i + 1, what));
            }
            ' ' if !allow_runs && bytes.get(i + 1) == Some(&b' ') => {
                let run = t[i..].len() - t[i..].trim_start_matches(' ').len();
                return Some((i..i + run, "more than one space"));
            }
            _ => {}
        }
    }
    None
}

/// The items of a list written with any of the separators people use (`,` `;` `|` `/` or
/// whitespace), for suggesting the space-separated spelling.
pub(super) fn list_items(t: &str) -> impl Iterator<Item = &str> {
    t.split(|c: char| matches!(c, ',' | ';' | '|' | '/') || c.is_whitespace())
        .filter(|s| !s.is_empty())
}

/// The tokens of a single-space-separated list, each with its byte range in `t`.
pub(super) fn spaced_tokens(t: &str) -> impl Iterator<Item = (Range<usize>, &str)> {
    t.split(' ').scan(0, |at, tok| {
        let range = *at..*at + tok.len();
        *at += tok.len() + 1;
        Some((range, tok))
    })
}

pub(super) fn country_problem(t: &str, target: &Target) -> ValueProblem {
    let fixed: Vec<String> = list_items(t).map(str::to_uppercase).collect();
    let fix = if fixed
        .iter()
        .all(|c| c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase()))
    {
        Some(fixed.join(" "))
    } else {
        None
    };
    let with_fix = |help: &str| match &fix {
        Some(f) => format!("{help}: `{f}`"),
        None => help.to_string(),
    };
    if let Some((range, what)) = bad_separator(t, true) {
        return problem(
            range,
            format!(
                "country codes in {} must be separated by spaces",
                target.what
            ),
            what,
            Some(with_fix("separate them with spaces")),
        );
    }
    for (range, tok) in spaced_tokens(t) {
        if tok.is_empty() || (tok.len() == 2 && tok.bytes().all(|b| b.is_ascii_uppercase())) {
            continue;
        }
        let (message, label, help) = if tok.chars().count() == 2
            && tok.chars().all(|c| c.is_ascii_alphabetic())
        {
            (
                format!("country code {} is not uppercase", code(tok)),
                "expected uppercase letters".to_string(),
                with_fix("write ISO 3166 country codes in uppercase"),
            )
        } else if tok.len() == 3 && tok.bytes().all(|b| b.is_ascii_alphabetic()) {
            (
                format!("{} is not a two-letter country code", code(tok)),
                "expected ISO 3166-1 alpha-2".to_string(),
                "use two-letter ISO 3166-1 codes (`US`, not `USA`)".to_string(),
            )
        } else {
            (
                format!("{} is not an ISO 3166 country code", code(tok)),
                "expected two uppercase letters".to_string(),
                "list two-letter ISO 3166-1 codes separated by spaces, e.g. `US CA GB`".to_string(),
            )
        };
        return problem(range, message, label, Some(help));
    }
    problem(
        0..t.len(),
        format!("{} is not a valid {}", code(t), target.what),
        "",
        Some("list two-letter ISO 3166-1 codes separated by spaces, e.g. `US CA GB`".into()),
    )
}

pub(super) fn platform_of(item: &str) -> Option<&'static str> {
    Some(match item.to_lowercase().as_str() {
        "web" | "desktop" | "browser" | "pc" => "web",
        "mobile" | "phone" | "tablet" | "android" | "ios" => "mobile",
        "tv" | "smarttv" | "smart-tv" | "googletv" | "television" => "tv",
        _ => return None,
    })
}

pub(super) fn platform_problem(t: &str, target: &Target) -> ValueProblem {
    let items: Vec<&str> = list_items(t).collect();
    let fix: Option<Vec<&str>> = items.iter().map(|i| platform_of(i)).collect();
    let with_fix = |help: &str| match &fix {
        Some(f) => format!("{help}: `{}`", f.join(" ")),
        None => help.to_string(),
    };
    if let Some((range, what)) = bad_separator(t, false) {
        return problem(
            range,
            format!(
                "platforms in {} must be separated by single spaces",
                target.what
            ),
            what,
            Some(with_fix("separate them with one space")),
        );
    }
    for (range, tok) in spaced_tokens(t) {
        if matches!(tok, "web" | "mobile" | "tv") {
            continue;
        }
        let message = format!("{} is not a video platform", code(tok));
        return match platform_of(tok) {
            Some(p) => problem(
                range,
                message,
                format!("did you mean `{p}`?"),
                Some(with_fix("use `web`, `mobile` and `tv` (lowercase)")),
            ),
            None => problem(
                range,
                message,
                "expected `web`, `mobile` or `tv`",
                Some("list `web`, `mobile` or `tv`, separated by single spaces".into()),
            ),
        };
    }
    problem(
        0..t.len(),
        format!("{} is not a valid {}", code(t), target.what),
        "",
        Some("list `web`, `mobile` or `tv`, separated by single spaces".into()),
    )
}

pub(super) fn currency_problem(t: &str, target: &Target) -> ValueProblem {
    if t.is_empty() {
        return empty(target, "a three-letter ISO 4217 code such as `USD`");
    }
    let message = format!("{} is not an ISO 4217 currency code", code(t));
    let upper = t.to_uppercase();
    let fix = if upper.len() == 3 && upper.bytes().all(|b| b.is_ascii_uppercase()) {
        Some(upper)
    } else {
        match t {
            "$" | "US$" => Some("USD".to_string()),
            "€" => Some("EUR".to_string()),
            "£" => Some("GBP".to_string()),
            _ => None,
        }
    };
    match fix {
        Some(f) => problem(
            0..t.len(),
            message,
            format!("did you mean `{f}`?"),
            Some(format!(
                "write `{f}`: {} takes three uppercase letters",
                target.what
            )),
        ),
        None => problem(
            0..t.len(),
            message,
            "expected three uppercase letters",
            Some("use the three-letter ISO 4217 code, such as `USD` or `EUR`".into()),
        ),
    }
}

// --- Numbers ------------------------------------------------------------------------------------
