//! The fast path: a plain `http(s)` URL the full checker would pass, recognised in one pass.

/// Whether `v` is a plain ASCII `http(s)://host[:port][/path][?query]` URL in which the full
/// checker finds nothing: lowercase scheme, a DNS host of letters, digits, inner hyphens and
/// dots (no `xn--` label, no trailing dot, not numeric), a port of 1 to 5 digits up to 65535,
/// then only unreserved characters, sub-delims, `:`, `@`, `/`, `?` and `%XX` escapes.
///
/// A table lookup a byte (the host is then split at its dots), no allocation. `false` only means
/// "not sure": the full checker then decides. It is never `true` for a value with a problem (the
/// tests compare it with [`check_full`] on many generated values).
pub(crate) fn is_plain_http_url(v: &[u8]) -> bool {
    let rest = match v {
        [b'h', b't', b't', b'p', b's', b':', b'/', b'/', rest @ ..]
        | [b'h', b't', b't', b'p', b':', b'/', b'/', rest @ ..] => rest,
        _ => return false,
    };
    // The host: the run of letters, digits, hyphens and dots (one table lookup a byte), then
    // its labels, each non-empty (no leading, doubled or trailing dot), at most 63 bytes, with
    // no hyphen at either end and no `xn--` prefix.
    let host_end = rest
        .iter()
        .position(|&x| !is_plain_host_byte(x))
        .unwrap_or(rest.len());
    let host = &rest[..host_end];
    if host_end > 253 {
        return false;
    }
    let mut last: &[u8] = &[];
    for label in host.split(|&x| x == b'.') {
        let (Some(&first), Some(&end)) = (label.first(), label.last()) else {
            return false;
        };
        if label.len() > 63
            || first == b'-'
            || end == b'-'
            || label.len() >= 4 && label[..4].eq_ignore_ascii_case(b"xn--")
        {
            return false;
        }
        last = label;
    }
    if last.iter().all(u8::is_ascii_digit) {
        return false; // the last label is numeric: an IPv4 address, or an invalid one
    }
    let mut i = host_end;
    if rest.get(i) == Some(&b':') {
        let port_start = i + 1;
        let mut port: u32 = 0;
        i = port_start;
        while let Some(&d) = rest.get(i).filter(|d| d.is_ascii_digit()) {
            port = port * 10 + u32::from(d - b'0');
            i += 1;
            if i - port_start > 5 {
                return false;
            }
        }
        if i == port_start || port > 65535 {
            return false;
        }
    }
    if !matches!(rest.get(i), None | Some(b'/' | b'?')) {
        return false;
    }
    let mut tail = &rest[i..];
    loop {
        let Some(p) = first_not_plain(tail) else {
            return true;
        };
        match tail[p..] {
            [b'%', h1, h2, ..] if h1.is_ascii_hexdigit() && h2.is_ascii_hexdigit() => {
                tail = &tail[p + 3..];
            }
            _ => return false,
        }
    }
}

/// The first byte of `b` that [`PLAIN_URL_BYTE`] does not allow, tested eight at a time.
pub(super) fn first_not_plain(b: &[u8]) -> Option<usize> {
    let mut at = 0;
    for chunk in b.chunks_exact(8) {
        // No early exit inside a chunk: one branch per eight bytes.
        if !chunk
            .iter()
            .fold(true, |ok, &x| ok & PLAIN_URL_BYTE[usize::from(x)])
        {
            break;
        }
        at += 8;
    }
    b[at..]
        .iter()
        .position(|&x| !PLAIN_URL_BYTE[usize::from(x)])
        .map(|p| at + p)
}

/// Whether `b` may stand in a plain DNS host: a letter, a digit, `-` or `.` (one table lookup).
pub(crate) fn is_plain_host_byte(b: u8) -> bool {
    HOST_BYTE[usize::from(b)]
}

/// The bytes of a plain host: letters, digits, `-` and `.`.
static HOST_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let x = c as u8;
        t[c] = x.is_ascii_alphanumeric() || x == b'-' || x == b'.';
        c += 1;
    }
    t
};

/// The bytes path and query may hold without any problem: unreserved characters, sub-delims,
/// `:`, `@`, `/` and `?` (`%` is handled apart).
pub(super) static PLAIN_URL_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let x = c as u8;
        t[c] = x.is_ascii_alphanumeric()
            || matches!(
                x,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'/'
                    | b'?'
            );
        c += 1;
    }
    t
};
