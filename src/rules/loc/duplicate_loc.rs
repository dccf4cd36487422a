//! Rule `duplicate-loc`: the same URL is listed twice, in one file or in two files of a set.

use std::collections::BinaryHeap;
use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Kind, Sitemap, Syntax};
use crate::rule::{Collector, Context, Rule, MAX_REPORTS_PER_RULE};

declare_rule! {
    /// ## What it does
    /// Reports a `<loc>` that repeats an earlier one of the same file, and labels the first.
    /// URLs are compared after normalising what does not change the resource: the case of the
    /// scheme and host, a default port (`:443`, `:80`), an empty path (`/`) and the case of
    /// percent-escapes (`%2f` = `%2F`). The path and query are compared exactly. Invalid URLs
    /// (`loc-invalid`) are not compared.
    ///
    /// When several files are checked together (see "Site checks" in docs/configuration.md), a URL
    /// listed in two sitemaps of the set is reported too, in the later file, naming the earlier.
    ///
    /// ## Why is this bad?
    /// Each URL should appear once: with two entries crawlers keep one `<lastmod>` (which one
    /// depends on the crawler), the URL counts twice against the 50,000-URL limit, and Search
    /// Console's submitted count is inflated. Duplicates usually come from a generator that
    /// merges sources (pages and posts, two languages) without de-duplicating.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/shoes</loc></url>
    ///   <url><loc>https://WWW.example.com:443/shoes</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/shoes</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - RFC 3986 §6.2.2 (syntax-based normalisation) and §6.2.3 (scheme-based normalisation)
    /// - Screaming Frog, "URLs In Multiple Sitemaps"; sitemap-verify `duplicate_loc`
    pub static META = {
        name: "duplicate-loc",
        category: Url,
        severity: Warning,
        summary: "the same URL is listed twice, in one file or across the files of a set",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        (sitemap.kind != Kind::Other)
            .then(|| Box::new(Seen { locs: Vec::new() }) as Box<dyn Collector<'a> + Send + 'a>)
    }
}

/// The compared `<loc>`s of a file, in document order: fingerprint and source span (16 bytes
/// each). The duplicates are found at the end, by sorting: a hash table probed once per URL
/// missed the cache on nearly every probe once it outgrew it (the probe was 8.6 % of the CPU
/// time on 50,000 URLs and 14.7 % on 1,000,000), while appending here is sequential.
struct Seen {
    locs: Vec<(u64, u32, u32)>,
}

impl<'a> Collector<'a> for Seen {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        let Some(loc) = entry.loc() else { return };
        let value = loc.trimmed();
        // An invalid URL is `loc-invalid`'s finding; comparing it would only repeat it.
        if value.is_empty() || loc.url_problems().iter().any(|p| p.kind.is_error()) {
            return;
        }
        let span = loc.span(sitemap.source);
        let (Ok(start), Ok(end)) = (u32::try_from(span.start), u32::try_from(span.end)) else {
            return;
        };
        self.locs.push((loc.url_key().fingerprint, start, end));
    }

    fn finish(mut self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        // Equal fingerprints together, each group in document order (starts are distinct and
        // grow along the document).
        self.locs.sort_unstable();
        // The earliest repeats (by start) that are shown, with the first of their group: a
        // heap of at most the cap, so a file of a million copies of one URL holds 1,000.
        let mut shown: BinaryHeap<(u32, u32, u32, u32)> = BinaryHeap::new();
        let mut repeats = 0usize;
        for group in self.locs.chunk_by(|a, b| a.0 == b.0) {
            let (_, first_start, first_end) = group[0];
            for &(_, start, end) in &group[1..] {
                repeats += 1;
                shown.push((start, end, first_start, first_end));
                if shown.len() > MAX_REPORTS_PER_RULE {
                    shown.pop();
                }
            }
        }
        let shown = shown.into_sorted_vec();
        cx.count_unreported(&META, repeats - shown.len());
        for (start, end, first_start, first_end) in shown {
            let span = start as usize..end as usize;
            cx.report(duplicate(
                sitemap,
                span,
                first_start as usize..first_end as usize,
            ));
        }
    }
}

/// The finding for the `<loc>` at `span`, which repeats the one at `first`.
fn duplicate(sitemap: &Sitemap<'_>, span: Range<usize>, first: Range<usize>) -> Diagnostic {
    let what = if sitemap.kind == Kind::Index {
        "sitemap"
    } else {
        "URL"
    };
    let mut d = Diagnostic::new(
        &META,
        span.clone(),
        format!("duplicate {what}: already listed in this file"),
    )
    .with_label("listed again here")
    .with_secondary(first.clone(), "first listed here")
    .with_help(if sitemap.kind == Kind::Index {
        "remove the second `<sitemap>` entry"
    } else if sitemap.syntax == Syntax::Text {
        "delete the second line"
    } else {
        "keep one `<url>` entry per URL: merge their extension tags and keep the latest `<lastmod>`"
    });
    if sitemap.source.get(first) != sitemap.source.get(span) {
        d = d.with_note(
            "the two spellings name the same URL: they differ only in the case of the scheme or host, a default port, an empty path or the case of percent-escapes",
        );
    }
    d
}

/// The set check's finding: a URL of this file was already listed in `first_file`.
pub fn across_files(span: Range<usize>, first_file: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("duplicate URL: also listed in `{first_file}` of this set"),
    )
    .with_label(format!("already in `{first_file}`"))
    .with_help("list each URL in one sitemap of the set only")
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use crate::rule::MAX_REPORTS_PER_RULE;
    use crate::{check_reader, Settings};

    /// (the repeat's span, the first's span, notes) of every `duplicate-loc` finding, in order.
    type Found = (Range<usize>, Range<usize>, Vec<String>);

    fn findings(xml: &str) -> Vec<Found> {
        let report = check_reader("t.xml", xml.as_bytes(), &Settings::only("duplicate-loc"))
            .expect("checked");
        report
            .diagnostics
            .iter()
            .filter(|d| d.rule.name == "duplicate-loc")
            .map(|d| {
                (
                    d.primary.span.clone(),
                    d.secondary[0].span.clone(),
                    d.notes.clone(),
                )
            })
            .collect()
    }

    /// The span of each `<loc>`'s text, in document order.
    fn loc_spans(xml: &str) -> Vec<Range<usize>> {
        xml.match_indices("<loc>")
            .map(|(at, _)| {
                let start = at + "<loc>".len();
                start..start + xml[start..].find("</loc>").unwrap_or(0)
            })
            .collect()
    }

    fn urlset(locs: &[String]) -> String {
        let mut xml =
            String::from(r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#);
        for loc in locs {
            xml.push_str(&format!("\n<url><loc>{loc}</loc></url>"));
        }
        xml + "\n</urlset>"
    }

    /// Every repeat names the first of its URL, and they come in document order, whatever the
    /// order of the fingerprints.
    #[test]
    fn repeats_name_the_first_in_document_order() {
        let locs: Vec<String> = [
            "https://b.example/", // b1
            "https://a.example/", // a1
            "https://B.example/", // repeats b1, another spelling
            "https://c.example/",
            "https://a.example/", // repeats a1
            "https://b.example/", // repeats b1
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let xml = urlset(&locs);
        let at = loc_spans(&xml);
        let found = findings(&xml);
        let pairs: Vec<(Range<usize>, Range<usize>)> = found
            .iter()
            .map(|(span, first, _)| (span.clone(), first.clone()))
            .collect();
        assert_eq!(
            pairs,
            [
                (at[2].clone(), at[0].clone()),
                (at[4].clone(), at[1].clone()),
                (at[5].clone(), at[0].clone()),
            ]
        );
        // Only the other spelling says why two texts are one URL.
        assert_eq!(found[0].2.len(), 1);
        assert!(found[1].2.is_empty() && found[2].2.is_empty());
    }

    /// Past the cap, the first repeats in the document are the ones shown, and the rest are
    /// counted in a note on the last.
    #[test]
    fn the_cap_keeps_the_earliest_repeats() {
        let extra = 7;
        let mut locs = Vec::new();
        // Groups of two, the later groups' URLs sorting first as text.
        for k in (0..MAX_REPORTS_PER_RULE + extra).rev() {
            let loc = format!("https://e.example/{k:05}");
            locs.push(loc);
        }
        let copies = locs.clone();
        locs.extend(copies);
        let xml = urlset(&locs);
        let at = loc_spans(&xml);
        let found = findings(&xml);
        assert_eq!(found.len(), MAX_REPORTS_PER_RULE);
        let half = MAX_REPORTS_PER_RULE + extra;
        for (k, (span, first, _)) in found.iter().enumerate() {
            assert_eq!((span, first), (&at[half + k], &at[k]), "finding {k}");
        }
        let last_notes = &found[MAX_REPORTS_PER_RULE - 1].2;
        assert!(
            last_notes
                .iter()
                .any(|n| n.starts_with(&format!("{extra} more `duplicate-loc`"))),
            "{last_notes:?}"
        );
    }
}
