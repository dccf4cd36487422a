//! The `--format sarif` renderer: SARIF 2.1.0 as GitHub code scanning reads it (and Microsoft's SARIF Multitool validates).
//!
//! One run: `tool.driver` lists every rule (id, descriptions and help from the rule's docs,
//! default level, GitHub's `precision`/`problem.severity`/`tags` properties), `columnKind` is
//! `unicodeCodePoints` (columns count characters), and each finding is a result with `ruleId`,
//! `ruleIndex`, `level`, `message` (with the help), one location whose region has start and end
//! line and column (the end is the column after the last character), related locations for
//! secondary labels, and a stable `partialFingerprints` entry (see [`Fingerprints`]).
//!
//! URIs are repository-relative (relative to the current directory) and percent-encoded;
//! files outside it get absolute `file://` URIs. Findings in gzip-compressed files point at line 1
//! (GitHub cannot show a region of a binary file) and name the decompressed line and column in
//! the message. Output is streamed: results are written as files come.

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
pub const FINGERPRINT_KEY: &str = "sitemapLint/v1";

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
}

#[derive(Serialize)]
struct Fingerprint {
    #[serde(rename = "sitemapLint/v1")]
    v1: String,
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
struct ArtifactLocation {
    uri: String,
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

/// Streams one SARIF log with one run.
#[derive(Default)]
pub struct Sarif {
    started: bool,
    results: usize,
}

impl Sarif {
    fn start(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.started {
            return Ok(());
        }
        self.started = true;
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
            "{{\n  \"$schema\": \"{SCHEMA}\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {{\n      \"tool\": {},\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": [",
            pretty(&tool, 6)?
        )
    }

    fn location(file: &Checked<'_>, span: &Range<usize>) -> PhysicalLocation {
        PhysicalLocation {
            artifact_location: ArtifactLocation {
                uri: artifact_uri(file.repo_path),
            },
            region: file.host_region(span).into(),
        }
    }
}

impl Renderer for Sarif {
    fn file(&mut self, file: &Checked<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.start(out)?;
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
                    .collect(),
                partial_fingerprints: Fingerprint {
                    v1: prints.next(file.repo_path, file.source(), d),
                },
            };
            let sep = if self.results == 0 { "\n" } else { ",\n" };
            write!(out, "{sep}        {}", pretty(&result, 8)?)?;
            self.results += 1;
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        self.start(out)?;
        let close = if self.results == 0 { "" } else { "\n      " };
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
