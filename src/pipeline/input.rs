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
    let raw = read_sized(reader, cap, 0)?;
    Ok(decode(raw, cap))
}

/// Files from this size on are read on several threads by [`load_file`] (as large as a piece
/// of a split file).
#[cfg_attr(not(unix), allow(dead_code))]
const PARALLEL_READ_MIN: u64 = 4 << 20;

/// The least a buffer read in parts asks for: from this size on, the allocator (glibc's malloc
/// and mimalloc alike) takes zeroed memory fresh from the kernel without clearing it, so that its
/// pages are first touched by the threads copying into them, side by side. A smaller buffer
/// would be cleared on one thread first (6 ms of the 8 it took to read an 11.5 MB file). Pages
/// beyond the file are never touched: they cost address space, not memory.
#[cfg_attr(not(unix), allow(dead_code))]
const PARALLEL_READ_BUFFER: usize = (32 << 20) + 1;

/// [`load`] for a regular file of `size` bytes (its length when it was opened): read into one
/// allocation of that size, by up to `threads` threads side by side when it is large (copying
/// from the page cache into fresh memory costs a page fault per page: 28 ms for a 52 MB file on
/// one core here, 15–20 ms on two).
pub fn load_file(file: &std::fs::File, cap: u64, size: u64, threads: usize) -> io::Result<Bytes> {
    let raw = match read_parallel(file, cap, size, threads)? {
        Some(raw) => raw,
        None => read_sized(file, cap, size)?,
    };
    Ok(decode(raw, cap))
}

/// The first `min(size, cap + 1)` bytes of `file` read in as many parts, then whatever follows
/// them within `cap + 1` (a file that grew). `None` when that is not worth it (small file, one
/// thread, not Unix) or a part could not be read (a file that shrank): the file's position is
/// still at its start, to read it the plain way.
#[cfg(unix)]
fn read_parallel(
    file: &std::fs::File,
    cap: u64,
    size: u64,
    threads: usize,
) -> io::Result<Option<Vec<u8>>> {
    use std::io::{Seek, SeekFrom};
    use std::os::unix::fs::FileExt;
    let len = size.min(cap.saturating_add(1));
    let Ok(len) = usize::try_from(len) else {
        return Ok(None);
    };
    if threads < 2 || (len as u64) < PARALLEL_READ_MIN {
        return Ok(None);
    }
    // Fresh zeroed memory is not touched here: the pages are faulted in by the threads that
    // copy into them.
    let mut buf = vec![0u8; with_slack(len + 1).max(PARALLEL_READ_BUFFER)];
    buf.truncate(len);
    let part = len.div_ceil(threads.min(8));
    let mut parts = Vec::new();
    let mut offset = 0u64;
    for chunk in buf.chunks_mut(part) {
        parts.push((chunk, offset));
        offset += part as u64;
    }
    let ok = crate::exec::all(parts, threads.min(8), |(chunk, at)| {
        file.read_exact_at(chunk, at).is_ok()
    });
    if !ok {
        return Ok(None);
    }
    let mut reader = file;
    reader.seek(SeekFrom::Start(len as u64))?;
    let more = cap.saturating_add(1).saturating_sub(len as u64);
    reader.take(more).read_to_end(&mut buf)?;
    Ok(Some(buf))
}

#[cfg(not(unix))]
fn read_parallel(_: &std::fs::File, _: u64, _: u64, _: usize) -> io::Result<Option<Vec<u8>>> {
    Ok(None)
}

/// Room for `len` bytes, and for a file large enough to be split, the copies of the root's tags
/// and the comments that [`crate::pipeline::split::layout`] writes between the pieces: laid out
/// in the same allocation, the text is never copied into a larger one (which, with both alive
/// for a moment, would double the peak memory). Room never written to is address space, not
/// memory.
fn with_slack(len: usize) -> usize {
    if len >= crate::pipeline::split::DEFAULT_SPLIT_MIN {
        len.saturating_add(crate::pipeline::split::slack(len))
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

    /// A large file read in parts is the file, within the cap, however the size given (its
    /// length when opened) and the file now differ.
    #[test]
    fn parallel_reads_equal_plain_reads() {
        let dir = std::env::temp_dir().join(format!("sitemap-lint-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("large.xml");
        let len = PARALLEL_READ_MIN as usize + 12_345;
        let data: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &data).unwrap();
        let read = |cap: u64, size: u64, threads: usize| {
            let file = std::fs::File::open(&path).unwrap();
            load_file(&file, cap, size, threads).unwrap()
        };
        let big = u64::MAX / 2;
        #[cfg(unix)]
        {
            let file = std::fs::File::open(&path).unwrap();
            let parts = read_parallel(&file, big, len as u64, 2).unwrap();
            assert_eq!(parts.as_deref(), Some(&data[..]), "read in parts");
            let shrunk = read_parallel(&file, big, len as u64 + 1, 2).unwrap();
            assert!(shrunk.is_none(), "a part ends early: read the plain way");
        }
        for threads in [1, 2, 3, 8] {
            let bytes = read(big, len as u64, threads);
            assert_eq!(bytes.data, data, "{threads} threads");
            assert!(!bytes.too_large);
            // Grown since its length was taken: the rest is read too.
            assert_eq!(read(big, len as u64 - 5_000, threads).data, data);
            // Shrunk since: read the plain way.
            assert_eq!(read(big, len as u64 + 5_000, threads).data, data);
            // The cap holds, and one byte more tells that there was more.
            let cap = len as u64 - 100;
            let bytes = read(cap, len as u64, threads);
            assert!(bytes.too_large);
            assert_eq!(bytes.data, &data[..cap as usize]);
        }
        std::fs::remove_dir_all(&dir).unwrap();
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
