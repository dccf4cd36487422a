//! hreflang alternates (`xhtml:link`): attributes, codes, and the graph of return links and clusters.

pub mod hreflang_cluster_mismatch;
pub mod hreflang_duplicate;
pub mod hreflang_href_invalid;
pub mod hreflang_invalid;
pub mod hreflang_rel;
pub mod hreflang_return_link;
pub mod hreflang_self_missing;
