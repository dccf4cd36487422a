//! Reading the input: size, gzip, encoding, the XML declaration, well-formedness, and the checker's own failures.

pub mod doctype_not_allowed;
pub mod encoding_not_utf8;
pub mod gzip_extension_mismatch;
pub mod gzip_invalid;
pub mod input_too_large;
pub mod internal_error;
pub mod invalid_utf8;
pub mod leading_whitespace;
pub mod xml_declaration;
pub mod xml_declaration_encoding;
pub mod xml_syntax;
