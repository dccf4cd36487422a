//! `<loc>` URLs: syntax, length, hosts, scope and duplicates.

pub mod duplicate_loc;
pub mod loc_credentials;
pub mod loc_fragment;
pub mod loc_invalid;
pub mod loc_length;
pub mod loc_mixed_hosts;
pub mod loc_not_ascii;
pub mod loc_outside_scope;
pub mod loc_private_host;
pub mod loc_unusual_host;

use crate::diagnostic::{Diagnostic, Fix, RuleMeta};
use crate::pipeline::model::{Sitemap, Value};
use crate::values::uri::{Problem, ProblemKind, Repair};

/// One finding for the URL problems of `kind` in `value`, the first as its primary label and the
/// others as secondary ones labelled `also`; with the first problem (for its help) and whether
/// there were others. `None` when the URL has none of that kind.
pub(crate) fn problems_of_kind<'v>(
    meta: &'static RuleMeta,
    sitemap: &Sitemap<'_>,
    value: &'v Value<'_>,
    kind: ProblemKind,
    also: &str,
) -> Option<(Diagnostic, &'v Problem, bool)> {
    let mut problems = value.url_problems().iter().filter(|p| p.kind == kind);
    let first = problems.next()?;
    let mut d = Diagnostic::new(
        meta,
        value.source_range_in_trimmed(sitemap.source, first.range.clone()),
        first.message.clone(),
    );
    let mut several = false;
    for more in problems {
        several = true;
        d = d.with_secondary(
            value.source_range_in_trimmed(sitemap.source, more.range.clone()),
            also,
        );
    }
    Some((d, first, several))
}

/// The fix of `problems` of the URL in `value` (the repairs of them all, mapped to the source):
/// safe when every repair is certain. `None` when one of them has no repair, or is not written
/// in the source as it reads (a character reference, CDATA around it), or when the fixed URL
/// would be longer than `max_chars` (percent-encoding triples a character): `loc-length` would
/// then report it.
pub fn url_fix(
    source: &str,
    value: &Value<'_>,
    problems: &[&Problem],
    max_chars: usize,
) -> Option<Fix> {
    let repairs: Vec<&Repair> = problems
        .iter()
        .map(|p| p.repair.as_ref())
        .collect::<Option<_>>()?;
    let v = value.trimmed();
    let removed: usize = repairs
        .iter()
        .map(|r| v.get(r.range.clone()).map_or(0, |t| t.chars().count()))
        .sum();
    let added: usize = repairs.iter().map(|r| r.with.chars().count()).sum();
    if (v.chars().count() + added).saturating_sub(removed) > max_chars {
        return None;
    }
    let edits = repairs
        .iter()
        .map(|r| value.edit_in_trimmed(source, r.range.clone(), r.with.clone()))
        .collect::<Option<Vec<_>>>()?;
    let certain = repairs.iter().all(|r| r.certain);
    Some(Fix::safe_if(
        certain,
        Repair::describe(value.trimmed(), &repairs),
        edits,
    ))
}
