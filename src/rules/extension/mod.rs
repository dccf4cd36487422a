//! Google's extensions (image, video, news) and the `xhtml:link` namespace: placement, structure, values.

pub mod extension_deprecated;
pub mod extension_limits;
pub mod extension_namespace;
pub mod extension_placement;
pub mod extension_structure;
pub mod extension_unknown_code;
pub mod extension_url;
pub mod extension_value;
pub mod news_date_range;
pub mod unknown_extension_namespace;
pub mod video_invalid;
pub mod xhtml_link_namespace;

use crate::extensions::{self, Class, Problem};
use crate::pipeline::model::{Entry, Sitemap};
use crate::rule::Context;

/// The problems of `class` in the Google extension elements of `entry`: one walk finds those of
/// every class, on the first call for the entry, and the three rules of the walk
/// (`extension-placement`, `extension-structure`, `extension-value`) read it from the context.
pub fn entry_problems(
    sitemap: &Sitemap<'_>,
    entry: &Entry<'_>,
    class: Class,
    cx: &mut Context<'_>,
) -> Vec<Problem> {
    cx.entry_memo(entry, || {
        extensions::check_entry(sitemap, entry).into_boxed_slice()
    })
    .into_iter()
    .flat_map(|problems| problems.iter().filter(|p| p.class == class).cloned())
    .collect()
}
