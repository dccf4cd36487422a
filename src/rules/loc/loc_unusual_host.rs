//! Rule `loc-unusual-host`: the host of `<loc>` is valid to RFC 3986 but read otherwise by browsers and crawlers.

use crate::declare_rule;
use crate::pipeline::model::{Entry, Field, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::uri::ProblemKind;

declare_rule! {
    /// ## What it does
    /// Reports a host in `<loc>` that RFC 3986 allows as a registered name but that browsers and
    /// crawlers, which parse URLs the WHATWG way, read as something else:
    /// - a percent-encoded host (`www.ex%41mple.com`): they decode it (`www.example.com`) before
    ///   looking it up, so the URL they fetch is not the one written;
    /// - a host ending in a number without being four decimal numbers (`1.2.3`, `10.1`): they read
    ///   it as a shortened IPv4 address (`1.2.0.3`, `10.0.0.1`), not as a name.
    ///
    /// A four-part address with a part over 255 or a leading zero is `loc-invalid`.
    ///
    /// ## Why is this bad?
    /// The URL is valid, so schema validators accept it, but the page it leads a crawler to is not
    /// the one the text names, and URL comparisons (duplicates, scope, hosts) disagree between
    /// tools.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.ex%61mple.com/</loc></url>
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
    /// ## References
    /// - RFC 3986 §3.2.2 (a host that does not match `IPv4address` is a `reg-name`, which may be
    ///   percent-encoded)
    /// - WHATWG URL Standard, host parsing (percent-decoding, the IPv4 number parser)
    pub static META = {
        name: "loc-unusual-host",
        category: Url,
        severity: Warning,
        summary: "`<loc>` host is valid to RFC 3986 but browsers read it otherwise (percent-encoded, or a shortened IPv4 address)",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Loc) else {
            return;
        };
        // One finding per URL: the first unusual part of the host, the others labelled.
        let Some((d, first, _)) = super::problems_of_kind(
            &META,
            sitemap,
            value,
            ProblemKind::UnusualHost,
            "also percent-encoded",
        ) else {
            return;
        };
        let d = d.with_help_opt(first.help.clone());
        cx.report(d);
    }
}
