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

use crate::diagnostic::Fix;
use crate::pipeline::model::Value;
use crate::values::uri::{Problem, Repair};

/// The fix of `problems` of the URL in `value` (the repairs of them all, mapped to the source):
/// safe when every repair is certain. `None` when one of them has no repair, or is not written
/// in the source as it reads (a character reference, CDATA around it).
pub fn url_fix(source: &str, value: &Value<'_>, problems: &[&Problem]) -> Option<Fix> {
    let repairs: Vec<&Repair> = problems
        .iter()
        .map(|p| p.repair.as_ref())
        .collect::<Option<_>>()?;
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
