//! sitemap-lint: a validator and linter for XML sitemaps (sitemaps.org 0.9); this library never prints.
//!
//! Data flows one way: bytes ([`input`]) → encoding check and decode ([`encoding`], [`xml_decl`]) →
//! XML parse ([`xml`]) → the typed, spanned model ([`model`]) → rules ([`rules`]) → diagnostics
//! ([`diagnostic`]) → a renderer per output format ([`render`]). [`engine`] drives one file through
//! it; [`check_path`] and friends are the entry points.

#![forbid(unsafe_code)]
// The library reports through return values; only the binary prints.
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod config;
pub mod diagnostic;
pub mod docs;
pub mod engine;
pub mod exec;
pub mod fix;
#[cfg(feature = "http")]
pub mod live;
pub mod pipeline;
pub mod render;
pub mod report;
pub mod rule;
pub mod rules;
pub mod site_set;
pub mod suppress;
pub mod values;

#[cfg(test)]
mod test_fixes;
#[cfg(test)]
mod test_strings;

use std::collections::HashMap;

pub use diagnostic::{Diagnostic, Label, Severity};
pub use engine::{check_bytes, check_input, check_reader, InputOptions};
pub use pipeline::source::SourceFile;
pub use report::FileReport;
pub use rule::{Category, RuleMeta};

/// How the engine treats rules and inputs.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Severity per rule name; `None` turns the rule off. Rules not listed use their default.
    pub overrides: HashMap<&'static str, Option<Severity>>,
    /// The uncompressed size limit in bytes (the protocol's 52,428,800 by default).
    pub max_size: u64,
    /// "Now" for rules about dates (news older than two days, lastmod in the future), as Unix
    /// seconds: the current time unless `--now` fixes it (tests, reproducible CI runs).
    pub now: i64,
    /// Where the checked sitemap is published (`--sitemap-url`, or `sitemap-url` in the config
    /// file), for the location-scope rules. `None`: not known, those rules stay quiet.
    pub sitemap_url: Option<String>,
    /// The local folder that holds the site's files (`--site-root`, or `site-root` in the config
    /// file): a child sitemap's URL under the index's site maps to a file below it.
    pub site_root: Option<std::path::PathBuf>,
    /// The longest `<loc>` accepted, in characters (`loc-length`): 2,048 (the protocol's limit)
    /// unless the config file's `max-url-length` or `preset` (Yandex: 1,024) says otherwise.
    pub max_url_length: usize,
    /// Keep each file's `<loc>` fingerprints in its report for the check across the files of a
    /// run ([`site_set`]); set by the CLI when several files are checked.
    pub collect_set: bool,
    /// Keep each `<url>`'s `<loc>` value and span in its report ([`site_set::FileSummary::pages`]),
    /// for the live check's `--check-urls`.
    pub collect_pages: bool,
    /// Threads one large file may use (parsing its pieces, checking its entries): the CLI's
    /// `--jobs`, by default the machine's available parallelism. 1 checks on the calling thread.
    pub threads: usize,
    /// Files of at least this many bytes are split between their entries and parsed on
    /// [`Settings::threads`] threads ([`split`]); smaller ones are parsed whole. Tests lower it to
    /// check that both ways give the same diagnostics.
    pub split_min: usize,
    /// The robots.txt the `<loc>`s are checked against (`robots-blocked`): `--robots`, or the
    /// site's own when a live site is checked. `None`: not checked.
    pub robots: Option<std::sync::Arc<values::robots::Robots>>,
    /// The host a live run fetched this file from when `--allow-private-hosts` let it reach a
    /// private one (a staging or development server): `loc-private-host` does not report URLs
    /// on the site's own host then, only on other private hosts. `None` for files on disk.
    pub own_private_host: Option<String>,
    /// Fixes are wanted (`--fix`, `--diff`): diagnostics with a fix beyond the per-rule report
    /// cap are kept for their fix, marked [`Diagnostic::is_beyond_cap`] (see [`fix`]).
    pub fixing: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            overrides: HashMap::new(),
            max_size: pipeline::input::MAX_UNCOMPRESSED,
            now: clock_now(),
            sitemap_url: None,
            site_root: None,
            max_url_length: config::DEFAULT_MAX_URL_LENGTH,
            collect_set: false,
            collect_pages: false,
            threads: if cfg!(feature = "native") {
                exec::cores()
            } else {
                1
            },
            split_min: pipeline::split::DEFAULT_SPLIT_MIN,
            robots: None,
            own_private_host: None,
            fixing: false,
        }
    }
}

/// The current time as Unix seconds; 0 without the `native` feature (in wasm32-unknown-unknown
/// the standard clock panics: the caller sets [`Settings::now`] from its own clock).
fn clock_now() -> i64 {
    #[cfg(feature = "native")]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
    }
    #[cfg(not(feature = "native"))]
    {
        0
    }
}

impl Settings {
    /// The severity `rule` is reported at, or `None` when it is off (opt-in rules are off
    /// unless an override turns them on).
    pub fn severity_of(&self, rule: &RuleMeta) -> Option<Severity> {
        match self.overrides.get(rule.name) {
            Some(s) => *s,
            None if rule.opt_in => None,
            None => Some(rule.default_severity),
        }
    }

    /// Whether the rule named `name` is on: for a rule that leaves to another what the other
    /// reports, without importing the other's file. Every name passed here is checked to be a
    /// rule's (a debug assertion, and a test over the sources of `src/rules/`), so that a renamed
    /// rule cannot silently turn the hand-over off.
    pub fn is_on(&self, name: &str) -> bool {
        match rules::find(name) {
            Some(rule) => self.severity_of(rule).is_some(),
            None => {
                debug_assert!(false, "`Settings::is_on`: no rule is named `{name}`");
                false
            }
        }
    }

    /// Turns every rule off except `name`, which is on at its default severity (also when it is
    /// opt-in), and `internal-error`, so that a panic while checking is never silent. What
    /// `name` reports then is what it reports with every rule on, except the findings it leaves
    /// to the rules of its [`RuleMeta::defers_to`] (see [`Settings::only_with_deferred`]).
    /// An unknown name leaves every rule off but `internal-error`.
    pub fn only(name: &str) -> Settings {
        let mut s = Settings::default();
        for meta in rules::metas() {
            let on = meta.name == name || meta.name == rules::input::internal_error::META.name;
            s.overrides
                .insert(meta.name, on.then_some(meta.default_severity));
        }
        s
    }

    /// [`Settings::only`] with the rules `name` leaves findings to ([`RuleMeta::defers_to`])
    /// also on, so that `name` reports exactly what it reports with every rule on: the corpus's
    /// rule fixtures are checked this way (and their snapshots show `name`'s findings only).
    /// A suppression rule (`unused-suppression`, `suppression-invalid`) judges what the other
    /// rules found and does not report names whose rules are all off: it keeps the default
    /// rules on, and is itself turned on.
    pub fn only_with_deferred(name: &str) -> Settings {
        let mut s = match rules::find(name) {
            Some(meta) if meta.category == Category::Suppression => {
                let mut s = Settings::default();
                s.overrides.insert(meta.name, Some(meta.default_severity));
                s
            }
            _ => Settings::only(name),
        };
        for other in rules::find(name).map_or(&[][..], |m| m.defers_to) {
            if let Some(meta) = rules::find(other) {
                s.overrides.insert(meta.name, Some(meta.default_severity));
            }
        }
        s
    }
}

/// Checks a file on disk. I/O problems (missing, unreadable, a directory, a FIFO or device) are
/// returned as errors, not reported as diagnostics: they are about the tool's use, not the input.
pub fn check_path(
    path: &std::path::Path,
    name: &str,
    settings: &Settings,
) -> std::io::Result<FileReport> {
    // Opening a FIFO would block until a writer appears, and a device such as /dev/zero never
    // ends: the guarded open refuses both without blocking.
    let (file, meta) = pipeline::files::open_input(path)?;
    let bytes = pipeline::input::load_file(&file, settings.max_size, meta.len(), settings.threads)?;
    Ok(check_bytes(name, bytes, settings))
}
