//! Command-line parsing and the top-level flow of the binary: inputs in, rendered report out, exit code.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use sitemap_lint::render::{self, Format, RenderOptions, Summary};
use sitemap_lint::{check_path, check_reader, rules, FileReport, Settings};

/// Exit status: no errors (warnings allowed).
const EXIT_OK: u8 = 0;
/// Exit status: at least one error was found.
const EXIT_ERRORS: u8 = 1;
/// Exit status: usage error, unreadable input, or an internal error.
const EXIT_TROUBLE: u8 = 2;

#[derive(Parser)]
#[command(
    name = "sitemap-lint",
    version,
    about = "Validate and lint XML sitemaps (sitemaps.org 0.9) with precise diagnostics",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check sitemap and sitemap index files (plain or gzip)
    Check(CheckArgs),
    /// List every rule with its category, default severity and summary
    Rules,
    /// Print a rule's documentation
    Explain {
        /// Rule name, e.g. `lastmod-invalid`
        rule: String,
    },
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Files or directories to check; `-` reads stdin. Directories are searched for `*.xml` and
    /// `*.xml.gz`. Without paths, the current directory is searched.
    paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, alias = "output-format", value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
    /// When to use colour (NO_COLOR is honoured with `auto`)
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
    /// Name used for stdin input in diagnostics
    #[arg(long, value_name = "NAME", default_value = "<stdin>")]
    stdin_filename: String,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Human,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                EXIT_TROUBLE
            } else {
                EXIT_OK
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = match cli.command {
        Command::Check(args) => check(args, &mut out),
        Command::Rules => list_rules(&mut out).map(|()| EXIT_OK),
        Command::Explain { rule } => explain(&rule, &mut out),
    };
    let code = match result.and_then(|code| out.flush().map(|()| code)) {
        Ok(code) => code,
        // `| head` closed the pipe: stop quietly; the status no longer matters to anyone.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            eprintln!("sitemap-lint: error: cannot write output: {e}");
            EXIT_TROUBLE
        }
    };
    ExitCode::from(code)
}

/// One thing to check: a file on disk or stdin.
enum Input {
    File(PathBuf),
    Stdin,
}

fn check(args: CheckArgs, out: &mut dyn Write) -> io::Result<u8> {
    let settings = Settings::default();
    let mut trouble = false;
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let mut inputs = Vec::new();
    for path in &paths {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
        } else if path.is_dir() {
            let mut found = Vec::new();
            if let Err(e) = walk(path, &mut found) {
                eprintln!(
                    "sitemap-lint: error: cannot read directory `{}`: {e}",
                    path.display()
                );
                trouble = true;
            }
            found.sort();
            inputs.extend(found.into_iter().map(Input::File));
        } else {
            inputs.push(Input::File(path.clone()));
        }
    }

    let color = match args.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && io::stdout().is_terminal()
                && std::env::var("TERM").map_or(true, |t| t != "dumb")
        }
    };
    let format = match args.format {
        FormatArg::Human => Format::Human,
        FormatArg::Json => Format::Json,
    };
    let mut renderer = render::renderer(format, RenderOptions { color });
    let mut summary = Summary::default();
    let mut stdin_used = false;
    for input in inputs {
        let report: io::Result<FileReport> = match &input {
            Input::Stdin => {
                if stdin_used {
                    eprintln!("sitemap-lint: error: `-` (stdin) given more than once");
                    trouble = true;
                    continue;
                }
                stdin_used = true;
                let stdin = io::stdin();
                if stdin.is_terminal() {
                    eprintln!(
                        "sitemap-lint: reading a sitemap from stdin; paste it, then press Ctrl-D"
                    );
                }
                check_reader(&args.stdin_filename, stdin.lock(), &settings)
            }
            Input::File(path) => check_path(path, &display_name(path), &settings),
        };
        match report {
            Ok(report) => {
                trouble |= report.internal_error();
                summary.add(&report);
                renderer.file(&report, out)?;
            }
            Err(e) => {
                let name = match &input {
                    Input::File(p) => p.display().to_string(),
                    Input::Stdin => args.stdin_filename.clone(),
                };
                eprintln!(
                    "sitemap-lint: error: cannot read `{name}`: {}",
                    describe_io(&e)
                );
                trouble = true;
            }
        }
    }
    renderer.finish(&summary, out)?;
    if format == Format::Human {
        out.flush()?;
        let status = if summary.errors > 0 { "error" } else { "ok" };
        eprintln!("sitemap-lint: {status}: {}", summary.line());
    }
    Ok(if trouble {
        EXIT_TROUBLE
    } else if summary.errors > 0 {
        EXIT_ERRORS
    } else {
        EXIT_OK
    })
}

fn describe_io(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// The path as the user wrote it, with `/` separators.
fn display_name(path: &Path) -> String {
    let s = path.to_string_lossy();
    let s = s.strip_prefix("./").unwrap_or(&s);
    s.replace('\\', "/")
}

/// Whether `name` is a sitemap file name this tool picks up in directories.
fn is_sitemap_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".xml") || lower.ends_with(".xml.gz")
}

/// Collects `*.xml` and `*.xml.gz` below `dir`, skipping hidden entries and not following symlinks.
fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let entry = entry?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') {
                continue;
            }
            let kind = entry.file_type()?;
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() && is_sitemap_name(&name) {
                found.push(entry.path());
            }
        }
    }
    Ok(())
}

fn list_rules(out: &mut dyn Write) -> io::Result<()> {
    let width = rules::metas().map(|m| m.name.len()).max().unwrap_or(0);
    for m in rules::metas() {
        writeln!(
            out,
            "{:width$}  {:9}  {:7}  {}",
            m.name,
            m.category.as_str(),
            m.default_severity.as_str(),
            m.summary
        )?;
    }
    Ok(())
}

fn explain(name: &str, out: &mut dyn Write) -> io::Result<u8> {
    match rules::find(name) {
        Some(m) => {
            writeln!(out, "# {}\n", m.name)?;
            writeln!(
                out,
                "Category: {}. Default severity: {}.\n\n{}\n",
                m.category, m.default_severity, m.summary
            )?;
            write!(out, "{}", m.docs())?;
            Ok(EXIT_OK)
        }
        None => {
            let close: Vec<&str> = rules::metas()
                .map(|m| m.name)
                .filter(|n| {
                    n.contains(name)
                        || name.contains(n)
                        || sitemap_lint::suggest::distance(n, name) <= 3
                })
                .collect();
            eprintln!("sitemap-lint: error: unknown rule `{name}`");
            if !close.is_empty() {
                eprintln!("  did you mean: {}", close.join(", "));
            }
            eprintln!("  run `sitemap-lint rules` to list them all");
            Ok(EXIT_TROUBLE)
        }
    }
}
