//! Command-line parsing and the top-level flow of the binary: inputs in, rendered report out, exit code.
//!
//! `check` resolves its inputs (see `walk.rs`), checks them on worker threads (a few files in
//! flight at a time, so memory stays bounded) and renders the reports strictly in input order
//! (sorted by path), so the output does not depend on timing.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use sitemap_lint::exec;
use sitemap_lint::pipeline::files::{self, describe_io, AtomicFile, FileId};
use sitemap_lint::pipeline::model::Kind;
use sitemap_lint::pipeline::text_sitemap;
use sitemap_lint::render::{self, statistics::Statistics, Checked, Format, RenderOptions, Summary};
use sitemap_lint::report::{self, Found};
use sitemap_lint::site_set::{sniff_root, SetCheck, Site};
use sitemap_lint::{engine, pipeline::input, FileReport, Settings, Severity};

mod discover;
mod explain;
mod fix;
mod live;
mod walk;

use discover::Discovery;
use sitemap_lint::config::{self as cfg, Override, Selector};
use walk::{Collected, Excludes, Source, Target};

/// Exit status: no errors (warnings allowed).
const EXIT_OK: u8 = 0;
/// Exit status: at least one error was found (or more warnings than `--max-warnings`).
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
    /// Check sitemap and sitemap index files (plain or gzip), or a live site over HTTP
    Check(Box<CheckArgs>),
    /// List every rule with its category, default severity and summary
    Rules {
        /// `text` (a table) or `json` (an array of objects)
        #[arg(long, value_enum, default_value_t = ConfigFormat::Text)]
        format: ConfigFormat,
    },
    /// Print a rule's documentation
    Explain {
        /// Rule name, e.g. `lastmod-invalid`
        rule: String,
    },
    /// Print the effective configuration for a file or folder: the config file used, the preset,
    /// every rule's severity and where each value comes from
    Config(ConfigCmd),
    /// Print a shell completion script: `sitemap-lint completions bash > /etc/bash_completion.d/sitemap-lint`
    Completions {
        /// The shell to complete in
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff): `sitemap-lint man > sitemap-lint.1`, or `sitemap-lint man | man -l -`
    Man {
        /// A command's own page, e.g. `check` for sitemap-lint-check(1) [default: sitemap-lint(1)]
        command: Option<String>,
    },
}

/// Where rule severities and settings come from (shared by `check` and `config`).
#[derive(clap::Args)]
struct ConfigArgs {
    /// Use this configuration file for every input instead of discovering `sitemap-lint.toml`
    #[arg(long, value_name = "PATH", conflicts_with = "isolated")]
    config: Option<PathBuf>,
    /// Ignore configuration files (defaults and command-line flags only)
    #[arg(long)]
    isolated: bool,
    /// Report RULE (a rule, a category or `all`) as an error; repeatable, later flags win
    #[arg(long, value_name = "RULE", value_parser = parse_selector)]
    error: Vec<Selector>,
    /// Report RULE (a rule, a category or `all`) as a warning; repeatable, later flags win
    #[arg(long, value_name = "RULE", value_parser = parse_selector)]
    warn: Vec<Selector>,
    /// Turn RULE (a rule, a category or `all`) off; repeatable, later flags win
    #[arg(long, value_name = "RULE", value_parser = parse_selector)]
    allow: Vec<Selector>,
    /// `--error`, `--warn` and `--allow` in command-line order (filled from the matches).
    #[arg(skip)]
    overrides: Vec<Override>,
}

fn parse_selector(name: &str) -> Result<Selector, String> {
    Selector::parse(name).ok_or_else(|| {
        let (message, help) = cfg::unknown_selector(name);
        format!("{message}; {help}")
    })
}

impl ConfigArgs {
    /// Fills `overrides` from the flags in the order they were given.
    fn order(&mut self, m: &ArgMatches) {
        let mut all = Vec::new();
        for (id, level, flag) in [
            ("error", Some(Severity::Error), "--error"),
            ("warn", Some(Severity::Warning), "--warn"),
            ("allow", None, "--allow"),
        ] {
            let (Some(at), Some(values)) = (m.indices_of(id), m.get_many::<Selector>(id)) else {
                continue;
            };
            for (i, selector) in at.zip(values) {
                all.push((
                    i,
                    Override {
                        selector: *selector,
                        level,
                        flag: format!("{flag} {}", selector.name()),
                    },
                ));
            }
        }
        all.sort_by_key(|(i, _)| *i);
        self.overrides = all.into_iter().map(|(_, o)| o).collect();
    }

    /// The configuration discovery these flags ask for, or the error to report (exit 2).
    fn discovery(&self, base: Settings, cwd: &std::path::Path) -> Result<Discovery, String> {
        Discovery::new(
            self.config.as_deref(),
            self.isolated,
            base,
            self.overrides.clone(),
            cwd.to_path_buf(),
        )
        .map_err(|e| e.to_string())
    }
}

#[derive(clap::Args)]
struct ConfigCmd {
    /// The file or folder whose configuration to show [default: the current directory]
    path: Option<PathBuf>,
    /// `text` (TOML-like, with the source of each value as a comment) or `json`
    #[arg(long, value_enum, default_value_t = ConfigFormat::Text)]
    format: ConfigFormat,
    #[command(flatten)]
    config: ConfigArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ConfigFormat {
    Text,
    Json,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Files, directories or URLs to check; `-` reads stdin; an `http://` or `https://` URL is
    /// fetched (a site root follows its robots.txt; see docs/live.md). Directories are searched
    /// for `*.xml`, `*.xml.gz` and text sitemaps (`*sitemap*.txt[.gz]`), honouring the .gitignore
    /// files in them (not those above a named directory) and skipping hidden entries, symlinks
    /// and XML files that are not sitemaps (feeds). Without
    /// paths, the current directory is searched.
    paths: Vec<PathBuf>,
    /// Read no ignore files (.gitignore, .ignore, git's excludes) while walking directories
    #[arg(long)]
    no_ignore: bool,
    /// List the files a walk skipped (XML that is not a sitemap, sitemaps hidden by ignore
    /// files) on stderr
    #[arg(short, long)]
    verbose: bool,
    /// Output format
    #[arg(long, visible_alias = "output-format", value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
    /// Write the report to PATH instead of stdout (a one-line summary still goes to stderr)
    #[arg(short = 'o', long, value_name = "PATH")]
    output_file: Option<PathBuf>,
    /// When to use colour. With `auto`: never when NO_COLOR is set, always when FORCE_COLOR or
    /// CLICOLOR_FORCE is, else on a terminal
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
    /// Name used for stdin input (`-` among the paths) in diagnostics and for `--exclude`
    /// [default: <stdin>]
    #[arg(long, value_name = "NAME")]
    stdin_filename: Option<String>,
    /// Skip files and directories matching GLOB while walking directories (repeatable). A glob
    /// without `/` matches a name at any depth; one with `/` matches from the current directory
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Apply `--exclude` also to paths named on the command line (for pre-commit and editors)
    #[arg(long)]
    force_exclude: bool,
    /// Exit 1 when there are more than N warnings (even without errors)
    #[arg(long, value_name = "N")]
    max_warnings: Option<usize>,
    /// Exit 0 even when errors are found (2 still means trouble: usage or unreadable input)
    #[arg(long)]
    exit_zero: bool,
    /// Report errors only: warnings and infos are left out of the output and the counts
    #[arg(short, long)]
    quiet: bool,
    /// Print how many findings each rule has instead of the findings (human, concise or json)
    #[arg(long)]
    statistics: bool,
    /// Threads: files checked in parallel, and the threads one large file is parsed and checked
    /// on [default: number of CPUs]
    #[arg(short, long, value_name = "N", value_parser = parse_jobs)]
    jobs: Option<NonZeroUsize>,
    /// The current time for date rules, as a W3C Datetime with a time zone (e.g.
    /// `2024-11-21T12:00:00Z`) or a date (midnight UTC) [default: the clock]
    #[arg(long, value_name = "TIMESTAMP", value_parser = parse_now)]
    now: Option<i64>,
    #[command(flatten)]
    config: ConfigArgs,
    /// The URL the checked sitemap is served at: its `<loc>` must lie in its folder, on its
    /// scheme, host and port. With several files, the one whose name ends the URL
    #[arg(long, value_name = "URL", value_parser = parse_sitemap_url)]
    sitemap_url: Option<String>,
    /// The local folder of the site's files: an index's children map to files below it
    /// (`https://example.com/sitemaps/a.xml` → `DIR/sitemaps/a.xml`)
    #[arg(long, value_name = "DIR")]
    site_root: Option<PathBuf>,
    #[command(flatten)]
    live: live::LiveArgs,
    /// Apply the safe fixes in place, then report what remains (the exit code too). With `-`,
    /// print the fixed document on stdout and the report on stderr. See docs/fixes.md
    #[arg(long)]
    fix: bool,
    /// Apply the unsafe fixes too (with --fix or --diff); they may change what the file says
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print a unified diff of what --fix would change and write nothing; exit 1 when there is
    /// anything to fix
    #[arg(long)]
    diff: bool,
}

/// Parses `--sitemap-url`: an absolute `http(s)` URL without errors.
fn parse_sitemap_url(value: &str) -> Result<String, String> {
    match sitemap_lint::values::uri::check_http_url(value)
        .iter()
        .find(|p| p.kind.is_error())
    {
        Some(p) => Err(format!("not a valid http(s) URL: {}", p.message)),
        None => Ok(value.to_string()),
    }
}

/// Parses `--jobs`: 1 or more.
fn parse_jobs(value: &str) -> Result<NonZeroUsize, String> {
    match value.parse::<usize>() {
        Ok(0) => Err(
            "0 threads would check nothing: give 1 or more, or leave out `-j` to use \
                      every CPU"
                .into(),
        ),
        Ok(n) => Ok(NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN)),
        Err(_) => Err("expected a number of threads (1 or more)".into()),
    }
}

/// Parses `--now`: a complete date, or a date and time with a time zone.
fn parse_now(value: &str) -> Result<i64, String> {
    use sitemap_lint::values::datetime::{self, Precision};
    match datetime::parse(value).datetime() {
        Some(dt)
            if dt.precision == Precision::Date
                || (dt.precision != Precision::Year
                    && dt.precision != Precision::YearMonth
                    && dt.offset_minutes.is_some()) =>
        {
            Ok(dt.unix_seconds())
        }
        _ => Err(
            "expected a date (`2024-11-21`) or a date and time with a time zone \
                  (`2024-11-21T12:00:00Z`)"
                .into(),
        ),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// rustc-style diagnostics with the offending text underlined
    Human,
    /// the versioned JSON document (see docs/formats.md)
    Json,
    /// one line per finding: `path:line:col: severity: message [rule]`
    Concise,
    /// SARIF 2.1.0 (GitHub code scanning)
    Sarif,
    /// GitHub Actions annotations, then the concise report
    Github,
    /// GitLab Code Quality JSON
    Gitlab,
    /// JUnit XML (one test suite per file)
    Junit,
    /// Checkstyle XML
    Checkstyle,
}

impl FormatArg {
    fn format(self) -> Format {
        match self {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Concise => Format::Concise,
            FormatArg::Sarif => Format::Sarif,
            FormatArg::Github => Format::Github,
            FormatArg::Gitlab => Format::Gitlab,
            FormatArg::Junit => Format::Junit,
            FormatArg::Checkstyle => Format::Checkstyle,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

pub fn main() -> ExitCode {
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let cli = match parsed {
        Ok((mut cli, matches)) => {
            match (&mut cli.command, matches.subcommand()) {
                (Command::Check(args), Some((_, m))) => args.config.order(m),
                (Command::Config(args), Some((_, m))) => args.config.order(m),
                _ => {}
            }
            cli
        }
        Err(e) => {
            let code = if e.use_stderr() {
                EXIT_TROUBLE
            } else {
                EXIT_OK
            };
            // clap quotes the arguments it rejects: a control character in one would reach the
            // terminal or CI log raw. Such a message is printed plain, each line made visible.
            let hostile = std::env::args_os().any(|a| {
                a.to_string_lossy()
                    .chars()
                    .any(|c| sitemap_lint::values::text::stand_in(c).is_some())
            });
            if hostile && e.use_stderr() {
                let plain = e.render().to_string();
                let lines: Vec<_> = plain
                    .lines()
                    .map(sitemap_lint::values::text::visible)
                    .collect();
                eprintln!("{}", lines.join("\n"));
            } else {
                let _ = e.print();
            }
            return ExitCode::from(code);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = match cli.command {
        Command::Check(args) => check(*args, &mut out),
        Command::Rules { format } => explain::list_rules(format, &mut out).map(|()| EXIT_OK),
        Command::Explain { rule } => explain::explain(&rule, &mut out),
        Command::Config(args) => show_config(args, &mut out),
        Command::Completions { shell } => {
            use clap_complete::Generator;
            let mut cmd = Cli::command().bin_name("sitemap-lint");
            cmd.build();
            shell.try_generate(&cmd, &mut out).map(|()| EXIT_OK)
        }
        Command::Man { command } => man_page(command.as_deref(), &mut out),
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

/// A usage problem found after parsing: reported like clap's, exit 2.
fn usage_error(message: &str) -> io::Result<u8> {
    eprintln!("sitemap-lint: error: {}", render::visible(message));
    Ok(EXIT_TROUBLE)
}

fn check(mut args: CheckArgs, stdout: &mut dyn Write) -> io::Result<u8> {
    let mut settings = Settings::default();
    let urls;
    (urls, args.paths) = live::split(std::mem::take(&mut args.paths));
    match args.live.load_robots(&settings) {
        Ok(robots) => settings.robots = robots,
        Err(message) => return usage_error(&message),
    }
    if let Some(now) = args.now {
        settings.now = now;
    }
    if let Some(root) = &args.site_root {
        if !root.is_dir() {
            return usage_error(&format!(
                "--site-root `{}` is not a directory",
                root.display()
            ));
        }
        settings.site_root = Some(root.clone());
    }
    if args.sitemap_url.is_some() {
        settings.sitemap_url = args.sitemap_url.clone();
    }
    let format = args.format.format();
    if args.statistics && !matches!(format, Format::Human | Format::Concise | Format::Json) {
        return usage_error("--statistics works with --format human, concise or json");
    }
    let fixing = match fix::Mode::of(&args, format, !urls.is_empty()) {
        Ok(mode) => mode,
        Err(message) => return usage_error(message),
    };
    let stdin_filename = match &args.stdin_filename {
        Some(name) if !args.paths.iter().any(|p| p.as_os_str() == "-") => {
            return usage_error(&format!(
                "--stdin-filename `{name}` names stdin, but stdin is not read: add `-` to the \
                 paths (`sitemap-lint check --stdin-filename {name} -`)"
            ))
        }
        Some(name) => name.as_str(),
        None => "<stdin>",
    };
    let excludes = match Excludes::new(&args.exclude) {
        Ok(e) => e,
        Err(message) => return usage_error(&message),
    };
    let cwd = match std::env::current_dir() {
        Ok(dir) => dir,
        Err(e) => return usage_error(&format!("cannot read the current directory: {e}")),
    };

    let discovery = match args.config.discovery(settings.clone(), &cwd) {
        Ok(d) => Arc::new(d),
        Err(message) => return usage_error(&message),
    };
    // The report file must never be an input: a walk passes over it, and naming it (or a link
    // to it) as an input or configuration is a usage error, found before anything is written.
    let output_id = args.output_file.as_deref().and_then(FileId::of);
    let is_output = {
        let output_id = output_id.clone();
        let output_name = args.output_file.as_deref().and_then(|p| p.file_name());
        let output_name = output_name.map(std::ffi::OsStr::to_os_string);
        move |path: &std::path::Path| {
            output_id.is_some()
                && path.file_name() == output_name.as_deref()
                && FileId::of(path) == output_id
        }
    };
    let config_excludes: walk::ExtraExclude = {
        let discovery = discovery.clone();
        Arc::new(move |path: &std::path::Path, is_dir: bool| {
            (!is_dir && is_output(path)) || discovery.excluded(path, is_dir)
        })
    };
    // Only URLs: no folder is walked.
    let walk_nothing = args.paths.is_empty() && !urls.is_empty();
    let collected = if walk_nothing {
        Collected::default()
    } else {
        walk::collect(
            &args.paths,
            stdin_filename,
            &excludes,
            Some(&config_excludes),
            args.force_exclude,
            args.no_ignore,
            &cwd,
        )
    };
    // Each input's settings: its configuration file's, with the command-line overrides.
    let per_target: Vec<Arc<Settings>> = collected
        .targets
        .iter()
        .map(|t| discovery.for_target(t, stdin_filename).settings.clone())
        .collect();
    let config_errors = discovery.take_errors();
    if !config_errors.is_empty() {
        for e in &config_errors {
            eprintln!("sitemap-lint: error: {e}");
        }
        return Ok(EXIT_TROUBLE);
    }
    if let (Some(output), Some(id)) = (&args.output_file, &output_id) {
        let reads_output = |path: &std::path::Path| FileId::of(path).as_ref() == Some(id);
        let named_input = collected.targets.iter().find_map(|t| match &t.source {
            Source::File(path) => reads_output(path).then(|| format!("`{}`", t.display)),
            Source::Stdin => (FileId::of_stdin().as_ref() == Some(id)).then(|| "stdin".into()),
        });
        let config = discovery
            .config_files()
            .into_iter()
            .find(|p| reads_output(p));
        if let Some(what) = named_input.or(config.map(|p| format!("`{}`", p.display()))) {
            return usage_error(&format!(
                "-o `{}` is {what}, which this run reads; writing the report there would destroy it",
                output.display()
            ));
        }
    }
    let mut unreadable = collected.problems.len();
    for problem in &collected.problems {
        eprintln!("sitemap-lint: error: {}", render::visible(problem));
    }
    for warning in &collected.warnings {
        eprintln!("sitemap-lint: warning: {}", render::visible(warning));
    }

    // Written to a temporary file beside the target and renamed over it at the end: a failed
    // run leaves the previous report as it was, and concurrent runs never interleave.
    let mut file_out = None;
    // `--fix -` prints the fixed document on stdout: the report goes to stderr.
    let fix_stdin = fixing.is_some_and(|m| !m.diff)
        && collected.targets.iter().any(|t| t.source == Source::Stdin);
    let mut report_err = None;
    let (out, mut doc_out): (&mut dyn Write, Option<&mut dyn Write>) = match &args.output_file {
        Some(path) => match AtomicFile::create(path) {
            Ok(f) => (file_out.insert(BufWriter::new(f)), None),
            Err(e) => {
                return usage_error(&format!(
                    "cannot write `{}`: {}",
                    path.display(),
                    describe_io(&e)
                ))
            }
        },
        None if fix_stdin => (report_err.insert(io::stderr()), Some(stdout)),
        None => (stdout, None),
    };
    let to_terminal = args.output_file.is_none()
        && if fix_stdin {
            io::stderr().is_terminal()
        } else {
            io::stdout().is_terminal()
        };
    let color = match args.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => auto_color(to_terminal, |name| std::env::var_os(name)),
    };
    let mut renderer: Box<dyn render::Renderer> = if args.statistics {
        Box::new(Statistics::new(format == Format::Json))
    } else {
        render::renderer(
            format,
            RenderOptions {
                color,
                root: Some(walk::repo_root(&cwd)),
                threads: args.jobs.map_or_else(exec::cores, NonZeroUsize::get),
            },
        )
    };

    let (targets, collected_notes) = (
        collected.targets,
        Collected {
            targets: Vec::new(),
            ..collected
        },
    );
    if targets.iter().any(|t| t.source == Source::Stdin) && io::stdin().is_terminal() {
        eprintln!("sitemap-lint: reading a sitemap from stdin; paste it, then press Ctrl-D");
    }
    let jobs = args.jobs.map_or_else(exec::cores, NonZeroUsize::get);
    let mut summary = Summary::default();
    let mut internal_error = false;
    // Fixes applied (or, with --diff, that would be), and in how many files.
    let (mut fixes_applied, mut files_fixed) = (0usize, 0usize);
    // The command line wins; otherwise the first input's configuration file may say where the
    // site is.
    if settings.sitemap_url.is_none() {
        settings.sitemap_url = per_target.first().and_then(|s| s.sitemap_url.clone());
    }
    if settings.site_root.is_none() {
        settings.site_root = per_target.first().and_then(|s| s.site_root.clone());
    }
    // Several files (or a site root) make a set: see `site_set` and docs/configuration.md.
    let set = SetRun::new(&targets, &mut settings);
    let mut set_check = set.check(&targets);
    // A file's settings are made where it is checked, on the checking thread, and dropped
    // with its check: made up front for 1,000 files, they took 1.3 ms (3 MB of fresh memory)
    // before any check could start.
    let collect_set = settings.collect_set;
    // One file's threads: more than the cores only hold more trees in flight (`-j16` on one
    // 50 MB file held 526 MB, `-j2` 144 MB), and more than MAX_FILE_THREADS gain little.
    let file_threads = jobs.min(exec::cores()).min(MAX_FILE_THREADS);
    let settings_of = |i: usize| Settings {
        threads: file_threads,
        ..set.settings_for(i, &per_target[i], collect_set)
    };
    let work = |i: usize| check_target(&targets[i], &settings_of(i), fixing);
    let weight = |r: &io::Result<Result<Outcome, String>>| match r {
        Ok(Ok(o)) => o.size + held_by(&o.found.diagnostics),
        _ => 0,
    };
    // Walked files that are not sitemaps, with their root element's name.
    let mut skipped: Vec<(usize, String)> = Vec::new();
    exec::ordered(
        targets.len(),
        jobs,
        work,
        weight,
        |i, outcome| match outcome {
            Ok(Err(root)) => {
                skipped.push((i, root));
                Ok(())
            }
            Ok(Ok(mut outcome)) => {
                if let Some(done) = outcome.fixed.take() {
                    fixes_applied += done.applied;
                    files_fixed += usize::from(done.applied > 0);
                    unreadable += usize::from(done.write_failed);
                    done.emit(fixing, &mut doc_out, out)?;
                }
                let found = outcome.found;
                let across = match &mut set_check {
                    Some(check) => check.file(
                        i,
                        &found.site,
                        &found.source,
                        &per_target[i],
                        &|rule, at| found.suppresses(rule, at),
                    ),
                    None => Default::default(),
                };
                // One finalize for the file's findings and those across files.
                let report = report::finalize(found, across, &per_target[i], args.quiet);
                internal_error |= report.internal_error();
                summary.add(&report);
                if fixing.is_some_and(|m| m.diff) {
                    return Ok(());
                }
                let checked = Checked {
                    report: &report,
                    repo_path: &targets[i].repo_path,
                    compressed: outcome.compressed,
                };
                renderer.file(&checked, out)
            }
            Err(e) => {
                // Keep stdout and stderr in order when both go to the terminal.
                out.flush()?;
                eprintln!(
                    "sitemap-lint: error: cannot read `{}`: {}",
                    render::visible(&targets[i].display),
                    describe_io(&e)
                );
                unreadable += 1;
                Ok(())
            }
        },
    )?;
    if !urls.is_empty() {
        // The configuration of the current folder applies to remote files.
        let live_settings = Settings {
            threads: file_threads,
            ..(*discovery.for_path(&cwd.join("_")).settings).clone()
        };
        let mut emit = |mut report: FileReport, compressed: bool| {
            internal_error |= report.internal_error();
            if args.quiet {
                report.diagnostics.retain(|d| d.severity == Severity::Error);
                report.omitted.retain(|o| o.severity == Severity::Error);
            }
            summary.add(&report);
            let repo_path = report.source.name().to_owned();
            renderer.file(
                &Checked {
                    report: &report,
                    repo_path: &repo_path,
                    compressed,
                },
                out,
            )
        };
        let end = live::run(&urls, &args.live, &live_settings, jobs, &mut emit)?;
        if !end.troubles.is_empty() {
            out.flush()?;
            for trouble in &end.troubles {
                eprintln!("sitemap-lint: error: {}", render::visible(trouble));
            }
            unreadable += end.troubles.len();
        }
    }
    let set_line = set_line(set_check.as_ref(), set.site.root_given);
    let walk_line = walk_line(&collected_notes, &skipped, args.verbose, &targets);
    // A walked directory whose XML files all turned out not to be sitemaps checked nothing:
    // like an empty one, that is trouble (exit 2), not success.
    for (d, dir) in collected_notes.dirs.iter().enumerate() {
        let walked = targets.iter().filter(|t| t.walked == Some(d)).count();
        let skipped_here = skipped
            .iter()
            .filter(|(i, _)| targets[*i].walked == Some(d))
            .count();
        if walked > 0 && walked == skipped_here {
            out.flush()?;
            eprintln!(
                "sitemap-lint: error: no sitemaps found in directory `{dir}`: its {} not sitemaps",
                if walked == 1 {
                    "1 XML file is".to_string()
                } else {
                    format!("{walked} XML files are")
                }
            );
            unreadable += 1;
        }
    }
    if fixing.is_none_or(|m| !m.diff) {
        renderer.finish(&summary, out)?;
    }
    out.flush()?;
    if let Some(file) = file_out {
        file.into_inner().map_err(|e| e.into_error())?.commit()?;
    }

    let too_many_warnings = args.max_warnings.is_some_and(|max| summary.warnings > max);
    // `--diff` fails (exit 1) when there is anything to fix, as `ruff --diff` does.
    let diff_found = fixing.is_some_and(|m| m.diff) && fixes_applied > 0;
    let summary_line = format == Format::Human || args.output_file.is_some();
    if too_many_warnings && !summary_line {
        eprintln!(
            "sitemap-lint: error: {} (more than --max-warnings {})",
            render::plural(summary.warnings, "warning"),
            args.max_warnings.unwrap_or(0)
        );
    }
    if summary_line {
        let status = if summary.errors > 0
            || too_many_warnings
            || unreadable > 0
            || internal_error
            || diff_found
        {
            "error"
        } else {
            "ok"
        };
        let mut line = format!("sitemap-lint: {status}: {}", summary.line());
        line.push_str(&fix::summary_part(
            fixing,
            (fixes_applied, files_fixed),
            &summary,
            args.unsafe_fixes,
        ));
        if let (true, Some(max)) = (too_many_warnings, args.max_warnings) {
            line.push_str(&format!("; more warnings than --max-warnings {max} allows"));
        }
        if let Some(set_line) = &set_line {
            line.push_str(&format!("; {set_line}"));
        }
        if let Some(walk_line) = &walk_line {
            line.push_str(&format!("; {walk_line}"));
        }
        if unreadable > 0 {
            line.push_str(&format!(
                "; {} could not be checked",
                render::plural(unreadable, "path")
            ));
        }
        if let Some(path) = &args.output_file {
            line.push_str(&format!(
                "; report written to {}",
                render::visible(&path.display().to_string())
            ));
        }
        eprintln!("{line}");
    } else if !collected_notes.ignored_sitemaps.is_empty() || collected_notes.ignored_search_cut {
        // No summary line in this format: sitemaps left out still must not go unmentioned.
        if let Some(walk_line) = &walk_line {
            eprintln!("sitemap-lint: {walk_line}");
        }
    }
    Ok(if unreadable > 0 || internal_error {
        EXIT_TROUBLE
    } else if args.exit_zero {
        EXIT_OK
    } else if diff_found || summary.errors > 0 || too_many_warnings {
        EXIT_ERRORS
    } else {
        EXIT_OK
    })
}

/// `--color auto`: the flag wins over the environment, then NO_COLOR (no-color.org: set and not
/// empty) turns colour off, then FORCE_COLOR (force-color.org: set and not empty; `0` and `false`
/// force nothing, as in Node) or CLICOLOR_FORCE (bixense.com/clicolors: set and not `0`) turns it
/// on, and otherwise a terminal that is not `TERM=dumb` gets it.
fn auto_color(to_terminal: bool, var: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
    let set = |name: &str, off: &[&str]| {
        var(name).is_some_and(|v| !v.is_empty() && !off.iter().any(|o| v == **o))
    };
    if set("NO_COLOR", &[]) {
        return false;
    }
    if set("FORCE_COLOR", &["0", "false"]) || set("CLICOLOR_FORCE", &["0"]) {
        return true;
    }
    to_terminal && var("TERM").is_none_or(|t| t != "dumb")
}

/// How the run relates files to URLs ([`site_set`]), and whether the files form a set.
struct SetRun {
    site: Site,
    /// Whether summaries are kept and compared (several files, or `--site-root`).
    active: bool,
}

impl SetRun {
    fn new(targets: &[Target], settings: &mut Settings) -> SetRun {
        let paths: Vec<Option<&std::path::Path>> = targets.iter().map(target_path).collect();
        let site = Site::new(
            settings.sitemap_url.as_deref(),
            settings.site_root.as_deref(),
            &paths,
        );
        if settings.sitemap_url.is_some() && site.named.is_none() {
            eprintln!(
                "sitemap-lint: warning: --sitemap-url names none of the {} checked files (by its last path segment); it applies to none",
                targets.len()
            );
        }
        let active = targets.len() > 1 || settings.site_root.is_some();
        settings.collect_set = active;
        SetRun { site, active }
    }

    /// The settings file `i` is checked with: its own URL, when known.
    fn settings_for(&self, i: usize, settings: &Settings, collect_set: bool) -> Settings {
        Settings {
            sitemap_url: self.site.url_of(i),
            collect_set,
            ..settings.clone()
        }
    }

    fn check<'s>(&'s self, targets: &[Target]) -> Option<SetCheck<'s>> {
        self.active.then(|| {
            SetCheck::new(
                &self.site,
                targets.iter().map(|t| t.display.clone()).collect(),
                targets
                    .iter()
                    .map(|t| target_path(t).map(std::path::Path::to_path_buf))
                    .collect(),
            )
        })
    }
}

fn target_path(t: &Target) -> Option<&std::path::Path> {
    match &t.source {
        Source::File(p) => Some(p.as_path()),
        Source::Stdin => None,
    }
}

/// The set's totals for the summary line, when the files formed a set (an index linked to a
/// checked child, or `--site-root`).
fn set_line(check: Option<&SetCheck<'_>>, root_given: bool) -> Option<String> {
    let t = check?.totals;
    (t.linked > 0 || root_given).then(|| {
        format!(
            "set of {} {} and {}: {}",
            t.indexes,
            if t.indexes == 1 { "index" } else { "indexes" },
            render::plural(t.sitemaps, "sitemap"),
            render::plural(t.urls, "URL")
        )
    })
}

/// What the walk and the check left out, for the summary line: `3 other XML files skipped (not
/// sitemaps)`, `2 sitemap-named files hidden by ignore files (--no-ignore checks them)`. With
/// `verbose`, each file is listed on stderr.
fn walk_line(
    notes: &Collected,
    skipped: &[(usize, String)],
    verbose: bool,
    targets: &[Target],
) -> Option<String> {
    if verbose {
        for (i, root) in skipped {
            eprintln!(
                "sitemap-lint: skipped `{}`: its root element `<{root}>` is not `<urlset>` or `<sitemapindex>`",
                targets[*i].display
            );
        }
        for path in &notes.ignored_sitemaps {
            eprintln!(
                "sitemap-lint: skipped `{path}`: hidden by an ignore file (--no-ignore checks it)"
            );
        }
    }
    let list = if verbose {
        ""
    } else {
        ", --verbose lists them"
    };
    let mut parts = Vec::new();
    if !skipped.is_empty() {
        parts.push(format!(
            "{} skipped (not sitemaps{list})",
            render::plural(skipped.len(), "other XML file")
        ));
    }
    let ignored = notes.ignored_sitemaps.len();
    if ignored > 0 {
        let first = &notes.ignored_sitemaps[0];
        let more = if ignored > 1 { ", …" } else { "" };
        parts.push(format!(
            "{} hidden by ignore files (`{first}`{more}; --no-ignore checks them)",
            render::plural(ignored, "sitemap-named file")
        ));
    }
    if notes.ignored_search_cut {
        parts.push(format!(
            "the search of ignored folders for sitemaps stopped after {} entries (--no-ignore checks everything)",
            walk::IGNORED_SEARCH_BUDGET
        ));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// Threads one file is parsed and checked on at most, whatever `--jobs` says.
const MAX_FILE_THREADS: usize = 4;

/// Inputs at least this large (on disk, or decompressed) are *large*: at most
/// [`LARGE_IN_FLIGHT`] of them are read and checked at once, whatever `--jobs` says, so that
/// memory stays bounded (a 50 MB file's tree takes a few hundred MB).
const LARGE_INPUT: u64 = 8 << 20;

/// Large inputs read and checked at once.
const LARGE_IN_FLIGHT: usize = 2;

/// Permits for large inputs (see [`LARGE_INPUT`]).
static LARGE: exec::Permits = exec::Permits::new(LARGE_IN_FLIGHT);

/// A checked input.
struct Outcome {
    /// Finalized on the output thread, with the findings across files.
    found: Found,
    /// The raw input was gzip.
    compressed: bool,
    /// Bytes of input held by `report` until it is rendered (see [`exec::ordered`]).
    size: usize,
    /// What `--fix` or `--diff` did.
    fixed: Option<fix::Done>,
}

/// About how many bytes `diagnostics` hold (their text and their labels), for the bound on the
/// reports waiting to be rendered (see [`exec::ordered`]).
fn held_by(diagnostics: &[sitemap_lint::diagnostic::Diagnostic]) -> usize {
    diagnostics
        .iter()
        .map(|d| {
            let labels = d.secondary.iter().map(|l| l.message.len() + 32);
            let fix = d.fix.as_ref().map_or(0, |f| {
                f.message.len()
                    + f.edits
                        .iter()
                        .map(|e| e.replacement.len() + 32)
                        .sum::<usize>()
            });
            std::mem::size_of_val(d)
                + d.message.len()
                + d.primary.message.len()
                + labels.sum::<usize>()
                + d.notes.iter().map(|n| n.len() + 24).sum::<usize>()
                + d.help.as_ref().map_or(0, String::len)
                + fix
        })
        .sum()
}

/// Reads and checks one target. I/O problems (missing, unreadable, not a regular file) are
/// returned as errors. A file found by walking a directory whose root element is plainly not a
/// sitemap's (an RSS or Atom feed, `browserconfig.xml`) is not checked: `Err` with the root's
/// name. The root is sniffed from the bytes the check reads anyway, so this costs no I/O.
fn check_target(
    target: &Target,
    settings: &Settings,
    fixing: Option<fix::Mode>,
) -> io::Result<Result<Outcome, String>> {
    // A large file takes a permit before it is read; a small one that decompresses to a large
    // text takes one before it is checked (its text is then held, not yet its tree).
    let mut permit = None;
    // `--fix -` gives stdin back as it came when nothing is fixed.
    let mut raw = None;
    let bytes = match &target.source {
        Source::Stdin if fixing.is_some() => {
            let data = input::read_capped(io::stdin().lock(), settings.max_size)?;
            raw = Some(data.clone());
            input::decode(data, settings.max_size)
        }
        Source::Stdin => input::load(io::stdin().lock(), settings.max_size)?,
        Source::File(path) => {
            // Refuses a FIFO or device without blocking on it.
            let (file, meta) = files::open_input(path)?;
            if meta.len() >= LARGE_INPUT {
                permit = Some(LARGE.take());
            }
            input::load_file(&file, settings.max_size, meta.len(), settings.threads)?
        }
    };
    // A walked text sitemap is a sitemap by its name (its lines may hold markup).
    let text =
        text_sitemap::is_text_name(&target.display) && !text_sitemap::starts_xml(&bytes.data);
    if target.walked.is_some() && !text {
        let head = &bytes.data[..bytes.data.len().min(65_536)];
        if let Some((Kind::Other, root)) = sniff_root(head) {
            return Ok(Err(root.to_string()));
        }
    }
    let compressed = bytes.gzip;
    let size = bytes.data.len();
    if permit.is_none() && size as u64 >= LARGE_INPUT {
        permit = Some(LARGE.take());
    }
    let (found, fixed) = match fixing {
        Some(mode) => {
            let (found, done) = fix::run(target, bytes, raw, settings, mode);
            (found, Some(done))
        }
        None => (engine::find(&target.display, bytes, settings), None),
    };
    let outcome = Ok(Ok(Outcome {
        found,
        compressed,
        size,
        fixed,
    }));
    drop(permit);
    outcome
}

/// `sitemap-lint config [PATH]`: the effective configuration for PATH.
fn show_config(args: ConfigCmd, out: &mut dyn Write) -> io::Result<u8> {
    let cwd = match std::env::current_dir() {
        Ok(dir) => dir,
        Err(e) => return usage_error(&format!("cannot read the current directory: {e}")),
    };
    let discovery = match args.config.discovery(Settings::default(), &cwd) {
        Ok(d) => d,
        Err(message) => return usage_error(&message),
    };
    let path = args.path.unwrap_or_else(|| PathBuf::from("."));
    // A folder's own configuration file applies to the files in it.
    let probe = if path.is_dir() {
        path.join("_")
    } else {
        path.clone()
    };
    let loaded = discovery.for_path(&probe);
    let errors = discovery.take_errors();
    if !errors.is_empty() {
        for e in &errors {
            eprintln!("sitemap-lint: error: {e}");
        }
        return Ok(EXIT_TROUBLE);
    }
    let how = if args.config.isolated {
        "--isolated"
    } else {
        "no sitemap-lint.toml in this folder or above it, up to the repository root"
    };
    discover::print(
        &loaded,
        &walk::display_name(&path),
        how,
        args.format == ConfigFormat::Json,
        out,
    )?;
    Ok(EXIT_OK)
}

/// `sitemap-lint man [COMMAND]`: sitemap-lint(1), or a command's page, sitemap-lint-COMMAND(1),
/// as the main page's COMMANDS section names them (clap_mangen's layout, as cargo's and git's).
fn man_page(command: Option<&str>, out: &mut dyn Write) -> io::Result<u8> {
    let main = Cli::command();
    let cmd = match command {
        None => main,
        Some(name) => match main.find_subcommand(name) {
            Some(sub) => sub
                .clone()
                .display_name(format!("sitemap-lint-{name}"))
                .bin_name(format!("sitemap-lint {name}")),
            None => {
                let names: Vec<&str> = main.get_subcommands().map(|c| c.get_name()).collect();
                return usage_error(&format!(
                    "no command `{name}`; the pages are sitemap-lint(1) (`sitemap-lint man`) and \
                     one per command: {}",
                    names.join(", ")
                ));
            }
        },
    };
    clap_mangen::Man::new(cmd)
        .source(format!("sitemap-lint {}", env!("CARGO_PKG_VERSION")))
        .render(out)?;
    Ok(EXIT_OK)
}
