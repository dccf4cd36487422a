//! Rule `duplicate-loc`: the same URL is listed twice, in one file or in two files of a set.

use std::collections::BinaryHeap;
use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::{Entry, Kind, Sitemap, Syntax};
use crate::pipeline::source::own_lines;
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
    /// ## Fix
    /// An unsafe fix removes the later entry of a repeat within the same file, with its line
    /// when it stands on lines of its own: the first entry stays. Unsafe because the later entry
    /// may carry what the first lacks (a newer `<lastmod>`, images, alternates), which is then
    /// lost; merge them by hand when it does. No fix for a URL repeated across the files of a
    /// set: which file should keep it is for you to decide.
    ///
    /// ## References
    /// - RFC 3986 §6.2.2 (syntax-based normalisation) and §6.2.3 (scheme-based normalisation)
    /// - Screaming Frog, "URLs In Multiple Sitemaps"; sitemap-verify `duplicate_loc`
    pub static META = {
        name: "duplicate-loc",
        category: Url,
        severity: Warning,
        fix: Unsafe,
        summary: "the same URL is listed twice, in one file or across the files of a set",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        (sitemap.kind != Kind::Other).then(|| {
            Box::new(Seen {
                locs: Vec::new(),
                spans: Vec::new(),
            }) as Box<dyn Collector<'a> + Send + 'a>
        })
    }
}

/// The compared `<loc>`s of a file, in document order: fingerprint and position (16 bytes
/// each), and the spans apart. The duplicates are found at the end, by sorting: a hash table
/// probed once per URL missed the cache on nearly every probe once it outgrew it (the probe was
/// 8.6 % of the CPU time on 50,000 URLs and 14.7 % on 1,000,000), while appending here is
/// sequential. The spans stay out of the sorted keys: with them, each key was 24 bytes and the
/// sort of 50,000 cost 18 M instructions instead of 12 M.
struct Seen {
    /// Fingerprint and position in `spans`.
    locs: Vec<(u64, u32)>,
    /// The `<loc>`'s span and its entry's span, in document order.
    spans: Vec<(Span, Span)>,
}

/// A span as two `u32`s, to keep [`Seen::locs`] small.
type Span = (u32, u32);

fn span32(r: &Range<usize>) -> Option<Span> {
    Some((u32::try_from(r.start).ok()?, u32::try_from(r.end).ok()?))
}

fn range(s: Span) -> Range<usize> {
    s.0 as usize..s.1 as usize
}

impl<'a> Collector<'a> for Seen {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        let Some(loc) = entry.loc() else { return };
        let value = loc.trimmed();
        // An invalid URL is `loc-invalid`'s finding; comparing it would only repeat it.
        if value.is_empty() || loc.url_problems().iter().any(|p| p.kind.is_error()) {
            return;
        }
        let (Some(span), Some(whole), Ok(at)) = (
            span32(&loc.span(sitemap.source)),
            span32(&entry.element.span),
            u32::try_from(self.spans.len()),
        ) else {
            return;
        };
        self.locs.push((loc.url_key().fingerprint, at));
        self.spans.push((span, whole));
    }

    fn finish(mut self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        // Equal fingerprints together, each group in document order (positions are distinct).
        self.locs.sort_unstable();
        // The earliest repeats (by start) that are shown, with the first of their group: a
        // heap of at most the cap, so a file of a million copies of one URL holds 1,000.
        let mut shown: BinaryHeap<(Span, Span, Span)> = BinaryHeap::new();
        let mut repeats = 0usize;
        for group in self.locs.chunk_by(|a, b| a.0 == b.0) {
            let (first, _) = self.spans[group[0].1 as usize];
            for &(_, at) in &group[1..] {
                let (span, whole) = self.spans[at as usize];
                repeats += 1;
                shown.push((span, first, whole));
                if shown.len() > MAX_REPORTS_PER_RULE {
                    shown.pop();
                }
            }
        }
        let shown = shown.into_sorted_vec();
        cx.count_unreported(&META, repeats - shown.len());
        for (span, first, whole) in shown {
            let fix = removal(sitemap, range(whole));
            cx.report(duplicate(sitemap, range(span), range(first)).with_fix(fix));
        }
    }
}

/// The unsafe fix removing the entry at `whole`, with its line when nothing else stands on it.
fn removal(sitemap: &Sitemap<'_>, whole: Range<usize>) -> Fix {
    let deleted = own_lines(sitemap.source, whole.clone()).map_or(whole, |own| own.lines);
    let what = match sitemap.kind {
        Kind::Index => "sitemap",
        _ => "url",
    };
    Fix::unsafe_(
        format!("remove the repeated `<{what}>` entry"),
        vec![Edit::delete(deleted)],
    )
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

    #[test]
    fn the_later_entry_is_removed_with_its_line() {
        let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\r\n  <url><loc>https://www.example.com/</loc></url>\r\n  <url><loc>https://www.example.com/a</loc></url>\r\n  <url><loc>https://WWW.example.com/</loc></url>\r\n</urlset>\r\n";
        let fixed =
            crate::test_fixes::fixes_with(xml, "duplicate-loc", &Settings::only("duplicate-loc"));
        let fixed = fixed[0].as_ref().expect("a fix");
        assert_eq!(fixed.applicability, "unsafe");
        assert_eq!(fixed.message, "remove the repeated `<url>` entry");
        assert_eq!(
            fixed.text,
            "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\r\n  <url><loc>https://www.example.com/</loc></url>\r\n  <url><loc>https://www.example.com/a</loc></url>\r\n</urlset>\r\n"
        );
        // Not alone on its line: only the element goes.
        let xml = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/</loc></url><url><loc>https://www.example.com/</loc></url></urlset>"#;
        let fixed =
            crate::test_fixes::fixes_with(xml, "duplicate-loc", &Settings::only("duplicate-loc"));
        assert_eq!(
            fixed[0].as_ref().unwrap().text,
            r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/</loc></url></urlset>"#
        );
    }
}
