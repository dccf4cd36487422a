//! Rule `element-order`: the children of an entry are not in the order loc, lastmod, changefreq, priority, extensions.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::{Child, ChildKind, Entry, EntryKind, Field, Kind, Sitemap};
use crate::pipeline::source::own_lines;
use crate::rule::{Collector, Context, Rule};
use crate::rules::structure::{allowed_children, segments};
use crate::values::namespace::KNOWN;

declare_rule! {
    /// ## What it does
    /// Checks the order of the children of `<url>`: `<loc>`, `<lastmod>`, `<changefreq>`,
    /// `<priority>`, then extension elements (`image:image`, `xhtml:link`, …); and of `<sitemap>`:
    /// `<loc>`, `<lastmod>`, then extensions. It reports the fewest elements that have to move
    /// (one misplaced element gives one error, not one per sibling it jumped over), each with the
    /// element it must come before or after labelled. Duplicates and unknown elements are left to
    /// `duplicate-element` and `unknown-element`.
    ///
    /// Directly inside `<urlset>` (`<sitemapindex>`), elements of other namespaces may only come
    /// before the first entry: the schema's content is `(##other*, url+)`. One after an entry is
    /// reported here, except those of Google's extensions and XHTML, which `extension-placement`
    /// and `unknown-element` report wherever they are outside an entry.
    ///
    /// ## Why is this bad?
    /// The protocol's schema defines the children as an ordered sequence. Schema validators, and
    /// search engines that validate, reject the entry; most crawlers accept it, so the mistake
    /// survives until someone validates.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>
    ///     <loc>https://www.example.com/</loc>
    ///     <priority>0.8</priority>
    ///     <lastmod>2024-11-21</lastmod>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>
    ///     <loc>https://www.example.com/</loc>
    ///     <lastmod>2024-11-21</lastmod>
    ///     <priority>0.8</priority>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// A safe fix moves the reported element, its whole text unchanged, to where the help says
    /// (above or below the named sibling): when both stand on lines of their own, the element's
    /// line moves, with the sibling's indentation; otherwise the element alone moves, right
    /// before or after the sibling. Only the order changes, which no reader gives a meaning to.
    /// With several misplaced elements, each has its fix, and `--fix` applies them over as many
    /// passes as needed. Comments beside a moved element stay where they are.
    ///
    /// ## References
    /// - `sitemap.xsd`: `tUrl` is `<xsd:sequence>` loc, lastmod, changefreq, priority, `##other`
    /// - `siteindex.xsd`: `tSitemap` is `<xsd:sequence>` loc, lastmod, `##other`
    pub static META = {
        name: "element-order",
        category: Structure,
        severity: Error,
        fix: Safe,
        summary: "entry children out of order (loc, lastmod, changefreq, priority, then extensions)",
    }
}

/// Position in the required order: the four fields, then extension elements.
fn rank(child: &Child<'_>) -> usize {
    match child.kind {
        ChildKind::Field(f) => f as usize,
        _ => Field::ALL.len(),
    }
}

/// The children of one segment (see [`segments`]) that take part in the order
/// check: fields allowed in the entry (first occurrence only: later ones are `duplicate-element`'s)
/// and extension elements. Unknown elements are `unknown-element`'s and do not count.
fn participants<'e, 'a>(entry: &'e Entry<'a>, segment: Range<usize>) -> Vec<&'e Child<'a>> {
    let allowed = allowed_children(entry.kind);
    let mut seen = Vec::new();
    entry.children[segment]
        .iter()
        .filter(|c| match c.kind {
            ChildKind::Field(f) => {
                let first = !seen.contains(&f);
                seen.push(f);
                first && allowed.contains(&f.name())
            }
            ChildKind::Foreign => true,
            ChildKind::Unknown => false,
        })
        .collect()
}

/// Which of `ranks` stay in place: a largest subsequence in order (fewest elements to move). Among
/// those, one keeping the most sitemap fields (so a misplaced extension is moved rather than several
/// fields), then the earliest elements (so the later of two swapped elements is the one reported).
fn kept(ranks: &[usize]) -> Vec<bool> {
    let n = ranks.len();
    let extension = Field::ALL.len();
    // Score of a kept set: (elements, fields, sum of n - position), compared lexicographically.
    type Score = (usize, usize, usize);
    let add = |s: Score, i: usize| {
        (
            s.0 + 1,
            s.1 + usize::from(ranks[i] != extension),
            s.2 + n - i,
        )
    };
    // best[r]: the best kept set whose last element has rank r, as (score, last index).
    let mut best: Vec<Option<(Score, usize)>> = vec![None; extension + 1];
    let mut prev: Vec<Option<usize>> = vec![None; n];
    for i in 0..n {
        let k = ranks[i];
        let base = best[..=k].iter().flatten().max_by_key(|(s, _)| *s).copied();
        let score = add(base.map_or((0, 0, 0), |(s, _)| s), i);
        prev[i] = base.map(|(_, j)| j);
        if best[k].is_none_or(|(s, _)| score > s) {
            best[k] = Some((score, i));
        }
    }
    let mut keep = vec![false; n];
    let mut at = best
        .iter()
        .flatten()
        .max_by_key(|(s, _)| *s)
        .map(|(_, i)| *i);
    while let Some(i) = at {
        keep[i] = true;
        at = prev[i];
    }
    keep
}

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        (sitemap.kind != Kind::Other).then(|| {
            Box::new(ForeignAfterEntries { first_entry: None })
                as Box<dyn Collector<'a> + Send + 'a>
        })
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if in_order(entry) {
            return;
        }
        for segment in segments(entry) {
            check_segment(sitemap, entry, participants(entry, segment), cx);
        }
    }
}

/// Whether every segment's [`participants`] are in order, so that there is nothing to report:
/// the common case, decided in one pass over the children without allocating.
fn in_order(entry: &Entry<'_>) -> bool {
    let allowed_mask = Field::ALL
        .iter()
        .filter(|&&f| entry.kind.allows(f))
        .fold(0u8, |m, &f| m | 1 << f as u8);
    let (mut last, mut seen, mut seen_loc) = (0, 0u8, false);
    for child in &entry.children {
        let rank = match child.kind {
            ChildKind::Field(f) => {
                if f == Field::Loc {
                    // A second `<loc>` starts a new segment.
                    if seen_loc {
                        (last, seen) = (0, 0);
                    }
                    seen_loc = true;
                }
                let bit = 1 << f as u8;
                let first = seen & bit == 0;
                seen |= bit;
                if !first || allowed_mask & bit == 0 {
                    continue;
                }
                f as usize
            }
            ChildKind::Foreign => Field::ALL.len(),
            ChildKind::Unknown => continue,
        };
        if rank < last {
            return false;
        }
        last = rank;
    }
    true
}

fn check_segment(
    sitemap: &Sitemap<'_>,
    entry: &Entry<'_>,
    children: Vec<&Child<'_>>,
    cx: &mut Context<'_>,
) {
    let ranks: Vec<usize> = children.iter().map(|c| rank(c)).collect();
    if ranks.windows(2).all(|w| w[0] <= w[1]) {
        return;
    }
    let keep = kept(&ranks);
    let source = sitemap.source;
    let order = match entry.kind {
        EntryKind::Url => "`loc`, `lastmod`, `changefreq`, `priority`, extensions",
        EntryKind::Sitemap => "`loc`, `lastmod`, extensions",
    };
    let extension = Field::ALL.len();
    for (i, child) in children.iter().enumerate() {
        if keep[i] {
            continue;
        }
        let r = ranks[i];
        // It belongs before the first kept element that must follow it, or else after the last
        // kept element that must precede it (one exists: otherwise it would have been kept).
        let before = (0..i).find(|&j| keep[j] && ranks[j] > r);
        let after = (i + 1..children.len())
            .rev()
            .find(|&j| keep[j] && ranks[j] < r);
        let (other, is_before) = match (before, after) {
            (Some(j), _) => (children[j], true),
            (None, Some(j)) => (children[j], false),
            (None, None) => continue,
        };
        cx.report_at(&META, child.element.name_span.clone(), |span| {
            let name = crate::diagnostic::shown(child.element.qualified_name(source));
            let what = |c: &Child<'_>, n: &str| match c.kind {
                ChildKind::Foreign => format!("the extension element `<{n}>`"),
                _ => format!("`<{n}>`"),
            };
            let other_name = crate::diagnostic::shown(other.element.qualified_name(source));
            let (message, help) = if is_before {
                (
                    format!(
                        "{} must come before {}",
                        what(child, &name),
                        what(other, &other_name)
                    ),
                    format!("move `<{name}>` above `<{other_name}>` (order: {order})"),
                )
            } else {
                (
                    format!(
                        "{} must come after {}",
                        what(child, &name),
                        what(other, &other_name)
                    ),
                    format!("move `<{name}>` below `<{other_name}>` (order: {order})"),
                )
            };
            let message = if r == extension {
                message.replacen("the extension", "extension", 1)
            } else {
                message
            };
            let fix = moved(source, child, other, is_before).map(|edits| {
                let where_ = if is_before { "above" } else { "below" };
                Fix::safe(format!("move `<{name}>` {where_} `<{other_name}>`"), edits)
            });
            Diagnostic::new(&META, span, message)
                .with_label("out of order")
                .with_secondary(
                    other.element.name_span.clone(),
                    format!("`<{other_name}>` is here"),
                )
                .with_help(help)
                .with_fix_opt(fix)
        });
    }
}

/// The edits moving `child` just before (`before`) or after `other`, its text unchanged: its
/// lines with `other`'s indentation when both stand on lines of their own, else the element
/// alone.
fn moved(source: &str, child: &Child<'_>, other: &Child<'_>, before: bool) -> Option<Vec<Edit>> {
    let text = source.get(child.element.span.clone())?;
    let (from, to) = (child.element.span.clone(), other.element.span.clone());
    Some(
        match (
            own_lines(source, from.clone()),
            own_lines(source, to.clone()),
        ) {
            (Some(mine), Some(theirs)) => {
                let line = format!("{}{text}{}", theirs.indent, mine.newline);
                let at = if before {
                    theirs.lines.start
                } else {
                    theirs.lines.end
                };
                vec![Edit::delete(mine.lines), Edit::insert(at, line)]
            }
            _ => {
                let at = if before { to.start } else { to.end };
                vec![Edit::delete(from), Edit::insert(at, text)]
            }
        },
    )
}

/// Elements of other namespaces directly inside the root after an entry: the root's content is
/// `(##other*, url+)` (`sitemap+` in an index), so they may only come first. Those of Google's
/// extensions and XHTML are `extension-placement`'s and `unknown-element`'s to report (outside
/// any entry wherever they are).
struct ForeignAfterEntries {
    /// The name span of the first entry, once seen.
    first_entry: Option<Range<usize>>,
}

impl<'a> Collector<'a> for ForeignAfterEntries {
    fn entry(&mut self, _sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        if self.first_entry.is_none() {
            self.first_entry = Some(entry.element.name_span.clone());
        }
    }

    fn root_child(&mut self, sitemap: &Sitemap<'a>, child: &Child<'_>, cx: &mut Context<'_>) {
        let Some(first) = &self.first_entry else {
            return;
        };
        if child.kind != ChildKind::Foreign
            || child
                .element
                .namespace()
                .is_some_and(|ns| KNOWN.iter().any(|k| k.uri == ns))
        {
            return;
        }
        let source = sitemap.source;
        let name = crate::diagnostic::shown(child.element.qualified_name(source));
        let entry = sitemap.kind.entry_name();
        cx.report(
            Diagnostic::new(
                &META,
                child.element.name_span.clone(),
                format!("`<{name}>` comes after a `<{entry}>`: elements of other namespaces go before the first one"),
            )
            .with_label("after the entries")
            .with_secondary(first.clone(), format!("the first `<{entry}>`"))
            .with_help(format!(
                "move it before the first `<{entry}>`, or into the `<{entry}>` it describes"
            )),
        );
    }

    fn finish(self: Box<Self>, _sitemap: &Sitemap<'a>, _cx: &mut Context<'_>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the full check decides before it reports anything: every segment's participants are
    /// in order.
    fn in_order_slow(entry: &Entry<'_>) -> bool {
        segments(entry).into_iter().all(|s| {
            let ranks: Vec<usize> = participants(entry, s).iter().map(|c| rank(c)).collect();
            ranks.windows(2).all(|w| w[0] <= w[1])
        })
    }

    #[test]
    fn fast_check_agrees_with_segments() {
        let names = ["loc", "lastmod", "changefreq", "priority", "i:image", "foo"];
        // Every sequence of up to five children.
        let mut sequences: Vec<Vec<usize>> = vec![vec![]];
        let mut frontier = sequences.clone();
        for _ in 0..5 {
            frontier = frontier
                .iter()
                .flat_map(|s| (0..names.len()).map(move |n| [s.clone(), vec![n]].concat()))
                .collect();
            sequences.extend(frontier.iter().cloned());
        }
        for (root, entry) in [("urlset", "url"), ("sitemapindex", "sitemap")] {
            let mut xml = format!(
                "<{root} xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:i=\"urn:i\">"
            );
            for seq in &sequences {
                xml.push_str(&format!("<{entry}>"));
                for &n in seq {
                    xml.push_str(&format!("<{0}>x</{0}>", names[n]));
                }
                xml.push_str(&format!("</{entry}>"));
            }
            xml.push_str(&format!("</{root}>"));
            let doc = roxmltree::Document::parse(&xml).unwrap();
            let model = crate::pipeline::model::Model::build(&doc, &xml, 0);
            assert_eq!(model.entries().len(), sequences.len());
            let mut unordered = 0;
            for e in (0..model.entries().len()).filter_map(|i| model.filled(i)) {
                let slow = in_order_slow(&e);
                assert_eq!(in_order(&e), slow, "{}", &xml[e.element.span.clone()]);
                unordered += usize::from(!slow);
            }
            assert!(unordered > sequences.len() / 4, "{unordered}");
        }
    }

    #[test]
    fn the_misplaced_element_moves_with_its_line() {
        let fixed = |entry: &str| crate::test_fixes::fix_entry(entry, "element-order");
        let (text, how, message) =
            fixed("\n  <lastmod>2024-11-21</lastmod>\n  <loc>https://www.example.com/</loc>\n")
                .unwrap();
        assert_eq!(
            text,
            "\n  <loc>https://www.example.com/</loc>\n  <lastmod>2024-11-21</lastmod>\n"
        );
        assert_eq!(
            (how, message.as_str()),
            ("safe", "move `<loc>` above `<lastmod>`")
        );
        // On one line: the element alone moves.
        let (text, ..) = fixed(
            "<loc>https://www.example.com/</loc><priority>0.5</priority><lastmod>2024-11-21</lastmod>",
        )
        .unwrap();
        assert_eq!(
            text,
            "<loc>https://www.example.com/</loc><lastmod>2024-11-21</lastmod><priority>0.5</priority>"
        );
        // CRLF, and an indentation that differs: the sibling's is used.
        let (text, ..) = fixed(
            "\r\n    <changefreq>daily</changefreq>\r\n  <loc>https://www.example.com/</loc>\r\n  <lastmod>2024-11-21</lastmod>\r\n",
        )
        .unwrap();
        assert_eq!(
            text,
            "\r\n  <loc>https://www.example.com/</loc>\r\n  <lastmod>2024-11-21</lastmod>\r\n  <changefreq>daily</changefreq>\r\n"
        );
    }
}
