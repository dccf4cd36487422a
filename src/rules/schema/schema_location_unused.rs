//! Rule `schema-location-unused`: `xsi:schemaLocation` pairs a namespace that no element of the file is in.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::Sitemap;
use crate::rule::{Collector, Context, Rule};

use super::{namespace_miss, schema_location_on, shown, Header, HeaderCollector, Usage};

declare_rule! {
    /// ## What it does
    /// Reports a pair of the root's `xsi:schemaLocation` whose namespace no element of the file is
    /// in: a generator that lists Google's image schema in every sitemap, images or not, or a pair
    /// left over from an extension the file no longer uses. The sitemap namespace always counts as
    /// used: the root is a `<urlset>` or `<sitemapindex>` (when it is in another namespace,
    /// `namespace` reports that). A pair whose
    /// namespace is a misspelling of a known one is left to `schema-location`; an unused pair's
    /// location is not checked (removing the pair is the fix).
    ///
    /// This is only information: the header is an optional hint, and a pair too many does not
    /// make validation fail. It is a separate rule from `schema-location` so that its severity can
    /// be set on its own.
    ///
    /// ## Why is this bad?
    /// A validator that honours the header loads the unused schema for nothing, and the header no
    /// longer says what the file holds.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///     xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    ///     xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd http://www.google.com/schemas/sitemap-image/1.1 http://www.google.com/schemas/sitemap-image/1.1/sitemap-image.xsd">
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
    /// ## References
    /// - XML Schema Part 1 §4.3.2: `xsi:schemaLocation` pairs are hints for the namespaces the
    ///   document uses
    pub static META = {
        name: "schema-location-unused",
        category: Structure,
        severity: Info,
        defers_to: ["schema-location"],
        summary: "`xsi:schemaLocation` pairs a namespace that no element of the file is in",
    }
}

fn report(_sitemap: &Sitemap<'_>, headers: &[Header<'_>], usage: &Usage<'_>, cx: &mut Context<'_>) {
    let misspelled_reported = schema_location_on(cx.settings);
    let mut reported: Vec<&str> = Vec::new();
    for header in headers.iter().filter(|h| !h.no_namespace) {
        for (ns, loc) in header.pairs() {
            if usage.is_used(ns.text)
                || reported.contains(&ns.text)
                || (misspelled_reported && namespace_miss(ns.text).is_some())
            {
                continue;
            }
            reported.push(ns.text);
            let (attr, n, l) = (header.written, shown(ns.text), shown(loc.text));
            cx.report(
                Diagnostic::new(
                    &META,
                    ns.span.clone(),
                    format!("`{attr}` names `{n}`, a namespace no element of the file is in"),
                )
                .with_label("unused namespace")
                .with_secondary(loc.span.clone(), "its schema")
                .with_help(format!(
                    "remove the pair `{n} {l}` (harmless, but not needed)"
                )),
            );
        }
    }
}

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        HeaderCollector::boxed(sitemap, report)
    }
}
