//! The sequence matcher of the walk: children in their content model's order and counts, the
//! children it does not know, and the wrappers they miss.

use std::collections::HashSet;
use std::ops::Range;

use super::{qualify, tag, Class, Walker};
use crate::diagnostic::{shown, MAX_LABELS};
use crate::pipeline::model::{self, is_xml_blank, Element};
use crate::values::extension::{Content, ElementDecl, Extension, Particle, SimpleType};
use crate::values::text;

impl<'a, 'f> Walker<'a, 'f> {
    /// The sequence matcher: reports unknown children, children out of order (labelling the
    /// element they should precede), too many occurrences (labelling the first) and missing
    /// required children, then validates every matched child against its declaration.
    pub(super) fn sequence(
        &mut self,
        decl: &'static ElementDecl,
        particles: &'static [Particle],
        el: &Element<'a>,
    ) {
        let ns = decl.extension.namespace();
        if self.sequence_in_order(particles, ns, el) {
            return;
        }
        let base = el.base();
        let prefix = self.prefix(el);
        // Per particle, on the stack (`MAX_PARTICLES` is checked against the tables at compile
        // time): how many children matched it, the first of them, and whether a diagnostic
        // already accounts for it (no "missing" report for it).
        let mut counts = [0u32; MAX_PARTICLES];
        let mut first: [FirstMatch<'a>; MAX_PARTICLES] = std::array::from_fn(|_| None);
        let mut explained = [false; MAX_PARTICLES];
        // How many children matched some particle so far.
        let mut matched = 0usize;
        // Consecutive children out of order before the same sibling, reported together.
        let mut order_group: Option<OrderGroup<'a>> = None;
        // Consecutive children of a missing wrapper (`news:name`, `news:language` directly in
        // `news:news`): the wrapper's particle index and the children, reported together.
        let mut wrap_group: Option<(usize, Vec<Element<'a>>)> = None;

        if let Some(text) = el
            .node
            .children()
            .find(|n| n.is_text() && !is_xml_blank(n.text().unwrap_or("")))
        {
            let name = self.name(el);
            let r = text.range();
            let raw = self.source.get(r.start + base..r.end + base).unwrap_or("");
            let lead = raw.len() - raw.trim_start_matches(model::is_xml_space).len();
            let body = raw.trim_matches(model::is_xml_space);
            let span = r.start + base + lead..r.start + base + lead + body.len();
            let shown = text.text().unwrap_or("").trim_matches(model::is_xml_space);
            let first_is_uri = particles
                .first()
                .is_some_and(|p| matches!(p.element.content, Content::Simple(SimpleType::AnyUri)));
            let help = if first_is_uri
                && (shown.starts_with("http://") || shown.starts_with("https://"))
            {
                explained[0] = true;
                let loc = qualify(prefix, particles[0].element.name);
                format!("wrap the URL in `<{loc}>…</{loc}>`")
            } else {
                format!("remove the text; {name} holds only child elements")
            };
            self.push(
                Class::Structure,
                span,
                format!("text is not allowed directly inside {name}"),
                "unexpected text",
                Vec::new(),
                Some(help),
            );
        }

        for node in el.node.children().filter(|n| n.is_element()) {
            let child = Element::new(node, base, self.source);
            let index = if child.namespace() == Some(ns) {
                particles
                    .iter()
                    .position(|p| p.element.name == child.local_name())
            } else {
                None
            };
            let Some(i) = index else {
                self.report_order(decl, particles, el, &first, order_group.take());
                let wrapper = self.unexpected_child(decl, particles, el, &child, &mut explained);
                match (wrapper, &mut wrap_group) {
                    (Some(w), Some((g, members))) if *g == w => members.push(child),
                    (Some(w), _) => {
                        self.report_wrap(particles, el, wrap_group.take());
                        wrap_group = Some((w, vec![child]));
                    }
                    (None, _) => self.report_wrap(particles, el, wrap_group.take()),
                }
                continue;
            };
            self.report_wrap(particles, el, wrap_group.take());
            let particle = &particles[i];
            counts[i] += 1;
            let mut in_group = false;
            let max = particle.max.unwrap_or(u32::MAX);
            // Every duplicate of a single element needs its own fix; a list over its limit
            // (`video:tag`) is reported once, at the first element too many.
            if counts[i] > max && (max == 1 || counts[i] == max + 1) {
                let name = self.name(el);
                let child_name = self.name(&child);
                let (message, label, help) = if max == 1 {
                    let help = if particle.min == 1
                        && i == 0
                        && std::ptr::eq(decl, decl.extension.root())
                    {
                        format!(
                            "one {name} describes one {}: close it before this {child_name} and open a new {name}",
                            decl.name
                        )
                    } else {
                        format!("keep one {child_name}")
                    };
                    (
                        format!("{child_name} appears more than once in {name}"),
                        "duplicate".to_string(),
                        help,
                    )
                } else {
                    let local = child.local_name();
                    let total = el
                        .node
                        .children()
                        .filter(|n| {
                            n.is_element()
                                && n.tag_name().namespace() == Some(ns)
                                && n.tag_name().name() == local
                        })
                        .count();
                    (
                        format!("more than {max} {child_name} elements in {name}"),
                        format!("number {} of {total}", counts[i]),
                        format!(
                            "keep at most {max} {child_name} elements: {} allows no more",
                            decl.extension.xsd()
                        ),
                    )
                };
                let secondary = first[i]
                    .as_ref()
                    .map(|(span, _, _)| vec![(span.clone(), format!("first {child_name} is here"))])
                    .unwrap_or_default();
                self.push(
                    Class::Structure,
                    child.name_span.clone(),
                    message,
                    label,
                    secondary,
                    Some(help),
                );
            } else if counts[i] > max {
                // Already reported at the first element over the limit.
            } else if let Some(later) = earliest(&first[i + 1..particles.len()]).map(|k| k + i + 1)
            {
                let member = (
                    i,
                    child.name_span.clone(),
                    child.qualified_name(self.source),
                );
                match &mut order_group {
                    Some(g) if g.later == later => g.members.push(member),
                    _ => {
                        self.report_order(decl, particles, el, &first, order_group.take());
                        order_group = Some(OrderGroup {
                            later,
                            members: vec![member],
                        });
                    }
                }
                in_group = true;
            }
            if !in_group {
                self.report_order(decl, particles, el, &first, order_group.take());
            }
            if first[i].is_none() {
                first[i] = Some((
                    child.name_span.clone(),
                    child.qualified_name(self.source),
                    matched,
                ));
            }
            matched += 1;
            self.validate(particle.element, &child, particle.min == 0);
        }
        self.report_order(decl, particles, el, &first, order_group.take());
        self.report_wrap(particles, el, wrap_group.take());

        if !self.wants(Class::Structure) {
            return;
        }
        let missing: Vec<usize> = (0..particles.len())
            .filter(|&i| counts[i] < particles[i].min && !explained[i])
            .collect();
        let Some(&first_missing) = missing.first() else {
            return;
        };
        let name = self.name(el);
        let tags: Vec<String> = missing
            .iter()
            .map(|&i| tag(prefix, particles[i].element.name))
            .collect();
        // Where the first missing child goes: before the first child that follows it in order.
        let before = earliest(&first[first_missing + 1..particles.len()])
            .and_then(|k| first[first_missing + 1 + k].as_ref());
        let secondary = before
            .map(|(span, _, _)| vec![(span.clone(), format!("{} belongs before this", tags[0]))])
            .unwrap_or_default();
        let after = (0..first_missing)
            .rev()
            .find(|&j| counts[j] > 0 || explained[j]);
        let q = qualify(prefix, particles[first_missing].element.name);
        let place = match after {
            Some(j) => format!("after {}", tag(prefix, particles[j].element.name)),
            None => format!("at the start of {name}"),
        };
        let (message, label, help) = if missing.len() == 1 {
            (
                format!("{name} has no {}", tags[0]),
                format!("{} is required", tags[0]),
                format!("add `<{q}>…</{q}>` {place}"),
            )
        } else {
            (
                format!("{name} lacks the required {}", join_and(&tags)),
                "required children are missing".to_string(),
                if particles.len() <= 8 {
                    let names: Vec<&str> = particles.iter().map(|p| p.element.name).collect();
                    format!(
                        "add {} (order in {name}: {})",
                        join_and(&tags),
                        names.join(", ")
                    )
                } else {
                    format!("add {}, in this order, {place}", join_and(&tags))
                },
            )
        };
        self.push(
            Class::Structure,
            el.name_span.clone(),
            message,
            label,
            secondary,
            Some(help),
        );
    }

    /// The usual case of [`Walker::sequence`]: only elements of the extension's namespace, each
    /// matching a particle, in the particles' order and within their counts, every required one
    /// present, and no text but whitespace. The matcher reports nothing then, so the children are
    /// validated as it would validate them, without its bookkeeping (first matches, order and
    /// wrapper groups). `false`, having validated nothing, when anything is out of place.
    fn sequence_in_order(
        &mut self,
        particles: &'static [Particle],
        ns: &str,
        el: &Element<'a>,
    ) -> bool {
        let mut counts = [0u32; MAX_PARTICLES];
        let mut last = 0;
        for node in el.node.children() {
            if node.is_element() {
                let name = node.tag_name();
                if name.namespace() != Some(ns) {
                    return false;
                }
                let Some(i) = particles.iter().position(|p| p.element.name == name.name()) else {
                    return false;
                };
                let Some(count) = counts.get_mut(i) else {
                    return false;
                };
                *count = count.saturating_add(1);
                if i < last || *count > particles[i].max.unwrap_or(u32::MAX) {
                    return false;
                }
                last = i;
            } else if node.is_text() && !is_xml_blank(node.text().unwrap_or("")) {
                return false;
            }
        }
        if particles.iter().zip(counts).any(|(p, n)| n < p.min) {
            return false;
        }
        let base = el.base();
        for node in el.node.children().filter(|n| n.is_element()) {
            let name = node.tag_name().name();
            if let Some(p) = particles.iter().find(|p| p.element.name == name) {
                let child = Element::new(node, base, self.source);
                self.validate(p.element, &child, p.min == 0);
            }
        }
        true
    }

    /// Reports children out of order: `group.members` come after `seen[group.later]` but must
    /// precede it.
    fn report_order(
        &mut self,
        decl: &'static ElementDecl,
        particles: &'static [Particle],
        el: &Element<'a>,
        first: &[FirstMatch<'a>],
        group: Option<OrderGroup<'a>>,
    ) {
        let Some(group) = group else { return };
        let j = group.later;
        let (Some(Some((later_span, later_name, _))), Some((first_i, first_span, _))) =
            (first.get(j), group.members.first())
        else {
            return;
        };
        let name = self.name(el);
        let prefix = self.prefix(el);
        let later = format!("`<{}>`", shown(later_name));
        // The distinct names written, in order: the first few named, the others counted.
        let mut seen: HashSet<&str> = HashSet::new();
        let mut tags: Vec<String> = Vec::new();
        for (_, _, q) in &group.members {
            if seen.insert(q) && tags.len() < NAMED {
                tags.push(format!("`<{}>`", shown(q)));
            }
        }
        let distinct = seen.len();
        let single = group.members.len() == 1;
        let subject = match (distinct, single) {
            (1, true) => tags[0].clone(),
            (1, false) => format!("{} elements", tags[0]),
            _ => join_some(&tags, distinct),
        };
        // Where the XSD puts the element at particle `i`: its neighbours in the sequence.
        let neighbours = |i: usize, it: &str| {
            let before = particles[..i]
                .last()
                .map(|p| format!("after {} and ", tag(prefix, p.element.name)))
                .unwrap_or_default();
            match particles.get(i + 1) {
                Some(p) => format!(
                    "{} puts {it} {before}before {}",
                    decl.extension.xsd(),
                    tag(prefix, p.element.name)
                ),
                None => format!("{} puts {it} last", decl.extension.xsd()),
            }
        };
        let short_order = (particles.len() <= 8).then(|| {
            let names: Vec<&str> = particles.iter().map(|p| p.element.name).collect();
            format!("order in {name}: {}", names.join(", "))
        });
        let mut help = if single {
            let order = short_order.unwrap_or_else(|| neighbours(*first_i, "it"));
            format!("move {} above {later} ({order})", tags[0])
        } else {
            let order = short_order.unwrap_or_else(|| neighbours(j, &later));
            format!("move them above {later}, or move {later} down ({order})")
        };
        let mut deprecated: Vec<String> = Vec::new();
        let mut year = "";
        let involved = group
            .members
            .iter()
            .map(|(i, _, q)| (particles[*i].element, format!("`<{}>`", shown(q))))
            .chain(std::iter::once((particles[j].element, later.clone())));
        for (d, t) in involved {
            if let Some(y) = d.deprecated {
                year = y;
                if !deprecated.contains(&t) {
                    deprecated.push(t);
                }
            }
        }
        if !deprecated.is_empty() {
            let them = if deprecated.len() == 1 { "it" } else { "them" };
            help.push_str(&format!(
                "; Google deprecated {} in {year}, so removing {them} also fixes this",
                join_and(&deprecated)
            ));
        }
        let mut secondary = vec![(later_span.clone(), format!("{later} is here"))];
        let rest = group.members.len() - 1;
        let labelled = rest.min(MAX_LABELS - 2);
        for (_, span, _) in group.members.iter().skip(1).take(labelled) {
            secondary.push((span.clone(), "also out of order".to_string()));
        }
        self.push_counted(
            Class::Structure,
            first_span.clone(),
            format!("{subject} must come before {later}"),
            "out of order",
            (secondary, rest - labelled),
            Some(help),
        );
    }

    /// A child the sequence has no particle for.
    fn unexpected_child(
        &mut self,
        decl: &'static ElementDecl,
        particles: &'static [Particle],
        el: &Element<'a>,
        child: &Element<'a>,
        explained: &mut [bool],
    ) -> Option<usize> {
        let name = self.name(el);
        let child_name = self.name(child);
        let prefix = self.prefix(el);
        let local = child.local_name();
        let child_ext = child.namespace().and_then(Extension::from_namespace);
        if child_ext.is_some_and(|e| e.root().name == local) {
            // A top-level extension element nested in another one.
            self.push(
                Class::Placement,
                child.name_span.clone(),
                format!("{child_name} cannot be inside {name}"),
                format!("nested in {name}"),
                Vec::new(),
                Some(format!(
                    "move it out: {child_name} goes directly inside `<url>`, next to {}",
                    tag(prefix, decl.extension.root().name)
                )),
            );
            return None;
        }
        let names: Vec<&str> = particles.iter().map(|p| p.element.name).collect();
        let same_name = particles.iter().position(|p| p.element.name == local);
        let elsewhere = if child_ext == Some(decl.extension) {
            decl.extension.find(local)
        } else {
            None
        };
        let closest = if same_name.is_none() && elsewhere.is_none() {
            alias(local, &names).or_else(|| {
                text::closest(local, &names)
                    .and_then(|s| particles.iter().position(|p| p.element.name == s))
            })
        } else {
            None
        };
        let (label, help) = if let Some(i) = same_name {
            explained[i] = true;
            let want = tag(prefix, local);
            (
                format!("did you mean {want}?"),
                format!(
                    "write {want}: the children of {name} are in the {} namespace (`{}`)",
                    decl.extension.prefix(),
                    decl.extension.namespace()
                ),
            )
        } else if let Some((ancestors, _)) = elsewhere {
            let owner = ancestors
                .last()
                .map(|a| tag(prefix, a.name))
                .unwrap_or_else(|| tag(prefix, decl.extension.root().name));
            // A child of one of this element's children (`news:name` directly in `news:news`):
            // the missing wrapper is explained by this report.
            let below = ancestors
                .iter()
                .position(|a| std::ptr::eq(*a, decl))
                .and_then(|k| ancestors.get(k + 1));
            if let Some(i) =
                below.and_then(|w| particles.iter().position(|p| std::ptr::eq(p.element, *w)))
            {
                explained[i] = true;
                return Some(i);
            }
            (
                format!("not a child of {name}"),
                if ancestors.is_empty() {
                    format!("{child_name} goes directly inside `<url>`")
                } else {
                    format!("{child_name} belongs inside {owner}")
                },
            )
        } else if let Some(i) = closest {
            explained[i] = true;
            let want = tag(prefix, particles[i].element.name);
            (
                format!("did you mean {want}?"),
                format!("rename it to {want}"),
            )
        } else if particles.len() <= 8 {
            let allowed: Vec<String> = names.iter().map(|n| tag(prefix, n)).collect();
            (
                format!("not allowed in {name}"),
                format!("remove it; {name} may contain {}", join_and(&allowed)),
            )
        } else {
            (
                format!("not allowed in {name}"),
                format!(
                    "remove it; {} defines no {child_name} in {name}",
                    decl.extension.xsd()
                ),
            )
        };
        self.push(
            Class::Structure,
            child.name_span.clone(),
            format!("{child_name} is not allowed in {name}"),
            label,
            Vec::new(),
            Some(help),
        );
        None
    }

    /// Reports children that belong inside a wrapper child the element lacks (`news:name` and
    /// `news:language` directly in `news:news` instead of in `news:publication`).
    fn report_wrap(
        &mut self,
        particles: &'static [Particle],
        el: &Element<'a>,
        group: Option<(usize, Vec<Element<'a>>)>,
    ) {
        let Some((w, members)) = group else { return };
        let (Some(first), Some(wrapper)) = (members.first(), particles.get(w)) else {
            return;
        };
        let name = self.name(el);
        let prefix = self.prefix(el);
        let wrap = tag(prefix, wrapper.element.name);
        let wq = qualify(prefix, wrapper.element.name);
        let inner = self.bodies(&members);
        let message = if members.len() == 1 {
            format!("{} is not allowed in {name}", self.name(first))
        } else {
            format!("{} must be inside {wrap}", self.names(&members))
        };
        let secondary = Self::labels(&members, &format!("also belongs inside {wrap}"));
        self.push_counted(
            Class::Structure,
            first.name_span.clone(),
            message,
            format!("not a child of {name}"),
            secondary,
            Some(format!(
                "wrap {} in {wrap}: `<{wq}>{inner}</{wq}>`",
                if members.len() == 1 { "it" } else { "them" }
            )),
        );
    }
}

/// Consecutive children out of order before the same earlier sibling.
struct OrderGroup<'a> {
    /// Particle index of the sibling they must precede (the first child matched to it).
    later: usize,
    /// Particle index, name span and written name of each.
    members: Vec<(usize, Range<usize>, &'a str)>,
}

/// The first child matched to a particle: its name span, its written name, and its position
/// among the matched children.
type FirstMatch<'a> = Option<(Range<usize>, &'a str, usize)>;

/// The most particles a content model has (`video:video` has 23); the sequence matcher keeps its
/// state per particle in arrays of this size instead of allocating.
const MAX_PARTICLES: usize = 24;

const fn max_particles(decl: &ElementDecl) -> usize {
    let Content::Sequence(particles) = decl.content else {
        return 0;
    };
    let mut max = particles.len();
    let mut i = 0;
    while i < particles.len() {
        let inner = max_particles(particles[i].element);
        if inner > max {
            max = inner;
        }
        i += 1;
    }
    max
}

const _: () = {
    let mut i = 0;
    while i < Extension::ALL.len() {
        assert!(max_particles(Extension::ALL[i].root()) <= MAX_PARTICLES);
        i += 1;
    }
};

/// Among the first matches of some particles, the offset of the one that came first.
pub(super) fn earliest(first: &[FirstMatch<'_>]) -> Option<usize> {
    first
        .iter()
        .enumerate()
        .filter_map(|(k, f)| f.as_ref().map(|&(_, _, pos)| (pos, k)))
        .min()
        .map(|(_, k)| k)
}

/// The particle a common misnaming stands for: `url`, `src`, `link` for `loc`; `thumbnail` or
/// `thumbnail_url` for `thumbnail_loc`.
pub(super) fn alias(local: &str, names: &[&str]) -> Option<usize> {
    let lower = local.to_ascii_lowercase();
    let mut stem = lower.as_str();
    for suffix in ["url", "link", "src", "href", "uri", "location"] {
        if let Some(s) = stem.strip_suffix(suffix) {
            stem = s.trim_end_matches(['_', '-']);
            break;
        }
    }
    let candidate = if stem.is_empty() {
        "loc".to_string()
    } else {
        format!("{stem}_loc")
    };
    names
        .iter()
        .position(|n| *n == candidate)
        .or_else(|| names.iter().position(|n| *n == format!("{lower}_loc")))
}

/// Items of the input (misplaced elements) a message names at most; [`join_some`] counts the
/// rest.
pub(super) const NAMED: usize = 10;

/// `a`, `a and b`, `a, b and c`.
pub(super) fn join_and(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((only, [])) => only.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// [`join_and`] of the first of `total` items, at most [`NAMED`] of them, and a count of the
/// others: `a, b, c and 7 more`.
pub(super) fn join_some(first: &[String], total: usize) -> String {
    let named = &first[..first.len().min(NAMED)];
    if total <= named.len() {
        return join_and(named);
    }
    format!(
        "{} and {} more",
        named.join(", "),
        crate::values::text::group((total - named.len()) as u64)
    )
}
