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
