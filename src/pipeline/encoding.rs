//! Byte-level encoding checks before XML parsing: BOMs, UTF-16/UTF-32 sniffing (XML 1.0 Appendix F), invalid UTF-8, and decoding to text.

use std::ops::Range;

/// Invalid UTF-8 sequences reported individually before the rest are summarised.
pub const MAX_INVALID_UTF8_REPORTS: usize = 100;

/// The encoding the bytes are actually in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detected {
    Utf8,
    Utf16Le,
    Utf16Be,
    Utf32Le,
    Utf32Be,
    Ebcdic,
}

impl Detected {
    pub fn name(self) -> &'static str {
        match self {
            Detected::Utf8 => "UTF-8",
            Detected::Utf16Le => "UTF-16LE",
            Detected::Utf16Be => "UTF-16BE",
            Detected::Utf32Le => "UTF-32LE",
            Detected::Utf32Be => "UTF-32BE",
            Detected::Ebcdic => "EBCDIC",
        }
    }
}

/// The decoded text and what was found on the way.
#[derive(Debug)]
pub struct Decoded {
    /// The text (BOM removed; invalid sequences replaced by U+FFFD, one per sequence).
    pub text: String,
    pub detected: Detected,
    /// A byte-order mark was present (and removed).
    pub bom: bool,
    /// Spans in `text` of the U+FFFD that replaced invalid UTF-8, with the invalid bytes.
    pub invalid_utf8: Vec<(Range<usize>, Vec<u8>)>,
    /// Invalid sequences beyond [`MAX_INVALID_UTF8_REPORTS`].
    pub invalid_utf8_more: usize,
    /// The text could not be decoded at all (EBCDIC); it is empty.
    pub undecodable: bool,
}

/// Detects the encoding by BOM or by the first four bytes, as XML 1.0 Appendix F describes.
pub fn detect(bytes: &[u8]) -> (Detected, usize) {
    match bytes {
        [0x00, 0x00, 0xFE, 0xFF, ..] => (Detected::Utf32Be, 4),
        [0xFF, 0xFE, 0x00, 0x00, ..] => (Detected::Utf32Le, 4),
        [0xEF, 0xBB, 0xBF, ..] => (Detected::Utf8, 3),
        [0xFE, 0xFF, ..] => (Detected::Utf16Be, 2),
        [0xFF, 0xFE, ..] => (Detected::Utf16Le, 2),
        // No BOM: the first character is ASCII (`<`, or whitespace before it), so its zero
        // bytes give the encoding away (Appendix F, not only for `<`).
        [0x00, 0x00, 0x00, a, ..] if is_ascii_nonzero(*a) => (Detected::Utf32Be, 0),
        [a, 0x00, 0x00, 0x00, ..] if is_ascii_nonzero(*a) => (Detected::Utf32Le, 0),
        [0x00, a, 0x00, b, ..] if is_ascii_nonzero(*a) && is_ascii_nonzero(*b) => {
            (Detected::Utf16Be, 0)
        }
        [a, 0x00, b, 0x00, ..] if is_ascii_nonzero(*a) && is_ascii_nonzero(*b) => {
            (Detected::Utf16Le, 0)
        }
        [0x4C, 0x6F, 0xA7, 0x94, ..] => (Detected::Ebcdic, 0),
        _ => (Detected::Utf8, 0),
    }
}

fn is_ascii_nonzero(b: u8) -> bool {
    (1..0x80).contains(&b)
}

/// [`decode`] for bytes the caller gives up: valid UTF-8 (the common case) becomes the text in
/// place, without a second copy of the file in memory.
pub fn decode_owned(mut bytes: Vec<u8>) -> Decoded {
    let (detected, bom_len) = detect(&bytes);
    if detected != Detected::Utf8 {
        return decode(&bytes);
    }
    bytes.drain(..bom_len);
    // One validation, no copy: the bytes become the text, or come back on error.
    match String::from_utf8(bytes) {
        Ok(text) => Decoded {
            text,
            detected,
            bom: bom_len > 0,
            invalid_utf8: Vec::new(),
            invalid_utf8_more: 0,
            undecodable: false,
        },
        Err(e) => {
            let mut bytes = e.into_bytes();
            // `decode` sees the byte-order mark again, as the file has it.
            if bom_len > 0 {
                bytes.splice(0..0, [0xEF, 0xBB, 0xBF]);
            }
            decode(&bytes)
        }
    }
}

/// Decodes bytes to text. Non-UTF-8 input is decoded anyway so that the other rules can run.
pub fn decode(bytes: &[u8]) -> Decoded {
    let (detected, bom_len) = detect(bytes);
    let body = &bytes[bom_len..];
    let mut out = Decoded {
        text: String::new(),
        detected,
        bom: bom_len > 0,
        invalid_utf8: Vec::new(),
        invalid_utf8_more: 0,
        undecodable: false,
    };
    match detected {
        Detected::Utf8 => decode_utf8(body, &mut out),
        Detected::Utf16Le => {
            out.text = encoding_rs::UTF_16LE
                .decode_without_bom_handling(body)
                .0
                .into_owned();
        }
        Detected::Utf16Be => {
            out.text = encoding_rs::UTF_16BE
                .decode_without_bom_handling(body)
                .0
                .into_owned();
        }
        Detected::Utf32Le | Detected::Utf32Be => {
            let le = detected == Detected::Utf32Le;
            out.text = body
                .chunks(4)
                .map(|c| {
                    let mut b = [0u8; 4];
                    b[..c.len()].copy_from_slice(c);
                    let v = if le {
                        u32::from_le_bytes(b)
                    } else {
                        u32::from_be_bytes(b)
                    };
                    char::from_u32(v).unwrap_or('\u{FFFD}')
                })
                .collect();
        }
        Detected::Ebcdic => out.undecodable = true,
    }
    out
}

/// Longest run of bytes reported (and replaced) as one broken character: a UTF-8 sequence is at
/// most 4 bytes long.
const MAX_RUN: usize = 4;

fn decode_utf8(mut bytes: &[u8], out: &mut Decoded) {
    if let Ok(s) = std::str::from_utf8(bytes) {
        out.text = s.to_owned();
        return;
    }
    let mut text = String::with_capacity(bytes.len() + 16);
    // Bytes in the invalid run that ends at the end of `text` (0 when text ends otherwise).
    let mut run = 0usize;
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                text.push_str(s);
                break;
            }
            Err(e) => {
                let good = e.valid_up_to();
                // SAFETY-free: `good` bytes were just validated.
                text.push_str(std::str::from_utf8(&bytes[..good]).unwrap_or_default());
                if good > 0 {
                    run = 0;
                }
                let bad_len = e.error_len().unwrap_or(bytes.len() - good);
                let bad = &bytes[good..good + bad_len];
                // Continuation bytes right after an invalid sequence belong to the same broken
                // character (`ED A0 80`, an encoded surrogate, is one mistake, not three).
                let continues =
                    run > 0 && (0x80..0xC0).contains(&bad[0]) && run + bad_len <= MAX_RUN;
                if continues {
                    run += bad_len;
                    if out.invalid_utf8_more == 0 {
                        if let Some((_, raw)) = out.invalid_utf8.last_mut() {
                            raw.extend_from_slice(bad);
                        }
                    }
                } else {
                    run = bad_len;
                    let at = text.len();
                    text.push('\u{FFFD}');
                    if out.invalid_utf8.len() < MAX_INVALID_UTF8_REPORTS {
                        out.invalid_utf8.push((at..text.len(), bad.to_vec()));
                    } else {
                        out.invalid_utf8_more += 1;
                    }
                }
                bytes = &bytes[good + bad_len..];
            }
        }
    }
    out.text = text;
}

/// Whether every byte is ASCII (then ISO-8859-1, windows-1252 and UTF-8 read the same).
pub fn is_ascii(bytes: &[u8]) -> bool {
    bytes.is_ascii()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_boms_and_appendix_f() {
        assert_eq!(detect(b"\xEF\xBB\xBF<u/>"), (Detected::Utf8, 3));
        assert_eq!(detect(b"\xFF\xFE<\x00"), (Detected::Utf16Le, 2));
        assert_eq!(detect(b"\xFE\xFF\x00<"), (Detected::Utf16Be, 2));
        assert_eq!(detect(b"<\x00?\x00"), (Detected::Utf16Le, 0));
        assert_eq!(detect(b"\x00<\x00?"), (Detected::Utf16Be, 0));
        assert_eq!(detect(b"\x00\x00\x00<"), (Detected::Utf32Be, 0));
        assert_eq!(detect(b"<?xm"), (Detected::Utf8, 0));
    }

    #[test]
    fn decodes_utf16_and_utf32() {
        let le: Vec<u8> = "<u/>"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        assert_eq!(decode(&le).text, "<u/>");
        let be32: Vec<u8> = "<é/>"
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect();
        let d = decode(&be32);
        assert_eq!((d.detected, d.text.as_str()), (Detected::Utf32Be, "<é/>"));
    }

    #[test]
    fn every_invalid_sequence_is_located() {
        let d = decode(b"<loc>a\xC3\x28b\xE2\x82</loc>\xF0\x9F");
        assert_eq!(d.invalid_utf8.len(), 3);
        for (span, _) in &d.invalid_utf8 {
            assert_eq!(&d.text[span.clone()], "\u{FFFD}");
        }
        assert_eq!(d.invalid_utf8[1].1, b"\xE2\x82");
        assert!(d.text.starts_with("<loc>a\u{FFFD}(b"));
    }

    #[test]
    fn a_broken_character_is_one_sequence() {
        // An encoded surrogate (CESU-8) and an overlong `/`: one report and one U+FFFD each.
        let d = decode(b"a\xED\xA0\x80b\xC0\xAFc");
        assert_eq!(d.text, "a\u{FFFD}b\u{FFFD}c");
        let raw: Vec<&[u8]> = d.invalid_utf8.iter().map(|(_, r)| &r[..]).collect();
        assert_eq!(raw, [&b"\xED\xA0\x80"[..], &b"\xC0\xAF"[..]]);
        // Two Latin-1 letters in a row are two characters (`E8` is not a continuation byte).
        let d = decode(b"\xE9\xE8");
        assert_eq!(d.invalid_utf8.len(), 2);
        // A run of continuation bytes is cut into pieces of at most 4 bytes.
        let d = decode(&[0x80; 9]);
        let lens: Vec<usize> = d.invalid_utf8.iter().map(|(_, r)| r.len()).collect();
        assert_eq!(lens, [4, 4, 1]);
        assert_eq!(d.text, "\u{FFFD}".repeat(3));
    }

    #[test]
    fn utf16_without_bom_starting_with_whitespace() {
        let le: Vec<u8> = "\n<u/>"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        assert_eq!(detect(&le), (Detected::Utf16Le, 0));
        let be: Vec<u8> = " <u/>"
            .encode_utf16()
            .flat_map(|u| u.to_be_bytes())
            .collect();
        assert_eq!(detect(&be), (Detected::Utf16Be, 0));
        // NUL bytes in a UTF-8 file that is not UTF-16 are left to the XML parser.
        assert_eq!(detect(b"\x00\x00ab"), (Detected::Utf8, 0));
        assert_eq!(detect(b"a\x00\x00b"), (Detected::Utf8, 0));
    }

    #[test]
    fn owned_decoding_matches_borrowed() {
        let cases: [&[u8]; 6] = [
            b"<a>\xc3\xa9</a>",
            b"\xEF\xBB\xBF<a/>",
            b"<a>\xff</a>",
            b"\xEF\xBB\xBF<a>\xff</a>",
            b"\xFF\xFE<\x00a\x00/\x00>\x00",
            b"",
        ];
        for bytes in cases {
            let (a, b) = (decode(bytes), decode_owned(bytes.to_vec()));
            assert_eq!(a.text, b.text);
            assert_eq!((a.detected, a.bom), (b.detected, b.bom));
            assert_eq!(a.invalid_utf8, b.invalid_utf8);
            assert_eq!(a.invalid_utf8_more, b.invalid_utf8_more);
        }
    }

    #[test]
    fn invalid_reports_are_capped() {
        let bytes = vec![0xFFu8; MAX_INVALID_UTF8_REPORTS + 5];
        let d = decode(&bytes);
        assert_eq!(d.invalid_utf8.len(), MAX_INVALID_UTF8_REPORTS);
        assert_eq!(d.invalid_utf8_more, 5);
    }
}
