//! The walk of Google's extension elements: matches each entry's (and the root's) elements
//! against the XSD tables of [`crate::values::extension`] with a generic sequence matcher and
//! returns [`Problem`]s sorted into three [`Class`]es, one per rule (`extension-placement`,
//! `extension-structure`, `extension-value`). The same walk records the elements that sit where
//! their XSD puts them, with their declarations, for the value-level rules (duration ranges,
//! deprecated tags); [`visit_entry`] hands every validated element to a callback. A helper of the
//! extension family, not a rule: the rules read its problems through [`super::entry_problems`]
//! and its elements through [`super::for_declared`].
//!
//! Elements of other namespaces (`xhtml:link`, PageMap, …) are not judged, except where a Google
//! element's content model (which has no wildcard) forbids them.

mod sequence;

use std::ops::Range;

use roxmltree::NodeType;

use crate::diagnostic::{shown, Diagnostic, RuleMeta, MAX_LABELS};
use crate::pipeline::model::{self, ChildKind, Element, Entry, EntryKind, Kind, Sitemap, XSI_NS};
use crate::values::extension::{
    all_names, check_value, distinct, listing, Content, ElementDecl, Extension, SimpleType, Target,
};
use crate::values::text;
use sequence::{join_some, NAMED};

/// The rule a [`Problem`] belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// An extension element where it does not belong (`extension-placement`).
    Placement,
    /// Children, text or attributes its content model does not allow (`extension-structure`).
    Structure,
    /// A value or attribute value its simple type rejects (`extension-value`).
    Value,
}

/// One problem in extension elements, ready to become a diagnostic of the rule for its class.
#[derive(Debug, Clone)]
pub struct Problem {
    pub class: Class,
    pub span: Range<usize>,
    pub message: String,
    pub label: String,
    pub secondary: Vec<(Range<usize>, String)>,
    /// Places beyond the label cap that `secondary` leaves out (counted in a note).
    pub unlabelled: usize,
    pub help: Option<String>,
}

impl Problem {
    pub fn into_diagnostic(self, meta: &'static RuleMeta) -> Diagnostic {
        let mut d = Diagnostic::new(meta, self.span, self.message).with_label(self.label);
        for (span, label) in self.secondary {
            d = d.with_secondary(span, label);
        }
        d.with_unlabelled(self.unlabelled).with_help_opt(self.help)
    }
}

/// Problems of `class` in Google extension elements placed directly inside the root element.
pub fn check_root(sitemap: &Sitemap<'_>, class: Class) -> Vec<Problem> {
    let mut walker = Walker::new(sitemap.source, Want::One(class), None);
    if sitemap.kind != Kind::Other {
        let place = Place::Root {
            parent: sitemap.root.qualified_name(sitemap.source),
            index: sitemap.kind == Kind::Index,
        };
        walker.children(foreign(&sitemap.other_children), &place);
    }
    walker.problems
}

/// The problems of every class in the Google extension elements of one entry, and the elements
/// there that sit where their XSD puts them (what [`crate::rules::extension::for_declared`]
/// hands out), in document order, found by one walk (the extension rules share it, see
/// [`crate::rules::extension::entry_problems`]).
pub fn check_entry(sitemap: &Sitemap<'_>, entry: &Entry<'_>) -> (Vec<Problem>, Vec<Declared>) {
    // Only children of other namespaces are extensions; most entries have none.
    if !entry.children.iter().any(|c| c.kind == ChildKind::Foreign) {
        return (Vec::new(), Vec::new());
    }
    let mut walker = Walker::new(sitemap.source, Want::All, None);
    walker.record = true;
    walker.entry(sitemap, entry);
    (walker.problems, walker.declared)
}

/// An element that sits where its XSD puts it, recorded by [`check_entry`] and kept past the walk
/// without its node: the node's id in its document, its spans and its declaration.
#[derive(Debug, Clone)]
pub struct Declared {
    id: roxmltree::NodeId,
    span: Range<usize>,
    name_span: Range<usize>,
    pub decl: &'static ElementDecl,
}

impl Declared {
    /// The element again, from the document of `entry` (the entry it was found in).
    pub fn element<'a>(&self, entry: &Entry<'a>) -> Option<Element<'a>> {
        let node = entry.element.node.document().get_node(self.id)?;
        Some(Element {
            node,
            span: self.span.clone(),
            name_span: self.name_span.clone(),
        })
    }
}

/// Calls `f` with every element of a Google extension in `entry` that the checker validates
/// against a declaration, with that declaration, in document order: the way for rules to find,
/// say, every `video:duration` (`std::ptr::eq(decl, &VIDEO_DURATION)`).
pub fn visit_entry<'a>(
    sitemap: &Sitemap<'a>,
    entry: &Entry<'a>,
    f: &mut dyn FnMut(&Element<'a>, &'static ElementDecl),
) {
    let mut walker = Walker::new(sitemap.source, Want::Nothing, Some(f));
    walker.entry(sitemap, entry);
}

/// The elements of other namespaces among `children` (the root's or an entry's).
fn foreign<'c, 'a>(children: &'c [model::Child<'a>]) -> impl Iterator<Item = &'c Element<'a>> {
    children
        .iter()
        .filter(|c| c.kind == ChildKind::Foreign)
        .map(|c| &c.element)
}

/// Calls `f` with every Google extension element of `entry` that sits where its XSD puts it, with
/// its declaration, in document order: each `image:image`, `video:video`, `news:news` and
/// `mobile:mobile` directly in the entry, and below them every child whose namespace and name
/// match a particle of its parent's content model (order and counts are not checked).
///
/// The cheap walk: it allocates nothing and validates nothing (misplaced or unknown elements are
/// the structure rules' findings). The rules read the same elements from the validation walk
/// they share ([`check_entry`], which records them), one walk an entry instead of one a rule;
/// this is its reference (the tests compare them). [`visit_entry`] also reaches misplaced
/// elements.
#[cfg(test)]
pub fn visit_declared<'a>(
    source: &str,
    entry: &Entry<'a>,
    f: &mut dyn FnMut(&Element<'a>, &'static ElementDecl),
) {
    for child in entry
        .children
        .iter()
        .filter(|c| c.kind == ChildKind::Foreign)
    {
        let el = &child.element;
        let Some(doc_ns) = el.namespace() else {
            continue;
        };
        let Some(ext) = Extension::from_namespace(doc_ns) else {
            continue;
        };
        if el.local_name() != ext.root().name {
            continue;
        }
        let base = el.base();
        f(el, ext.root());
        let Content::Sequence(particles) = ext.root().content else {
            continue;
        };
        let ns = Namespace {
            uri: ext.namespace(),
            doc: doc_ns,
        };
        for node in el.node.children().filter(|n| n.is_element()) {
            let Some(decl) = particle_for(particles, node, ns) else {
                continue;
            };
            let child = Element::new(node, base, source);
            f(&child, decl);
            // One more level: `news:publication`, `video:tvshow`.
            if let Content::Sequence(inner) = decl.content {
                for n in node.children().filter(|n| n.is_element()) {
                    if let Some(d) = particle_for(inner, n, ns) {
                        f(&Element::new(n, base, source), d);
                    }
                }
            }
        }
    }
}

/// An extension's namespace URI, and the same URI as the document's namespace table holds it
/// (where the children declared with the same prefix point too: compared by address first, a
/// 47-byte comparison saved per element).
#[cfg(test)]
#[derive(Clone, Copy)]
struct Namespace<'a> {
    uri: &'static str,
    doc: &'a str,
}

#[cfg(test)]
fn particle_for(
    particles: &'static [crate::values::extension::Particle],
    node: roxmltree::Node<'_, '_>,
    ns: Namespace<'_>,
) -> Option<&'static ElementDecl> {
    let name = node.tag_name();
    match name.namespace() {
        Some(n) if std::ptr::eq(n, ns.doc) || n == ns.uri => {}
        _ => return None,
    }
    particles
        .iter()
        .find(|p| p.element.name == name.name())
        .map(|p| p.element)
}

/// Where a top-level extension element stands.
enum Place<'p> {
    /// Directly inside `<urlset>` or `<sitemapindex>`.
    Root { parent: &'p str, index: bool },
    /// Directly inside a `<url>` or `<sitemap>` entry.
    Entry {
        parent: &'p str,
        kind: EntryKind,
        index: bool,
    },
}

/// `` `<prefix:name>` `` with the prefix the document uses for that namespace here.
fn tag(prefix: Option<&str>, name: &str) -> String {
    match prefix {
        Some(p) => format!("`<{}:{name}>`", shown(p)),
        None => format!("`<{name}>`"),
    }
}

/// The plain `prefix:name` (for building examples inside one pair of backticks).
fn qualify(prefix: Option<&str>, name: &str) -> String {
    match prefix {
        Some(p) => format!("{}:{name}", shown(p)),
        None => name.to_string(),
    }
}

/// The callback of [`visit_entry`].
type Visitor<'f, 'a> = &'f mut dyn FnMut(&Element<'a>, &'static ElementDecl);

/// The classes of problems a walk collects.
#[derive(Clone, Copy)]
enum Want {
    /// None ([`visit_entry`]).
    Nothing,
    One(Class),
    All,
}

struct Walker<'a, 'f> {
    source: &'a str,
    want: Want,
    problems: Vec<Problem>,
    visit: Option<Visitor<'f, 'a>>,
    /// Whether to record in `declared` the elements validated while `placed`.
    record: bool,
    declared: Vec<Declared>,
    /// Whether the element being validated sits where its XSD puts it: a global element directly
    /// in an entry, or below one a child matching a particle of its parent, not below a
    /// misplaced element.
    placed: bool,
}

impl<'a, 'f> Walker<'a, 'f> {
    fn new(source: &'a str, want: Want, visit: Option<Visitor<'f, 'a>>) -> Self {
        Walker {
            source,
            want,
            problems: Vec::new(),
            visit,
            record: false,
            declared: Vec::new(),
            placed: false,
        }
    }

    fn wants(&self, class: Class) -> bool {
        match self.want {
            Want::Nothing => false,
            Want::One(c) => c == class,
            Want::All => true,
        }
    }

    fn push(
        &mut self,
        class: Class,
        span: Range<usize>,
        message: String,
        label: impl Into<String>,
        secondary: Vec<(Range<usize>, String)>,
        help: Option<String>,
    ) {
        self.push_counted(class, span, message, label, (secondary, 0), help);
    }

    /// [`Walker::push`] with the number of places left out of the labels (see
    /// [`Walker::labels`]).
    fn push_counted(
        &mut self,
        class: Class,
        span: Range<usize>,
        message: String,
        label: impl Into<String>,
        (secondary, unlabelled): (Vec<(Range<usize>, String)>, usize),
        help: Option<String>,
    ) {
        if self.wants(class) {
            self.problems.push(Problem {
                class,
                span,
                message,
                label: label.into(),
                secondary,
                unlabelled,
                help,
            });
        }
    }

    /// The secondary labels of `members` after the first, `label` on each name, built up to the
    /// label cap; the others are counted.
    fn labels(members: &[Element<'_>], label: &str) -> (Vec<(Range<usize>, String)>, usize) {
        let rest = members.len().saturating_sub(1);
        let labelled = rest.min(MAX_LABELS - 1);
        let secondary = members
            .iter()
            .skip(1)
            .take(labelled)
            .map(|m| (m.name_span.clone(), label.to_string()))
            .collect();
        (secondary, rest - labelled)
    }

    /// `<name>…</name>` for each of the first [`NAMED`] members, then `…` for the rest: the
    /// body of a suggested wrapper.
    fn bodies(&self, members: &[Element<'_>]) -> String {
        let mut body: String = members
            .iter()
            .take(NAMED)
            .map(|m| {
                let q = shown(m.qualified_name(self.source));
                format!("<{q}>…</{q}>")
            })
            .collect();
        if members.len() > NAMED {
            body.push('…');
        }
        body
    }

    /// The names of `members` as a message lists them: the first [`NAMED`], then a count.
    fn names(&self, members: &[Element<'_>]) -> String {
        let tags: Vec<String> = members.iter().take(NAMED).map(|m| self.name(m)).collect();
        join_some(&tags, members.len())
    }

    fn name(&self, el: &Element<'_>) -> String {
        format!("`<{}>`", shown(el.qualified_name(self.source)))
    }

    fn prefix(&self, el: &Element<'_>) -> Option<&'a str> {
        self.source
            .get(el.name_span.clone())
            .and_then(|q| q.split_once(':'))
            .map(|(p, _)| p)
    }

    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'a>) {
        let place = Place::Entry {
            parent: entry.element.qualified_name(sitemap.source),
            kind: entry.kind,
            index: sitemap.kind == Kind::Index,
        };
        self.children(foreign(&entry.children), &place);
    }

    /// The foreign children of the root or an entry. Adjacent children that need the same
    /// wrapper (`image:loc` and `image:title` directly in `<url>`) are reported together.
    /// Elements of other namespaces (`xhtml:link`, judged by the hreflang rules) cost only the
    /// namespace test in [`Walker::top`].
    fn children<'e>(&mut self, children: impl Iterator<Item = &'e Element<'a>>, place: &Place<'_>)
    where
        'a: 'e,
    {
        let mut group: Option<(Vec<&'static ElementDecl>, Vec<Element<'a>>)> = None;
        for el in children {
            let chain = self.top(el, place);
            let adjacent = |members: &[Element<'a>]| {
                members.last().map(|m| m.node) == el.node.prev_sibling_element()
            };
            match (chain, &mut group) {
                (Some(c), Some((g, members)))
                    if adjacent(members)
                        && c.len() == g.len()
                        && c.iter().zip(g.iter()).all(|(a, b)| std::ptr::eq(*a, *b)) =>
                {
                    members.push(el.clone());
                }
                (Some(c), _) => {
                    self.report_unwrapped(group.take(), place);
                    group = Some((c, vec![el.clone()]));
                }
                (None, _) => self.report_unwrapped(group.take(), place),
            }
        }
        self.report_unwrapped(group.take(), place);
    }

    /// Reports extension children placed directly in the root or an entry without the elements
    /// they belong in (`ancestors`, from the global element down).
    fn report_unwrapped(
        &mut self,
        group: Option<(Vec<&'static ElementDecl>, Vec<Element<'a>>)>,
        place: &Place<'_>,
    ) {
        let Some((ancestors, members)) = group else {
            return;
        };
        let Some(first) = members.first() else { return };
        let parent = match place {
            Place::Root { parent, .. } | Place::Entry { parent, .. } => *parent,
        };
        let prefix = self.prefix(first);
        let chain: Vec<String> = ancestors.iter().map(|a| tag(prefix, a.name)).collect();
        let inner = chain.last().cloned().unwrap_or_default();
        let (it, subject) = if members.len() == 1 {
            ("it", self.name(first))
        } else {
            ("them", self.names(&members))
        };
        let help = if ancestors.len() == 1 {
            let wrapper = qualify(prefix, ancestors[0].name);
            let body = self.bodies(&members);
            format!("wrap {it}: `<{wrapper}>{body}</{wrapper}>`")
        } else {
            let verb = if members.len() == 1 {
                "belongs"
            } else {
                "belong"
            };
            format!("{subject} {verb} in {}", chain.join(" → "))
        };
        let secondary = Self::labels(&members, &format!("also belongs inside {inner}"));
        self.push_counted(
            Class::Placement,
            first.name_span.clone(),
            format!("{subject} must be inside {inner}"),
            format!("directly inside `<{}>`", shown(parent)),
            secondary,
            Some(help),
        );
    }

    /// An element of a Google namespace directly inside the root or an entry. Returns the
    /// ancestors a non-global element lacks, for [`Walker::report_unwrapped`].
    fn top(&mut self, el: &Element<'a>, place: &Place<'_>) -> Option<Vec<&'static ElementDecl>> {
        let ext = el.namespace().and_then(Extension::from_namespace)?;
        let local = el.local_name();
        let root = ext.root();
        if local == root.name {
            // Whether it stands in a sitemap index, and where.
            let misplaced = match *place {
                Place::Entry {
                    kind: EntryKind::Sitemap,
                    index: true,
                    ..
                } => Some((true, "in a `<sitemap>` entry".to_string())),
                Place::Entry { .. } => None,
                Place::Root { parent, index } => {
                    Some((index, format!("directly inside `<{}>`", shown(parent))))
                }
            };
            if let Some((index, label)) = misplaced {
                let name = self.name(el);
                let message = if index {
                    format!("{name} is not allowed in a sitemap index")
                } else {
                    format!("{name} is outside any `<url>`")
                };
                let help = match place {
                    Place::Root { index: false, .. } => format!(
                        "move it into the `<url>` of the page it belongs to: Google reads {name} only inside `<url>`"
                    ),
                    _ => format!(
                        "{name} describes a page: put it in that page's `<url>` in a sitemap (`<urlset>`), not in the index"
                    ),
                };
                self.push(
                    Class::Placement,
                    el.name_span.clone(),
                    message,
                    label,
                    Vec::new(),
                    Some(help),
                );
            }
            self.placed = true;
            self.validate(root, el, true);
            self.placed = false;
            return None;
        }
        match ext.find(local) {
            Some((ancestors, decl)) => {
                self.validate(decl, el, true);
                Some(ancestors)
            }
            None => {
                if self.wants(Class::Structure) {
                    let name = self.name(el);
                    let prefix = self.prefix(el);
                    let names = all_names(ext);
                    let root_tag = tag(prefix, root.name);
                    let (label, help) = match text::closest(local, &names) {
                        Some(s) => (
                            format!("did you mean {}?", tag(prefix, s)),
                            format!("rename it to {}", tag(prefix, s)),
                        ),
                        None => (
                            format!("not declared in {}", ext.xsd()),
                            format!(
                                "the {} extension puts {root_tag} in `<url>`; {} declares no {name}",
                                ext.prefix(),
                                ext.xsd()
                            ),
                        ),
                    };
                    self.push(
                        Class::Structure,
                        el.name_span.clone(),
                        format!(
                            "{name} is not an element of the Google {} extension",
                            ext.prefix()
                        ),
                        label,
                        Vec::new(),
                        Some(help),
                    );
                }
                None
            }
        }
    }

    /// Checks `el` against `decl`: attributes, then content.
    fn validate(&mut self, decl: &'static ElementDecl, el: &Element<'a>, optional: bool) {
        if let Some(f) = self.visit.as_mut() {
            f(el, decl);
        }
        if self.record && self.placed {
            self.declared.push(Declared {
                id: el.node.id(),
                span: el.span.clone(),
                name_span: el.name_span.clone(),
                decl,
            });
        }
        self.attributes(decl, el);
        match decl.content {
            Content::Sequence(particles) => self.sequence(decl, particles, el),
            Content::Simple(ty) => self.simple(decl, ty, el, optional),
            Content::Empty => self.empty_content(el),
        }
    }

    fn attributes(&mut self, decl: &'static ElementDecl, el: &Element<'a>) {
        if el.node.attributes().len() == 0 && decl.attributes.iter().all(|a| !a.required) {
            return;
        }
        let base = el.base();
        let name = self.name(el);
        let mut prefixed_required = Vec::new();
        for attr in el.node.attributes() {
            if attr.namespace() == Some(XSI_NS) {
                continue;
            }
            let declared = decl.attributes.iter().find(|a| a.name == attr.name());
            if let (None, Some(a)) = (attr.namespace(), declared) {
                if self.wants(Class::Value) {
                    let target = Target {
                        what: format!("`{}` on {name}", a.name),
                        optional: !a.required,
                        attribute: true,
                        extension: decl.extension,
                    };
                    if let Some(p) = check_value(a.ty, attr.value(), &target) {
                        let value_range = attr.range_value();
                        let value_span = value_range.start + base..value_range.end + base;
                        let verbatim = self.source.get(value_span.clone()) == Some(attr.value());
                        let span = if p.range.is_empty() {
                            let r = attr.range();
                            r.start + base..r.end + base
                        } else if verbatim {
                            value_span.start + p.range.start..value_span.start + p.range.end
                        } else {
                            value_span
                        };
                        self.push(Class::Value, span, p.message, p.label, Vec::new(), p.help);
                    }
                }
                continue;
            }
            if !self.wants(Class::Structure) {
                continue;
            }
            let q = attr.range_qname();
            let written = self
                .source
                .get(q.start + base..q.end + base)
                .unwrap_or(attr.name())
                .to_string();
            let r = attr.range();
            let names: Vec<&str> = decl.attributes.iter().map(|a| a.name).collect();
            let (label, help) = if let (Some(_), Some(a)) = (attr.namespace(), declared) {
                if a.required {
                    prefixed_required.push(a.name);
                }
                (
                    "attributes of extension elements take no prefix".to_string(),
                    format!(
                        "write it without the prefix: `{}=\"{}\"`",
                        a.name,
                        shown(attr.value())
                    ),
                )
            } else if let Some(s) = text::closest(attr.name(), &names) {
                (
                    format!("did you mean `{s}`?"),
                    format!("rename it to `{s}`"),
                )
            } else if names.is_empty() {
                (
                    format!("not declared in {}", decl.extension.xsd()),
                    format!("remove it: {name} has no attributes"),
                )
            } else {
                (
                    format!("not declared in {}", decl.extension.xsd()),
                    format!("remove it; {name} takes {}", listing(&names, "and")),
                )
            };
            self.push(
                Class::Structure,
                r.start + base..r.end + base,
                format!("unexpected attribute `{}` on {name}", shown(&written)),
                label,
                Vec::new(),
                Some(help),
            );
        }
        if !self.wants(Class::Structure) {
            return;
        }
        for a in decl.attributes.iter().filter(|a| a.required) {
            let present = el
                .node
                .attributes()
                .any(|x| x.namespace().is_none() && x.name() == a.name);
            if present || prefixed_required.contains(&a.name) {
                continue;
            }
            let example = match a.ty {
                SimpleType::Enumeration(values) => {
                    let shown: Vec<String> = distinct(values)
                        .iter()
                        .map(|v| format!("`{}=\"{v}\"`", a.name))
                        .collect();
                    match shown.split_last() {
                        Some((last, rest)) if !rest.is_empty() => {
                            format!("{} or {last}", rest.join(", "))
                        }
                        _ => shown.join(""),
                    }
                }
                _ => format!("`{}=\"…\"`", a.name),
            };
            self.push(
                Class::Structure,
                el.name_span.clone(),
                format!("{name} has no `{}` attribute", a.name),
                format!("`{}` is required", a.name),
                Vec::new(),
                Some(format!("add {example}")),
            );
        }
    }

    fn simple(
        &mut self,
        decl: &'static ElementDecl,
        ty: SimpleType,
        el: &Element<'a>,
        optional: bool,
    ) {
        let base = el.base();
        if let Some(inner) = el.node.children().find(|n| n.is_element()) {
            if self.wants(Class::Structure) {
                let name = self.name(el);
                let inner_el = Element::new(inner, base, self.source);
                let inner_name = self.name(&inner_el);
                let help = match ty {
                    SimpleType::String | SimpleType::MaxLength(_) => format!(
                        "{name} holds plain text: escape markup as `&lt;…&gt;` or wrap the text in `<![CDATA[…]]>`"
                    ),
                    _ => format!(
                        "put only the value inside {name} (no markup); check for a missing closing tag"
                    ),
                };
                self.push(
                    Class::Structure,
                    inner_el.name_span.clone(),
                    format!("{inner_name} is not allowed inside {name}"),
                    "an element",
                    vec![(el.name_span.clone(), format!("{name} holds text only"))],
                    Some(help),
                );
            }
            return;
        }
        if !self.wants(Class::Value) {
            return;
        }
        let mut target = Target {
            what: String::new(),
            optional,
            attribute: false,
            extension: decl.extension,
        };
        // Valid values (nearly all) are judged on the text as roxmltree holds it, without
        // building a `Value` (needed only to place a finding) or any message text.
        let valid = match super::simple_text(el) {
            Some(text) => check_value(ty, text, &target).is_none(),
            None => false,
        };
        if valid {
            return;
        }
        let value = model::build_value(el.clone(), base, self.source);
        if check_value(ty, &value.text, &target).is_none() {
            return;
        }
        target.what = self.name(el);
        if let Some(p) = check_value(ty, &value.text, &target) {
            let span = if p.range.is_empty() {
                el.span.clone()
            } else {
                value.source_range(self.source, p.range.clone())
            };
            self.push(Class::Value, span, p.message, p.label, Vec::new(), p.help);
        }
    }

    fn empty_content(&mut self, el: &Element<'a>) {
        if !self.wants(Class::Structure) {
            return;
        }
        let base = el.base();
        let Some(node) = el
            .node
            .children()
            .find(|n| n.is_element() || n.node_type() == NodeType::Text)
        else {
            return;
        };
        let span = if node.is_element() {
            Element::new(node, base, self.source).name_span
        } else {
            let r = node.range();
            r.start + base..r.end + base
        };
        let name = self.name(el);
        let q = shown(el.qualified_name(self.source));
        let what = if node.is_element() {
            "an element"
        } else if model::is_xml_blank(node.text().unwrap_or("")) {
            "whitespace"
        } else {
            "text"
        };
        self.push(
            Class::Structure,
            span,
            format!("{name} must be empty"),
            format!("{what} inside {name}"),
            Vec::new(),
            Some(format!(
                "write it as `<{q}/>`: its schema allows no content, not even whitespace"
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::extension::VIDEO_DURATION;

    fn problems(xml: &str, class: Class) -> Vec<Problem> {
        let doc = roxmltree::Document::parse(xml).unwrap();
        let sitemap = crate::pipeline::model::Model::build(&doc, xml, 0);
        let mut out = check_root(&sitemap, class);
        for e in (0..sitemap.entries().len()).filter_map(|i| sitemap.filled(i)) {
            out.extend(
                check_entry(&sitemap, &e)
                    .0
                    .into_iter()
                    .filter(|p| p.class == class),
            );
        }
        out
    }

    /// The elements of `xml`'s entries as [`visit_declared`] reaches them, and as the shared
    /// walk records them: (node id, declaration's name, span) each.
    fn declared_both_ways(xml: &str) -> Option<(Vec<String>, Vec<String>)> {
        let doc = roxmltree::Document::parse(xml).ok()?;
        let sitemap = crate::pipeline::model::Model::build(&doc, xml, 0);
        let (mut visited, mut recorded) = (Vec::new(), Vec::new());
        for e in (0..sitemap.entries().len()).filter_map(|i| sitemap.filled(i)) {
            let show = |el: &Element<'_>, decl: &ElementDecl| {
                format!("{:?} {} {:?}", el.node.id(), decl.name, el.span)
            };
            visit_declared(xml, &e, &mut |el, decl| visited.push(show(el, decl)));
            for d in check_entry(&sitemap, &e).1 {
                let el = d.element(&e)?;
                assert_eq!(el.name_span, Element::new(el.node, 0, xml).name_span);
                recorded.push(show(&el, d.decl));
            }
        }
        Some((visited, recorded))
    }

    /// The shared walk records exactly the elements `visit_declared` reaches, in its order: on
    /// elements in and out of order, duplicated, misplaced, nested in the wrong extension,
    /// unknown, and on every case of the project's corpus.
    #[test]
    fn recorded_elements_are_those_visit_declared_reaches() {
        let xml = format!(
            "{HEAD}<url><loc>https://e.com/</loc>\
             <image:loc>https://e.com/stray.jpg</image:loc>\
             <image:image><image:title>t</image:title><image:loc>https://e.com/a.jpg</image:loc>\
             <image:loc>https://e.com/b.jpg</image:loc><image:bogus/><video:title>v</video:title>\
             <image:image><image:loc>https://e.com/n.jpg</image:loc></image:image></image:image>\
             <video:video><video:title>v</video:title><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc>\
             <video:description>d</video:description><video:content_loc>https://e.com/v.mp4</video:content_loc>\
             <video:uploader info=\"https://e.com/u\">u</video:uploader><video:duration>7</video:duration>\
             <video:tvshow><video:show_title>s</video:show_title></video:tvshow></video:video>\
             <video:duration>9</video:duration></url></urlset>"
        );
        let (visited, recorded) = declared_both_ways(&xml).expect("parses");
        assert!(visited.len() >= 12, "{visited:?}");
        assert_eq!(recorded, visited);
        let mut files = 0;
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/corpus"
        ))];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("corpus dir").flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|x| x == "xml") {
                    let Ok(text) = std::fs::read_to_string(&path) else {
                        continue;
                    };
                    if let Some((visited, recorded)) = declared_both_ways(&text) {
                        assert_eq!(recorded, visited, "{}", path.display());
                        files += usize::from(!visited.is_empty());
                    }
                }
            }
        }
        assert!(
            files >= 20,
            "only {files} corpus files with extension elements"
        );
    }

    const HEAD: &str = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">"#;

    #[test]
    fn walker_sorts_problems_into_classes() {
        let xml = format!(
            "{HEAD}<image:image><image:loc>https://e.com/a.jpg</image:loc></image:image>\
             <url><loc>https://e.com/</loc><image:loc>x</image:loc>\
             <image:image><image:title>t</image:title><image:loc>%</image:loc></image:image></url></urlset>"
        );
        let placement: Vec<String> = problems(&xml, Class::Placement)
            .into_iter()
            .map(|p| p.message)
            .collect();
        assert_eq!(
            placement,
            [
                "`<image:image>` is outside any `<url>`",
                "`<image:loc>` must be inside `<image:image>`"
            ]
        );
        let structure: Vec<String> = problems(&xml, Class::Structure)
            .into_iter()
            .map(|p| p.message)
            .collect();
        assert_eq!(
            structure,
            ["`<image:loc>` must come before `<image:title>`"]
        );
        let value: Vec<(String, String)> = problems(&xml, Class::Value)
            .into_iter()
            .map(|p| (xml[p.span.clone()].to_string(), p.message))
            .collect();
        assert_eq!(
            value,
            [(
                "%".to_string(),
                "`%` is not a valid percent-escape".to_string()
            )]
        );
    }

    #[test]
    fn visit_entry_reaches_every_declared_element() {
        let xml = format!(
            "{HEAD}<url><loc>https://e.com/</loc><video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc>\
             <video:title>t</video:title><video:description>d</video:description><video:duration>60</video:duration>\
             <video:tvshow><video:show_title>s</video:show_title><video:video_type>full</video:video_type></video:tvshow>\
             </video:video></url></urlset>"
        );
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let sitemap = crate::pipeline::model::Model::build(&doc, &xml, 0);
        let mut seen = Vec::new();
        visit_entry(&sitemap, &sitemap.filled(0).unwrap(), &mut |el, decl| {
            seen.push((el.local_name().to_string(), decl.name));
        });
        let names: Vec<&str> = seen.iter().map(|(_, d)| *d).collect();
        assert_eq!(
            names,
            [
                "video",
                "thumbnail_loc",
                "title",
                "description",
                "duration",
                "tvshow",
                "show_title",
                "video_type"
            ]
        );
        let mut durations = 0;
        visit_entry(&sitemap, &sitemap.filled(0).unwrap(), &mut |_, decl| {
            durations += usize::from(std::ptr::eq(decl, &VIDEO_DURATION));
        });
        assert_eq!(durations, 1);
    }

    #[test]
    fn deep_nesting_is_not_recursed_into() {
        let depth = 20_000;
        let xml = format!(
            "{HEAD}<url><loc>https://e.com/</loc>{}{}</url></urlset>",
            "<video:video>".repeat(depth),
            "</video:video>".repeat(depth)
        );
        let options = roxmltree::ParsingOptions {
            nodes_limit: u32::MAX,
            ..roxmltree::ParsingOptions::default()
        };
        let Ok(doc) = roxmltree::Document::parse_with_options(&xml, options) else {
            return; // the parser's own depth limit; nothing for the walker to do
        };
        let sitemap = crate::pipeline::model::Model::build(&doc, &xml, 0);
        let placement: Vec<_> = check_entry(&sitemap, &sitemap.filled(0).unwrap())
            .0
            .into_iter()
            .filter(|p| p.class == Class::Placement)
            .collect();
        assert_eq!(placement.len(), 1);
    }
}
