//! Hard limits on hostile input, each measured on the real binary: a gzip bomb, deep nesting, huge
//! text nodes, millions of tiny elements, entity-expansion attacks, devices, FIFOs, symlink loops,
//! directories without sitemaps, and algorithmic-complexity traps in error recovery and rendering.
//!
//! Wall time and peak memory (VmHWM from /proc) are measured with [`support::measure`], which
//! catches the binary right after it finished the hostile inputs. Tests that measure run one at a
//! time (see [`heavy`]) so that they do not disturb each other's timings. Bounds are for the debug
//! binary `cargo test` builds; docs/safety.md has the release figures.
#![cfg(target_os = "linux")]

mod support;

use std::ffi::OsString;
use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use sitemap_lint::pipeline::input::{self, MAX_UNCOMPRESSED};
use sitemap_lint::{check_reader, Settings};
use support::{bin, codes, json_files, measure, Measured, TempDir, NS};

const MIB: usize = 1 << 20;

/// Serialises the tests that measure time or memory.
fn heavy() -> MutexGuard<'static, ()> {
    static HEAVY: Mutex<()> = Mutex::new(());
    HEAVY.lock().unwrap_or_else(|e| e.into_inner())
}

fn args(paths: &[&Path]) -> Vec<OsString> {
    let mut a: Vec<OsString> = vec!["--format".into(), "json".into()];
    a.extend(paths.iter().map(|p| p.as_os_str().to_owned()));
    a
}

fn report(what: &str, m: &Measured) {
    eprintln!(
        "{what}: {:.3} s, peak RSS {:.0} MiB, {} bytes of output, {:?}",
        m.elapsed.as_secs_f64(),
        m.peak_rss_mib(),
        m.stdout.len(),
        m.status
    );
}

fn assert_exit(m: &Measured, code: i32, what: &str) {
    assert_eq!(
        m.status.code(),
        Some(code),
        "{what}: exit status {:?} (a signal means a crash such as a stack overflow)\nstderr: {}",
        m.status,
        m.stderr
    );
    assert!(!m.stderr.contains("panicked"), "{what}: {}", m.stderr);
}

// ---------------------------------------------------------------------------------------------
// gzip bomb

/// Inverse-polynomial matrix helpers for CRC-32 (as zlib's `crc32_combine`).
fn gf2_times(mat: &[u32; 32], mut vec: u32) -> u32 {
    let mut sum = 0;
    let mut i = 0;
    while vec != 0 {
        if vec & 1 != 0 {
            sum ^= mat[i];
        }
        vec >>= 1;
        i += 1;
    }
    sum
}

fn gf2_square(mat: &[u32; 32]) -> [u32; 32] {
    let mut sq = [0u32; 32];
    for (n, row) in sq.iter_mut().enumerate() {
        *row = gf2_times(mat, mat[n]);
    }
    sq
}

/// The gzip CRC-32 of `len` zero bytes, in O(log len): the register update for a zero bit is
/// linear, so `len` zero bytes are a matrix power applied to the initial register.
fn crc32_of_zeros(mut len: u64) -> u32 {
    let mut odd = [0u32; 32];
    odd[0] = 0xEDB8_8320;
    for (n, row) in odd.iter_mut().enumerate().skip(1) {
        *row = 1 << (n - 1);
    }
    let mut even = gf2_square(&odd); // two zero bits
    odd = gf2_square(&even); // four zero bits
    let mut crc = 0xFFFF_FFFFu32;
    loop {
        even = gf2_square(&odd);
        if len & 1 != 0 {
            crc = gf2_times(&even, crc);
        }
        len >>= 1;
        if len == 0 {
            break;
        }
        odd = gf2_square(&even);
        if len & 1 != 0 {
            crc = gf2_times(&odd, crc);
        }
        len >>= 1;
        if len == 0 {
            break;
        }
    }
    !crc
}

/// A valid gzip file holding `mib` MiB of zeros, built without compressing them all: the deflate
/// encoding of one MiB of zeros (not final, sync-flushed to a byte boundary, referring only to its
/// own output) is repeated, then a final empty block and the trailer follow.
fn gzip_bomb(mib: usize) -> Vec<u8> {
    use flate2::{Compress, Compression, FlushCompress};
    let mut chunk = Vec::with_capacity(64 * 1024);
    let mut c = Compress::new(Compression::best(), false);
    c.compress_vec(&vec![0u8; MIB], &mut chunk, FlushCompress::Sync)
        .unwrap();
    assert_eq!(
        c.total_in(),
        MIB as u64,
        "one call compresses the whole MiB"
    );
    let mut last = Vec::with_capacity(64);
    Compress::new(Compression::best(), false)
        .compress_vec(&[], &mut last, FlushCompress::Finish)
        .unwrap();
    let total = (mib * MIB) as u64;
    let mut out = Vec::with_capacity(chunk.len() * mib + 64);
    out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
    for _ in 0..mib {
        out.extend_from_slice(&chunk);
    }
    out.extend_from_slice(&last);
    out.extend_from_slice(&crc32_of_zeros(total).to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out
}

#[test]
fn the_gzip_bomb_builder_makes_valid_gzip() {
    let mut crc = flate2::Crc::new();
    crc.update(&vec![0u8; 3 * MIB + 5]);
    assert_eq!(crc32_of_zeros(3 * MIB as u64 + 5), crc.sum());
    // A small bomb decompresses completely, with its CRC and length checked by flate2.
    let small = gzip_bomb(3);
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(&small[..])
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out.len(), 3 * MIB);
    assert!(out.iter().all(|&b| b == 0));
}

#[test]
fn gzip_bomb_stops_at_the_cap_within_a_second_with_bounded_memory() {
    let _guard = heavy();
    let bomb = gzip_bomb(1024); // 1 GiB of zeros
    assert!(
        bomb.len() < 2 * MIB,
        "the bomb is about 1 MiB: {}",
        bomb.len()
    );
    assert_eq!(&bomb[bomb.len() - 4..], &(1u32 << 30).to_le_bytes());

    // The library reads exactly one byte past the cap, whatever the gzip trailer claims.
    let t = Instant::now();
    let bytes = input::load(&bomb[..], MAX_UNCOMPRESSED).unwrap();
    eprintln!("library: bomb decoded up to the cap in {:?}", t.elapsed());
    assert!(bytes.gzip && bytes.too_large);
    assert_eq!(bytes.data.len() as u64, MAX_UNCOMPRESSED);

    let dir = TempDir::new("bomb");
    let f = dir.write("bomb.xml.gz", &bomb);
    let m = measure(&args(&[&f]), Duration::from_secs(60), "gzip bomb");
    report("gzip bomb (1 GiB of zeros in 1 MiB of gzip)", &m);
    assert_exit(&m, 1, "gzip bomb");
    let files = json_files(&m);
    assert_eq!(codes(&files[0]), ["input-too-large"]);
    assert!(
        m.elapsed < Duration::from_secs(1),
        "the bomb must stop at the cap within a second: {:?}",
        m.elapsed
    );
    assert!(
        m.peak_rss_mib() < 160.0,
        "memory must stay near the 50 MiB cap: {:.0} MiB",
        m.peak_rss_mib()
    );
    assert_eq!(
        std::fs::read(&f).unwrap(),
        bomb,
        "the input is never modified"
    );
}

// ---------------------------------------------------------------------------------------------
// deep nesting

#[test]
fn a_million_nested_elements_do_not_overflow_the_stack() {
    let _guard = heavy();
    let depth = 1_000_000;
    let dir = TempDir::new("deep");
    let mut closed = String::with_capacity(8 * depth + 200);
    closed.push_str(&format!(
        "<urlset xmlns=\"{NS}\"><url><loc>https://example.com/</loc>"
    ));
    closed.push_str(&"<x>".repeat(depth));
    closed.push_str(&"</x>".repeat(depth));
    closed.push_str("</url></urlset>");
    let closed = dir.write("closed.xml", closed.as_bytes());
    let unclosed = dir.write("unclosed.xml", "<a>".repeat(depth).as_bytes());
    let mut mismatched = "<a>".repeat(depth);
    mismatched.push_str("</b>");
    let mismatched = dir.write("mismatched.xml", mismatched.as_bytes());
    let mut entries = format!("<urlset xmlns=\"{NS}\">");
    entries.push_str(&"<url>".repeat(depth));
    entries.push_str(&"</url>".repeat(depth));
    entries.push_str("</urlset>");
    let entries = dir.write("nested-entries.xml", entries.as_bytes());

    for (path, expect) in [
        (&closed, "unknown-element"),
        (&unclosed, "xml-syntax"),
        (&mismatched, "xml-syntax"),
        (&entries, "unknown-element"),
    ] {
        let what = format!("depth 1,000,000: {}", path.display());
        let m = measure(&args(&[path]), Duration::from_secs(90), &what);
        report(&what, &m);
        assert_exit(&m, 1, &what);
        let files = json_files(&m);
        let found = codes(&files[0]);
        assert!(found.iter().any(|c| c == expect), "{what}: {found:?}");
        assert!(
            found.len() <= 100,
            "{what}: {} diagnostics for one nesting problem",
            found.len()
        );
        assert!(
            m.stdout.len() < MIB,
            "{what}: {} bytes of output for one nesting problem",
            m.stdout.len()
        );
        assert!(
            m.peak_rss_mib() < 1024.0,
            "{what}: {:.0} MiB",
            m.peak_rss_mib()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// huge text nodes and attributes

fn urlset_around(inner: &[u8]) -> Vec<u8> {
    let head = format!("<urlset xmlns=\"{NS}\"><url><loc>https://example.com/</loc></url>");
    let mut v = Vec::with_capacity(head.len() + inner.len() + 20);
    v.extend_from_slice(head.as_bytes());
    v.extend_from_slice(inner);
    v.extend_from_slice(b"</urlset>");
    v
}

#[test]
fn a_100_mb_text_node_is_refused_at_the_cap_by_the_binary() {
    let _guard = heavy();
    let dir = TempDir::new("text100");
    let f = dir.write("big.xml", &urlset_around(&vec![b'x'; 100_000_000]));
    let gz = dir.write(
        "big-text.xml.gz",
        &support::gzip(&urlset_around(&vec![b'x'; 100_000_000])),
    );
    let m = measure(&args(&[&f, &gz]), Duration::from_secs(60), "100 MB text");
    report("100 MB text node, plain and gzip", &m);
    assert_exit(&m, 1, "100 MB text node");
    let files = json_files(&m);
    for file in &files {
        assert_eq!(codes(file), ["input-too-large"], "{file}");
    }
    assert!(
        m.elapsed < Duration::from_secs(10),
        "reading stops at the cap: {:?}",
        m.elapsed
    );
    assert!(m.peak_rss_mib() < 200.0, "{:.0} MiB", m.peak_rss_mib());
}

/// With the cap raised (the library's `Settings::max_size`), a 100 MB text node and a 100 MB
/// `<loc>` go through every stage: the parser borrows the text, and every rule is linear in it.
#[test]
fn a_100_mb_text_node_and_a_100_mb_loc_go_through_every_stage() {
    let _guard = heavy();
    let settings = Settings {
        max_size: 128 * MIB as u64,
        ..Settings::default()
    };
    let n = 100_000_000;
    let mut loc = Vec::with_capacity(n + 200);
    loc.extend_from_slice(
        format!("<urlset xmlns=\"{NS}\"><url><loc>https://example.com/").as_bytes(),
    );
    loc.resize(loc.len() + n, b'a');
    loc.extend_from_slice(b"</loc></url></urlset>");
    let mut attribute = Vec::with_capacity(n / 5 + 200);
    attribute.extend_from_slice(format!("<urlset xmlns=\"{NS}\" a=\"").as_bytes());
    attribute.resize(attribute.len() + n / 5, b'v');
    attribute.extend_from_slice(b"\"><url><loc>https://example.com/</loc></url></urlset>");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "a 100 MB text node",
            urlset_around(&vec![b'x'; n]),
            "unexpected-text",
        ),
        ("a 100 MB <loc>", loc, "loc-length"),
        ("a 20 MB attribute", attribute, "unexpected-attribute"),
    ];
    for (what, bytes, expect) in cases {
        let t = Instant::now();
        let report = check_reader("big.xml", &bytes[..], &settings).unwrap();
        let elapsed = t.elapsed();
        eprintln!(
            "{what}: {elapsed:?}, {} diagnostics",
            report.diagnostics.len()
        );
        support::assert_report_sane(&report, &|| what.to_string());
        let found: Vec<&str> = report.diagnostics.iter().map(|d| d.rule.name).collect();
        assert!(found.contains(&expect), "{what}: {found:?}");
        assert!(found.len() <= 10, "{what}: {found:?}");
        assert!(
            elapsed < Duration::from_secs(120),
            "{what}: {elapsed:?} is not linear time"
        );
    }
}

/// A long `<loc>` full of problems (spaces) and entities stays fast and small: describing a
/// problem must not cost a pass (and a copy) over the whole value for each problem described.
#[test]
fn a_long_loc_with_many_problems_stays_fast() {
    let _guard = heavy();
    let dir = TempDir::new("long-loc");
    let mut v = format!("<urlset xmlns=\"{NS}\"><url><loc>https://example.com/?a");
    v.push_str(&"b c&amp;d ".repeat(800_000));
    v.push_str("</loc></url></urlset>");
    let f = dir.write("spaces.xml", v.as_bytes());
    let what = "an 8 MB <loc> of `b c&amp;d `";
    let m = measure(&args(&[&f]), Duration::from_secs(60), what);
    report(what, &m);
    assert_exit(&m, 1, what);
    let files = json_files(&m);
    assert!(codes(&files[0]).contains(&"loc-invalid".to_string()));
    assert!(
        m.elapsed < Duration::from_secs(20),
        "{what}: {:?}",
        m.elapsed
    );
    assert!(
        m.peak_rss_mib() < 512.0,
        "{what}: {:.0} MiB",
        m.peak_rss_mib()
    );
}

// ---------------------------------------------------------------------------------------------
// millions of tiny elements

/// Fills the 50 MiB cap with copies of `unit` inside a urlset, on one line (as minified sitemaps are).
fn fill_cap(unit: &str) -> (Vec<u8>, usize) {
    let head = format!("<urlset xmlns=\"{NS}\">");
    let tail = "</urlset>";
    let n = (MAX_UNCOMPRESSED as usize - head.len() - tail.len()) / unit.len();
    let mut v = Vec::with_capacity(MAX_UNCOMPRESSED as usize);
    v.extend_from_slice(head.as_bytes());
    for _ in 0..n {
        v.extend_from_slice(unit.as_bytes());
    }
    v.extend_from_slice(tail.as_bytes());
    assert!(v.len() as u64 <= MAX_UNCOMPRESSED);
    (v, n)
}

#[test]
fn millions_of_tiny_valid_entries_fit_in_time_and_memory() {
    let _guard = heavy();
    let dir = TempDir::new("tiny-valid");
    let (bytes, n) = fill_cap("<url><loc>https://e.com/</loc></url>");
    assert!(n > 1_000_000);
    let f = dir.write("tiny.xml", &bytes);
    drop(bytes);
    let what = format!("{n} tiny valid entries ({} elements)", 2 * n);
    let m = measure(&args(&[&f]), Duration::from_secs(300), &what);
    report(&what, &m);
    assert_exit(&m, 1, &what);
    let files = json_files(&m);
    // Every entry has the same URL: besides the limit, `duplicate-loc` reports its cap of 1,000
    // (the rest are counted in a note), so the duplicate check must stay cheap too.
    let found = codes(&files[0]);
    assert_eq!(
        found.iter().filter(|c| *c == "too-many-entries").count(),
        1,
        "{found:?}"
    );
    assert_eq!(
        found.iter().filter(|c| *c == "duplicate-loc").count(),
        sitemap_lint::rule::MAX_REPORTS_PER_RULE,
        "{what}"
    );
    assert_eq!(found.len(), 1 + sitemap_lint::rule::MAX_REPORTS_PER_RULE);
    assert!(
        m.peak_rss_mib() < 1536.0,
        "{what}: {:.0} MiB for a 50 MiB file",
        m.peak_rss_mib()
    );
}

/// One diagnostic per element: the work and the output must stay bounded (and linear), even on
/// one line, where every position lies on the same 50 MiB line.
#[test]
fn millions_of_tiny_invalid_elements_are_bounded() {
    let _guard = heavy();
    let dir = TempDir::new("tiny-invalid");
    for (unit, what) in [
        ("<x/>", "unknown `<x/>` elements"),
        ("<url><loc>h</loc></url>", "entries with an invalid `<loc>`"),
    ] {
        let (bytes, n) = fill_cap(unit);
        let f = dir.write("tiny-invalid.xml", &bytes);
        drop(bytes);
        let what = format!("{n} {what} on one line");
        let m = measure(&args(&[&f]), Duration::from_secs(200), &what);
        report(&what, &m);
        assert_exit(&m, 1, &what);
        assert!(
            m.stdout.len() < 64 * MIB,
            "{what}: {} bytes of output",
            m.stdout.len()
        );
        assert!(
            m.peak_rss_mib() < 1536.0,
            "{what}: {:.0} MiB",
            m.peak_rss_mib()
        );
    }
}

/// Rendering positions must not rescan the line for every diagnostic: 150,000 entries with an
/// error each on one 3.5 MB line take about as long as on 150,000 lines.
#[test]
fn one_long_line_with_an_error_per_entry_renders_in_linear_time() {
    let _guard = heavy();
    let dir = TempDir::new("long-line");
    let n = 150_000;
    let mut one_line = format!("<urlset xmlns=\"{NS}\">");
    let mut many_lines = one_line.clone();
    for _ in 0..n {
        one_line.push_str("<url><loc>h</loc></url>");
        many_lines.push_str("<url><loc>h</loc></url>\n");
    }
    one_line.push_str("</urlset>");
    many_lines.push_str("</urlset>");
    let one = dir.write("one-line.xml", one_line.as_bytes());
    let many = dir.write("many-lines.xml", many_lines.as_bytes());
    let mut times = Vec::new();
    for format in ["json", "human"] {
        for (path, what) in [(&many, "many lines"), (&one, "one line")] {
            let what = format!("{n} invalid entries on {what}, --format {format}");
            let a: Vec<OsString> = vec![
                "--format".into(),
                format.into(),
                "--color".into(),
                "never".into(),
                path.as_os_str().to_owned(),
            ];
            let m = measure(&a, Duration::from_secs(90), &what);
            report(&what, &m);
            assert_exit(&m, 1, &what);
            times.push(m.elapsed);
        }
        let (many_t, one_t) = (times[times.len() - 2], times[times.len() - 1]);
        assert!(
            one_t < many_t * 2 + Duration::from_secs(5),
            "--format {format}: one line took {one_t:?}, many lines {many_t:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// algorithmic traps in XML error recovery

/// Error recovery must stay linear: tag starts inside a comment before a mismatched close tag
/// (the checker looks back for the open tag), and thousands of unknown entity references or bare
/// `&` in one `<loc>` (each error is patched and the parse resumed).
#[test]
fn error_recovery_is_not_quadratic() {
    let _guard = heavy();
    let dir = TempDir::new("quadratic");
    let n = 700_000;
    let mut s = String::with_capacity(3 * n + 64);
    s.push_str("<r><a><!-- ");
    s.push_str(&"<a ".repeat(n));
    s.push_str("/> --></b></r>");
    let comment = dir.write("comment-of-tags.xml", s.as_bytes());
    let refs = dir.write(
        "unknown-entities.xml",
        format!(
            "<urlset xmlns=\"{NS}\"><url><loc>https://example.com/{}</loc></url></urlset>",
            "&a;".repeat(20_000)
        )
        .as_bytes(),
    );
    let amps = dir.write(
        "bare-ampersands.xml",
        format!(
            "<urlset xmlns=\"{NS}\"><url><loc>https://example.com/{}</loc></url></urlset>",
            "&".repeat(20_000)
        )
        .as_bytes(),
    );
    for (path, what) in [
        (
            &comment,
            "a 2 MB comment full of `<a ` before a mismatched `</b>`",
        ),
        (&refs, "20,000 `&a;` in one <loc>"),
        (&amps, "20,000 bare `&` in one <loc>"),
    ] {
        let m = measure(&args(&[path]), Duration::from_secs(20), what);
        report(what, &m);
        assert_exit(&m, 1, what);
        let files = json_files(&m);
        assert!(codes(&files[0]).contains(&"xml-syntax".to_string()));
        assert!(
            m.elapsed < Duration::from_secs(10),
            "{what}: {:?}",
            m.elapsed
        );
    }
}

/// Hreflang URLs written to share one hash under an unseeded FxHash-style hasher (the
/// multiply-rotate the URL table once used): each 16-byte block is a word and the word that
/// brings the state back to the same value, so `pairs` blocks of `per` choices make `per^pairs`
/// URLs of one hash. Returns the URLs.
fn colliding_urls(per: usize, blocks: u32) -> Vec<String> {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let step = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
    let prefix = b"https://ex.com/p";
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
    let target = 0x4141_4141_4141_4141u64;
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let plain = |b: u8| (0x21..=0x7e).contains(&b) && !b"\"&<'>".contains(&b);
    // The blocks that take `state` to `target * K`.
    let blocks_from = |state: u64| {
        let mut found = Vec::new();
        let mut n = 0u64;
        while found.len() < per {
            n += 1;
            // The first word: the counter in base 64, in letters, digits, `-` and `_`.
            let first: [u8; 8] = std::array::from_fn(|i| DIGITS[((n >> (6 * i)) & 63) as usize]);
            let second = (step(state, word(&first)).rotate_left(5) ^ target).to_le_bytes();
            if second.iter().all(|&b| plain(b)) {
                let mut block = first.to_vec();
                block.extend_from_slice(&second);
                found.push(block);
            }
        }
        found
    };
    let start = step(step(0, word(&prefix[..8])), word(&prefix[8..]));
    let first = blocks_from(start);
    let rest = blocks_from(target.wrapping_mul(K));
    let mut urls: Vec<Vec<u8>> = first
        .iter()
        .map(|b| [prefix.as_slice(), b].concat())
        .collect();
    for _ in 1..blocks {
        urls = urls
            .iter()
            .flat_map(|u| rest.iter().map(move |b| [u.as_slice(), b].concat()))
            .collect();
    }
    urls.into_iter()
        .map(|u| String::from_utf8(u).unwrap_or_default())
        .collect()
}

/// A file cannot make the hreflang URL table quadratic: 125,000 `href`s crafted to share one
/// unseeded hash (the table once compared every new one with all the others: 20,000 took 1 s,
/// this file would take about 40 s) are interned in linear time, alone and as a set of two files.
#[test]
fn hreflang_urls_crafted_to_collide_stay_linear() {
    let _guard = heavy();
    let dir = TempDir::new("collide");
    let urls = colliding_urls(50, 3);
    assert_eq!(urls.len(), 125_000);
    let file = |tag: &str| {
        let mut s =
            format!("<urlset xmlns=\"{NS}\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n");
        for (i, chunk) in urls.chunks(20).enumerate() {
            s.push_str(&format!("<url><loc>https://ex.com/{tag}{i}</loc>\n"));
            for u in chunk {
                s.push_str(&format!(
                    "<xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"{u}\"/>\n"
                ));
            }
            s.push_str("</url>\n");
        }
        s.push_str("</urlset>\n");
        s
    };
    let a = dir.write("a.xml", file("a").as_bytes());
    let b = dir.write("b.xml", file("b").as_bytes());
    for (paths, what) in [
        (vec![&a], "125,000 colliding hrefs"),
        (
            vec![&a, &b],
            "two files of 125,000 colliding hrefs as a set",
        ),
    ] {
        let paths: Vec<&Path> = paths.iter().map(|p| p.as_path()).collect();
        let m = measure(&args(&paths), Duration::from_secs(120), what);
        report(what, &m);
        assert_exit(&m, 1, what);
        assert!(
            m.elapsed < Duration::from_secs(10),
            "{what}: {:?}",
            m.elapsed
        );
    }
}

// ---------------------------------------------------------------------------------------------
// entity attacks

#[test]
fn billion_laughs_quadratic_blowup_and_xxe_are_refused_before_any_expansion() {
    let _guard = heavy();
    let dir = TempDir::new("entities");
    let mut laughs =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n");
    for i in 1..=9 {
        let prev = if i == 1 {
            "lol".to_string()
        } else {
            format!("lol{}", i - 1)
        };
        laughs.push_str(&format!(
            " <!ENTITY lol{i} \"{}\">\n",
            format!("&{prev};").repeat(10)
        ));
    }
    laughs.push_str(&format!(
        "]>\n<urlset xmlns=\"{NS}\"><url><loc>https://example.com/&lol9;</loc></url></urlset>\n"
    ));
    let laughs = dir.write("billion-laughs.xml", laughs.as_bytes());

    let mut quad = format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [<!ENTITY a \"{}\">]>\n<urlset xmlns=\"{NS}\"><url><loc>https://example.com/",
        "a".repeat(50_000)
    );
    quad.push_str(&"&a;".repeat(20_000));
    quad.push_str("</loc></url></urlset>\n");
    let quad = dir.write("quadratic-blowup.xml", quad.as_bytes());

    let xxe = dir.write(
        "xxe.xml",
        format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [<!ENTITY xxe SYSTEM \"file:///etc/passwd\"><!ENTITY zero SYSTEM \"file:///dev/zero\">]>\n<urlset xmlns=\"{NS}\"><url><loc>https://example.com/&xxe;&zero;</loc></url></urlset>\n"
        )
        .as_bytes(),
    );
    let pe = dir.write(
        "parameter-entity.xml",
        format!(
            "<!DOCTYPE urlset [<!ENTITY % remote SYSTEM \"http://127.0.0.1:9/evil.dtd\"> %remote; <!ENTITY % a \"<!ENTITY b '&#x25;a;'>\"> %a;]>\n<urlset xmlns=\"{NS}\"><url><loc>https://example.com/</loc></url></urlset>"
        )
        .as_bytes(),
    );
    let paths = [&laughs, &quad, &xxe, &pe];
    let m = measure(
        &args(&paths.map(|p| p.as_path())),
        Duration::from_secs(30),
        "entities",
    );
    report(
        "billion laughs, quadratic blowup, XXE, parameter entities",
        &m,
    );
    assert_exit(&m, 1, "entities");
    let out = String::from_utf8_lossy(&m.stdout);
    assert!(!out.contains("lollollol"), "no entity is ever expanded");
    assert!(
        !out.contains(&"a".repeat(1000)),
        "no entity is ever expanded"
    );
    assert!(
        !out.contains("root:x:0"),
        "external entities are never loaded"
    );
    let files = json_files(&m);
    for (file, path) in files.iter().zip(paths) {
        let found = codes(file);
        assert!(
            found.contains(&"doctype-not-allowed".to_string()),
            "{}: {found:?}",
            path.display()
        );
        assert!(
            found.len() <= 60,
            "{}: {} diagnostics",
            path.display(),
            found.len()
        );
    }
    assert!(m.elapsed < Duration::from_secs(5), "{:?}", m.elapsed);
    assert!(m.stdout.len() < MIB, "{} bytes of output", m.stdout.len());
    assert!(m.peak_rss_mib() < 100.0, "{:.0} MiB", m.peak_rss_mib());
}

// ---------------------------------------------------------------------------------------------
// devices, FIFOs, symlink loops, directories

/// Runs `cmd` to completion, reading its output as it comes (so a large report cannot block
/// it); a run longer than `timeout` is killed and fails the test.
fn run_with_timeout(mut cmd: std::process::Command, timeout: Duration) -> std::process::Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let err = child.stderr.take().unwrap();
    let out_thread = support::drain(out);
    let err_thread = support::drain(err);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            let stderr = err_thread.join().unwrap();
            panic!(
                "sitemap-lint did not finish within {timeout:?}: {:?}\nstderr: {}",
                cmd,
                String::from_utf8_lossy(&stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    std::process::Output {
        status,
        stdout: out_thread.join().unwrap(),
        stderr: err_thread.join().unwrap(),
    }
}

fn mkfifo(path: &Path) {
    let st = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(st.success(), "mkfifo failed");
}

#[test]
fn dev_zero_as_a_path_is_refused_and_as_stdin_stops_at_the_cap() {
    let mut cmd = bin();
    cmd.args(["check", "/dev/zero"]).stdin(Stdio::null());
    let o = run_with_timeout(cmd, Duration::from_secs(10));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("/dev/zero"), "{err}");

    let _guard = heavy();
    let mut cmd = bin();
    cmd.args(["check", "--format", "json", "-"])
        .stdin(std::fs::File::open("/dev/zero").unwrap());
    let t = Instant::now();
    let o = run_with_timeout(cmd, Duration::from_secs(30));
    eprintln!("/dev/zero on stdin: {:?}", t.elapsed());
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(codes(&v["files"][0]), ["input-too-large"]);

    // The library bounds any reader the same way.
    let report = check_reader("zeros", std::io::repeat(0), &Settings::default()).unwrap();
    assert_eq!(report.diagnostics.len(), 1);
    assert_eq!(report.diagnostics[0].rule.name, "input-too-large");
}

#[test]
fn a_fifo_given_as_a_path_or_found_in_a_directory_never_blocks() {
    let dir = TempDir::new("fifo");
    let fifo = dir.path().join("pipe.xml");
    mkfifo(&fifo);
    dir.write("sitemap.xml", support::VALID_SMALL.as_bytes());
    // Nobody ever writes to the FIFO: opening it for reading would block forever.
    let mut cmd = bin();
    cmd.args(["check", "--format", "json"])
        .arg(&fifo)
        .arg(dir.path().join("sitemap.xml"))
        .stdin(Stdio::null());
    let o = run_with_timeout(cmd, Duration::from_secs(10));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("pipe.xml"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["summary"]["files"], 1,
        "the regular file is still checked"
    );

    let mut cmd = bin();
    cmd.args(["check", "--format", "json"])
        .arg(dir.path())
        .stdin(Stdio::null());
    let o = run_with_timeout(cmd, Duration::from_secs(10));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["files"], 1, "{v}");
    assert!(v["files"][0]["path"]
        .as_str()
        .unwrap()
        .ends_with("sitemap.xml"));
}

#[test]
fn directory_symlink_loops_terminate_and_each_file_is_checked_once() {
    let dir = TempDir::new("symlinks");
    let root = dir.path();
    dir.write("a/sitemap.xml", support::VALID_SMALL.as_bytes());
    std::os::unix::fs::symlink("..", root.join("a/up")).unwrap();
    std::os::unix::fs::symlink(".", root.join("a/self")).unwrap();
    std::os::unix::fs::symlink(root.join("b"), root.join("a/b")).unwrap();
    std::os::unix::fs::symlink(root.join("a"), root.join("b")).unwrap();
    std::os::unix::fs::symlink("me.xml", root.join("me.xml")).unwrap();

    let mut cmd = bin();
    cmd.args(["check", "--format", "json"])
        .arg(root)
        .stdin(Stdio::null());
    let o = run_with_timeout(cmd, Duration::from_secs(10));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let paths: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths.len(), 1, "{paths:?}");
    assert!(paths[0].ends_with("a/sitemap.xml"), "{paths:?}");

    // A path through the loop is an ordinary path; a self-referencing link is unreadable.
    let mut cmd = bin();
    cmd.args(["check", "--format", "json"])
        .arg(root.join("a/up/a/self/up/a/sitemap.xml"))
        .arg(root.join("me.xml"))
        .stdin(Stdio::null());
    let o = run_with_timeout(cmd, Duration::from_secs(10));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("me.xml"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["files"], 1);
}

#[test]
fn a_directory_without_sitemaps_says_so() {
    let dir = TempDir::new("nositemaps");
    dir.write("notes.txt", b"not a sitemap");
    dir.write("sub/readme.md", b"# nothing");
    let mut cmd = bin();
    cmd.args(["check"]).arg(dir.path()).stdin(Stdio::null());
    let o = run_with_timeout(cmd, Duration::from_secs(10));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        matches!(o.status.code(), Some(0 | 2)),
        "{:?}: {err}",
        o.status
    );
    assert!(
        err.contains(&*dir.path().to_string_lossy()) && err.contains("no sitemap"),
        "the user is told that nothing was checked in the directory: {err}"
    );
}

// ---------------------------------------------------------------------------------------------
// panic isolation

/// A debug build panics on purpose while checking a file whose name ends with the value of
/// `SITEMAP_LINT_DEBUG_PANIC` (a test hook in `engine.rs`, compiled only with debug assertions):
/// that file gets an `internal-error`, the other files are still checked, and the exit code is 2.
#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the panic hook is compiled only with debug assertions"
)]
fn a_panic_is_an_internal_error_for_that_file_only() {
    let dir = TempDir::new("panic");
    let a = dir.write("a.xml", support::VALID_SMALL.as_bytes());
    let boom = dir.write("boom.xml", support::VALID_SMALL.as_bytes());
    let c = dir.write(
        "c.xml",
        format!("<urlset xmlns=\"{NS}\"><url><loc>h</loc></url></urlset>").as_bytes(),
    );
    for format in support::formats() {
        let mut cmd = bin();
        cmd.env("SITEMAP_LINT_DEBUG_PANIC", "boom.xml")
            .args(["check", "--color", "never", "--format", &format])
            .args([&a, &boom, &c])
            .stdin(Stdio::null());
        let o = run_with_timeout(cmd, Duration::from_secs(10));
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(2), "--format {format}: {out}");
        assert!(out.contains("internal-error"), "--format {format}: {out}");
        assert!(out.contains("loc-invalid"), "c.xml is still checked: {out}");
    }
}

#[test]
fn readers_are_read_at_most_one_byte_past_the_cap() {
    struct Counting<R>(R, std::rc::Rc<std::cell::Cell<u64>>);
    impl<R: Read> Read for Counting<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1.set(self.1.get() + n as u64);
            Ok(n)
        }
    }
    let count = std::rc::Rc::new(std::cell::Cell::new(0));
    let settings = Settings {
        max_size: 1000,
        ..Settings::default()
    };
    let r = check_reader(
        "x.xml",
        Counting(std::io::repeat(b'a'), count.clone()),
        &settings,
    )
    .unwrap();
    assert_eq!(count.get(), 1001);
    assert_eq!(r.diagnostics[0].rule.name, "input-too-large");
    // The same cap holds for what gzip decodes.
    let gz = support::gzip(&vec![b'a'; 10_000]);
    let r = check_reader("x.xml.gz", &gz[..], &settings).unwrap();
    assert_eq!(r.diagnostics[0].rule.name, "input-too-large");
}

// ---------------------------------------------------------------------------------------------
// complexity attacks: small inputs whose checking cost grew with the square of a count

/// A time bound of the tests below, set for release builds: doubled in a debug build (`cargo
/// test`, which CI runs). Debug builds optimise the crate (opt-level 1, `Cargo.toml`), and took
/// at most 0.93 s where release builds are given 2 s, so the bounds still fail an attack that
/// costs the square of its count (10 to 20 s in release builds before the fixes).
fn bound(release: Duration) -> Duration {
    if cfg!(debug_assertions) {
        release * 2
    } else {
        release
    }
}

/// Checks `path` (with `extra` arguments before it), expecting `code` among its findings, within
/// `limit`.
fn fast(extra: &[&str], path: &Path, code: &str, limit: Duration, what: &str) -> Measured {
    let mut a: Vec<OsString> = extra.iter().map(OsString::from).collect();
    a.extend(args(&[path]));
    let m = measure(&a, Duration::from_secs(120), what);
    report(what, &m);
    let files = json_files(&m);
    assert!(
        codes(&files[0]).iter().any(|c| c == code),
        "{what}: {:?}",
        codes(&files[0])
    );
    assert!(m.elapsed < bound(limit), "{what}: {:?}", m.elapsed);
    m
}

const XHTML: &str = "http://www.w3.org/1999/xhtml";

/// Page P lists Q 100,000 times as `en`, Q lists itself 100,000 times as `de`: every code of P's
/// links was compared with every code Q gives itself (before: 20 s; 400,000 each: 328 s).
#[test]
fn repeated_hreflang_codes_are_compared_in_linear_time() {
    let _guard = heavy();
    let dir = TempDir::new("hreflang-repeats");
    let n = 100_000;
    let link = |code: &str| {
        format!("<x:link rel=\"alternate\" hreflang=\"{code}\" href=\"https://e.com/q\"/>")
    };
    let text = format!(
        "<urlset xmlns=\"{NS}\" xmlns:x=\"{XHTML}\"><url><loc>https://e.com/p</loc>{}</url><url><loc>https://e.com/q</loc>{}</url></urlset>",
        link("en").repeat(n),
        link("de").repeat(n)
    );
    let f = dir.write("repeats.xml.gz", &support::gzip(text.as_bytes()));
    let what = "P lists Q 100,000 times as `en`, Q itself 100,000 times as `de`";
    fast(
        &[],
        &f,
        "hreflang-cluster-mismatch",
        Duration::from_secs(2),
        what,
    );
}

/// One suppression comment of a million unknown names: each had a closest-name search (before:
/// 12 s; 13 million names: 156 s and 1.3 GB).
#[test]
fn a_suppression_of_a_million_names_is_cut_at_the_limit() {
    let _guard = heavy();
    let dir = TempDir::new("suppression-names");
    let text = format!(
        "<!-- sitemap-lint: allow({}) -->\n<urlset xmlns=\"{NS}\"><url><loc>https://e.com/</loc></url></urlset>",
        vec!["a"; 1_000_000].join(",")
    );
    let f = dir.write("names.xml.gz", &support::gzip(text.as_bytes()));
    let what = "a million unknown names in one suppression";
    let m = fast(&[], &f, "suppression-invalid", Duration::from_secs(2), what);
    let files = json_files(&m);
    let messages: Vec<&str> = files[0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert!(
        messages.contains(&"more than 100 names in one suppression; the rest are ignored"),
        "{messages:?}"
    );
    assert!(messages.len() <= 101, "{}", messages.len());
    assert!(m.peak_rss_mib() < 100.0, "{:.0} MiB", m.peak_rss_mib());
}

/// 120,000 attributes on one element: the parser compares each with every earlier one (before:
/// 12 s; 240,000: 49 s). Refused before parsing, in every `--jobs` mode.
#[test]
fn an_element_with_too_many_attributes_is_refused_before_parsing() {
    let _guard = heavy();
    let dir = TempDir::new("attributes");
    let attributes: String = (0..120_000).map(|i| format!(" a{i}=\"\"")).collect();
    let text = format!(
        "<urlset xmlns=\"{NS}\"><url{attributes}><loc>https://e.com/</loc></url>{}</urlset>",
        "<url><loc>https://e.com/b</loc></url>".repeat(30_000)
    );
    let f = dir.write("attributes.xml", text.as_bytes());
    let what = "120,000 attributes on one <url>";
    fast(&[], &f, "xml-syntax", Duration::from_secs(2), what);
    same_report_in_every_jobs_mode(&f, "more than 256 attributes");
    // The same element after 3 MB of entries, where a file checked in pieces is scanned a piece
    // at a time (see `xml_limits::piecewise`): refused before its piece is parsed, and reported
    // as the whole-file scan reports it.
    let text = format!(
        "<urlset xmlns=\"{NS}\">{}<url{attributes}><loc>https://e.com/</loc></url>{}</urlset>",
        "<url><loc>https://e.com/a</loc></url>".repeat(80_000),
        "<url><loc>https://e.com/b</loc></url>".repeat(30_000)
    );
    let f = dir.write("attributes-late.xml", text.as_bytes());
    let what = "120,000 attributes on a <url> 3 MB into the file";
    fast(&[], &f, "xml-syntax", Duration::from_secs(2), what);
    same_report_in_every_jobs_mode(&f, "more than 256 attributes");
}

/// 1,000 namespace declarations on the root and one on each of 13,000 `<url>`s (0.67 MB): each
/// element copied the 1,000 in scope, checking each against those copied (before: 12.5 s).
#[test]
fn too_many_namespace_declarations_are_refused_before_parsing() {
    let _guard = heavy();
    let dir = TempDir::new("namespaces");
    let declarations: String = (0..1_000)
        .map(|i| format!(" xmlns:n{i}=\"u{i}\""))
        .collect();
    let text = format!(
        "<urlset xmlns=\"{NS}\"{declarations}>{}</urlset>",
        "<url xmlns:x=\"y\"><loc>https://e.com/</loc></url>".repeat(13_000)
    );
    let f = dir.write("namespaces.xml", text.as_bytes());
    let what = "1,000 namespaces on the root, one more on each <url>";
    fast(&[], &f, "xml-syntax", Duration::from_secs(2), what);
    same_report_in_every_jobs_mode(&f, "namespace declarations in scope");
    // In total: one declaration past the limit, of one namespace each, one per element.
    let over = sitemap_lint::pipeline::xml_limits::MAX_NAMESPACE_DECLARATIONS + 1;
    let text = format!(
        "<urlset xmlns=\"{NS}\">{}</urlset>",
        "<url xmlns:x=\"y\"><loc>https://e.com/</loc></url>".repeat(over)
    );
    let f = dir.write("total.xml", text.as_bytes());
    same_report_in_every_jobs_mode(&f, "namespace declarations in one file");
}

/// The limits are checked before any parse, on the whole file or a piece at a time: the same
/// report with one thread, with several, and with pieces of every size.
fn same_report_in_every_jobs_mode(path: &Path, message: &str) {
    let mut reports = Vec::new();
    for jobs in ["1", "2", "16"] {
        let o = support::run_cmd(
            bin(),
            &[
                "check",
                "--format",
                "json",
                "--jobs",
                jobs,
                path.to_str().unwrap(),
            ],
            None,
        );
        let out = support::stdout(&o);
        assert!(out.contains(message), "--jobs {jobs}: {out}");
        reports.push(out);
    }
    assert!(reports.windows(2).all(|w| w[0] == w[1]), "{reports:?}");
}

/// An index of 20,000 children among 20,000 checked files: each child was compared with every
/// file (before: 10 s more than the files alone; 50,000 each: 66 s). Now a hash lookup each.
#[test]
fn an_index_of_many_children_links_them_in_linear_time() {
    let _guard = heavy();
    let dir = TempDir::new("index-children");
    let n = 20_000;
    let children: String = (0..n)
        .map(|i| format!("<sitemap><loc>https://e.com/s{i}.xml</loc></sitemap>"))
        .collect();
    let index = dir.write(
        "index.xml",
        format!("<sitemapindex xmlns=\"{NS}\">{children}</sitemapindex>").as_bytes(),
    );
    let files: Vec<std::path::PathBuf> = (0..n)
        .map(|i| {
            dir.write(
                &format!("s{i}.xml"),
                format!("<urlset xmlns=\"{NS}\"><url><loc>https://e.com/p{i}</loc></url></urlset>")
                    .as_bytes(),
            )
        })
        .collect();
    let time = |with_index: bool| {
        let mut cmd = bin();
        cmd.args(["check", "--format", "json", "--jobs", "1"]);
        if with_index {
            cmd.arg(&index);
        }
        cmd.args(&files).stdin(Stdio::null());
        let t = Instant::now();
        let o = run_with_timeout(cmd, Duration::from_secs(120));
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        t.elapsed()
    };
    let alone = time(false);
    let linked = time(true);
    eprintln!("{n} files: {alone:?}; with an index listing each: {linked:?}");
    assert!(
        linked < alone + bound(Duration::from_secs(2)),
        "the index cost {:?}",
        linked.saturating_sub(alone)
    );
}

/// `index-child` findings are capped at 1,000 per run like every rule's.
#[test]
fn index_child_findings_are_capped() {
    let dir = TempDir::new("index-child-cap");
    let children: String = (0..1_500)
        .map(|i| format!("<sitemap><loc>https://e.com/missing-{i}.xml</loc></sitemap>"))
        .collect();
    let index = dir.write(
        "index.xml",
        format!("<sitemapindex xmlns=\"{NS}\">{children}</sitemapindex>").as_bytes(),
    );
    let o = support::run_cmd(
        bin(),
        &[
            "check",
            "--format",
            "json",
            "--site-root",
            dir.path().to_str().unwrap(),
            "--sitemap-url",
            "https://e.com/index.xml",
            index.to_str().unwrap(),
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let diagnostics = v["files"][0]["diagnostics"].as_array().unwrap();
    let children: Vec<&serde_json::Value> = diagnostics
        .iter()
        .filter(|d| d["code"] == "index-child")
        .collect();
    assert_eq!(children.len(), 1_000);
    let notes = children[999]["notes"].to_string();
    assert!(
        notes.contains("500 more children of indexes were not reported"),
        "{notes}"
    );
}

/// 100,000 `exclude` globs (889 KB): each entry's line was found by scanning the text before it
/// (before: 7.6 s), and each glob is compiled. More than 1,000 are a configuration error.
#[test]
fn a_configuration_of_100_000_excludes_is_refused_quickly() {
    let _guard = heavy();
    let dir = TempDir::new("excludes");
    let globs: String = (0..100_000).map(|i| format!("\"d{i}\",\n")).collect();
    let config = dir.write(
        "sitemap-lint.toml",
        format!("exclude = [\n{globs}]\n").as_bytes(),
    );
    let f = dir.write("s.xml", support::VALID_SMALL.as_bytes());
    let mut cmd = bin();
    cmd.arg("check")
        .arg("--config")
        .arg(&config)
        .arg(&f)
        .stdin(Stdio::null());
    let t = Instant::now();
    let o = run_with_timeout(cmd, Duration::from_secs(120));
    let elapsed = t.elapsed();
    let err = String::from_utf8_lossy(&o.stderr);
    eprintln!("100,000 exclude globs: {elapsed:?}");
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(":1002:1: more than 1000 globs in `exclude`"),
        "{err}"
    );
    assert!(elapsed < bound(Duration::from_secs(2)), "{elapsed:?}");
}

/// Input quoted in messages is cut at 200 characters: a 10 MB element name, attribute name or
/// value is not copied into each message that names it.
#[test]
fn long_names_and_values_are_quoted_short() {
    let dir = TempDir::new("long-names");
    let long = "a".repeat(10 << 20);
    let text = format!(
        "<urlset xmlns=\"{NS}\"><url {long}=\"1\"><loc>https://e.com/</loc><changefreq>{long}</changefreq><priority>{long}</priority><{long}/></url></urlset>"
    );
    let f = dir.write("long.xml", text.as_bytes());
    let o = support::run_cmd(
        bin(),
        &["check", "--format", "json", f.to_str().unwrap()],
        None,
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let diagnostics = v["files"][0]["diagnostics"].as_array().unwrap();
    assert!(diagnostics.len() >= 4, "{diagnostics:?}");
    for d in diagnostics {
        let message = d["message"].as_str().unwrap();
        assert!(
            message.chars().count() < 300,
            "{}: {} characters",
            d["code"],
            message.len()
        );
    }
    assert!(
        o.stdout.len() < 100_000,
        "{} bytes of output",
        o.stdout.len()
    );
}

/// The same for the names the extension walk, the extension, hreflang and structure rules quote:
/// a 1 MB namespace prefix makes every element name 1 MB long, and 20,000 misplaced image elements in one `<url>`
/// would be named and labelled in one finding. Messages name the first few and count the rest.
#[test]
fn long_prefixes_and_many_misplaced_elements_are_quoted_short() {
    const IMAGE: &str = "http://www.google.com/schemas/sitemap-image/1.1";
    const VIDEO: &str = "http://www.google.com/schemas/sitemap-video/1.1";
    const XHTML: &str = "http://www.w3.org/1999/xhtml";
    let dir = TempDir::new("long-prefixes");
    let p = "p".repeat(1 << 20);
    let (v, x) = ("v".repeat(1 << 20), "x".repeat(1 << 20));
    let misplaced = "<image:loc>https://e.com/a.jpg</image:loc>".repeat(20_000);
    let out_of_order = "<image:title>t</image:title>".repeat(50);
    let text = format!(
        "<{p}:urlset xmlns:{p}=\"{NS}\" xmlns:image=\"{IMAGE}\" xmlns:{v}=\"{VIDEO}\" xmlns:{x}=\"{XHTML}\">\
         <{p}:url>text<{p}:lastmod>2024-01-01</{p}:lastmod><{p}:lastmod>2024-01-01</{p}:lastmod></{p}:url>\
         <{p}:url><{p}:loc>https://e.com/</{p}:loc>{misplaced}</{p}:url>\
         <{p}:url><{p}:loc>https://e.com/b</{p}:loc><image:image {p}=\"1\">{out_of_order}\
         <image:loc>https://e.com/b.jpg</image:loc></image:image></{p}:url>\
         <{p}:url><{p}:loc>https://e.com/c</{p}:loc><image:image><{p}:loc>x</{p}:loc></image:image></{p}:url>\
         <{p}:url><{p}:loc>https://e.com/d</{p}:loc><{x}:link rel=\"alternate\" hreflang=\"not a code\" href=\"https://e.com/d\"/>\
         <{v}:video><{v}:thumbnail_loc>https://e.com/t.jpg</{v}:thumbnail_loc><{v}:title>t</{v}:title>\
         <{v}:description>d</{v}:description></{v}:video></{p}:url>\
         </{p}:urlset>"
    );
    let f = dir.write("long.xml", text.as_bytes());
    let o = support::run_cmd(
        bin(),
        &["check", "--format", "json", f.to_str().unwrap()],
        None,
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let diagnostics = v["files"][0]["diagnostics"].as_array().unwrap();
    let codes: Vec<&str> = diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    for code in [
        "extension-placement",
        "extension-structure",
        "missing-loc",
        "duplicate-element",
        "unexpected-text",
        "hreflang-invalid",
        "video-invalid",
    ] {
        assert!(codes.contains(&code), "no {code} in {codes:?}");
    }
    for d in diagnostics {
        let text = d.to_string();
        assert!(
            text.len() < 40_000,
            "{}: {} bytes: {}",
            d["code"],
            text.len(),
            &text[..text.len().min(2_000)]
        );
        let message = d["message"].as_str().unwrap();
        assert!(
            message.chars().count() < 1_000,
            "{}: {} characters",
            d["code"],
            message.len()
        );
    }
    assert!(
        o.stdout.len() < 200_000,
        "{} bytes of output",
        o.stdout.len()
    );
}

// ---------------------------------------------------------------------------------------------
// text sitemaps (issue 20)

/// A text sitemap costs linear time and bounded memory whatever its lines hold: one 50 MiB URL,
/// 3.5 million URLs on one 50 MiB line (the fix that splits them is not offered beyond its cap),
/// and, in 10 MiB (the debug binary spends most of its time on each line's position), ten
/// million empty lines or lone `\r`s, lines of two words, and URLs that mostly repeat. The
/// release binary's figures at the full cap are in docs/safety.md.
#[test]
fn text_sitemaps_stay_linear_and_bounded() {
    let _guard = heavy();
    let dir = TempDir::new("text-hostile");
    let cap = MAX_UNCOMPRESSED as usize;
    let fill = |unit: &str, size: usize| unit.repeat(size / unit.len()).into_bytes();
    let mut long_url = b"https://e.com/".to_vec();
    long_url.resize(cap, b'a');
    let cases: [(&str, Vec<u8>, &[&str]); 6] = [
        ("one 50 MiB URL", long_url, &["loc-length"]),
        (
            "3.5 million URLs on one 50 MiB line",
            fill("https://e.com/ ", cap),
            &["text-line-invalid"],
        ),
        (
            "10 million empty lines",
            fill("\n", 10 * MIB),
            &["empty-sitemap", "text-blank-line"],
        ),
        (
            "10 million lone CRs",
            fill("\r", 10 * MIB),
            &["empty-sitemap", "text-blank-line"],
        ),
        (
            "2.6 million lines of two words",
            fill("a b\n", 10 * MIB),
            &["text-line-invalid"],
        ),
        (
            "700,000 URLs",
            fill("https://e.com/\n", 10 * MIB),
            &["duplicate-loc", "too-many-entries"],
        ),
    ];
    for (what, bytes, expected) in cases {
        let f = dir.write("hostile-sitemap.txt", &bytes);
        drop(bytes);
        let m = measure(&args(&[&f]), Duration::from_secs(240), what);
        report(what, &m);
        assert_exit(&m, 1, what);
        let files = json_files(&m);
        let found: std::collections::BTreeSet<String> = codes(&files[0]).into_iter().collect();
        let expected: std::collections::BTreeSet<String> =
            expected.iter().map(|s| s.to_string()).collect();
        assert_eq!(found, expected, "{what}");
        assert!(
            m.stdout.len() < 16 * MIB,
            "{what}: {} bytes of output",
            m.stdout.len()
        );
        assert!(
            m.elapsed < Duration::from_secs(120),
            "{what}: {:?} is not linear time",
            m.elapsed
        );
        assert!(
            m.peak_rss_mib() < 512.0,
            "{what}: {:.0} MiB",
            m.peak_rss_mib()
        );
    }
}
