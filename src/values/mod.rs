//! Pure grammars of values: URIs, dates, language and region codes, namespaces, text helpers.
//! Nothing here imports from the rest of the crate; everything above may use it.

pub mod datetime;
pub mod decimal;
pub mod finding;
pub mod host;
pub mod iso_codes;
pub mod language;
pub mod namespace;
pub mod text;
pub mod uri;
