//! `-o` never destroys what the run reads, the report is replaced atomically, and every file the
//! tool opens (inputs, index children, configuration) is a regular file under a cap: a FIFO or a
//! device never hangs the run or fills memory.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::{gzip, run_in, stderr, TempDir, VALID_SMALL};

/// Runs the binary in `dir` and fails the test (instead of hanging it) after 20 s.
fn run_bounded(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut child = support::bin()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`{}` hangs", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn refused(dir: &Path, args: &[&str], what: &str) {
    let o = run_bounded(dir, args);
    assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
    assert!(
        stderr(&o).contains("which this run reads"),
        "{what}: {}",
        stderr(&o)
    );
}

#[test]
fn an_output_naming_an_input_or_a_link_to_it_is_a_usage_error() {
    let d = TempDir::new("out-input");
    let dir = d.path();
    d.write("s.xml", VALID_SMALL.as_bytes());
    let gz = gzip(VALID_SMALL.as_bytes());
    d.write("s.xml.gz", &gz);
    refused(dir, &["check", "s.xml", "-o", "s.xml"], "the same path");
    refused(
        dir,
        &["check", "s.xml", "-o", "./s.xml"],
        "another spelling",
    );
    refused(
        dir,
        &["check", "s.xml.gz", "-o", "s.xml.gz"],
        "a gzip input",
    );
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("s.xml", dir.join("link.xml")).unwrap();
        std::fs::hard_link(dir.join("s.xml"), dir.join("hard.xml")).unwrap();
        std::os::unix::fs::symlink("s.xml.gz", dir.join("link.gz")).unwrap();
        refused(dir, &["check", "s.xml", "-o", "link.xml"], "a symlink");
        refused(
            dir,
            &["check", "link.xml", "-o", "s.xml"],
            "read through a link",
        );
        refused(dir, &["check", "s.xml", "-o", "hard.xml"], "a hard link");
        refused(
            dir,
            &["check", "s.xml.gz", "-o", "link.gz"],
            "a link to gzip",
        );
        // Stdin redirected from the file.
        let o = support::bin()
            .current_dir(dir)
            .args(["check", "-", "-o", "s.xml"])
            .stdin(std::fs::File::open(dir.join("s.xml")).unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("is stdin"), "{}", stderr(&o));
    }
    assert_eq!(
        std::fs::read(dir.join("s.xml")).unwrap(),
        VALID_SMALL.as_bytes()
    );
    assert_eq!(std::fs::read(dir.join("s.xml.gz")).unwrap(), gz);
}

#[test]
fn an_output_naming_the_configuration_is_a_usage_error() {
    let d = TempDir::new("out-config");
    let dir = d.path();
    d.write("s.xml", VALID_SMALL.as_bytes());
    let config = "preset = \"google\"\n";
    d.write("sitemap-lint.toml", config.as_bytes());
    d.write("other.toml", config.as_bytes());
    refused(
        dir,
        &["check", "s.xml", "-o", "sitemap-lint.toml"],
        "discovered config",
    );
    refused(
        dir,
        &[
            "check",
            "s.xml",
            "--config",
            "other.toml",
            "-o",
            "other.toml",
        ],
        "--config",
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("sitemap-lint.toml")).unwrap(),
        config
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("other.toml")).unwrap(),
        config
    );
}

#[test]
fn the_walk_passes_over_the_report_of_an_earlier_run() {
    let d = TempDir::new("out-walk");
    let dir = d.path();
    d.write("sitemap.xml", VALID_SMALL.as_bytes());
    for _ in 0..2 {
        let o = run_bounded(dir, &["check", "--format", "junit", "-o", "report.xml"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stderr(&o).contains("in 1 file;"), "{}", stderr(&o));
    }
    let report = std::fs::read_to_string(dir.join("report.xml")).unwrap();
    assert!(report.contains("<testsuites"), "{report}");
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn a_failed_run_leaves_the_previous_report_untouched() {
    let d = TempDir::new("out-fail");
    let dir = d.path();
    d.write("s.xml", VALID_SMALL.as_bytes());
    d.write("report.txt", b"previous report\n");
    // A configuration error.
    d.write("sitemap-lint.toml", b"preset = 42\n");
    let o = run_bounded(dir, &["check", "s.xml", "-o", "report.txt"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.join("report.txt")).unwrap(),
        "previous report\n"
    );
    std::fs::remove_file(dir.join("sitemap-lint.toml")).unwrap();
    // A file size limit hit while writing (the disk-full case): the process dies with SIGXFSZ
    // or fails the write; either way the old report stays whole.
    #[cfg(unix)]
    if Command::new("sh").arg("-c").arg("true").status().is_ok() {
        let big: String = (0..2000)
            .map(|i| format!("<url><loc>https://example.com/a b {i}</loc></url>"))
            .collect();
        let doc = format!("<urlset xmlns=\"{}\">{big}</urlset>", support::NS);
        d.write("big.xml", doc.as_bytes());
        let bin = env!("CARGO_BIN_EXE_sitemap-lint");
        let o = Command::new("sh")
            .current_dir(dir)
            .arg("-c")
            .arg(format!(
                "ulimit -f 1; exec '{bin}' check big.xml -o report.txt"
            ))
            .output()
            .unwrap();
        assert_ne!(o.status.code(), Some(0));
        assert_eq!(
            std::fs::read_to_string(dir.join("report.txt")).unwrap(),
            "previous report\n"
        );
    }
    // A successful run replaces it, keeping its permissions.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let report = dir.join("report.txt");
        std::fs::set_permissions(&report, std::fs::Permissions::from_mode(0o640)).unwrap();
        let o = run_bounded(dir, &["check", "s.xml", "-o", "report.txt"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let mode = std::fs::metadata(&report).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        assert_ne!(
            std::fs::read_to_string(&report).unwrap(),
            "previous report\n"
        );
    }
}

#[test]
fn concurrent_runs_never_interleave() {
    let d = TempDir::new("out-concurrent");
    let dir = d.path();
    // Four runs with reports of different lengths: an interleaved file would match none.
    let names: Vec<String> = (0..4).map(|n| format!("s{n}.xml")).collect();
    let mut alone = Vec::new();
    for (n, name) in names.iter().enumerate() {
        let entries: String = (0..400 * (n + 1))
            .map(|i| format!("<url><loc>https://example.com/{n} a b {i}</loc></url>"))
            .collect();
        let doc = format!("<urlset xmlns=\"{}\">{entries}</urlset>", support::NS);
        d.write(name, doc.as_bytes());
        alone.push(run_in(dir, &["check", name, "--format", "concise"], None).stdout);
    }
    for _ in 0..3 {
        let children: Vec<_> = names
            .iter()
            .map(|name| {
                support::bin()
                    .current_dir(dir)
                    .args(["check", name, "--format", "concise", "-o", "r.txt"])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut c in children {
            c.wait().unwrap();
        }
        let written = std::fs::read(dir.join("r.txt")).unwrap();
        assert!(alone.contains(&written), "one whole report, not a mix");
    }
}

#[cfg(unix)]
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(unix)]
#[test]
fn special_files_never_hang_or_flood_the_run() {
    let d = TempDir::new("special");
    let dir = d.path();
    d.write("s.xml", VALID_SMALL.as_bytes());
    if !mkfifo(&dir.join("child.xml")) || !mkfifo(&dir.join("fifo.toml")) {
        println!("skipped: mkfifo is not available");
        return;
    }
    // An index listing a FIFO that is also named on the command line.
    d.write(
        "index.xml",
        format!(
            "<sitemapindex xmlns=\"{}\"><sitemap><loc>https://example.com/child.xml</loc></sitemap></sitemapindex>",
            support::NS
        )
        .as_bytes(),
    );
    let o = run_bounded(
        dir,
        &[
            "check",
            "index.xml",
            "child.xml",
            "--sitemap-url",
            "https://example.com/index.xml",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    // The same with a site root, where children are found below it.
    let o = run_bounded(
        dir,
        &[
            "check",
            "index.xml",
            "child.xml",
            "--site-root",
            ".",
            "--sitemap-url",
            "https://example.com/index.xml",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    for config in ["fifo.toml", "/dev/zero", "/dev/urandom"] {
        let o = run_bounded(dir, &["check", "s.xml", "--config", config]);
        assert_eq!(o.status.code(), Some(2), "{config}: {}", stderr(&o));
        assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    }
    // A committed configuration linked to a file that never ends, or is huge.
    for target in ["/proc/self/pagemap", "/dev/zero"] {
        let _ = std::fs::remove_file(dir.join("sitemap-lint.toml"));
        std::os::unix::fs::symlink(target, dir.join("sitemap-lint.toml")).unwrap();
        let o = run_bounded(dir, &["check", "s.xml"]);
        assert_eq!(o.status.code(), Some(2), "{target}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot read the configuration file"),
            "{}",
            stderr(&o)
        );
    }
    // A configuration over 1 MiB.
    let _ = std::fs::remove_file(dir.join("sitemap-lint.toml"));
    let big = format!("# {}\npreset = \"google\"\n", "x".repeat(1 << 20));
    d.write("sitemap-lint.toml", big.as_bytes());
    let o = run_bounded(dir, &["check", "s.xml"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("larger than 1 MiB"), "{}", stderr(&o));
}
