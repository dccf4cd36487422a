//! Pure grammars of values: URIs, dates, language and region codes, namespaces, text helpers, and
//! the tables and simple types of Google's extension XSDs.
//! Nothing here imports from the rest of the crate; everything above may use it.

pub mod datetime;
pub mod decimal;
pub mod extension;
pub mod finding;
pub mod host;
pub mod html;
pub mod iso_codes;
pub mod language;
pub mod namespace;
pub mod robots;
pub mod text;
pub mod uri;
