//! Inline suppressions: `<!-- sitemap-lint: allow(rule, …) -->` comments, found in the parsed tree and applied to a file's diagnostics.
//!
//! A directive right before an element (only whitespace, or other directives, between) covers
//! that element, its children included: every finding whose primary span starts inside it is
//! dropped when it belongs to a named rule or category. Before the root element it covers the
//! whole file. Directives that cannot work (malformed, naming an unknown rule, not followed by an
//! element) are reported as `suppression-invalid`, names that suppressed nothing as
//! `unused-suppression`; those two are never suppressed by a directive (only configuration turns
//! them off), so suppressions cannot hide their own mistakes.
//!
//! Finding directives costs one substring search over the text when there are none.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use roxmltree::{Document, Node, NodeId, NodeType};

use crate::config::{unknown_selector, Selector};
use crate::diagnostic::Diagnostic;
use crate::rule::{Gathered, RuleMeta, Suppress, MAX_REPORTS_PER_RULE};
use crate::rules::{suppression::suppression_invalid, suppression::unused_suppression};
use crate::values::text::is_xml_space;
use crate::Settings;

/// What starts a directive inside a comment.
pub const MARKER: &str = "sitemap-lint:";

/// Directives honoured per file; later ones are reported once and ignored.
pub const MAX_DIRECTIVES: usize = 1_000;

/// Names honoured per directive (there are fewer rules and categories); the rest of a longer list
/// is reported once and ignored, so that a comment of millions of names costs no more than this.
pub const MAX_NAMES: usize = 100;

/// One name in `allow(…)`.
#[derive(Debug, Clone)]
pub struct Name {
    /// Source span of the name.
    pub span: Range<usize>,
    pub text: String,
    /// `None`: unknown, or one of the suppression rules themselves (reported, not applied).
    pub selector: Option<Selector>,
}

/// A suppression comment.
#[derive(Debug, Clone)]
pub struct Directive {
    /// The comment, `<!--` to `-->`, in the source.
    pub comment: Range<usize>,
    pub names: Vec<Name>,
    /// What it covers: the following element, or the whole file (before the root element).
    /// `None` when it covers nothing (then `problem` says why).
    pub covers: Option<Range<usize>>,
    /// Why the directive does not work: (span, message, help).
    pub problem: Option<(Range<usize>, String, &'static str)>,
}

/// The suppression directives of a document parsed from `text[base..]`, with source spans.
/// Costs one substring search when the text has no [`MARKER`].
pub fn find(doc: &Document<'_>, text: &str, base: usize) -> Vec<Directive> {
    let mut out = Vec::new();
    find_more(doc, text, base, &mut out);
    out
}

/// [`find`] for the next of the documents a file was split into ([`crate::pipeline::split`]): adds to
/// `out`, which holds the directives of the pieces before, within the same per-file cap. Returns
/// false once the cap is reached (later pieces need not be searched).
pub fn find_more(doc: &Document<'_>, text: &str, base: usize, out: &mut Vec<Directive>) -> bool {
    let parsed = text.get(base..).unwrap_or("");
    if out.len() > MAX_DIRECTIVES {
        return false;
    }
    if memchr::memmem::find(parsed.as_bytes(), MARKER.as_bytes()).is_none() {
        return true;
    }
    for (pos, _) in parsed.match_indices(MARKER) {
        let before = parsed[..pos].trim_end_matches(is_xml_space);
        let Some(start) = before.strip_suffix("<!--").map(str::len) else {
            continue;
        };
        let Some(node) = node_starting_at(doc, start, NodeType::Comment) else {
            continue; // inside a text node or CDATA, not a comment
        };
        if out.len() >= MAX_DIRECTIVES {
            let r = node.range();
            out.push(over_cap(r.start + base..r.end + base));
            return false;
        }
        out.push(directive(node, text, base));
    }
    true
}

/// The directive that stands for the first suppression beyond [`MAX_DIRECTIVES`], `comment`.
fn over_cap(comment: Range<usize>) -> Directive {
    Directive {
        comment: comment.clone(),
        names: Vec::new(),
        covers: None,
        problem: Some((
            comment,
            format!("more than {MAX_DIRECTIVES} suppressions in one file; this one and the rest are ignored"),
            "suppress whole elements or the file (a suppression before the root element covers it all), or turn the rule off in `sitemap-lint.toml`",
        )),
    }
}

/// Appends `more` (what [`find_more`] found in one document, on its own) to `all` (what it found in
/// the documents before it), within the same cap as if `find_more` had gone on with `all`. False
/// once the cap is reached: nothing later counts.
pub fn merge(all: &mut Vec<Directive>, more: Vec<Directive>) -> bool {
    for d in more {
        if all.len() > MAX_DIRECTIVES {
            return false;
        }
        if all.len() == MAX_DIRECTIVES {
            all.push(over_cap(d.comment));
            return false;
        }
        all.push(d);
    }
    all.len() <= MAX_DIRECTIVES
}

/// The node of `kind` whose range starts at `offset` (nodes are numbered in document order, so
/// their start offsets never decrease: a binary search).
fn node_starting_at<'a, 'i>(
    doc: &'a Document<'i>,
    offset: usize,
    kind: NodeType,
) -> Option<Node<'a, 'i>> {
    let get = |i: usize| {
        u32::try_from(i)
            .ok()
            .and_then(|i| doc.get_node(NodeId::new(i)))
    };
    let mut hi = 1usize;
    while get(hi).is_some() {
        hi = hi.saturating_mul(2);
    }
    // The first node starting at or after `offset`, in [lo, hi).
    let mut lo = 0usize;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match get(mid) {
            Some(n) if n.range().start < offset => lo = mid + 1,
            _ => hi = mid,
        }
    }
    (lo..)
        .map_while(get)
        .take_while(|n| n.range().start == offset)
        .find(|n| n.node_type() == kind)
}

fn is_directive(node: &Node<'_, '_>) -> bool {
    node.is_comment()
        && node
            .text()
            .is_some_and(|t| t.trim_start_matches(is_xml_space).starts_with(MARKER))
}

fn directive(node: Node<'_, '_>, text: &str, base: usize) -> Directive {
    let r = node.range();
    let comment = r.start + base..r.end + base;
    let content_start = comment.start + 4;
    let content = text
        .get(content_start..comment.end.saturating_sub(3).max(content_start))
        .unwrap_or("");
    let mut d = Directive {
        comment: comment.clone(),
        names: Vec::new(),
        covers: None,
        problem: None,
    };
    match parse_names(content) {
        Ok((names, cut)) => {
            if cut {
                d.problem = Some((
                    comment.clone(),
                    format!("more than {MAX_NAMES} names in one suppression; the rest are ignored"),
                    "name each rule once, or name a category (see `sitemap-lint rules`)",
                ));
            }
            d.names = names
                .into_iter()
                .map(|(range, name)| {
                    let selector = Selector::parse(name).filter(|s| !unsuppressible(s));
                    Name {
                        span: content_start + range.start..content_start + range.end,
                        text: name.to_string(),
                        selector,
                    }
                })
                .collect();
        }
        Err(()) => {
            d.problem = Some((
                comment,
                "malformed suppression comment".into(),
                "write `<!-- sitemap-lint: allow(rule-a, rule-b) -->` with rule or category names (see `sitemap-lint rules`)",
            ));
            return d;
        }
    }
    let mut next = node.next_sibling();
    while let Some(n) = next {
        let skip = match n.node_type() {
            NodeType::Text => n.text().is_some_and(|t| t.chars().all(is_xml_space)),
            NodeType::Comment => is_directive(&n),
            _ => false,
        };
        if !skip {
            break;
        }
        next = n.next_sibling();
    }
    match next.filter(Node::is_element) {
        Some(el) if el.parent().is_some_and(|p| p.node_type() == NodeType::Root) => {
            d.covers = Some(0..usize::MAX);
        }
        Some(el) => {
            let r = el.range();
            d.covers = Some(r.start + base..r.end + base);
        }
        None => {
            d.problem = Some((
                d.comment.clone(),
                "this suppression is not followed by an element, so it covers nothing".into(),
                "put it right before the element it is for (only whitespace between), or before the root element to cover the whole file",
            ));
        }
    }
    d
}

/// The names of ` sitemap-lint: allow(a, b) [reason]` with their ranges in `content`, at most
/// [`MAX_NAMES`] of them; true when there were more (the rest are not looked at).
type Names<'c> = (Vec<(Range<usize>, &'c str)>, bool);

fn parse_names(content: &str) -> Result<Names<'_>, ()> {
    let at = content.find(MARKER).ok_or(())? + MARKER.len();
    let rest = &content[at..];
    let after_space = rest.trim_start_matches(is_xml_space);
    let args = after_space.strip_prefix("allow").ok_or(())?;
    let args = args
        .trim_start_matches(is_xml_space)
        .strip_prefix('(')
        .ok_or(())?;
    let close = args.find(')').ok_or(())?;
    let args_start = content.len() - args.len();
    let mut names = Vec::new();
    let mut offset = args_start;
    for item in args[..close].split(',') {
        if names.len() == MAX_NAMES {
            return Ok((names, true));
        }
        let lead = item.len() - item.trim_start_matches(is_xml_space).len();
        let name = item.trim_matches(is_xml_space);
        if name.is_empty() || name.contains(is_xml_space) {
            return Err(());
        }
        names.push((offset + lead..offset + lead + name.len(), name));
        offset += item.len() + 1;
    }
    Ok((names, false))
}

/// The suppression rules report on directives, so a directive cannot silence them.
fn unsuppressible(selector: &Selector) -> bool {
    matches!(selector, Selector::Rule(m) if is_suppression_rule(m))
}

fn is_suppression_rule(meta: &RuleMeta) -> bool {
    meta.name == suppression_invalid::META.name || meta.name == unused_suppression::META.name
}

/// A file's suppression directives, asked about each finding ([`crate::rule::Suppress`]): by the
/// rules' [`crate::rule::Context`] as they report (so that a suppressed finding is never built
/// and never counts against a cap), by the check across files, and once more by
/// [`crate::report::finalize`] for the findings of the pipeline. Which names were used is kept
/// here, shared by the threads that check the file, for [`Suppressions::findings`].
pub struct Suppressions {
    directives: Vec<Directive>,
    /// Per directive and name: whether it suppressed something.
    used: Vec<Vec<AtomicBool>>,
    /// The directives that cover something, as (start, end, index), by start; and the largest end
    /// among the first `k + 1` of them, so that a look-up stops early.
    covering: Vec<(usize, usize, usize)>,
    max_end: Vec<usize>,
    /// Whether directive `i` names the rule, per (i, rule): its names are matched once per rule,
    /// not once per finding (1,000 directives of 100 names over thousands of findings).
    matched: Mutex<HashMap<(usize, &'static str), bool>>,
    settings: Settings,
}

impl Suppressions {
    /// `None` when there are no directives.
    pub fn new(directives: Vec<Directive>, settings: &Settings) -> Option<Suppressions> {
        if directives.is_empty() {
            return None;
        }
        let used = directives
            .iter()
            .map(|d| d.names.iter().map(|_| AtomicBool::new(false)).collect())
            .collect();
        let mut covering: Vec<(usize, usize, usize)> = directives
            .iter()
            .enumerate()
            .filter_map(|(i, d)| d.covers.as_ref().map(|c| (c.start, c.end, i)))
            .collect();
        covering.sort_unstable();
        let mut max_end = Vec::with_capacity(covering.len());
        let mut most = 0;
        for &(_, end, _) in &covering {
            most = most.max(end);
            max_end.push(most);
        }
        Some(Suppressions {
            directives,
            used,
            covering,
            max_end,
            matched: Mutex::new(HashMap::new()),
            settings: settings.clone(),
        })
    }

    /// The directives (spans as found).
    pub fn directives(&self) -> &[Directive] {
        &self.directives
    }

    /// Whether directive `i` names `rule`; marks the names that do as used.
    fn names(&self, i: usize, rule: &'static RuleMeta) -> bool {
        let mut matched = self.matched.lock().unwrap_or_else(|e| e.into_inner());
        *matched.entry((i, rule.name)).or_insert_with(|| {
            let mut any = false;
            for (j, name) in self.directives[i].names.iter().enumerate() {
                if name.selector.is_some_and(|s| s.matches(rule)) {
                    self.used[i][j].store(true, Ordering::Relaxed);
                    any = true;
                }
            }
            any
        })
    }

    /// Drops the diagnostics the directives cover.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.retain(|d| !self.suppresses(d.rule, d.primary.span.start));
    }

    /// The findings about the directives themselves (`suppression-invalid`, `unused-suppression`),
    /// once every finding of the file was asked about; and how many of each the cap left out.
    pub fn findings(&self) -> Gathered {
        let settings = &self.settings;
        let directives = &self.directives;
        let used = |i: usize, j: usize| self.used[i][j].load(Ordering::Relaxed);
        let mut diagnostics = Vec::new();
        let mut invalid = 0usize;
        let mut unused = 0usize;
        // Builds a finding only while the cap allows: the help of an unknown name costs a closest-name
        // search.
        let report = |d: &dyn Fn() -> Diagnostic, count: &mut usize, out: &mut Vec<Diagnostic>| {
            *count += 1;
            if *count <= MAX_REPORTS_PER_RULE {
                out.push(d());
            }
        };
        for (i, d) in directives.iter().enumerate() {
            if let Some((span, message, help)) = &d.problem {
                let diag = || {
                    Diagnostic::new(&suppression_invalid::META, span.clone(), message.clone())
                        .with_label("this comment")
                        .with_help(*help)
                };
                report(&diag, &mut invalid, &mut diagnostics);
            }
            for (j, name) in d.names.iter().enumerate() {
                let Some(selector) = name.selector else {
                    let diag = || {
                        match Selector::parse(&name.text) {
                    Some(s) => Diagnostic::new(
                        &suppression_invalid::META,
                        name.span.clone(),
                        format!("`{}` cannot be suppressed by a comment", s.name()),
                    )
                    .with_label("not suppressible")
                    .with_help("findings about suppressions are turned off in `sitemap-lint.toml` (`[rules]`) or with `--allow`, never by another suppression"),
                    None => {
                        let (message, help) = unknown_selector(&name.text);
                        Diagnostic::new(
                            &suppression_invalid::META,
                            name.span.clone(),
                            format!("{message} in a suppression"),
                        )
                        .with_label("unknown name")
                        .with_help(help)
                    }
                }
                    };
                    report(&diag, &mut invalid, &mut diagnostics);
                    continue;
                };
                if used(i, j) || d.covers.is_none() {
                    continue;
                }
                let any_on = crate::rules::metas().any(|m| {
                    selector.matches(m)
                        && !is_suppression_rule(m)
                        && settings.severity_of(m).is_some()
                });
                if !any_on {
                    continue; // turned off by configuration: nothing could have been suppressed
                }
                let whole = d.covers.as_ref().is_some_and(|c| c.end == usize::MAX);
                let diag = || {
                    Diagnostic::new(
                        &unused_suppression::META,
                        name.span.clone(),
                        format!(
                            "unused suppression: no `{}` finding {}",
                            selector.name(),
                            if whole {
                                "in this file"
                            } else {
                                "in the element that follows"
                            }
                        ),
                    )
                    .with_label("suppresses nothing")
                    .with_help(if d.names.len() == 1 {
                        "remove the comment".to_string()
                    } else {
                        format!("remove `{}` from the list", name.text)
                    })
                };
                report(&diag, &mut unused, &mut diagnostics);
            }
        }
        let omitted = [
            (&suppression_invalid::META, invalid),
            (&unused_suppression::META, unused),
        ]
        .into_iter()
        .filter(|(_, n)| *n > MAX_REPORTS_PER_RULE)
        .map(|(rule, n)| (rule, n - MAX_REPORTS_PER_RULE))
        .collect();
        Gathered {
            diagnostics,
            omitted,
        }
    }
}

impl Suppress for Suppressions {
    /// Diagnostics of rules that are off are left for the caller to drop; they do not count as
    /// suppressed, and a name whose rules are all off is not reported as unused.
    fn suppresses(&self, rule: &'static RuleMeta, at: usize) -> bool {
        if self.settings.severity_of(rule).is_none() {
            return false;
        }
        let mut suppressed = false;
        let k = self.covering.partition_point(|&(start, _, _)| start <= at);
        for j in (0..k).rev() {
            if self.max_end[j] <= at {
                break;
            }
            let (_, end, i) = self.covering[j];
            if at < end {
                // Every covering directive's names count as used, not only the first's.
                suppressed |= self.names(i, rule);
            }
        }
        suppressed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_with_spans() {
        let c = " sitemap-lint: allow( loc-length ,url) legacy URLs ";
        let (names, cut) = parse_names(c).unwrap();
        assert!(!cut);
        assert_eq!(names.len(), 2);
        assert_eq!(&c[names[0].0.clone()], "loc-length");
        assert_eq!(&c[names[1].0.clone()], "url");
        assert!(parse_names(" sitemap-lint: alow(x) ").is_err());
        assert!(parse_names(" sitemap-lint: allow() ").is_err());
        assert!(parse_names(" sitemap-lint: allow(a,,b) ").is_err());
        assert!(parse_names(" sitemap-lint: allow(a b) ").is_err());
        assert!(parse_names(" sitemap-lint: allow(a ").is_err());
        let long = format!(" sitemap-lint: allow({}) ", vec!["a"; 10_000].join(","));
        let (names, cut) = parse_names(&long).unwrap();
        assert!(cut);
        assert_eq!(names.len(), MAX_NAMES);
    }

    #[test]
    fn finds_the_comment_node_and_what_it_covers() {
        let text = "<?xml version=\"1.0\"?>\n<!-- sitemap-lint: allow(url) -->\n<urlset>\n  <!--sitemap-lint: allow(loc-length)-->\n  <!-- sitemap-lint: allow(date) -->\n  <url><loc>x</loc></url>\n  <!-- sitemap-lint: allow(date) -->\n  <loc>sitemap-lint: allow(x)</loc>\n<!-- sitemap-lint: allow(date) --></urlset>";
        let doc = Document::parse(text).unwrap();
        let found = find(&doc, text, 0);
        assert_eq!(found.len(), 5, "the one in text is not a directive");
        assert_eq!(found[0].covers, Some(0..usize::MAX));
        let url = text.find("<url>").unwrap()..text.find("</url>").unwrap() + 6;
        assert_eq!(found[1].covers, Some(url.clone()), "stacked directives");
        assert_eq!(found[2].covers, Some(url));
        assert!(found[3].covers.is_some());
        assert!(found[4].covers.is_none() && found[4].problem.is_some());
    }

    #[test]
    fn no_marker_costs_nothing_and_finds_nothing() {
        let doc = Document::parse("<urlset><!-- a comment --></urlset>").unwrap();
        assert!(find(&doc, "<urlset><!-- a comment --></urlset>", 0).is_empty());
    }
}
