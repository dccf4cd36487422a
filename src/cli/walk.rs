//! Which inputs a `check` run covers: command-line paths, directories walked with the `ignore` crate, `--exclude` globs, and the paths shown in output.
//!
//! Directories are walked like ripgrep does: `.gitignore` (inside a git repository), `.ignore`,
//! `.git/info/exclude` and the global gitignore are honoured, hidden entries are skipped, and
//! symlinks are not followed. Walked directories yield `*.xml` and `*.xml.gz` files, and text
//! sitemaps named `*sitemap*.txt` or `*sitemap*.txt.gz`; a file named on the command line is
//! checked whatever its name. `--exclude` globs apply to walked entries,
//! and to named paths (and the `--stdin-filename`) only with `--force-exclude`.
//!
//! The ignore rule that fits build folders (see docs/configuration.md, "Which files are checked"):
//! - a directory named on the command line is walked whatever ignore files say about it, and the
//!   ignore files of the directories above it do not apply inside it: `check public/` checks the
//!   sitemaps a generator writes there even though the repository ignores them;
//! - the ignore files in the named directory and below it apply: `check .` at a repository root
//!   does not descend into ignored `node_modules/`, `target/` or `public/`;
//! - a sitemap-named file (`*sitemap*.xml`, `*sitemap*.xml.gz`, `*sitemap*.txt[.gz]`) that the ignore
//!   files hide is never skipped silently: a second, name-only pass finds it and the summary
//!   names it with the flag that includes it (`--no-ignore`, which turns ignore files off).
//!
//! Walked files that turn out not to be sitemaps (RSS and Atom feeds, `browserconfig.xml`) are
//! skipped by the check, which sniffs their root element (see [`Target::walked`]).
//!
//! A symlink named on the command line is read through; it is shown as given, but its repository
//! path (used by the code-host formats, which cannot show symlinks) is the file it points to.
//!
//! Nothing here prints: problems are returned for the caller to report.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use globset::{GlobBuilder, GlobMatcher};

/// One thing to check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    File(PathBuf),
    Stdin,
}

/// An input with the names it goes by in output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub source: Source,
    /// As given on the command line (or found below a given directory), `/`-separated, without a
    /// leading `./`; the `--stdin-filename` for stdin.
    pub display: String,
    /// Relative to the repository root (see [`repo_root`]), normalised, `/`-separated (absolute
    /// when outside it): what code hosts (SARIF, GitHub, GitLab) locate findings by.
    pub repo_path: String,
    /// Found by walking the directory `Collected::dirs[n]`: such a file is skipped, not
    /// reported, when its root element shows it is not a sitemap. `None` for a named file.
    pub walked: Option<usize>,
}

/// What [`collect`] found.
#[derive(Debug, Default)]
pub struct Collected {
    /// Sorted by display name, without duplicates.
    pub targets: Vec<Target>,
    /// Paths that cannot be walked (reported on stderr; the run exits 2).
    pub problems: Vec<String>,
    /// Non-fatal notes, such as a malformed `.gitignore`.
    pub warnings: Vec<String>,
    /// The directories walked, as given.
    pub dirs: Vec<String>,
    /// Sitemap-named XML files (`*sitemap*.xml[.gz]`) that ignore files kept out of the walk,
    /// sorted: `--no-ignore` checks them.
    pub ignored_sitemaps: Vec<String>,
    /// Whether the search for [`Collected::ignored_sitemaps`] stopped at its budget of
    /// [`IGNORED_SEARCH_BUDGET`] entries (a huge ignored `node_modules/`).
    pub ignored_search_cut: bool,
}

/// How many entries the name-only search for ignored sitemaps looks at, at most, per run.
pub const IGNORED_SEARCH_BUDGET: usize = 100_000;

/// One `--exclude` glob.
#[derive(Debug, Clone)]
struct Pattern {
    matcher: GlobMatcher,
    /// The glob has a `/`: it is matched against the path (and its parent directories) relative to
    /// the current directory. Otherwise against each path component (file or directory name).
    anchored: bool,
    /// The glob ended in `/`: it matches directories only.
    dir_only: bool,
}

/// The `--exclude` globs, gitignore-like: `*` stays within one path component, `**` crosses them;
/// a glob without `/` matches a file or directory name at any depth (`drafts`, `*.bak.xml`); a
/// glob with `/` matches from the current directory (`public/old/**`, `build/`); a trailing `/`
/// matches directories only. A path is excluded when it or any of its parent directories matches.
#[derive(Debug, Clone, Default)]
pub struct Excludes {
    patterns: Vec<Pattern>,
}

impl Excludes {
    pub fn new(globs: &[String]) -> Result<Excludes, String> {
        let mut patterns = Vec::new();
        for raw in globs {
            let mut g = raw.as_str();
            while let Some(rest) = g.strip_prefix("./") {
                g = rest;
            }
            let dir_only = g.len() > 1 && g.ends_with('/');
            let g = g.trim_end_matches('/');
            let anchored = g.contains('/') || raw.starts_with('/');
            let g = g.trim_start_matches('/');
            if g.is_empty() {
                return Err(format!("invalid --exclude glob `{raw}`: it is empty"));
            }
            let glob = GlobBuilder::new(g)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .map_err(|e| format!("invalid --exclude glob `{raw}`: {}", e.kind()))?;
            patterns.push(Pattern {
                matcher: glob.compile_matcher(),
                anchored,
                dir_only,
            });
        }
        Ok(Excludes { patterns })
    }

    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Whether `repo_path` (see [`repo_path`]) or one of its parent directories is excluded.
    pub fn matches(&self, repo_path: &str, is_dir: bool) -> bool {
        if self.patterns.is_empty() {
            return false;
        }
        let parts: Vec<&str> = repo_path.split('/').collect();
        let mut prefix = String::new();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                prefix.push('/');
            }
            prefix.push_str(part);
            if part.is_empty() || *part == "." {
                continue;
            }
            let dir = i + 1 < parts.len() || is_dir;
            for p in &self.patterns {
                if p.dir_only && !dir {
                    continue;
                }
                let subject = if p.anchored { prefix.as_str() } else { part };
                if p.matcher.is_match(subject) {
                    return true;
                }
            }
        }
        false
    }
}

/// More exclusions decided per path (the `exclude` globs of the configuration governing it):
/// called with the path as walked or given and whether it is a directory.
pub type ExtraExclude = Arc<dyn Fn(&Path, bool) -> bool + Send + Sync>;

/// Whether a walked file is a sitemap candidate: `*.xml` or `*.xml.gz` (any case), or a text
/// sitemap named `*sitemap*.txt` or `*sitemap*.txt.gz` (other `.txt` files, such as robots.txt,
/// are not sitemaps).
pub fn is_sitemap_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".xml") || lower.ends_with(".xml.gz") || is_sitemap_named(name)
}

/// Whether a file's name says it is a sitemap (`*sitemap*.xml`, `*sitemap*.xml.gz`,
/// `*sitemap*.txt` or `*sitemap*.txt.gz`, any case): such a file is never skipped without the
/// summary saying so.
pub fn is_sitemap_named(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let plain = lower.strip_suffix(".gz").unwrap_or(&lower);
    lower.contains("sitemap") && (plain.ends_with(".xml") || plain.ends_with(".txt"))
}

/// The path as the user wrote it, with `/` separators and no leading `./`.
pub fn display_name(path: &Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/");
    let mut s = s.as_str();
    while let Some(rest) = s.strip_prefix("./") {
        s = rest.trim_start_matches('/');
    }
    s.to_string()
}

/// `path` relative to `cwd`, normalised lexically (`.` and `..` resolved), `/`-separated; absolute
/// when it lies outside `cwd`; `.` for `cwd` itself.
pub fn repo_path(cwd: &Path, path: &Path) -> String {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    };
    let abs = normalise(&abs);
    let base = normalise(cwd);
    let shown = match abs.strip_prefix(&base) {
        Ok(rel) if rel.as_os_str().is_empty() => return ".".into(),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => abs,
    };
    shown.to_string_lossy().replace('\\', "/")
}

/// The directory paths for code hosts are relative to: the root of the git repository holding
/// `cwd` (the nearest directory, `cwd` or above, with a `.git` directory or file), so that a run
/// from a subdirectory still names files as the repository does; else `cwd`. Absolute.
pub fn repo_root(cwd: &Path) -> PathBuf {
    let cwd = normalise(cwd);
    cwd.ancestors()
        .find(|dir| dir.join(".git").exists())
        .unwrap_or(&cwd)
        .to_path_buf()
}

/// `path` (relative to `cwd`) as a path relative to `root` (see [`repo_path`]).
fn rooted_path(root: &Path, cwd: &Path, path: &Path) -> String {
    repo_path(root, &normalise(&cwd.join(path)))
}

/// For a symlink, the path relative to `root` of the file it resolves to (both resolved);
/// `None` for anything else.
fn resolved_repo_path(root: &Path, path: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_symlink() {
        return None;
    }
    let target = std::fs::canonicalize(path).ok()?;
    let base = std::fs::canonicalize(root).ok()?;
    Some(repo_path(&base, &target))
}

/// `path` with `.` and `..` resolved lexically.
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Resolves the command-line paths (`-` is stdin; none means `.`) into sorted, de-duplicated
/// targets. Directories are walked; anything else given is a target even if it is missing or
/// special, so that the check reports it in its place. `extra` excludes like `excludes` does.
/// With `no_ignore`, ignore files (`.gitignore`, `.ignore`, git's excludes) are not read.
pub fn collect(
    paths: &[PathBuf],
    stdin_name: &str,
    excludes: &Excludes,
    extra: Option<&ExtraExclude>,
    force_exclude: bool,
    no_ignore: bool,
    cwd: &Path,
) -> Collected {
    let extra_says = |path: &Path, is_dir: bool| extra.is_some_and(|f| f(path, is_dir));
    let mut found = Collected::default();
    let root = repo_root(cwd);
    let default = [PathBuf::from(".")];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    for path in paths {
        if path.as_os_str() == "-" {
            let repo = repo_path(cwd, Path::new(stdin_name));
            if force_exclude
                && (excludes.matches(&repo, false) || extra_says(Path::new(stdin_name), false))
            {
                continue;
            }
            if found.targets.iter().any(|t| t.source == Source::Stdin) {
                found
                    .problems
                    .push("`-` (stdin) is given more than once".into());
                continue;
            }
            found.targets.push(Target {
                source: Source::Stdin,
                display: stdin_name.to_string(),
                repo_path: rooted_path(&root, cwd, Path::new(stdin_name)),
                walked: None,
            });
            continue;
        }
        let repo = repo_path(cwd, path);
        let is_dir = path.is_dir();
        if force_exclude && (excludes.matches(&repo, is_dir) || extra_says(path, is_dir)) {
            continue;
        }
        if is_dir {
            let before = found.targets.len();
            let ignored_before = found.ignored_sitemaps.len();
            let filter = entry_filter(excludes, extra, cwd);
            walk(path, &filter, no_ignore, (&root, cwd), &mut found);
            if !no_ignore {
                let seen: std::collections::HashSet<&str> = found.targets[before..]
                    .iter()
                    .map(|t| t.display.as_str())
                    .collect();
                let hidden = find_ignored_sitemaps(path, &filter, &seen);
                found.ignored_sitemaps.extend(hidden.xml);
                found.ignored_search_cut |= hidden.cut;
            }
            if found.targets.len() == before {
                // Nothing checked is not the same as nothing wrong: say so (exit 2).
                let ignored = found.ignored_sitemaps.len() - ignored_before;
                let hint = if ignored > 0 {
                    format!(
                        "; ignore files hide {} in it (`--no-ignore` checks them)",
                        plural(ignored, "sitemap-named file")
                    )
                } else {
                    String::new()
                };
                found.problems.push(format!(
                    "no sitemap files (`*.xml`, `*.xml.gz`, `*sitemap*.txt`) found in directory `{}`{hint}",
                    display_name(path)
                ));
            }
        } else {
            // Code hosts cannot show a finding on a symlink: name the file it points to.
            let repo =
                resolved_repo_path(&root, path).unwrap_or_else(|| rooted_path(&root, cwd, path));
            found.targets.push(Target {
                source: Source::File(path.clone()),
                display: display_name(path),
                repo_path: repo,
                walked: None,
            });
        }
    }
    // A file both named and found by a walk is a named file: it is checked whatever it holds.
    found.targets.sort_by(|a, b| {
        (a.display.as_str(), a.walked.is_some()).cmp(&(b.display.as_str(), b.walked.is_some()))
    });
    found.targets.dedup_by(|a, b| a.display == b.display);
    found.ignored_sitemaps.sort();
    found.ignored_sitemaps.dedup();
    found
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The per-entry filter of a walk: `--exclude` and the configuration's excludes.
type EntryFilter = Option<Arc<dyn Fn(&ignore::DirEntry) -> bool + Send + Sync>>;

fn entry_filter(excludes: &Excludes, extra: Option<&ExtraExclude>, cwd: &Path) -> EntryFilter {
    if excludes.is_empty() && extra.is_none() {
        return None;
    }
    let filter_cwd = cwd.to_path_buf();
    let excludes = excludes.clone();
    let extra = extra.cloned();
    Some(Arc::new(move |e: &ignore::DirEntry| {
        let is_dir = e.file_type().is_some_and(|t| t.is_dir());
        // The path is spelled out for `--exclude` only when there is one (the walk's
        // per-entry cost on a directory of 1,000 sitemaps).
        e.depth() == 0
            || !((!excludes.is_empty()
                && excludes.matches(&repo_path(&filter_cwd, e.path()), is_dir))
                || extra.as_ref().is_some_and(|f| f(e.path(), is_dir)))
    }))
}

/// A walker over `dir` that skips hidden entries, follows no symlinks and applies `filter`.
fn walker(dir: &Path, filter: &EntryFilter) -> ignore::WalkBuilder {
    let mut builder = ignore::WalkBuilder::new(dir);
    builder
        .standard_filters(false)
        .hidden(true)
        .follow_links(false);
    if let Some(filter) = filter {
        let filter = filter.clone();
        builder.filter_entry(move |e| filter(e));
    }
    builder
}

/// What ignore files hid below a directory, by [`find_ignored_sitemaps`].
struct Hidden {
    /// Sitemap-named files (XML and text).
    xml: Vec<String>,
    /// The search stopped at [`IGNORED_SEARCH_BUDGET`] entries.
    cut: bool,
}

/// The sitemap-named files below `dir` that a walk with ignore files did not yield (`seen`
/// holds the display names it did), by a name-only walk without ignore files.
fn find_ignored_sitemaps(
    dir: &Path,
    filter: &EntryFilter,
    seen: &std::collections::HashSet<&str>,
) -> Hidden {
    let mut hidden = Hidden {
        xml: Vec::new(),
        cut: false,
    };
    for (n, entry) in walker(dir, filter).build().enumerate() {
        if n >= IGNORED_SEARCH_BUDGET {
            hidden.cut = true;
            break;
        }
        let Ok(e) = entry else { continue };
        let name = e.file_name().to_string_lossy();
        if !e.file_type().is_some_and(|t| t.is_file()) || !is_sitemap_named(&name) {
            continue;
        }
        let shown = display_name(e.path());
        if !seen.contains(shown.as_str()) {
            hidden.xml.push(shown);
        }
    }
    hidden
}

/// Walks `dir`; `(root, cwd)` are the repository root and the current directory.
fn walk(
    dir: &Path,
    filter: &EntryFilter,
    no_ignore: bool,
    (root, cwd): (&Path, &Path),
    found: &mut Collected,
) {
    let mut builder = walker(dir, filter);
    // The named directory's own ignore files and those below it apply; those of the
    // directories above it do not (see the module's documentation).
    let use_ignore = !no_ignore;
    builder
        .ignore(use_ignore)
        .git_ignore(use_ignore)
        .git_exclude(use_ignore)
        .git_global(use_ignore)
        .parents(false);
    let dir_index = found.dirs.len();
    found.dirs.push(display_name(dir));
    for entry in builder.build() {
        match entry {
            Ok(e) => {
                if let Some(err) = e.error() {
                    found.warnings.push(describe_walk_error(err));
                }
                let is_file = e.file_type().is_some_and(|t| t.is_file());
                let name = e.file_name().to_string_lossy();
                if is_file && is_sitemap_name(&name) {
                    let path = e.into_path();
                    found.targets.push(Target {
                        display: display_name(&path),
                        repo_path: rooted_path(root, cwd, &path),
                        source: Source::File(path),
                        walked: Some(dir_index),
                    });
                }
            }
            Err(err) => found
                .problems
                .push(format!("cannot read {}", describe_walk_error(&err))),
        }
    }
}

/// `cannot read `path`: permission denied` from the layers of an `ignore::Error`.
fn describe_walk_error(err: &ignore::Error) -> String {
    match err {
        ignore::Error::WithPath { path, err } => {
            format!("`{}`: {}", display_name(path), describe_walk_error(err))
        }
        ignore::Error::WithDepth { err, .. } => describe_walk_error(err),
        ignore::Error::WithLineNumber { line, err } => {
            format!("line {line}: {}", describe_walk_error(err))
        }
        ignore::Error::Io(e) => sitemap_lint::pipeline::files::describe_io(e),
        ignore::Error::Loop { child, .. } => {
            format!("`{}`: a symlink loop", display_name(child))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(globs: &[&str]) -> Excludes {
        Excludes::new(&globs.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn globs_without_slash_match_any_component() {
        let e = ex(&["drafts", "*.bak.xml"]);
        assert!(e.matches("drafts", true));
        assert!(e.matches("public/drafts/sitemap.xml", false));
        assert!(e.matches("public/old.bak.xml", false));
        assert!(!e.matches("public/sitemap.xml", false));
        assert!(!e.matches("public/drafts2/sitemap.xml", false));
    }

    #[test]
    fn globs_with_slash_are_anchored_at_the_current_directory() {
        let e = ex(&["public/old/**", "./build/", "/tmp.xml"]);
        assert!(e.matches("public/old/a/sitemap.xml", false));
        assert!(!e.matches("x/public/old/sitemap.xml", false));
        assert!(e.matches("build/sitemap.xml", false), "a parent directory");
        assert!(
            !e.matches("build", false),
            "`build/` matches directories only"
        );
        assert!(e.matches("tmp.xml", false));
        assert!(!e.matches("a/tmp.xml", false));
        let e = ex(&["public/*.xml"]);
        assert!(e.matches("public/a.xml", false));
        assert!(
            !e.matches("public/sub/a.xml", false),
            "`*` stays in one component"
        );
    }

    #[test]
    fn bad_globs_are_reported() {
        assert!(Excludes::new(&["a[".to_string()]).is_err());
        assert!(Excludes::new(&["/".to_string()]).is_err());
    }

    #[test]
    fn paths_are_relative_to_the_current_directory() {
        let cwd = Path::new("/repo");
        assert_eq!(repo_path(cwd, Path::new("./public/../a.xml")), "a.xml");
        assert_eq!(
            repo_path(cwd, Path::new("/repo/public/a.xml")),
            "public/a.xml"
        );
        assert_eq!(
            repo_path(cwd, Path::new("/elsewhere/a.xml")),
            "/elsewhere/a.xml"
        );
        assert_eq!(repo_path(cwd, Path::new("../x/a.xml")), "/x/a.xml");
        assert_eq!(repo_path(cwd, Path::new(".")), ".");
        assert_eq!(display_name(Path::new("./public/a.xml")), "public/a.xml");
    }
}
