//! Helpers shared by the integration tests: sample sitemaps, the report invariants every input must
//! satisfy, temporary directories, running the binary (plainly, or while measuring its wall time and
//! peak memory).
#![allow(dead_code)]

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use sitemap_lint::{rules, FileReport, Severity};

pub const NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";

/// A valid sitemap that exercises entities, CDATA, comments, a PI, non-ASCII text, CRLF, and an
/// extension namespace.
pub const VALID_URLSET: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n\
<!-- généré le 2024-11-21 -->\n\
<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n\
        xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n\
  <url>\n\
    <loc>https://www.example.com/a?x=1&amp;y=2</loc>\n\
    <lastmod>2024-11-21T10:00:00+01:00</lastmod>\n\
    <changefreq>daily</changefreq>\n\
    <priority>0.8</priority>\n\
    <image:image><image:loc>https://www.example.com/i.png</image:loc></image:image>\n\
  </url>\r\n\
  <url><loc><![CDATA[https://www.example.com/%C3%BC]]></loc></url>\n\
  <?keep going?>\n\
</urlset>\n";

/// A valid sitemap index.
pub const VALID_INDEX: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
  <sitemap><loc>https://www.example.com/s1.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>\n\
  <sitemap><loc>https://www.example.com/s2.xml</loc></sitemap>\n\
</sitemapindex>\n";

/// A small valid sitemap on one line, without a declaration.
pub const VALID_SMALL: &str = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.com/%C3%A4</loc><lastmod>2024-05-06</lastmod></url></urlset>";

/// Rules whose diagnostics mean "this is not well-formed UTF-8 XML (1.0)".
pub const XML_LEVEL_RULES: [&str; 7] = [
    "xml-syntax",
    "xml-declaration",
    "xml-declaration-encoding",
    "leading-whitespace",
    "doctype-not-allowed",
    "invalid-utf8",
    "encoding-not-utf8",
];

pub fn is_xml_level(rule: &str) -> bool {
    XML_LEVEL_RULES.contains(&rule)
}

/// The binary under test.
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sitemap-lint"));
    c.env_remove("NO_COLOR").env("RUST_BACKTRACE", "0");
    c
}

pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A temporary directory removed when dropped (large hostile files must not pile up).
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        // The thread's number only: a name without `(`, which a `file:` URL would escape.
        let thread: String = format!("{:?}", std::thread::current().id())
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        let dir = std::env::temp_dir().join(format!(
            "sitemap-lint-{tag}-{}-{thread}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&p, bytes).unwrap();
        p
    }
}

/// The folder's path, so that a `TempDir` goes where a `&Path` does (`&dir`, `dir.join(…)`).
impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The exit code the binary must give for a run over exactly these reports (no I/O trouble).
pub fn expected_exit(reports: &[&FileReport]) -> i32 {
    if reports.iter().any(|r| r.internal_error()) {
        2
    } else if reports.iter().any(|r| r.count(Severity::Error) > 0) {
        1
    } else {
        0
    }
}

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, catching a panic as `Err(message)` without printing it (property tests catch many
/// panics while shrinking; other panics are printed as usual).
pub fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                default(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    result.map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".into())
    })
}

/// What every report must satisfy, whatever the input: no internal error (a caught panic), spans
/// inside the decoded text and on character boundaries, known rules, documented order, messages.
pub fn assert_report_sane(report: &FileReport, what: &dyn Fn() -> String) {
    let text = report.source.text();
    if let Some(d) = report
        .diagnostics
        .iter()
        .find(|d| d.rule.name == "internal-error")
    {
        panic!(
            "internal error (a panic inside the checker) on {}: {:?}",
            what(),
            d.notes
        );
    }
    let known: Vec<&str> = rules::metas().map(|m| m.name).collect();
    let mut last = (0usize, 0usize, "");
    for d in &report.diagnostics {
        assert!(
            known.contains(&d.rule.name),
            "unknown rule {} on {}",
            d.rule.name,
            what()
        );
        assert!(
            !d.message.trim().is_empty(),
            "empty message for {} on {}",
            d.rule.name,
            what()
        );
        for (label, span) in std::iter::once(("primary", &d.primary.span))
            .chain(d.secondary.iter().map(|l| ("secondary", &l.span)))
        {
            assert!(
                span.start <= span.end && span.end <= text.len(),
                "{label} span {span:?} of {} outside the text (len {}) on {}",
                d.rule.name,
                text.len(),
                what()
            );
            assert!(
                text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
                "{label} span {span:?} of {} not on char boundaries on {}",
                d.rule.name,
                what()
            );
            // Positions must be computable (the renderers need them).
            let start = report.source.position(span.start);
            let end = report.source.position(span.end);
            assert!(start <= end, "positions out of order on {}", what());
        }
        let key = (d.primary.span.start, d.primary.span.end, d.rule.name);
        assert!(
            key >= last,
            "diagnostics not sorted by position then rule on {}",
            what()
        );
        last = key;
    }
}

/// The `--format` values `sitemap-lint check -h` lists (`[possible values: a, b]`), so that the
/// tests cover formats as they are added.
pub fn formats() -> Vec<String> {
    let o = bin().args(["check", "-h"]).output().unwrap();
    let help = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut formats = Vec::new();
    let mut in_format = false;
    for line in help.lines() {
        let t = line.trim_start();
        if t.starts_with('-') {
            in_format = t.starts_with("--format ") || t.contains(", --format ");
        }
        if in_format {
            if let Some(p) = line.find("[possible values: ") {
                let rest = &line[p + "[possible values: ".len()..];
                let list = &rest[..rest.find(']').unwrap_or(rest.len())];
                formats.extend(list.split(',').map(|s| s.trim().to_string()));
                in_format = false;
            }
        }
    }
    assert!(
        formats.iter().any(|f| f == "json") && formats.iter().any(|f| f == "human"),
        "could not read the --format values from `check -h`:\n{help}"
    );
    formats
}

/// A finished run of the binary, with what it cost.
pub struct Measured {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// Wall time until the binary had finished every input before stdin (see [`measure`]).
    pub elapsed: Duration,
    /// Peak resident set (VmHWM) in KiB, read while the binary was still running.
    pub peak_rss_kib: u64,
}

impl Measured {
    pub fn peak_rss_mib(&self) -> f64 {
        self.peak_rss_kib as f64 / 1024.0
    }
}

fn vm_hwm_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Valid files checked after the measured inputs and before stdin (see [`measure`]).
pub const PADDING_FILES: usize = 4;

fn padding_files() -> &'static [PathBuf] {
    static FILES: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        // The report is sorted by path, and the padding must come after every measured input
        // (all of them live in `TempDir`s named `sitemap-lint-{tag}-…` in the same temporary
        // directory): `~` sorts after every letter, digit and `-`. Do not move this folder into
        // the target directory: where a checkout lives (`/builds/…`, `/work/…`) decides whether
        // it sorts before or after `/tmp`.
        let dir =
            std::env::temp_dir().join(format!("sitemap-lint-~padding-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        (1..=PADDING_FILES)
            .map(|i| {
                let p = dir.join(format!("padding-{i}.xml"));
                // A URL of its own: files checked together are a set, and a URL in two of them
                // is a `duplicate-loc`.
                let own = VALID_SMALL.replace("/%C3%A4<", &format!("/padding-{i}<"));
                assert_ne!(own, VALID_SMALL);
                std::fs::write(&p, own).unwrap();
                p
            })
            .collect()
    })
}

/// Runs `sitemap-lint check --jobs 1 ARGS… PADDING… -` and measures the inputs in ARGS
/// precisely. Stdin is a pipe holding a valid 1 MiB sitemap that is written only as the binary
/// reads it. The binary's one worker runs at most two inputs ahead of the one being rendered, so
/// after the [`PADDING_FILES`] small files it reads stdin only once every input in ARGS is checked
/// *and rendered*; and it is still alive then, waiting for the end of stdin. At that moment the
/// wall time is taken and the peak RSS (VmHWM) read from /proc (it is also polled all along).
/// Then stdin is closed and the run completes. A binary still busy after `timeout` is killed, and
/// the test fails naming `what`; one that needs more than 4 GiB of address space aborts (a
/// signal, which [`Measured::status`] shows).
pub fn measure(args: &[OsString], timeout: Duration, what: &str) -> Measured {
    let mut tail = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!--");
    while tail.len() < 1 << 20 {
        tail.push_str(" padding padding padding padding padding padding padding\n");
    }
    tail.push_str("-->\n");
    tail.push_str(&VALID_SMALL.replace("/%C3%A4<", "/stdin<"));
    let start = Instant::now();
    // `sh` sets hard limits and `exec`s the binary (same pid, for /proc): 4 GiB of address space
    // and 300 s of CPU time, so that a runaway binary fails fast instead of pushing the machine
    // into the OOM killer, and dies even if this test process is killed first.
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4194304 && ulimit -t 300 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_sitemap-lint"))
        .args(["check", "--jobs", "1"])
        .args(args)
        .args(padding_files())
        .arg("-")
        .env_remove("NO_COLOR")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let out = child.stdout.take().unwrap();
    let err = child.stderr.take().unwrap();
    let out_thread = drain(out);
    let err_thread = drain(err);
    let (tx, rx) = mpsc::channel();
    let writer = std::thread::spawn(move || {
        let result = stdin.write_all(tail.as_bytes());
        let _ = tx.send(result.is_ok());
        stdin // closed when the main thread drops it
    });
    let mut peak = 0u64;
    let deadline = start + timeout;
    let (elapsed, finished) = loop {
        // Poll as well, as a fallback when the binary dies before reading stdin.
        if let Some(kib) = vm_hwm_kib(pid) {
            peak = peak.max(kib);
        }
        match rx.recv_timeout(Duration::from_millis(5)) {
            Ok(_) => break (start.elapsed(), true),
            Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
            Err(_) => break (start.elapsed(), false),
        }
    };
    if let Some(kib) = vm_hwm_kib(pid) {
        peak = peak.max(kib);
    }
    if !finished {
        let _ = child.kill();
        let _ = child.wait();
        let _ = writer.join();
        panic!(
            "{what}: sitemap-lint did not finish within {timeout:?} (peak RSS so far {} MiB)",
            peak / 1024
        );
    }
    drop(writer.join().unwrap());
    let status = child.wait().unwrap();
    let stdout = out_thread.join().unwrap();
    let stderr = String::from_utf8_lossy(&err_thread.join().unwrap()).into_owned();
    Measured {
        status,
        stdout,
        stderr,
        elapsed,
        peak_rss_kib: peak,
    }
}

/// The JSON report of a [`measure`]d run, with the trailing padding and stdin files checked and
/// removed.
pub fn json_files(m: &Measured) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_slice(&m.stdout).unwrap_or_else(|e| {
        panic!(
            "output is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&m.stdout[..m.stdout.len().min(2000)]),
            m.stderr
        )
    });
    let mut files = v["files"].as_array().cloned().unwrap_or_default();
    for i in 0..=PADDING_FILES {
        let last = files
            .pop()
            .expect("the padding files and stdin are reported");
        if i == 0 {
            assert_eq!(last["path"], "<stdin>");
        } else {
            let expected = padding_files()[PADDING_FILES - i].display().to_string();
            assert_eq!(
                last["path"].as_str(),
                Some(expected.as_str()),
                "the padding files are reported last (the report is sorted by path)"
            );
        }
        assert_eq!(
            last["diagnostics"].as_array().map(Vec::len),
            Some(0),
            "the valid files after the hostile input are clean: {last}"
        );
    }
    files
}

/// The rule names reported for one file of a JSON report.
pub fn codes(file: &serde_json::Value) -> Vec<String> {
    file["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// Reads a child's pipe to the end on its own thread, so a large output cannot block the child.
pub fn drain<R: std::io::Read + Send + 'static>(mut r: R) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = r.read_to_end(&mut v);
        v
    })
}

/// Runs `cmd` with `args`, feeding `stdin` (or a closed stdin), and collects its output.
pub fn run_cmd(mut cmd: Command, args: &[&str], stdin: Option<&[u8]>) -> Output {
    cmd.args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(input) = stdin {
        // The child may exit without reading stdin (e.g. when it is excluded): a broken pipe is fine.
        let _ = child.stdin.take().unwrap().write_all(input);
    }
    child.wait_with_output().unwrap()
}

/// Runs the binary in `dir` (see [`run_cmd`]).
pub fn run_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = bin();
    cmd.current_dir(dir);
    run_cmd(cmd, args, stdin)
}

/// A run's stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A run's stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
