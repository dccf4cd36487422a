//! Character classes of URIs and IRIs, and percent-encoding.

pub(super) fn is_slash(b: u8) -> bool {
    b == b'/' || b == b'\\'
}

pub(super) fn is_scheme_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')
}

/// Characters that may be dropped from a would-be scheme: whitespace, controls and invisible
/// format characters (a BOM or zero-width space pasted in front of `https`).
pub(super) fn is_scheme_junk(c: char) -> bool {
    c.is_whitespace() || c.is_control() || is_invisible(c) || is_bidi_control(c)
}

pub(super) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{AD}' | '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}'
    )
}

/// Bidi formatting characters, which RFC 3987 section 4.1 forbids in IRIs (plus the later
/// isolates and the Arabic letter mark, equally invisible and dangerous).
pub(super) fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// RFC 3987 `ucschar`, plus `iprivate` where `private` (the query) allows it.
pub(super) fn is_iri_char(c: char, private: bool) -> bool {
    if is_bidi_control(c) {
        return false;
    }
    let c = c as u32;
    match c {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        0xE000..=0xF8FF => private,
        0x10000.. => {
            let plane = c >> 16;
            let low = c & 0xFFFF;
            match plane {
                1..=13 => low <= 0xFFFD,
                14 => (0x1000..=0xFFFD).contains(&low),
                _ => private && low <= 0xFFFD,
            }
        }
        _ => false,
    }
}

pub(super) fn is_label_separator(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

pub(super) const HEX: &[u8; 16] = b"0123456789ABCDEF";

pub(super) fn percent_encode_char(c: char, out: &mut String) {
    let mut buf = [0u8; 4];
    for &byte in c.encode_utf8(&mut buf).as_bytes() {
        out.push('%');
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 15)]));
    }
}

pub(super) fn percent_encode_non_ascii(s: &str, out: &mut String) {
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            percent_encode_char(c, out);
        }
    }
}

pub(super) fn percent_encoded(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for c in s.chars() {
        percent_encode_char(c, &mut out);
    }
    out
}
