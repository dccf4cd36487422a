//! Rule `namespace`: the root (or a sitemap element) is not in the sitemaps.org 0.9 namespace.

use std::borrow::Cow;

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::{
    detach, inside, Child, ChildKind, Element, Entry, Kind, RawAttribute, Sitemap, Tag,
};
use crate::rule::{Collector, Context, Rule};
use crate::values::namespace::{diagnose, is_sitemap_like, NOT_SITEMAP, SITEMAP_NS};

declare_rule! {
    /// ## What it does
    /// Checks that `<urlset>` or `<sitemapindex>` is in exactly the namespace
    /// `http://www.sitemaps.org/schemas/sitemap/0.9`, and that `url`, `sitemap`, `loc`, `lastmod`,
    /// `changefreq` and `priority` elements are in the same namespace as the root. It recognises the
    /// usual mistakes: no `xmlns` at all, Google's retired `0.84` and `0.9` namespaces, `https`, a
    /// trailing slash, `www` missing, the schema's URL instead of the namespace, wrong case, and
    /// typos; and, for entries, an `xmlns=""` that moves them out of the namespace, or a prefixed
    /// root (`<sm:urlset>`) whose children lack the prefix; and elements inside a sitemap whose own
    /// `xmlns` is one of those mistakes (`<loc xmlns="…/0.9/">`), which search engines skip. The rest of the file is checked in the
    /// namespace the root uses, so one mistake gives one error, not one per element: elements that
    /// are outside the namespace for the same reason are reported together.
    ///
    /// ## Why is this bad?
    /// XML elements are identified by namespace and name. Search Console reports "Incorrect
    /// namespace"; schema validators reject every element of the file.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.google.com/schemas/sitemap/0.84">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// The root's namespace declaration is replaced by `http://www.sitemaps.org/schemas/sitemap/0.9` when
    /// it is one of the near misses above (Google's retired `0.84`, `https`, a trailing slash, a typo,
    /// wrong case): a safe fix, since every such file means the sitemap namespace. It is not offered when
    /// the wrong namespace is also written elsewhere in the file (an element or a `schemaLocation` would
    /// then be left behind), nor for a missing `xmlns`, an unrelated namespace or elements declared
    /// apart from the root.
    ///
    /// ## References
    /// - sitemaps.org protocol, "XML tag definitions": "Specify the namespace (protocol standard) within the `<urlset>` tag"
    /// - `sitemap.xsd`: `targetNamespace="http://www.sitemaps.org/schemas/sitemap/0.9"`
    pub static META = {
        name: "namespace",
        category: Structure,
        severity: Error,
        fix: Safe,
        summary: "the root is not in the `http://www.sitemaps.org/schemas/sitemap/0.9` namespace",
    }
}

/// The `xmlns` (or `xmlns:prefix`) attribute of `element` that declares the namespace of its name.
fn declaration(element: &Element<'_>, source: &str) -> Option<RawAttribute> {
    let wanted = match element.prefix(source) {
        Some(prefix) => format!("xmlns:{prefix}"),
        None => "xmlns".to_string(),
    };
    element
        .raw_attributes(source)
        .into_iter()
        .find(|a| source.get(a.name.clone()) == Some(wanted.as_str()))
}

/// The fix of a root declared in a near miss `ns` of the sitemap namespace: the declaration's
/// value replaced by the exact one. None when `ns` is not a near miss, or is written anywhere
/// else in the file (an element or a `schemaLocation` that repeats it would then be left in
/// the old namespace, or need a fix of its own).
fn near_miss_fix(source: &str, ns: &str, decl: RawAttribute) -> Option<Fix> {
    let near = diagnose(ns) != NOT_SITEMAP;
    let elsewhere = source.matches(ns).nth(1).is_some();
    (near && !elsewhere && source.get(decl.value.clone()) == Some(ns)).then(|| {
        Fix::safe(
            format!("write the namespace `{SITEMAP_NS}`"),
            vec![Edit::replace(decl.value, SITEMAP_NS)],
        )
    })
}

fn describe(ns: Option<&str>) -> String {
    ns.map_or("no namespace".to_string(), |n| format!("`{n}`"))
}

impl Rule for Check {
    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        if sitemap.kind == Kind::Other {
            return;
        }
        let source = sitemap.source;
        let root = crate::diagnostic::shown(sitemap.root.qualified_name(source));
        match sitemap.namespace {
            Some(SITEMAP_NS) => {}
            None => cx.report(
                Diagnostic::new(
                    &META,
                    sitemap.root.name_span.clone(),
                    format!("`<{root}>` has no namespace"),
                )
                .with_label(if declaration(&sitemap.root, source).is_some() {
                    "`xmlns=\"\"` means no namespace"
                } else {
                    "no `xmlns` declaration"
                })
                .with_help(format!(
                    "declare the sitemap namespace: `<{root} xmlns=\"{SITEMAP_NS}\">`"
                )),
            ),
            Some(ns) => {
                let decl = declaration(&sitemap.root, source);
                let span = decl
                    .as_ref()
                    .map_or(sitemap.root.name_span.clone(), |d| d.value.clone());
                let attr = decl
                    .as_ref()
                    .and_then(|d| source.get(d.name.clone()))
                    .unwrap_or("xmlns");
                let d =
                    Diagnostic::new(&META, span, format!("wrong namespace `{ns}` on `<{root}>`"))
                        .with_label(diagnose(ns))
                        .with_help(format!("use exactly `{attr}=\"{SITEMAP_NS}\"`"));
                cx.report(match decl.and_then(|d| near_miss_fix(source, ns, d)) {
                    Some(fix) => d.with_fix(fix),
                    None => d,
                });
            }
        }
    }

    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        if sitemap.kind == Kind::Other {
            return None;
        }
        Some(Box::new(Misplaced::default()))
    }
}

/// Elements listed in a group's note, besides its first.
const LISTED: usize = 5;

/// Elements outside the root's namespace that share a namespace: reported as one diagnostic.
struct Group<'a> {
    ns: Option<Cow<'a, str>>,
    /// The first in document order, and its local name.
    first: Tag,
    local: Box<str>,
    /// Start offsets of the names of the first `LISTED + 1` in document order.
    starts: Vec<usize>,
    count: usize,
}

/// Entries, and fields of entries, outside the root's namespace. Only the elements that leave the
/// namespace are counted (a `<loc>` inside an `<url xmlns="">` is out because its `<url>` is), and
/// elements in the same wrong namespace are reported together.
#[derive(Default)]
struct Misplaced<'a> {
    groups: Vec<Group<'a>>,
    near: NearSitemap<'a>,
}

impl<'a> Misplaced<'a> {
    fn add(&mut self, source: &'a str, element: &Element<'_>) {
        let ns = element.namespace();
        let at = element.name_span.start;
        let Some(group) = self.groups.iter_mut().find(|g| g.ns.as_deref() == ns) else {
            self.groups.push(Group {
                ns: ns.map(|ns| detach(source, ns)),
                first: element.tag(),
                local: element.local_name().into(),
                starts: vec![at],
                count: 1,
            });
            return;
        };
        group.count += 1;
        if at < group.first.name_span.start {
            group.first = element.tag();
            group.local = element.local_name().into();
        }
        let i = group.starts.partition_point(|&s| s < at);
        if i <= LISTED {
            group.starts.insert(i, at);
            group.starts.truncate(LISTED + 1);
        }
    }
}

impl<'a> Collector<'a> for Misplaced<'a> {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        let source = sitemap.source;
        if !entry.namespace_ok {
            self.add(source, &entry.element);
        }
        for child in &entry.children {
            if matches!(child.kind, ChildKind::Field(_))
                && !child.namespace_ok
                && child.element.namespace() != entry.element.namespace()
            {
                self.add(source, &child.element);
            }
            if self.near.test(sitemap, child) {
                self.add(source, &child.element);
            }
        }
    }

    fn root_child(&mut self, sitemap: &Sitemap<'a>, child: &Child<'_>, _cx: &mut Context<'_>) {
        if self.near.test(sitemap, child) {
            self.add(sitemap.source, &child.element);
        }
    }

    fn finish(mut self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        self.groups.sort_by_key(|g| g.first.name_span.start);
        report_misplaced(sitemap, &self.groups, cx);
    }
}

fn report_misplaced(sitemap: &Sitemap<'_>, groups: &[Group<'_>], cx: &mut Context<'_>) {
    let source = sitemap.source;
    let root = crate::diagnostic::shown(sitemap.root.qualified_name(source));
    for group in groups {
        let (ns, first) = (group.ns.as_deref(), &group.first);
        let name = crate::diagnostic::shown(first.qualified_name(source));
        let own_decl = first
            .raw_attributes(source)
            .into_iter()
            .find(|a| source.get(a.name.clone()) == Some("xmlns"));
        let help = if let Some(decl) = own_decl {
            format!(
                "remove `{}` from `<{name}>`",
                source.get(decl.whole.clone()).unwrap_or("xmlns")
            )
        } else if let (None, Some(prefix)) = (first.prefix(source), sitemap.root.prefix(source)) {
            format!(
                "the root is written with the prefix `{prefix}:`, so its children need it too (`<{prefix}:{name}>`); \
                 or drop the prefixes and declare the namespace as the default: `<{}>`",
                default_declaration(sitemap)
            )
        } else if let Some(prefix) = first.prefix(source) {
            format!(
                "the prefix `{prefix}:` is bound to {}: write `<{}>` in the namespace of the root",
                describe(ns),
                group.local
            )
        } else {
            format!("put `<{name}>` in the namespace of `<{root}>`")
        };
        let mut d = Diagnostic::new(
            &META,
            first.name_span.clone(),
            format!("`<{name}>` is not in the namespace of `<{root}>`"),
        )
        .with_label(format!("in {}", describe(ns)))
        .with_secondary(
            sitemap.root.name_span.clone(),
            format!("`<{root}>` is in {}", describe(sitemap.namespace)),
        );
        if group.count > 1 {
            let lines: Vec<String> = group.starts[1..]
                .iter()
                .map(|&at| line_of(source, at).to_string())
                .collect();
            let more = if group.count > LISTED + 1 {
                ", …"
            } else {
                ""
            };
            let n = group.count - 1;
            d = d.with_note(format!(
                "the same applies to {n} more element{} (line{} {}{more})",
                if n == 1 { "" } else { "s" },
                if n == 1 { "" } else { "s" },
                lines.join(", "),
            ));
        }
        cx.report(d.with_help(help));
    }
}

/// Finds children that the model counts as extension elements because their namespace differs
/// from the root's, though it is a misspelling of the sitemap namespace (`<loc
/// xmlns="http://www.sitemaps.org/schemas/sitemap/0.9/">`): search engines ignore them. Verdicts
/// are remembered per namespace, so a file of a million `<image:image>` costs a comparison each.
#[derive(Default)]
struct NearSitemap<'a> {
    /// Whether the root is in the sitemap namespace (the only case this looks further), once
    /// known: the same for every entry of the file.
    root_in_sitemap_ns: Option<bool>,
    seen: Vec<(Cow<'a, str>, bool)>,
}

impl<'a> NearSitemap<'a> {
    fn test(&mut self, sitemap: &Sitemap<'a>, child: &Child<'_>) -> bool {
        if child.kind != ChildKind::Foreign {
            return false;
        }
        let root_ok = *self
            .root_in_sitemap_ns
            .get_or_insert_with(|| sitemap.namespace == Some(SITEMAP_NS));
        if !root_ok {
            return false;
        }
        let Some(ns) = child.element.namespace() else {
            return false;
        };
        // A document keeps one copy of each namespace URI: compare addresses first. A file
        // checked in pieces has a copy per piece: on a match by text, the entry takes the new
        // address when it is in the source (which outlives every piece's tree).
        if let Some((n, near)) = self.seen.iter_mut().find(|(n, _)| {
            (std::ptr::eq(n.as_ptr(), ns.as_ptr()) && n.len() == ns.len()) || *n == ns
        }) {
            if !std::ptr::eq(n.as_ptr(), ns.as_ptr()) {
                if let Some(here) = inside(sitemap.source, ns) {
                    *n = Cow::Borrowed(here);
                }
            }
            return *near;
        }
        let near = is_sitemap_like(ns);
        if self.seen.len() < 64 {
            self.seen.push((detach(sitemap.source, ns), near));
        }
        near
    }
}

/// `urlset xmlns="…"`: the root's local name with a default namespace declaration.
fn default_declaration(sitemap: &Sitemap<'_>) -> String {
    format!(
        "{} xmlns=\"{}\"",
        sitemap.root.local_name(),
        sitemap.namespace.unwrap_or(SITEMAP_NS)
    )
}

/// 1-based line number of byte offset `at`.
fn line_of(source: &str, at: usize) -> usize {
    source
        .get(..at)
        .map_or(0, |s| s.bytes().filter(|&b| b == b'\n').count())
        + 1
}
