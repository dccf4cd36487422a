//! Rule `schema-location`: the root's `xsi:schemaLocation` is not pairs, or names a schema other than the official one.

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::{Sitemap, SITEMAP_NS, XSI_NS};
use crate::rule::{Collector, Context, Rule};

use super::{
    location_miss, namespace_miss, official, shown, unexpected_attribute_on, Header,
    HeaderCollector, LocationMiss, Uri, Usage, EXTENSION_SCHEMAS, SITEMAP_XSD,
};

declare_rule! {
    /// ## What it does
    /// Checks the schema header of the root, `xsi:schemaLocation` and
    /// `xsi:noNamespaceSchemaLocation`, the way schema-aware validators (Xerces-based tools, XML
    /// editors, some SEO suites) read it:
    /// - `xsi:schemaLocation` is a list of pairs, a namespace then the location of its schema: an
    ///   odd number of URIs leaves the last one unpaired;
    /// - the location for a known namespace is its official schema: for
    ///   `http://www.sitemaps.org/schemas/sitemap/0.9`,
    ///   `http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd` on a `<urlset>` and
    ///   `http://www.sitemaps.org/schemas/sitemap/0.9/siteindex.xsd` on a `<sitemapindex>`; for
    ///   Google's image, video, news (and retired mobile) extensions, the namespace followed by
    ///   `/sitemap-image.xsd` (`-video`, `-news`, `-mobile`). A near miss is named: the other root's
    ///   schema, another extension's schema, `https` where the schema is published at `http`, a
    ///   relative location, an old version, a typo;
    /// - a pair's namespace that is a misspelling of one of these namespaces (`https`, a trailing
    ///   slash, Google's retired `0.84` sitemap namespace, a typo, the location in the namespace's
    ///   place);
    /// - `xsi:noNamespaceSchemaLocation` on a root in a namespace: it names a schema for elements in
    ///   no namespace, so it cannot apply.
    ///
    /// Locations for other namespaces (`xhtml`, custom extensions) are not checked, nor those of
    /// namespaces no element of the file is in: `schema-location-unused` (an info, a rule of its
    /// own since a rule has one severity) suggests removing such a pair. A `schemaLocation` whose
    /// prefix is bound to another namespace than `http://www.w3.org/2001/XMLSchema-instance` is
    /// reported by `unexpected-attribute` (an error: the schemas reject it), and by this rule when
    /// that one is turned off; an undeclared prefix is `xml-syntax`. At most 64 pairs are checked.
    ///
    /// The header is optional: it is only a hint to validators, search engines ignore it, and a
    /// sitemap without it is fine. If it is there, it should be right.
    ///
    /// ## Why is this bad?
    /// Validators that honour the header load the schema it names: with the wrong one (a
    /// `<urlset>` pointing at `siteindex.xsd`) or none at all (an unpaired URI, a misspelled
    /// location) they reject a correct file, or validate it against the wrong rules. Tools that map
    /// the official locations to local copies (XML catalogs) match them character for character.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///     xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    ///     xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 http://www.sitemaps.org/schemas/sitemap/0.9/siteindex.xsd">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///     xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    ///     xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Or leave the header out: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`.
    ///
    /// ## Fix
    /// Correcting the location of a known namespace, and completing an unpaired known namespace or
    /// official location, is a safe fix: it changes only the hint, never what the file lists.
    /// Rewriting a pair whose namespace is misspelled is an unsafe fix: the schema then applies to
    /// other elements. Findings carry these fixes for `--fix`; when no correct value can be
    /// derived (an unknown URI, a value with character references), the help says what to write.
    ///
    /// ## References
    /// - sitemaps.org protocol, "Validating your Sitemap": the `xsi:schemaLocation` header for
    ///   `sitemap.xsd` and `siteindex.xsd`
    /// - XML Schema Part 1 §4.3.2: `xsi:schemaLocation` is pairs of a namespace and a location,
    ///   `xsi:noNamespaceSchemaLocation` a location for no-namespace elements; both are hints
    /// - Google's extension schemas: `sitemap-image.xsd`, `sitemap-video.xsd`, `sitemap-news.xsd`
    pub static META = {
        name: "schema-location",
        category: Structure,
        severity: Warning,
        fix: Mixed,
        defers_to: ["unexpected-attribute"],
        summary: "`xsi:schemaLocation` is not namespace/location pairs, or names the wrong schema",
    }
}

fn check_pair(
    sitemap: &Sitemap<'_>,
    usage: &Usage<'_>,
    header: &Header<'_>,
    ns: &Uri<'_>,
    loc: &Uri<'_>,
) -> Option<Diagnostic> {
    let attr = header.written;
    if let Some((known, why)) = namespace_miss(ns.text) {
        let xsd = official(known, sitemap.kind).unwrap_or(SITEMAP_XSD);
        let fix = pair_fix(ns, loc, known, xsd);
        return Some(fixed(
            Diagnostic::new(
                &META,
                ns.span.clone(),
                format!(
                    "`{}` in `{attr}` is not the namespace `{known}`",
                    shown(ns.text)
                ),
            )
            .with_label(why)
            .with_note("validators apply a schema only to elements of the namespace paired with it")
            .with_help(format!("write the pair as `{known} {xsd}`")),
            fix,
        ));
    }
    if !usage.is_used(ns.text) {
        return None; // `schema-location-unused` suggests removing the pair
    }
    let xsd = official(ns.text, sitemap.kind)?;
    let miss = location_miss(loc.text, xsd)?;
    let root = sitemap.root.qualified_name(sitemap.source);
    let d = match miss {
        LocationMiss::OtherSchema(other) => {
            let meant = if ns.text == SITEMAP_NS {
                format!("`<{root}>`")
            } else {
                format!("`{}`", ns.text)
            };
            Diagnostic::new(
                &META,
                loc.span.clone(),
                format!("`{}` is {other}, not of {meant}", loc.text),
            )
            .with_label(format!("wrong schema for {meant}"))
        }
        LocationMiss::Https => Diagnostic::new(
            &META,
            loc.span.clone(),
            format!("the schema of `{}` is published at `http://`, not `https://`", ns.text),
        )
        .with_label("not the official location")
        .with_note("tools that map official schema locations to local copies (XML catalogs) compare them character for character"),
        LocationMiss::Relative => Diagnostic::new(
            &META,
            loc.span.clone(),
            format!("relative schema location `{}` for `{}`", shown(loc.text), ns.text),
        )
        .with_label("resolved against the sitemap's own address, where no schema is published"),
        LocationMiss::Stale => Diagnostic::new(
            &META,
            loc.span.clone(),
            format!("`{}` is an old version of the schema of `{}`", shown(loc.text), ns.text),
        )
        .with_label("outdated schema"),
        LocationMiss::Typo => Diagnostic::new(
            &META,
            loc.span.clone(),
            format!("misspelled schema location for `{}`", ns.text),
        )
        .with_label(format!("did you mean `{xsd}`?")),
        LocationMiss::Unofficial => Diagnostic::new(
            &META,
            loc.span.clone(),
            format!("`{}` is not the official schema location for `{}`", shown(loc.text), ns.text),
        )
        .with_label("validators that honour the header load this address instead"),
    };
    let fix = loc
        .replace(xsd)
        .map(|edit| Fix::safe(format!("use `{xsd}`"), vec![edit]));
    Some(fixed(d.with_help(format!("use `{xsd}`")), fix))
}

/// The odd URI of a `schemaLocation` with an odd count.
fn check_unpaired(sitemap: &Sitemap<'_>, header: &Header<'_>, last: &Uri<'_>) -> Diagnostic {
    let t = shown(last.text);
    let (help, edit) = if let Some(xsd) = official(last.text, sitemap.kind) {
        (
            format!("add the location of its schema after it: `{t} {xsd}`"),
            Edit::insert(last.span.end, format!(" {xsd}")),
        )
    } else if let Some(ns) = [SITEMAP_NS]
        .into_iter()
        .chain(EXTENSION_SCHEMAS.iter().map(|(n, _)| *n))
        .find(|ns| official(ns, sitemap.kind) == Some(last.text))
    {
        (
            format!("put its namespace before it: `{ns} {t}`"),
            Edit::insert(last.span.start, format!("{ns} ")),
        )
    } else {
        let help = format!("pair it with a namespace or location, or remove `{t}`");
        let d = unpaired(header, last, &t);
        return d.with_help(help);
    };
    let fix = last.exact.then(|| Fix::safe(help.clone(), vec![edit]));
    fixed(unpaired(header, last, &t).with_help(help), fix)
}

/// `d` with `fix`, if there is one.
fn fixed(d: Diagnostic, fix: Option<Fix>) -> Diagnostic {
    match fix {
        Some(fix) => d.with_fix(fix),
        None => d,
    }
}

/// The finding on the odd URI `t` (`last`, shown) of a `schemaLocation`, without help.
fn unpaired(header: &Header<'_>, last: &Uri<'_>, t: &str) -> Diagnostic {
    let attr = header.written;
    Diagnostic::new(
        &META,
        last.span.clone(),
        format!("`{attr}` holds an odd number of URIs: `{t}` is not paired"),
    )
    .with_label("unpaired URI")
    .with_note(format!(
        "`{attr}` is a list of pairs: a namespace, then the location of its schema"
    ))
}

/// Rewrites a pair whose namespace `ns` misspells `known` as `known xsd`. Unsafe: the schema
/// then applies to the elements of `known`, not to those (if any) of the misspelled namespace.
fn pair_fix(ns: &Uri<'_>, loc: &Uri<'_>, known: &str, xsd: &str) -> Option<Fix> {
    let mut edits = vec![ns.replace(known)?];
    if loc.text != xsd {
        edits.push(loc.replace(xsd)?);
    }
    Some(Fix::unsafe_(
        format!("write the pair as `{known} {xsd}`"),
        edits,
    ))
}

/// `xsi:noNamespaceSchemaLocation` on a root in a namespace.
fn check_no_namespace(sitemap: &Sitemap<'_>, header: &Header<'_>, ns: &str) -> Diagnostic {
    let root = sitemap.root.qualified_name(sitemap.source);
    let span = header
        .uris
        .first()
        .map_or(header.name_span.clone(), |u| u.span.clone());
    let prefix = header.written.split_once(':').map_or("xsi", |(p, _)| p);
    let help = match official(ns, sitemap.kind) {
        Some(xsd) => {
            format!("replace it with `{prefix}:schemaLocation=\"{ns} {xsd}\"`, or remove it")
        }
        None => {
            "remove it, or name the schema with `xsi:schemaLocation=\"namespace location\"`".into()
        }
    };
    Diagnostic::new(
        &META,
        span,
        format!(
            "`{}` cannot apply to `<{root}>`, which is in a namespace",
            header.written
        ),
    )
    .with_label("a schema for elements in no namespace")
    .with_secondary(sitemap.root.name_span.clone(), format!("in `{ns}`"))
    .with_help(help)
}

/// An attribute named like a schema header in another namespace than XML Schema instance.
fn check_binding(header: &Header<'_>) -> Diagnostic {
    let local = if header.no_namespace {
        "noNamespaceSchemaLocation"
    } else {
        "schemaLocation"
    };
    let d = Diagnostic::new(
        &META,
        header.name_span.clone(),
        format!(
            "`{}` is not an XML Schema instance attribute",
            header.written
        ),
    )
    .with_label("validators do not read it as a schema header");
    match (header.namespace, header.written.split_once(':')) {
        (Some(ns), Some((prefix, _))) => d.with_help(format!(
            "`{prefix}` is bound to `{ns}`: declare `xmlns:{prefix}=\"{XSI_NS}\"`"
        )),
        _ => d.with_help(format!(
            "write it as `xsi:{local}` and declare `xmlns:xsi=\"{XSI_NS}\"` on the root"
        )),
    }
}

fn report(sitemap: &Sitemap<'_>, headers: &[Header<'_>], usage: &Usage<'_>, cx: &mut Context<'_>) {
    for header in headers {
        if header.namespace != Some(XSI_NS) && !unexpected_attribute_on(cx.settings) {
            cx.report(check_binding(header));
        }
        if header.no_namespace {
            if let Some(ns) = sitemap.namespace {
                cx.report(check_no_namespace(sitemap, header, ns));
            }
            continue;
        }
        for (ns, loc) in header.pairs() {
            if let Some(d) = check_pair(sitemap, usage, header, ns, loc) {
                cx.report(d);
            }
        }
        if header.count % 2 == 1 {
            if let Some(last) = &header.last {
                cx.report(check_unpaired(sitemap, header, last));
            }
        }
    }
}

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        HeaderCollector::boxed(sitemap, report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(xml: &str, settings: &crate::Settings) -> Vec<(String, String)> {
        crate::check_reader("t.xml", xml.as_bytes(), settings)
            .expect("checked")
            .diagnostics
            .iter()
            .map(|d| (d.rule.name.to_string(), d.message.clone()))
            .collect()
    }

    const WRONG_BINDING: &str = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xsi="http://www.w3.org/2001/XMLSchema" xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd"><url><loc>https://www.example.com/</loc></url></urlset>"#;

    #[test]
    fn a_wrong_binding_is_reported_once() {
        // By `unexpected-attribute` when it is on…
        let all = findings(WRONG_BINDING, &crate::Settings::default());
        assert_eq!(all.len(), 1, "{all:?}");
        assert_eq!(all[0].0, "unexpected-attribute");
        // …and by this rule when it is off.
        let alone = findings(WRONG_BINDING, &crate::Settings::only("schema-location"));
        assert_eq!(
            alone,
            [(
                "schema-location".to_string(),
                "`xsi:schemaLocation` is not an XML Schema instance attribute".to_string()
            )]
        );
    }

    /// `xml` with the fix of its only `schema-location` finding applied, and its applicability.
    fn fixed_text(xml: &str) -> Option<(String, &'static str)> {
        let report = crate::check_reader(
            "t.xml",
            xml.as_bytes(),
            &crate::Settings::only("schema-location"),
        )
        .expect("checked");
        assert_eq!(report.diagnostics.len(), 1, "{:?}", report.diagnostics);
        let fix = report.diagnostics[0].fix.as_ref()?;
        let mut out = xml.to_string();
        for e in fix.edits.iter().rev() {
            out.replace_range(e.range.clone(), &e.replacement);
        }
        Some((out, fix.applicability.as_str()))
    }

    #[test]
    fn known_pairs_are_fixed_to_the_official_header() {
        let header = |value: &str| {
            format!(
                r#"<urlset xmlns="{SITEMAP_NS}" xmlns:xsi="{XSI_NS}" xsi:schemaLocation="{value}"><url><loc>https://www.example.com/</loc></url></urlset>"#
            )
        };
        let good = header(&format!("{SITEMAP_NS} {SITEMAP_XSD}"));
        let safe = [
            format!("{SITEMAP_NS} http://www.sitemaps.org/schemas/sitemap/0.9/siteindex.xsd"),
            format!("{SITEMAP_NS} https://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd"),
            format!("{SITEMAP_NS} sitemap.xsd"),
            SITEMAP_NS.to_string(),
            SITEMAP_XSD.to_string(),
        ];
        for value in safe {
            assert_eq!(
                fixed_text(&header(&value)),
                Some((good.clone(), "safe")),
                "{value}"
            );
        }
        let swapped = header(&format!("{SITEMAP_XSD} {SITEMAP_NS}"));
        assert_eq!(fixed_text(&swapped), Some((good.clone(), "unsafe")));
        // Not derivable: no fix, only help.
        assert_eq!(fixed_text(&header("https://www.example.com/x")), None);
        // Spans of a value with character references are not exact: no fix.
        let referenced = header(&format!("{SITEMAP_NS}&#32;sitemap.xsd"));
        assert_eq!(fixed_text(&referenced), None);
    }

    #[test]
    fn a_value_with_character_references_is_read_decoded() {
        let xml = format!(
            r#"<urlset xmlns="{SITEMAP_NS}" xmlns:xsi="{XSI_NS}" xsi:schemaLocation="{SITEMAP_NS}&#32;sitemap.xsd"><url><loc>https://www.example.com/</loc></url></urlset>"#
        );
        let report = crate::check_reader(
            "t.xml",
            xml.as_bytes(),
            &crate::Settings::only("schema-location"),
        )
        .expect("checked");
        let d = &report.diagnostics[..];
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0]
            .message
            .starts_with("relative schema location `sitemap.xsd`"));
        // The whole value: the URI's own offsets are not known.
        let start = xml.find(&format!("\"{SITEMAP_NS}&")).unwrap() + 1;
        assert_eq!(d[0].primary.span, start..xml.find("\"><url>").unwrap());
    }

    #[test]
    fn a_huge_header_is_checked_in_bounded_work() {
        let pair = format!("{SITEMAP_NS} https://www.example.com/{} ", "x".repeat(40));
        let xml = format!(
            r#"<urlset xmlns="{SITEMAP_NS}" xmlns:xsi="{XSI_NS}" xsi:schemaLocation="{} {SITEMAP_NS}"><url><loc>https://www.example.com/</loc></url></urlset>"#,
            pair.repeat(20_000)
        );
        let found = findings(&xml, &crate::Settings::only("schema-location"));
        // The first MAX_PAIRS pairs are judged, and the odd count is seen at the very end.
        assert_eq!(found.len(), crate::rules::schema::MAX_PAIRS + 1);
        assert!(found.iter().any(|(_, m)| m.contains("odd number")));

        // Megabyte-long URIs: judged once each, and clipped in messages.
        let long = format!("https://www.example.com/{}", "x".repeat(4 << 20));
        let xml = format!(
            r#"<urlset xmlns="{SITEMAP_NS}" xmlns:xsi="{XSI_NS}" xsi:schemaLocation="{SITEMAP_NS} {long} {long}"><url><loc>https://www.example.com/</loc></url></urlset>"#
        );
        let report = crate::check_reader(
            "t.xml",
            xml.as_bytes(),
            &crate::Settings::only("schema-location"),
        )
        .expect("checked");
        assert_eq!(report.diagnostics.len(), 2);
        for d in &report.diagnostics {
            let text = format!("{} {:?} {:?}", d.message, d.help, d.notes);
            assert!(text.len() < 1_000, "{}", &text[..1_000]);
        }
    }
}
