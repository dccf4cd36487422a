//! The configuration file `sitemap-lint.toml`: parsing with precise errors, presets, and the precedence that turns it and command-line overrides into [`Settings`].
//!
//! Precedence, lowest first: rule defaults (opt-in rules off) < the `preset` < the file's
//! `[rules]` table (`all`, then categories, then rule names, so the most specific entry wins
//! whatever the order in the file) < `--error`/`--warn`/`--allow` in command-line order (the last
//! one wins). A category or `all` never turns an opt-in rule on (only its own name does), but
//! `off` turns every rule it names off.
//!
//! Nothing here prints; errors carry the file, line and column, the problem and the valid choices.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::diagnostic::Severity;
use crate::rule::{Category, RuleMeta};
use crate::{rules, values::text, Settings};

/// The name of the configuration file looked for next to and above each checked file.
pub const FILE_NAME: &str = "sitemap-lint.toml";

/// The keys of the file, in the order `sitemap-lint config` prints them.
pub const KEYS: &[&str] = &[
    "preset",
    "max-url-length",
    "sitemap-url",
    "site-root",
    "exclude",
    "rules",
];

/// The default `max-url-length`: the protocol's and `sitemap.xsd`'s 2,048 characters.
pub const DEFAULT_MAX_URL_LENGTH: usize = 2048;
/// The shortest `max-url-length` accepted: `sitemap.xsd`'s `minLength` for `<loc>`.
pub const MIN_MAX_URL_LENGTH: usize = 12;

/// The levels a rule can be set to, as written in the file.
pub const LEVELS: &[&str] = &["off", "info", "warning", "error"];

/// Search-engine profiles: limits and severities that differ per consumer of the sitemap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    Google,
    Yandex,
    Bing,
    StrictXsd,
}

impl Preset {
    pub const ALL: [Preset; 4] = [
        Preset::Google,
        Preset::Yandex,
        Preset::Bing,
        Preset::StrictXsd,
    ];

    /// The preset in effect when a configuration chooses none: its settings are the defaults.
    pub const DEFAULT: Preset = Preset::Google;

    pub fn name(self) -> &'static str {
        match self {
            Preset::Google => "google",
            Preset::Yandex => "yandex",
            Preset::Bing => "bing",
            Preset::StrictXsd => "strict-xsd",
        }
    }

    pub fn parse(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// What the preset is for, one line (docs/configuration.md and `sitemap-lint config`).
    pub fn summary(self) -> &'static str {
        match self {
            Preset::Google => "the defaults: the sitemaps.org limits, which Google applies",
            Preset::Yandex => "URLs of at most 1,024 characters (Yandex: \"URL too long\")",
            Preset::Bing => "`<lastmod>` must carry a full date and time with a zone (Bing's recrawl signal)",
            Preset::StrictXsd => "every deviation from the official XSD is an error, also those search engines tolerate",
        }
    }

    /// The longest `<loc>` accepted, in characters.
    pub fn max_url_length(self) -> usize {
        match self {
            Preset::Yandex => 1024,
            Preset::Google | Preset::Bing | Preset::StrictXsd => DEFAULT_MAX_URL_LENGTH,
        }
    }

    /// Rule severities the preset changes.
    pub fn rules(self) -> &'static [(&'static str, Severity)] {
        match self {
            Preset::Google | Preset::Yandex => &[],
            // Bing (July 2025): lastmod is the key recrawl signal; a date and time with an offset
            // is recommended, so a value it cannot place in time is lost.
            Preset::Bing => &[
                ("lastmod-missing-timezone", Severity::Error),
                ("lastmod-w3c-only", Severity::Error),
            ],
            Preset::StrictXsd => STRICT_XSD,
        }
    }
}

/// Rules whose findings the official XSDs reject although search engines accept them (so they
/// default to a warning): `strict-xsd` makes them errors. Whitespace around values
/// (`value-whitespace`) and a time without a zone (`lastmod-missing-timezone`) are valid under the
/// XSD (`whiteSpace` collapse; `xsd:dateTime` allows no zone), so they are not listed.
pub const STRICT_XSD: &[(&str, Severity)] = &[("lastmod-w3c-only", Severity::Error)];

/// What `--error`, `--warn`, `--allow` and the `[rules]` table name: a rule, a category or `all`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selector {
    All,
    Category(Category),
    Rule(&'static RuleMeta),
}

impl Selector {
    pub fn parse(name: &str) -> Option<Selector> {
        if name == "all" {
            return Some(Selector::All);
        }
        if let Some(meta) = rules::find(name) {
            return Some(Selector::Rule(meta));
        }
        Category::ALL
            .into_iter()
            .find(|c| c.as_str() == name)
            .map(Selector::Category)
    }

    pub fn name(&self) -> &'static str {
        match self {
            Selector::All => "all",
            Selector::Category(c) => c.as_str(),
            Selector::Rule(m) => m.name,
        }
    }

    pub fn matches(&self, meta: &RuleMeta) -> bool {
        match self {
            Selector::All => true,
            Selector::Category(c) => meta.category == *c,
            Selector::Rule(m) => m.name == meta.name,
        }
    }

    /// 0 for `all`, 1 for a category, 2 for a rule: within the file, more specific entries win.
    fn specificity(&self) -> u8 {
        match self {
            Selector::All => 0,
            Selector::Category(_) => 1,
            Selector::Rule(_) => 2,
        }
    }
}

/// "unknown rule or category `x`" and what it is probably a typo of.
pub fn unknown_selector(name: &str) -> (String, String) {
    let mut names: Vec<&str> = rules::metas().map(|m| m.name).collect();
    names.extend(Category::ALL.iter().map(|c| c.as_str()));
    names.push("all");
    let message = format!("unknown rule or category `{name}`");
    let categories: Vec<&str> = Category::ALL.iter().map(|c| c.as_str()).collect();
    let help = match text::closest(name, &names) {
        Some(close) => format!("did you mean `{close}`? run `sitemap-lint rules` to list the rules"),
        None => format!(
            "run `sitemap-lint rules` to list the rules; the categories are {}, and `all` names every rule",
            categories.join(", ")
        ),
    };
    (message, help)
}

/// A rule's level: a severity, or `None` for off.
pub type Level = Option<Severity>;

/// Parses `off`, `info`, `warning` or `error`.
pub fn parse_level(s: &str) -> Option<Level> {
    match s {
        "off" => Some(None),
        "info" => Some(Some(Severity::Info)),
        "warning" => Some(Some(Severity::Warning)),
        "error" => Some(Some(Severity::Error)),
        _ => None,
    }
}

pub fn level_name(level: Level) -> &'static str {
    level.map_or("off", Severity::as_str)
}

/// A value from the file with the line it was set on and its byte span.
#[derive(Debug, Clone, PartialEq)]
pub struct Located<T> {
    pub value: T,
    /// 1-based.
    pub line: usize,
    pub span: Range<usize>,
}

/// One entry of the `[rules]` table.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleSetting {
    pub selector: Selector,
    pub level: Level,
    /// 1-based line of the entry.
    pub line: usize,
}

/// A parsed `sitemap-lint.toml`.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The file, as found or given.
    pub path: PathBuf,
    /// Its folder: relative `site-root` values and `exclude` globs are resolved against it.
    pub dir: PathBuf,
    pub preset: Option<Located<Preset>>,
    pub max_url_length: Option<Located<usize>>,
    pub sitemap_url: Option<Located<String>>,
    /// Resolved against [`Config::dir`].
    pub site_root: Option<Located<PathBuf>>,
    /// Globs as written, relative to [`Config::dir`].
    pub exclude: Vec<Located<String>>,
    /// Sorted: `all`, then categories, then rules; each group in file order.
    pub rules: Vec<RuleSetting>,
}

/// A configuration file that cannot be used: where, what, and what would be valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    /// 1-based line and column (in characters) of the problem; `None` for a file that cannot be read.
    pub position: Option<(usize, usize)>,
    pub message: String,
    /// The valid choices or a likely fix.
    pub help: Option<String>,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Shown on stderr: the path and the texts quoted from the file go through `visible`.
        let path = self.path.display().to_string();
        write!(f, "{}", crate::values::text::visible(&path))?;
        if let Some((line, col)) = self.position {
            write!(f, ":{line}:{col}")?;
        }
        write!(f, ": {}", crate::values::text::visible(&self.message))?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {}", crate::values::text::visible(help))?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

/// Where each line of `text` starts (byte offsets, the first 0).
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .collect()
}

/// 1-based line and column (in characters) of byte `offset` in `text`, whose lines start at
/// `starts` ([`line_starts`]): a binary search and a scan of one line, so that locating every
/// entry of a long `exclude` list stays linear in the file's size.
fn position(text: &str, starts: &[usize], offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line = starts.partition_point(|&s| s <= offset).max(1);
    let line_start = starts[line - 1];
    (line, text[line_start..offset].chars().count() + 1)
}

/// Globs an `exclude` list may hold: each is compiled (tens of microseconds and kilobytes each)
/// and matched against every path walked, and real lists name a few folders.
pub const MAX_EXCLUDES: usize = 1_000;

struct Parser<'t> {
    path: &'t Path,
    text: &'t str,
    /// [`line_starts`] of `text`.
    starts: Vec<usize>,
}

impl Parser<'_> {
    fn error(&self, span: Range<usize>, message: String, help: Option<String>) -> ConfigError {
        ConfigError {
            path: self.path.to_path_buf(),
            position: Some(position(self.text, &self.starts, span.start)),
            message,
            help,
        }
    }

    fn line(&self, span: &Range<usize>) -> usize {
        // The line only: counting the column's characters costs the line's length.
        self.starts.partition_point(|&s| s <= span.start).max(1)
    }

    fn located<T>(&self, value: T, span: Range<usize>) -> Located<T> {
        Located {
            value,
            line: self.line(&span),
            span,
        }
    }

    fn string<'v>(
        &self,
        key: &str,
        value: &'v Spanned<DeValue<'_>>,
        what: &str,
    ) -> Result<&'v str, ConfigError> {
        match value.get_ref() {
            DeValue::String(s) => Ok(s),
            other => Err(self.error(
                value.span(),
                format!("`{key}` must be a string, not {}", type_name(other)),
                Some(format!("write {what}")),
            )),
        }
    }

    fn choice<T: Copy>(
        &self,
        key: &str,
        value: &Spanned<DeValue<'_>>,
        choices: &[&str],
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<T, ConfigError> {
        let quoted: Vec<String> = choices.iter().map(|c| format!("\"{c}\"")).collect();
        let valid = format!("the valid values are {}", quoted.join(", "));
        let s = self.string(key, value, &format!("one of {}", quoted.join(", ")))?;
        parse(s).ok_or_else(|| {
            let close = text::closest(s, choices).or_else(|| {
                choices
                    .iter()
                    .copied()
                    .find(|c| !s.is_empty() && c.starts_with(s))
            });
            let help = match close {
                Some(close) => format!("did you mean \"{close}\"? {valid}"),
                None => valid,
            };
            self.error(
                value.span(),
                format!("invalid value \"{s}\" for `{key}`"),
                Some(help),
            )
        })
    }
}

fn type_name(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

/// The entries of a table in file order.
fn in_file_order<'a, 'i>(
    table: &'a DeTable<'i>,
) -> Vec<(
    &'a Spanned<std::borrow::Cow<'i, str>>,
    &'a Spanned<DeValue<'i>>,
)> {
    let mut entries: Vec<_> = table.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    entries
}

/// Parses the text of the configuration file at `path` (used in messages; relative `site-root`
/// values are resolved against its folder, which must exist for `site-root` to be accepted).
pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
    let p = Parser {
        path,
        text,
        starts: line_starts(text),
    };
    let table = DeTable::parse(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let message = e.message().trim().replace('\n', "; ");
        p.error(span, format!("invalid TOML: {message}"), None)
    })?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut config = Config {
        path: path.to_path_buf(),
        dir,
        ..Config::default()
    };
    for (key, value) in in_file_order(table.get_ref()) {
        let span = value.span();
        match key.get_ref().as_ref() {
            "preset" => {
                let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
                let preset = p.choice("preset", value, &names, Preset::parse)?;
                config.preset = Some(p.located(preset, span));
            }
            "max-url-length" => {
                let DeValue::Integer(int) = value.get_ref() else {
                    return Err(p.error(
                        span,
                        format!(
                            "`max-url-length` must be an integer, not {}",
                            type_name(value.get_ref())
                        ),
                        Some(format!("write a number of characters from {MIN_MAX_URL_LENGTH} to {DEFAULT_MAX_URL_LENGTH}, such as `max-url-length = 1024`")),
                    ));
                };
                // Out of range for i128 only with absurd digit counts: shown as written.
                let n = i128::from_str_radix(int.as_str(), int.radix());
                let shown = n.as_ref().map_or_else(|_| int.to_string(), i128::to_string);
                let ok = n
                    .ok()
                    .and_then(|n| usize::try_from(n).ok())
                    .filter(|n| (MIN_MAX_URL_LENGTH..=DEFAULT_MAX_URL_LENGTH).contains(n));
                let Some(n) = ok else {
                    return Err(p.error(
                        span,
                        format!("`max-url-length` must be from {MIN_MAX_URL_LENGTH} to {DEFAULT_MAX_URL_LENGTH}, not {shown}"),
                        Some(format!("{DEFAULT_MAX_URL_LENGTH} is the protocol's limit (the default); {MIN_MAX_URL_LENGTH} is the shortest URL `sitemap.xsd` allows")),
                    ));
                };
                config.max_url_length = Some(p.located(n, span));
            }
            "sitemap-url" => {
                let url = p.string(
                    "sitemap-url",
                    value,
                    "the sitemap's public URL, such as \"https://www.example.com/sitemap.xml\"",
                )?;
                if let Some(problem) = crate::values::uri::check_http_url(url)
                    .into_iter()
                    .find(|pr| pr.kind.is_error())
                {
                    return Err(p.error(
                        span,
                        format!("`sitemap-url` is not an absolute http(s) URL: {}", problem.message),
                        Some(problem.help.unwrap_or_else(|| {
                            "write the URL the sitemap is published at, such as \"https://www.example.com/sitemap.xml\"".into()
                        })),
                    ));
                }
                config.sitemap_url = Some(p.located(url.to_string(), span));
            }
            "site-root" => {
                let raw = p.string(
                    "site-root",
                    value,
                    "the folder holding the site's files, such as \"public\"",
                )?;
                if raw.is_empty() {
                    return Err(p.error(
                        span,
                        "`site-root` is empty".into(),
                        Some("write the folder holding the site's files, relative to this file's folder, such as \"public\" (\".\" for this folder)".into()),
                    ));
                }
                let resolved = config.dir.join(raw);
                if !resolved.is_dir() {
                    return Err(p.error(
                        span,
                        format!("`site-root` \"{raw}\" is not a directory (resolved to `{}`)", resolved.display()),
                        Some("a relative `site-root` is resolved against the folder of the configuration file".into()),
                    ));
                }
                config.site_root = Some(p.located(resolved, span));
            }
            "exclude" => {
                let DeValue::Array(items) = value.get_ref() else {
                    return Err(p.error(
                        span,
                        format!(
                            "`exclude` must be an array of globs, not {}",
                            type_name(value.get_ref())
                        ),
                        Some("write `exclude = [\"drafts\", \"old/**\"]`".into()),
                    ));
                };
                if let Some(item) = items.get(MAX_EXCLUDES) {
                    return Err(p.error(
                        item.span(),
                        format!("more than {MAX_EXCLUDES} globs in `exclude`"),
                        Some("each glob is compiled and matched against every path walked: exclude whole folders (`old/**`) or name patterns (`*-draft.xml`) instead of single files".into()),
                    ));
                }
                for item in items {
                    let glob = p.string(
                        "exclude",
                        item,
                        "each glob as a string, such as \"drafts/**\"",
                    )?;
                    if let Err(message) = check_glob(glob) {
                        return Err(p.error(
                            item.span(),
                            format!("invalid glob \"{glob}\" in `exclude`: {message}"),
                            Some("`*` matches within a name, `**` across folders; a glob without `/` matches a name at any depth, one with `/` matches from this file's folder".into()),
                        ));
                    }
                    config
                        .exclude
                        .push(p.located(glob.to_string(), item.span()));
                }
            }
            "rules" => {
                let DeValue::Table(rules_table) = value.get_ref() else {
                    return Err(p.error(
                        span,
                        format!("`rules` must be a table, not {}", type_name(value.get_ref())),
                        Some("write a `[rules]` section with lines such as `loc-fragment = \"error\"`".into()),
                    ));
                };
                for (name, level) in in_file_order(rules_table) {
                    let Some(selector) = Selector::parse(name.get_ref()) else {
                        let (message, help) = unknown_selector(name.get_ref());
                        return Err(p.error(
                            name.span(),
                            format!("{message} in `[rules]`"),
                            Some(help),
                        ));
                    };
                    let level = p.choice(name.get_ref(), level, LEVELS, parse_level)?;
                    config.rules.push(RuleSetting {
                        selector,
                        level,
                        line: p.line(&name.span()),
                    });
                }
            }
            other => {
                let help = match text::closest(other, KEYS) {
                    Some(close) => {
                        format!("did you mean `{close}`? the valid keys are {}", keys_list())
                    }
                    None => format!("the valid keys are {}", keys_list()),
                };
                return Err(p.error(key.span(), format!("unknown key `{other}`"), Some(help)));
            }
        }
    }
    config
        .rules
        .sort_by_key(|r| (r.selector.specificity(), r.line));
    Ok(config)
}

fn keys_list() -> String {
    KEYS.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks an `exclude` glob the way `--exclude` globs are compiled.
fn check_glob(glob: &str) -> Result<(), String> {
    let mut g = glob;
    while let Some(rest) = g.strip_prefix("./") {
        g = rest;
    }
    let g = g.trim_matches('/');
    if g.is_empty() {
        return Err("it is empty".into());
    }
    globset::GlobBuilder::new(g)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map(|_| ())
        .map_err(|e| e.kind().to_string())
}

/// Reads and parses the configuration file at `path`.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text =
        crate::pipeline::files::read_text_capped(path, crate::pipeline::files::MAX_CONFIG_SIZE)
            .map_err(|e| ConfigError {
                path: path.to_path_buf(),
                position: None,
                message: format!(
                    "cannot read the configuration file: {}",
                    match e.kind() {
                        std::io::ErrorKind::NotFound => "no such file".to_string(),
                        std::io::ErrorKind::InvalidData => "it is not UTF-8".to_string(),
                        _ => e.to_string(),
                    }
                ),
                help: None,
            })?;
    parse(path, &text)
}

/// The configuration file for files in folder `dir`: `sitemap-lint.toml` in `dir` or the nearest
/// folder above it, not looking above a repository root (a folder holding `.git`).
pub fn find(dir: &Path) -> Option<PathBuf> {
    let mut at = Some(dir);
    while let Some(d) = at {
        let candidate = d.join(FILE_NAME);
        // Anything but a folder counts, so that a FIFO or device there is reported, not passed over.
        if std::fs::symlink_metadata(&candidate).is_ok_and(|m| !m.is_dir()) {
            return Some(candidate);
        }
        if d.join(".git").exists() {
            return None;
        }
        at = d.parent();
    }
    None
}

/// `--error RULE`, `--warn RULE` or `--allow RULE`, in command-line order.
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    pub selector: Selector,
    pub level: Level,
    /// As given (`--allow url`), for `sitemap-lint config`.
    pub flag: String,
}

/// Where an effective value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The rule's default severity (or off for an opt-in rule), or a built-in default.
    Default,
    Preset(&'static str),
    /// A line of the configuration file.
    File(PathBuf, usize),
    /// A command-line flag, as given.
    CommandLine(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Default => f.write_str("default"),
            Origin::Preset(p) => write!(f, "preset {p}"),
            Origin::File(path, line) => write!(f, "{}:{line}", path.display()),
            Origin::CommandLine(flag) => write!(f, "{flag}"),
        }
    }
}

/// The settings for files governed by one configuration, and where each value came from.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub settings: Settings,
    /// Every rule in registry order with its level and origin.
    pub rules: Vec<(&'static RuleMeta, Level, Origin)>,
    pub max_url_length: Origin,
    pub sitemap_url: Origin,
    pub site_root: Origin,
}

/// Applies `config` (if any) and the command-line `overrides` on top of `base`, in the documented
/// precedence. `base.sitemap_url` and `base.site_root`, when set (by command-line flags), win
/// over the file.
pub fn resolve(base: &Settings, config: Option<&Config>, overrides: &[Override]) -> Resolved {
    let mut settings = base.clone();
    let mut rule_levels = Vec::new();
    let mut map = HashMap::new();
    let preset = config.and_then(|c| c.preset.as_ref());
    for meta in rules::metas() {
        let mut level = if meta.opt_in {
            None
        } else {
            Some(meta.default_severity)
        };
        let mut origin = Origin::Default;
        if let Some(p) = preset {
            if let Some((_, sev)) = p.value.rules().iter().find(|(n, _)| *n == meta.name) {
                level = Some(*sev);
                origin = Origin::Preset(p.value.name());
            }
        }
        let mut apply = |selector: &Selector, new: Level, from: Origin| {
            if !selector.matches(meta) {
                return;
            }
            // A group never switches an opt-in rule on: only its own name does.
            let group = !matches!(selector, Selector::Rule(_));
            if group && new.is_some() && level.is_none() && meta.opt_in {
                return;
            }
            level = new;
            origin = from;
        };
        if let Some(c) = config {
            for r in &c.rules {
                apply(&r.selector, r.level, Origin::File(c.path.clone(), r.line));
            }
        }
        for o in overrides {
            apply(&o.selector, o.level, Origin::CommandLine(o.flag.clone()));
        }
        map.insert(meta.name, level);
        rule_levels.push((meta, level, origin));
    }
    settings.overrides = map;

    let mut max_url_length = Origin::Default;
    settings.max_url_length = DEFAULT_MAX_URL_LENGTH;
    if let Some(p) = preset {
        settings.max_url_length = p.value.max_url_length();
        if p.value.max_url_length() != DEFAULT_MAX_URL_LENGTH {
            max_url_length = Origin::Preset(p.value.name());
        }
    }
    let file_origin = |c: &Config, line: usize| Origin::File(c.path.clone(), line);
    let mut sitemap_url = Origin::Default;
    let mut site_root = Origin::Default;
    if base.sitemap_url.is_some() {
        sitemap_url = Origin::CommandLine("--sitemap-url".into());
    }
    if base.site_root.is_some() {
        site_root = Origin::CommandLine("--site-root".into());
    }
    if let Some(c) = config {
        if let Some(n) = &c.max_url_length {
            settings.max_url_length = n.value;
            max_url_length = file_origin(c, n.line);
        }
        if let (None, Some(u)) = (&base.sitemap_url, &c.sitemap_url) {
            settings.sitemap_url = Some(u.value.clone());
            sitemap_url = file_origin(c, u.line);
        }
        if let (None, Some(r)) = (&base.site_root, &c.site_root) {
            settings.site_root = Some(r.value.clone());
            site_root = file_origin(c, r.line);
        }
    }
    Resolved {
        settings,
        rules: rule_levels,
        max_url_length,
        sitemap_url,
        site_root,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Config, ConfigError> {
        parse(Path::new("dir/sitemap-lint.toml"), text)
    }

    fn err(text: &str) -> String {
        parse_str(text).unwrap_err().to_string()
    }

    #[test]
    fn parses_every_key() {
        let c = parse_str(
            "preset = \"yandex\"\nmax-url-length = 900\nsitemap-url = \"https://www.example.com/sitemap.xml\"\nexclude = [\"drafts\", \"old/**\"]\n[rules]\nurl = \"warning\"\nloc-length = \"off\"\nall = \"info\"\n",
        )
        .unwrap();
        assert_eq!(c.preset.as_ref().unwrap().value, Preset::Yandex);
        assert_eq!(c.max_url_length.as_ref().unwrap().value, 900);
        assert_eq!(c.max_url_length.as_ref().unwrap().line, 2);
        assert_eq!(c.exclude.len(), 2);
        let order: Vec<_> = c.rules.iter().map(|r| r.selector.name()).collect();
        assert_eq!(order, ["all", "url", "loc-length"], "most specific last");
    }

    #[test]
    fn errors_name_the_place_and_the_choices() {
        assert_eq!(
            err("presett = \"google\""),
            "dir/sitemap-lint.toml:1:1: unknown key `presett`\n  help: did you mean `preset`? the valid keys are `preset`, `max-url-length`, `sitemap-url`, `site-root`, `exclude`, `rules`"
        );
        assert_eq!(
            err("preset = \"yandx\""),
            "dir/sitemap-lint.toml:1:10: invalid value \"yandx\" for `preset`\n  help: did you mean \"yandex\"? the valid values are \"google\", \"yandex\", \"bing\", \"strict-xsd\""
        );
        let e = err("[rules]\nloc-lenght = \"error\"");
        assert!(e.starts_with("dir/sitemap-lint.toml:2:1: unknown rule or category `loc-lenght` in `[rules]`\n  help: did you mean `loc-length`?"), "{e}");
        let e = err("[rules]\nloc-length = \"warn\"");
        assert!(e.starts_with("dir/sitemap-lint.toml:2:14: invalid value \"warn\" for `loc-length`\n  help: did you mean \"warning\"? the valid values are \"off\", \"info\", \"warning\", \"error\""), "{e}");
        assert!(err("max-url-length = 5000")
            .contains("1:18: `max-url-length` must be from 12 to 2048, not 5000"));
        assert!(err("max-url-length = \"1024\"").contains("must be an integer, not a string"));
        assert!(err("sitemap-url = \"/sitemap.xml\"")
            .contains("1:15: `sitemap-url` is not an absolute http(s) URL"));
        assert!(err("exclude = \"drafts\"").contains("must be an array of globs"));
        assert!(err("exclude = [\"a[\"]").contains("1:12: invalid glob \"a[\""));
        let many = format!("exclude = [\n{}]", "\"a\",\n".repeat(MAX_EXCLUDES + 1));
        let e = err(&many);
        assert!(
            e.contains(&format!("{}:1: more than 1000 globs", MAX_EXCLUDES + 2)),
            "{e}"
        );
        assert!(err("preset = ").starts_with("dir/sitemap-lint.toml:1:"));
        assert!(err("site-root = \"no/such/dir\"").contains("is not a directory"));
    }

    #[test]
    fn precedence_is_default_preset_file_command_line() {
        let c = parse_str(
            "preset = \"strict-xsd\"\n[rules]\ndate = \"info\"\nlastmod-invalid = \"warning\"\n",
        )
        .unwrap();
        let overrides = vec![
            Override {
                selector: Selector::parse("lastmod-invalid").unwrap(),
                level: None,
                flag: "--allow lastmod-invalid".into(),
            },
            Override {
                selector: Selector::parse("date").unwrap(),
                level: Some(Severity::Error),
                flag: "--error date".into(),
            },
        ];
        let r = resolve(&Settings::default(), Some(&c), &overrides[..1]);
        let level = |r: &Resolved, n: &str| {
            r.rules
                .iter()
                .find(|(m, ..)| m.name == n)
                .map(|(_, l, o)| (*l, o.clone()))
                .unwrap()
        };
        assert_eq!(
            level(&r, "lastmod-w3c-only").0,
            Some(Severity::Info),
            "category beats preset"
        );
        assert_eq!(
            level(&r, "lastmod-invalid"),
            (None, Origin::CommandLine("--allow lastmod-invalid".into()))
        );
        assert_eq!(
            level(&r, "loc-length"),
            (Some(Severity::Error), Origin::Default)
        );
        let r = resolve(&Settings::default(), Some(&c), &overrides);
        assert_eq!(
            level(&r, "lastmod-invalid").0,
            Some(Severity::Error),
            "the later flag wins"
        );
        assert_eq!(r.settings.max_url_length, 2048);
        let y = parse_str("preset = \"yandex\"").unwrap();
        assert_eq!(
            resolve(&Settings::default(), Some(&y), &[])
                .settings
                .max_url_length,
            1024
        );
    }

    #[test]
    fn preset_and_strict_rules_exist() {
        // `sitemap-lint config` shows the default preset when none is chosen: it must change
        // nothing.
        assert!(Preset::DEFAULT.rules().is_empty());
        assert_eq!(Preset::DEFAULT.max_url_length(), DEFAULT_MAX_URL_LENGTH);
        for p in Preset::ALL {
            for (name, _) in p.rules() {
                assert!(rules::find(name).is_some(), "{name}");
            }
        }
        for c in Category::ALL {
            assert!(
                rules::find(c.as_str()).is_none(),
                "category `{c}` is also a rule name"
            );
        }
    }
}
