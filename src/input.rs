//! Reading one input's bytes with a hard size cap, and gzip decoding (recognised by magic bytes) under the same cap.

use std::io::{self, BufRead, Read};

/// The protocol's limit on the uncompressed size of a sitemap or sitemap index (50 MiB).
pub const MAX_UNCOMPRESSED: u64 = 52_428_800;

/// What went wrong while decompressing (the bytes decoded before the problem are kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GzipProblem {
    /// The stream ends before the gzip trailer: the file was cut off.
    Truncated,
    /// The CRC or length in the trailer does not match the data.
    Checksum,
    /// The deflate data or header is corrupt.
    Corrupt(String),
    /// Bytes that are not a gzip member follow the gzip data.
    TrailingGarbage { bytes: usize },
}

/// Bytes ready for encoding detection.
#[derive(Debug)]
pub struct Bytes {
    /// At most the cap; when `too_large` is set the content is incomplete and is not parsed.
    pub data: Vec<u8>,
    /// The raw input started with the gzip magic bytes `1f 8b`.
    pub gzip: bool,
    /// Size of the raw (possibly compressed) input, when fully read.
    pub raw_len: usize,
    /// The (uncompressed) content is larger than the cap.
    pub too_large: bool,
    pub gzip_problem: Option<GzipProblem>,
}

/// Reads at most `cap + 1` bytes from `reader`, so the caller can tell "exactly the cap" from "more".
pub fn read_capped(reader: impl Read, cap: u64) -> io::Result<Vec<u8>> {
    read_sized(reader, cap, 0)
}

/// [`read_capped`] with the expected size (a file's length), so that the buffer is allocated once.
fn read_sized(reader: impl Read, cap: u64, size: u64) -> io::Result<Vec<u8>> {
    let expected = usize::try_from(size.min(cap).saturating_add(1)).unwrap_or(0);
    let mut buf = Vec::with_capacity(with_slack(expected));
    reader.take(cap.saturating_add(1)).read_to_end(&mut buf)?;
    Ok(buf)
}

/// Reads raw input (file or stdin) and decompresses it when it is gzip, never holding more than
/// `cap + 1` bytes of raw or of decoded data.
pub fn load(reader: impl Read, cap: u64) -> io::Result<Bytes> {
    load_sized(reader, cap, 0)
}

/// [`load`] for a reader whose size is known (a regular file: its length), read into one
/// allocation of that size.
pub fn load_sized(reader: impl Read, cap: u64, size: u64) -> io::Result<Bytes> {
    let raw = read_sized(reader, cap, size)?;
    Ok(decode(raw, cap))
}

/// Room for `len` bytes, and for a file large enough to be split, the copies of the root's tags
/// that [`crate::split::layout`] writes between the pieces: laid out in the same allocation,
/// the text is never copied into a larger one (which, with both alive for a moment, would
/// double the peak memory).
fn with_slack(len: usize) -> usize {
    if len >= crate::split::DEFAULT_SPLIT_MIN {
        len.saturating_add(crate::split::SLACK)
    } else {
        len
    }
}

/// Decompresses gzip input (all members) under the cap; passes other bytes through.
pub fn decode(raw: Vec<u8>, cap: u64) -> Bytes {
    let raw_len = raw.len();
    let raw_too_large = raw_len as u64 > cap;
    if !raw.starts_with(&[0x1f, 0x8b]) {
        let mut data = raw;
        data.truncate(cap as usize);
        return Bytes {
            data,
            gzip: false,
            raw_len,
            too_large: raw_too_large,
            gzip_problem: None,
        };
    }
    let (mut data, gzip_problem) = gunzip(&raw, cap);
    let too_large = raw_too_large || data.len() as u64 > cap;
    data.truncate(cap as usize);
    Bytes {
        data,
        gzip: true,
        raw_len,
        too_large,
        gzip_problem,
    }
}

/// Decodes every gzip member in turn (like `zcat`), stopping once more than `cap` bytes came out.
fn gunzip(raw: &[u8], cap: u64) -> (Vec<u8>, Option<GzipProblem>) {
    // The last member's trailer gives its size (mod 2³²): a hint for one allocation, within the cap.
    let hint = match raw.len().checked_sub(4).and_then(|at| raw.get(at..)) {
        Some(&[a, b, c, d]) if raw.len() >= 18 => u64::from(u32::from_le_bytes([a, b, c, d])),
        _ => 0,
    };
    let mut out = Vec::with_capacity(with_slack(usize::try_from(hint.min(cap) + 1).unwrap_or(0)));
    let mut rest: &[u8] = raw;
    loop {
        let budget = (cap + 1).saturating_sub(out.len() as u64);
        let mut decoder = flate2::bufread::GzDecoder::new(rest);
        let result = (&mut decoder).take(budget).read_to_end(&mut out);
        if let Err(e) = result {
            let problem = match e.kind() {
                io::ErrorKind::UnexpectedEof => GzipProblem::Truncated,
                _ if e.to_string().contains("checksum") => GzipProblem::Checksum,
                _ => GzipProblem::Corrupt(e.to_string()),
            };
            return (out, Some(problem));
        }
        if out.len() as u64 > cap {
            return (out, None);
        }
        rest = decoder.into_inner();
        // Skip zero padding some tools add after the last member (as gzip(1) does).
        let padding = rest.iter().take_while(|&&b| b == 0).count();
        if padding == rest.len() {
            return (out, None);
        }
        if !rest.starts_with(&[0x1f, 0x8b]) || padding > 0 {
            return (
                out,
                Some(GzipProblem::TrailingGarbage {
                    bytes: rest.len() - padding,
                }),
            );
        }
        // `fill_buf` on a slice never fails; this keeps the loop honest if that changes.
        if rest.fill_buf().map(|b| b.is_empty()).unwrap_or(true) {
            return (out, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn plain_bytes_pass_through() {
        let b = decode(b"<urlset/>".to_vec(), 100);
        assert!(!b.gzip && !b.too_large && b.gzip_problem.is_none());
        assert_eq!(b.data, b"<urlset/>");
    }

    #[test]
    fn multi_member_is_fully_decoded() {
        let mut raw = gz(b"<urlset>");
        raw.extend(gz(b"</urlset>"));
        let b = decode(raw, 100);
        assert_eq!(b.data, b"<urlset></urlset>");
        assert_eq!(b.gzip_problem, None);
    }

    #[test]
    fn truncated_corrupt_and_trailing() {
        let full = gz(b"<urlset></urlset>");
        let b = decode(full[..full.len() - 4].to_vec(), 100);
        assert_eq!(b.gzip_problem, Some(GzipProblem::Truncated));
        let mut bad_crc = full.clone();
        let n = bad_crc.len();
        bad_crc[n - 8] ^= 0xff;
        assert_eq!(
            decode(bad_crc, 100).gzip_problem,
            Some(GzipProblem::Checksum)
        );
        let mut trailing = full.clone();
        trailing.extend_from_slice(b"garbage");
        let b = decode(trailing, 100);
        assert_eq!(
            b.gzip_problem,
            Some(GzipProblem::TrailingGarbage { bytes: 7 })
        );
        assert_eq!(b.data, b"<urlset></urlset>");
    }

    #[test]
    fn cap_is_enforced_on_decoded_size() {
        let raw = gz(&vec![b'a'; 10_000]);
        let b = decode(raw, 1000);
        assert!(b.too_large);
        assert_eq!(b.data.len(), 1000);
        let exact = decode(gz(&vec![b'a'; 1000]), 1000);
        assert!(!exact.too_large);
    }
}
