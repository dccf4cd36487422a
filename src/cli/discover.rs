//! Which configuration governs each checked file (`--config`, `--isolated`, or the nearest `sitemap-lint.toml` up to the repository root), and the `config` subcommand's report.
//!
//! Discovery starts in the folder of each checked file (the current directory, or the folder of
//! `--stdin-filename`, for stdin) and walks up until it finds `sitemap-lint.toml`, stops at a
//! repository root (a folder holding `.git`) or reaches the filesystem root. Results are cached
//! per folder and each file is parsed once. Nothing here prints.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use sitemap_lint::config::{self, Config, ConfigError, Origin, Override, Preset, Resolved};
use sitemap_lint::render::visible;
use sitemap_lint::Settings;

use super::walk::{self, Excludes, Source, Target};

/// One configuration (or none) with what it resolves to.
pub struct Loaded {
    pub config: Option<Config>,
    /// The config's `exclude` globs, anchored at its folder.
    excludes: Excludes,
    /// The config's folder, absolute and normalised.
    dir: PathBuf,
    pub resolved: Resolved,
    pub settings: Arc<Settings>,
}

enum Mode {
    Isolated,
    Explicit(Arc<Loaded>),
    Discover,
}

/// Finds and caches the configuration of each folder.
pub struct Discovery {
    mode: Mode,
    /// `--config PATH`.
    explicit: Option<PathBuf>,
    cwd: PathBuf,
    base: Settings,
    overrides: Vec<Override>,
    /// Without a configuration file.
    plain: Arc<Loaded>,
    /// Folder → its configuration (`None`: no file).
    by_dir: Mutex<HashMap<PathBuf, Option<Arc<Loaded>>>>,
    /// Config file → parsed, so each is read once.
    by_file: Mutex<HashMap<PathBuf, Option<Arc<Loaded>>>>,
    errors: Mutex<Vec<ConfigError>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Discovery {
    /// `explicit`: `--config PATH`; `isolated`: `--isolated`. Fails when the explicit file is unusable.
    pub fn new(
        explicit: Option<&Path>,
        isolated: bool,
        base: Settings,
        overrides: Vec<Override>,
        cwd: PathBuf,
    ) -> Result<Discovery, ConfigError> {
        let plain = Arc::new(make_loaded(None, &base, &overrides, &cwd));
        let mode = match explicit {
            Some(path) => {
                let config = config::load(path)?;
                Mode::Explicit(Arc::new(make_loaded(Some(config), &base, &overrides, &cwd)))
            }
            None if isolated => Mode::Isolated,
            None => Mode::Discover,
        };
        Ok(Discovery {
            mode,
            explicit: explicit.map(Path::to_path_buf),
            cwd,
            base,
            overrides,
            plain,
            by_dir: Mutex::new(HashMap::new()),
            by_file: Mutex::new(HashMap::new()),
            errors: Mutex::new(Vec::new()),
        })
    }

    /// The configuration for files in `dir` (absolute, normalised).
    fn for_dir(&self, dir: &Path) -> Arc<Loaded> {
        match &self.mode {
            Mode::Isolated => return self.plain.clone(),
            Mode::Explicit(loaded) => return loaded.clone(),
            Mode::Discover => {}
        }
        if let Some(hit) = lock(&self.by_dir).get(dir) {
            return hit.clone().unwrap_or_else(|| self.plain.clone());
        }
        let found = config::find(dir).and_then(|file| {
            if let Some(hit) = lock(&self.by_file).get(&file) {
                return hit.clone();
            }
            // Shown relative to the current directory, as paths in the report are.
            let shown = PathBuf::from(walk::repo_path(&self.cwd, &file));
            let loaded = match config::load(&shown) {
                Ok(config) => Some(Arc::new(make_loaded(
                    Some(config),
                    &self.base,
                    &self.overrides,
                    &self.cwd,
                ))),
                Err(e) => {
                    lock(&self.errors).push(e);
                    None
                }
            };
            lock(&self.by_file).insert(file, loaded.clone());
            loaded
        });
        lock(&self.by_dir).insert(dir.to_path_buf(), found.clone());
        found.unwrap_or_else(|| self.plain.clone())
    }

    /// The configuration for a file or folder at `path` (relative to the current directory or
    /// absolute): the one of the folder it is in.
    pub fn for_path(&self, path: &Path) -> Arc<Loaded> {
        let abs = walk::normalise(&self.cwd.join(path));
        let dir = abs.parent().map_or_else(|| abs.clone(), Path::to_path_buf);
        self.for_dir(&dir)
    }

    pub fn for_target(&self, target: &Target, stdin_name: &str) -> Arc<Loaded> {
        match &target.source {
            Source::File(path) => self.for_path(path),
            Source::Stdin => self.for_path(Path::new(stdin_name)),
        }
    }

    /// Whether the `exclude` globs of the configuration governing `path` exclude it.
    pub fn excluded(&self, path: &Path, is_dir: bool) -> bool {
        let loaded = self.for_path(path);
        if loaded.excludes.is_empty() {
            return false;
        }
        let abs = walk::normalise(&self.cwd.join(path));
        let rel = walk::repo_path(&loaded.dir, &abs);
        loaded.excludes.matches(&rel, is_dir)
    }

    /// The configuration files read so far (`--config`, or those found by discovery).
    pub fn config_files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = lock(&self.by_file).keys().cloned().collect();
        files.extend(self.explicit.clone());
        files
    }

    /// Unusable configuration files met so far (each once).
    pub fn take_errors(&self) -> Vec<ConfigError> {
        std::mem::take(&mut *lock(&self.errors))
    }
}

fn make_loaded(
    config: Option<Config>,
    base: &Settings,
    overrides: &[Override],
    cwd: &Path,
) -> Loaded {
    let resolved = config::resolve(base, config.as_ref(), overrides);
    let (excludes, dir) = match &config {
        Some(c) => {
            let globs: Vec<String> = c.exclude.iter().map(|g| g.value.clone()).collect();
            // Already checked by `config::parse`.
            let excludes = Excludes::new(&globs).unwrap_or_default();
            (excludes, walk::normalise(&cwd.join(&c.dir)))
        }
        None => (Excludes::default(), cwd.to_path_buf()),
    };
    Loaded {
        settings: Arc::new(resolved.settings.clone()),
        config,
        excludes,
        dir,
        resolved,
    }
}

/// `# …` comments aligned after the values.
fn aligned(lines: &[(String, String)], out: &mut dyn Write) -> io::Result<()> {
    // Paths and values come from the file system and the configuration: shown through `visible`.
    let lines: Vec<(String, String)> = lines
        .iter()
        .map(|(l, c)| (visible(l).into_owned(), visible(c).into_owned()))
        .collect();
    let width = lines
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    for (line, comment) in &lines {
        if comment.is_empty() {
            writeln!(out, "{line}")?;
        } else {
            writeln!(out, "{line:width$}  # {comment}")?;
        }
    }
    Ok(())
}

fn toml_string(s: &str) -> String {
    // A JSON string is a valid TOML basic string for everything a path or URL holds.
    serde_json::to_string(s).unwrap_or_default()
}

/// Prints the effective configuration for `path` (`sitemap-lint config`).
pub fn print(
    loaded: &Loaded,
    path: &str,
    how: &str,
    json: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let r = &loaded.resolved;
    let c = loaded.config.as_ref();
    let file = c.map(|c| c.path.display().to_string());
    let preset = c.and_then(|c| c.preset.as_ref());
    let exclude: Vec<String> = c
        .map(|c| c.exclude.iter().map(|g| g.value.clone()).collect())
        .unwrap_or_default();
    let s = &r.settings;
    if json {
        let value = serde_json::json!({
            "path": path,
            "config_file": file,
            "preset": match preset {
                Some(p) => serde_json::json!({
                    "value": p.value.name(),
                    "source": Origin::File(c.map(|c| c.path.clone()).unwrap_or_default(), p.line).to_string(),
                }),
                None => serde_json::json!({"value": Preset::DEFAULT.name(), "source": "default"}),
            },
            "max_url_length": {"value": s.max_url_length, "source": r.max_url_length.to_string()},
            "sitemap_url": {"value": s.sitemap_url, "source": r.sitemap_url.to_string()},
            "site_root": {"value": s.site_root.as_ref().map(|p| p.display().to_string()), "source": r.site_root.to_string()},
            "exclude": exclude,
            "rules": r.rules.iter().map(|(m, level, origin)| serde_json::json!({
                "name": m.name,
                "category": m.category.as_str(),
                "severity": config::level_name(*level),
                "source": origin.to_string(),
            })).collect::<Vec<_>>(),
        });
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "# effective sitemap-lint configuration for `{}`",
        visible(path)
    )?;
    match &file {
        Some(f) => writeln!(out, "# configuration file: {}", visible(f))?,
        None => writeln!(out, "# configuration file: none ({how})")?,
    }
    let file_line =
        |line: usize| Origin::File(c.map(|c| c.path.clone()).unwrap_or_default(), line).to_string();
    let mut lines = Vec::new();
    match preset {
        Some(p) => lines.push((
            format!("preset = {}", toml_string(p.value.name())),
            format!("{}; {}", file_line(p.line), p.value.summary()),
        )),
        // No preset chosen: the defaults are those of the default preset.
        None => lines.push((
            format!("preset = {}", toml_string(Preset::DEFAULT.name())),
            format!("default; {}", Preset::DEFAULT.summary()),
        )),
    }
    lines.push((
        format!("max-url-length = {}", s.max_url_length),
        r.max_url_length.to_string(),
    ));
    match &s.sitemap_url {
        Some(u) => lines.push((
            format!("sitemap-url = {}", toml_string(u)),
            r.sitemap_url.to_string(),
        )),
        None => lines.push(("# sitemap-url: not set".into(), String::new())),
    }
    match &s.site_root {
        Some(p) => lines.push((
            format!("site-root = {}", toml_string(&p.display().to_string())),
            r.site_root.to_string(),
        )),
        None => lines.push(("# site-root: not set".into(), String::new())),
    }
    let globs: Vec<String> = exclude.iter().map(|g| toml_string(g)).collect();
    lines.push((
        format!("exclude = [{}]", globs.join(", ")),
        match c {
            Some(c) if !c.exclude.is_empty() => file_line(c.exclude[0].line),
            _ => "default".into(),
        },
    ));
    lines.push((String::new(), String::new()));
    lines.push(("[rules]".into(), String::new()));
    for (meta, level, origin) in &r.rules {
        lines.push((
            format!(
                "{} = {}",
                meta.name,
                toml_string(config::level_name(*level))
            ),
            origin.to_string(),
        ));
    }
    aligned(&lines, out)
}
