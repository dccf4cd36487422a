//! The stages a document goes through before rules see it: bytes in ([`input`], through the
//! guarded open of [`files`]; gzip and caps), the encoding and declaration ([`encoding`],
//! [`xml_decl`]), the cut into pieces for large files ([`split`]), the XML parse ([`xml`]), and
//! the typed, spanned model ([`model`]) with its URL keys ([`url_key`]); a text sitemap's lines
//! ([`text_sitemap`]) fill the same model. [`source`] maps byte
//! offsets to lines and columns.

pub mod encoding;
#[cfg(feature = "http")]
pub mod fetch;
pub mod files;
pub mod input;
pub mod model;
pub mod source;
pub mod split;
pub mod text_sitemap;
pub mod url_key;
pub mod xml;
pub mod xml_decl;
pub mod xml_limits;
