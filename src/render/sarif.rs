//! The `--format sarif` renderer: SARIF 2.1.0 as GitHub code scanning reads it (and Microsoft's SARIF Multitool validates).
//!
//! One run: `tool.driver` lists every rule (id, descriptions and help from the rule's docs,
//! default level, GitHub's `precision`/`problem.severity`/`tags` properties), `columnKind` is
//! `unicodeCodePoints` (columns count characters), and each finding is a result with `ruleId`,
//! `ruleIndex`, `level`, `message` (with the help), one location whose region has start and end
//! line and column (the end is the column after the last character), related locations for
//! secondary labels, and a stable `partialFingerprints` entry (see [`Fingerprints`]).
//!
//! Every rule has a `helpUri`: its section of the generated rules document, `docs/rules.md`.
//!
//! URIs are relative to the repository root (the git repository holding the current directory,
//! else the current directory), percent-encoded, with `uriBaseId` `%SRCROOT%`, which
//! `originalUriBaseIds` defines as that root; files outside it get absolute `file://` URIs.
//! Findings in gzip-compressed files point at line 1 (GitHub cannot show a region of a binary
//! file) and name the decompressed line and column in the message.
//!
//! GitHub code scanning rejects a run with more than [`MAX_RESULTS`] results, so at most that
//! many are kept: errors first, then warnings, then infos, each in report order; the run's
//! invocation then carries a `toolExecutionNotifications` entry saying how many were left out.
//! Results are therefore held (at most [`MAX_RESULTS`] of them, as serialized text) and written
//! at the end, in report order.

use std::collections::BinaryHeap;
use std::io::{self, Write};
use std::ops::Range;

use serde::Serialize;

use crate::render::{Checked, Fingerprints, Region, Renderer, Summary};
use crate::rule::RuleMeta;
use crate::rules;
use crate::Severity;

/// The schema URI GitHub's docs use.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The key of our entry in `partialFingerprints` (versioned, so the scheme can change).
pub const FINGERPRINT_KEY: &str = "sitemapLint/v2";

/// The most results a run may hold: GitHub code scanning rejects runs with more.
pub const MAX_RESULTS: usize = 25_000;

/// The base URI id of repository-relative artifact URIs.
pub const SRCROOT: &str = "%SRCROOT%";

/// The tool's home page: the crate's `repository`, else its `homepage`, else its crates.io page.
pub fn information_uri() -> &'static str {
    [env!("CARGO_PKG_REPOSITORY"), env!("CARGO_PKG_HOMEPAGE")]
        .into_iter()
        .find(|s| !s.is_empty())
        .unwrap_or(concat!("https://crates.io/crates/", env!("CARGO_PKG_NAME")))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    information_uri: &'static str,
    rules: Vec<ReportingDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportingDescriptor {
    id: &'static str,
    /// Omitted when it would equal `id` (the Multitool's SARIF1001 wants them different).
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    short_description: Text,
    full_description: Text,
    help_uri: String,
    help: Help,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties {
    tags: Vec<&'static str>,
    precision: &'static str,
    #[serde(rename = "problem.severity")]
    problem_severity: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    partial_fingerprints: Fingerprint,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<SarifFix>,
}

/// A `fix` object: one artifact change with its replacements (SARIF 2.1.0 §3.55).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix {
    description: Text,
    artifact_changes: Vec<ArtifactChange>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<Replacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    deleted_region: SarifRegion,
    inserted_content: Text,
}

#[derive(Serialize)]
struct Fingerprint {
    #[serde(rename = "sitemapLint/v2")]
    v2: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: SarifRegion,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRegion {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

impl From<Region> for SarifRegion {
    fn from(r: Region) -> Self {
        SarifRegion {
            start_line: r.start.line,
            start_column: r.start.column,
            end_line: r.end.line,
            end_column: r.end.column,
        }
    }
}

/// The SARIF level of a severity.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// `loc-invalid` → `LocInvalid` (SARIF's convention for `reportingDescriptor.name`).
fn pascal_case(kebab: &str) -> String {
    kebab
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The first paragraph under `## What it does`, joined into one line; the summary if absent.
pub fn what_it_does(meta: &RuleMeta) -> String {
    let docs = meta.docs();
    let mut lines = docs.lines().skip_while(|l| l.trim() != "## What it does");
    if lines.next().is_none() {
        return meta.summary.to_string();
    }
    let paragraph: Vec<&str> = lines
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::trim)
        .collect();
    if paragraph.is_empty() {
        meta.summary.to_string()
    } else {
        paragraph.join(" ")
    }
}

fn descriptor(meta: &'static RuleMeta) -> ReportingDescriptor {
    let docs = meta.docs();
    let name = pascal_case(meta.name);
    ReportingDescriptor {
        id: meta.name,
        name: (!name.eq_ignore_ascii_case(meta.name)).then_some(name),
        short_description: Text {
            text: meta.summary.to_string(),
        },
        full_description: Text {
            text: what_it_does(meta),
        },
        help_uri: crate::docs::rule_url(meta.name),
        help: Help {
            text: docs.clone(),
            markdown: docs,
        },
        default_configuration: Configuration {
            level: level(meta.default_severity),
        },
        properties: RuleProperties {
            tags: vec![meta.category.as_str()],
            precision: "very-high",
            problem_severity: match meta.default_severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "recommendation",
            },
        },
    }
}

/// Percent-encodes a path for a URI: everything but unreserved characters and `/`.
pub fn percent_encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The artifact a file of the run is, relative to `%SRCROOT%` unless absolute.
fn artifact_location(repo_path: &str) -> ArtifactLocation {
    ArtifactLocation {
        uri: artifact_uri(repo_path),
        uri_base_id: (!repo_path.starts_with('/')).then_some(SRCROOT),
    }
}

/// The artifact URI of a repository path: relative and percent-encoded, or `file://` if absolute.
pub fn artifact_uri(repo_path: &str) -> String {
    if repo_path.starts_with('/') {
        format!("file://{}", percent_encode_path(repo_path))
    } else {
        percent_encode_path(repo_path)
    }
}

/// `value` pretty-printed, every line after the first indented by `indent` spaces.
fn pretty<T: Serialize>(value: &T, indent: usize) -> io::Result<String> {
    let s = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
    let pad = " ".repeat(indent);
    Ok(s.replace('\n', &format!("\n{pad}")))
}

/// One SARIF log with one run; results are held until [`Renderer::finish`] (see the module
/// documentation).
#[derive(Default)]
pub struct Sarif {
    /// The `file://` URI (ending in `/`) of the directory relative URIs are relative to.
    root_uri: Option<String>,
    /// The results kept, as (severity rank, report order, serialized result): a max-heap, so the
    /// least important (the lowest severity, the latest) is dropped first past [`MAX_RESULTS`].
    kept: BinaryHeap<(u8, usize, String)>,
    /// Results seen, kept or not.
    seen: usize,
    /// Results left out, by severity rank (error, warning, info).
    dropped: [usize; 3],
}

fn rank(s: Severity) -> u8 {
    match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}

impl Sarif {
    /// A renderer whose relative URIs are relative to `root` (an absolute directory).
    pub fn new(root: Option<&std::path::Path>) -> Sarif {
        Sarif {
            root_uri: root.map(|r| {
                let path = r.to_string_lossy().replace('\\', "/");
                let path = path.trim_end_matches('/');
                let path = if path.starts_with('/') {
                    path.to_string()
                } else {
                    format!("/{path}")
                };
                format!("file://{}/", percent_encode_path(&path))
            }),
            ..Sarif::default()
        }
    }

    fn write_head(&self, out: &mut dyn Write) -> io::Result<()> {
        let tool = Tool {
            driver: Driver {
                name: env!("CARGO_PKG_NAME"),
                version: env!("CARGO_PKG_VERSION"),
                semantic_version: env!("CARGO_PKG_VERSION"),
                information_uri: information_uri(),
                rules: rules::metas().map(descriptor).collect(),
            },
        };
        write!(
            out,
            "{{\n  \"$schema\": \"{SCHEMA}\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {{\n      \"tool\": {},\n",
            pretty(&tool, 6)?
        )?;
        let left_out: usize = self.dropped.iter().sum();
        let mut invocation = serde_json::json!({ "executionSuccessful": true });
        if left_out > 0 {
            let [e, w, i] = self.dropped;
            let parts: Vec<String> = [(e, "error"), (w, "warning"), (i, "info")]
                .into_iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, what)| crate::render::plural(n, what))
                .collect();
            invocation["toolExecutionNotifications"] = serde_json::json!([{
                "level": "warning",
                "descriptor": { "id": "results-truncated" },
                "message": { "text": format!(
                    "{left_out} of {} results were left out ({}): GitHub code scanning accepts at most {MAX_RESULTS} results in a run; errors were kept first. Run `sitemap-lint check` with another format to see them all",
                    self.seen,
                    parts.join(", ")
                ) },
            }]);
        }
        writeln!(out, "      \"invocations\": [{}],", pretty(&invocation, 6)?)?;
        if let Some(root) = &self.root_uri {
            let bases = serde_json::json!({ SRCROOT: { "uri": root } });
            writeln!(out, "      \"originalUriBaseIds\": {},", pretty(&bases, 6)?)?;
        }
        write!(
            out,
            "      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": ["
        )
    }

    fn location(file: &Checked<'_>, span: &Range<usize>) -> PhysicalLocation {
        PhysicalLocation {
            artifact_location: artifact_location(file.repo_path),
            region: file.host_region(span).into(),
        }
    }
}

impl Sarif {
    /// The fix of `d` as SARIF `fixes`: none for a compressed file, whose regions cannot name
    /// places in the decompressed text.
    fn fixes(file: &Checked<'_>, d: &crate::diagnostic::Diagnostic) -> Vec<SarifFix> {
        let Some(fix) = d.fix.as_ref().filter(|_| !file.compressed) else {
            return Vec::new();
        };
        let location = Self::location(file, &d.primary.span);
        vec![SarifFix {
            description: Text {
                text: format!("{} ({} fix)", fix.message, fix.applicability.as_str()),
            },
            artifact_changes: vec![ArtifactChange {
                artifact_location: location.artifact_location,
                replacements: fix
                    .edits
                    .iter()
                    .map(|e| Replacement {
                        deleted_region: file.host_region(&e.range).into(),
                        inserted_content: Text {
                            text: e.replacement.clone(),
                        },
                    })
                    .collect(),
            }],
        }]
    }
}

impl Renderer for Sarif {
    fn file(&mut self, file: &Checked<'_>, _out: &mut dyn Write) -> io::Result<()> {
        let mut prints = Fingerprints::default();
        for d in file.diagnostics() {
            let mut text = format!("{}{}", d.message, file.decompressed_note(&d.primary.span));
            if let Some(help) = &d.help {
                text.push_str("\nhelp: ");
                text.push_str(help);
            }
            let result = SarifResult {
                rule_id: d.rule.name,
                rule_index: rules::metas()
                    .position(|m| m.name == d.rule.name)
                    .unwrap_or(0),
                level: level(d.severity),
                message: Text { text },
                locations: vec![Location {
                    id: None,
                    physical_location: Self::location(file, &d.primary.span),
                    message: None,
                }],
                related_locations: d
                    .secondary
                    .iter()
                    .enumerate()
                    .map(|(i, l)| {
                        let what = if l.message.is_empty() {
                            "related place"
                        } else {
                            &l.message
                        };
                        Location {
                            id: Some(i + 1),
                            physical_location: Self::location(file, &l.span),
                            message: Some(Text {
                                text: format!("{what}{}", file.decompressed_note(&l.span)),
                            }),
                        }
                    })
                    .chain(d.elsewhere.iter().enumerate().map(|(i, e)| Location {
                        // A place in another file of the set (a finding across files).
                        id: Some(d.secondary.len() + i + 1),
                        physical_location: PhysicalLocation {
                            artifact_location: artifact_location(&e.file),
                            region: SarifRegion {
                                start_line: e.line,
                                start_column: e.column,
                                end_line: e.line,
                                end_column: e.column,
                            },
                        },
                        message: Some(Text {
                            text: e.message.clone(),
                        }),
                    }))
                    .collect(),
                partial_fingerprints: Fingerprint {
                    v2: prints.next(file.repo_path, file.source(), d),
                },
                fixes: Self::fixes(file, d),
            };
            let rank = rank(d.severity);
            let seq = self.seen;
            self.seen += 1;
            // Past the cap, a result that would be dropped at once is not serialized at all.
            if self.kept.len() >= MAX_RESULTS
                && self
                    .kept
                    .peek()
                    .is_some_and(|top| (top.0, top.1) < (rank, seq))
            {
                self.dropped[usize::from(rank)] += 1;
                continue;
            }
            self.kept.push((rank, seq, pretty(&result, 8)?));
            if self.kept.len() > MAX_RESULTS {
                if let Some((r, _, _)) = self.kept.pop() {
                    self.dropped[usize::from(r)] += 1;
                }
            }
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        self.write_head(out)?;
        let mut kept: Vec<(u8, usize, String)> = std::mem::take(&mut self.kept).into_vec();
        kept.sort_unstable_by_key(|k| k.1);
        for (n, (_, _, text)) in kept.iter().enumerate() {
            let sep = if n == 0 { "\n" } else { ",\n" };
            write!(out, "{sep}        {text}")?;
        }
        let close = if kept.is_empty() { "" } else { "\n      " };
        writeln!(out, "{close}]\n    }}\n  ]\n}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(
            artifact_uri("café/site map.xml"),
            "caf%C3%A9/site%20map.xml"
        );
        assert_eq!(artifact_uri("/srv/a:b.xml"), "file:///srv/a%3Ab.xml");
        assert_eq!(artifact_uri("<stdin>"), "%3Cstdin%3E");
    }

    #[test]
    fn rule_names_and_descriptions() {
        assert_eq!(pascal_case("loc-invalid"), "LocInvalid");
        let meta = rules::find("loc-invalid").unwrap();
        let full = what_it_does(meta);
        assert!(full.starts_with("Checks every `<loc>`"), "{full}");
        assert!(!full.contains('\n'));
    }
}
