//! The layering of `src/`, held as a test (like clippy's meta-tests): reads every module's
//! `crate::…`, `super::…` and `sitemap_lint::…` paths outside its tests and fails on
//! - an import cycle between modules (files);
//! - a rule file importing another rule file, or a helper module of `rules/` importing one
//!   (shared helpers belong in the family's `mod.rs` or a helper module beside it; a rule file
//!   is one that declares a rule with `declare_rule!` or implements `Rule`, a helper one that
//!   does neither);
//! - an import from `values/` into the rest of the crate (values are pure grammars);
//! - an import from `pipeline/` into a layer above it ([`ABOVE_PIPELINE`]: the stages return
//!   typed problems, and the rules word them);
//! - a hand-written file over 1,000 lines of code (blank lines, comments and the test module
//!   not counted; generated files, marked `@generated`, excluded);
//! - a thread or a primitive that makes threads wait (`std::thread`, `rayon::`, `Condvar`,
//!   `mpsc`, `crossbeam`) outside `src/exec.rs`, the one executor (issue 17).
//!
//! A parent module naming its own submodules (`pub mod x;`, a registry that lists them) is
//! structure, not a dependency: edges from a module to its descendants are not counted, so a
//! child may use its parent's helpers.
//!
//! `KNOWN` lists what the restructure (issue 17) has not yet removed. It may only shrink: a
//! listed problem that no longer occurs fails the test too, so the list stays true.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Problems still present, each exactly as the test words it.
const KNOWN: &[&str] = &[];

const MAX_CODE_LINES: usize = 1_000;

/// The modules above `pipeline/` (ARCHITECTURE.md), which no stage may import: the rules and
/// what drives them, reports and renders their findings. (`exec`, which imports nothing of the
/// crate, serves every layer.)
const ABOVE_PIPELINE: &[&str] = &[
    "rule", "rules", "engine", "report", "suppress", "site_set", "fix", "live", "render", "docs",
    "config", "bin",
];

/// What starts threads or makes them wait for each other: only `src/exec.rs` may use it.
const THREADING: &[&str] = &["thread::", "rayon::", "Condvar", "mpsc", "crossbeam"];

/// The module that owns every thread.
const EXECUTOR: &str = "exec";

/// A module of the library (`pipeline::xml`) or of the binary (`bin::cli::walk`).
type Module = String;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/pipeline/mod.rs` → `pipeline`; `src/cli/walk.rs` → `bin::cli::walk`; `src/lib.rs` → ``.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    let binary = parts.first().is_some_and(|p| p == "main" || p == "cli");
    if parts.first().is_some_and(|p| p == "main") {
        parts.clear();
    }
    let path = parts.join("::");
    if binary {
        if path.is_empty() {
            "bin".into()
        } else {
            format!("bin::{path}")
        }
    } else {
        path
    }
}

/// The text of a file without comments, string contents and its test module.
fn code_of(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => text,
    };
    let mut out = String::with_capacity(body.len());
    for line in body.lines() {
        let line = match line.find("//") {
            // A `//` inside a string ("https://…") is rare in paths we look for; cut at it anyway.
            Some(at) => &line[..at],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Lines of code: not blank, not comments, outside the test module.
fn code_lines(text: &str) -> usize {
    code_of(text)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count()
}

/// Every path used in `code`, expanded from `use a::{b, c::{d, e}}` groups, as segments.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let starts: Vec<Vec<char>> = ["crate::", "super::", "sitemap_lint::", "self::"]
        .iter()
        .map(|p| p.chars().collect())
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let at_word_start = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if at_word_start && starts.iter().any(|p| chars[i..].starts_with(p)) {
            let (paths, end) = parse_path(&chars, i);
            out.extend(paths);
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// Parses a path starting at `i` (`crate::a::{b, c::d}`), returning the expanded paths and the
/// index after it.
fn parse_path(c: &[char], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let mut segs: Vec<String> = Vec::new();
    loop {
        let start = i;
        while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
            i += 1;
        }
        if i > start {
            segs.push(c[start..i].iter().collect());
        }
        if i + 1 < c.len() && c[i] == ':' && c[i + 1] == ':' {
            i += 2;
            while i < c.len() && c[i].is_whitespace() {
                i += 1;
            }
            if i < c.len() && c[i] == '{' {
                // A group: split at top-level commas.
                let mut depth = 0;
                let open = i;
                let mut j = i;
                while j < c.len() {
                    match c[j] {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                let inner: String = c[open + 1..j.min(c.len())].iter().collect();
                let mut out = Vec::new();
                for item in split_top(&inner) {
                    let item = item.trim();
                    if item.is_empty() {
                        continue;
                    }
                    let chars: Vec<char> = item.chars().collect();
                    let (subs, _) = parse_path(&chars, 0);
                    for sub in subs {
                        let mut p = segs.clone();
                        p.extend(sub.into_iter().filter(|s| s != "self"));
                        out.push(p);
                    }
                }
                return (out, j + 1);
            }
            continue;
        }
        return (vec![segs], i.max(start + 1));
    }
}

fn split_top(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    parts.push(cur);
    parts
}

/// The module a path names: the longest prefix that is a module, resolved from `from`.
fn resolve(
    from: &Module,
    is_mod_rs: bool,
    path: &[String],
    modules: &BTreeSet<Module>,
) -> Option<Module> {
    let binary = from == "bin" || from.starts_with("bin::");
    let mut base: Vec<String> = match path.first().map(String::as_str) {
        Some("crate") if binary => vec!["bin".into()],
        Some("crate") | Some("sitemap_lint") => vec![],
        Some("super") | Some("self") => {
            let mut b: Vec<String> = from
                .split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            // `self` in a mod.rs is the module itself; in x.rs too. `super` goes one up from the
            // module (a mod.rs's module is its folder).
            let _ = is_mod_rs;
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super" || s == "self") {
                if rest[0] == "super" {
                    b.pop();
                }
                rest = &rest[1..];
            }
            let mut full = b;
            full.extend(rest.iter().cloned());
            return longest(&full, modules);
        }
        _ => return None,
    };
    base.extend(path[1..].iter().cloned());
    longest(&base, modules)
}

fn longest(full: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    (1..=full.len())
        .rev()
        .map(|n| full[..n].join("::"))
        .find(|m| modules.contains(m))
}

fn is_descendant(child: &str, parent: &str) -> bool {
    parent.is_empty() || child.starts_with(&format!("{parent}::"))
}

fn in_rules(m: &str) -> bool {
    m.starts_with("rules::")
}

/// Whether a file's code declares a rule: a rule file, as opposed to a helper module.
fn declares_rule(code: &str) -> bool {
    code.contains("declare_rule!") || code.contains("impl Rule for")
}

struct Graph {
    edges: BTreeMap<Module, BTreeSet<Module>>,
    mod_rs: BTreeSet<Module>,
    /// Modules under `rules::` that declare a rule (see [`declares_rule`]).
    rule_files: BTreeSet<Module>,
    lines: BTreeMap<Module, (PathBuf, usize, bool)>,
    /// The [`THREADING`] words each module's code uses.
    threading: BTreeMap<Module, BTreeSet<&'static str>>,
}

/// The [`THREADING`] words in `code` (a word, not part of a longer name: `spawn_thread::` is not
/// `thread::`).
fn threading_in(code: &str) -> BTreeSet<&'static str> {
    let mut found = BTreeSet::new();
    for word in THREADING {
        let mut from = 0;
        while let Some(at) = code[from..].find(word) {
            let start = from + at;
            let before = code[..start].chars().next_back();
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                found.insert(*word);
                break;
            }
            from = start + word.len();
        }
    }
    found
}

fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let modules: BTreeSet<Module> = all.iter().map(|f| module_of(&src, f)).collect();
    let mut g = Graph {
        edges: BTreeMap::new(),
        mod_rs: BTreeSet::new(),
        rule_files: BTreeSet::new(),
        lines: BTreeMap::new(),
        threading: BTreeMap::new(),
    };
    for file in &all {
        let m = module_of(&src, file);
        let text = std::fs::read_to_string(file).unwrap();
        let is_mod_rs = file.file_name().is_some_and(|n| n == "mod.rs");
        if is_mod_rs {
            g.mod_rs.insert(m.clone());
        }
        let generated = text.lines().take(5).any(|l| l.contains("@generated"));
        g.lines
            .insert(m.clone(), (file.clone(), code_lines(&text), generated));
        let code = code_of(&text);
        if in_rules(&m) && declares_rule(&code) {
            g.rule_files.insert(m.clone());
        }
        let used = threading_in(&code);
        if !used.is_empty() {
            g.threading.insert(m.clone(), used);
        }
        let targets = g.edges.entry(m.clone()).or_default();
        for path in paths_in(&code) {
            if let Some(to) = resolve(&m, is_mod_rs, &path, &modules) {
                if to != m && !is_descendant(&to, &m) {
                    targets.insert(to);
                }
            }
        }
    }
    g
}

/// Strongly connected components with more than one module (Tarjan).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<Module>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        if let Some(ws) = s.edges.get(v) {
            for w in ws {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(lw));
                } else if s.on.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(iw));
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}

fn problems(g: &Graph) -> Vec<String> {
    let mut out = Vec::new();
    for comp in cycles(&g.edges) {
        out.push(format!("import cycle: {}", comp.join(" ↔ ")));
    }
    for (from, tos) in &g.edges {
        for to in tos {
            // The importer: a rule file, or a helper module of a family (anything under
            // `rules::<family>::` that is not the family's own `mod.rs`).
            let family_mod = from.matches("::").count() == 1 && g.mod_rs.contains(from);
            if in_rules(from) && !family_mod && g.rule_files.contains(to) {
                let what = if g.rule_files.contains(from) {
                    "rule file"
                } else {
                    "rules helper"
                };
                out.push(format!("{what} imports a rule file: {from} → {to}"));
            }
            let top = |m: &str| m.split("::").next().unwrap_or("").to_string();
            if top(from) == "pipeline" && ABOVE_PIPELINE.contains(&top(to).as_str()) {
                out.push(format!("pipeline imports a layer above it: {from} → {to}"));
            }
            if (from == "values" || from.starts_with("values::"))
                && !(to == "values" || to.starts_with("values::"))
            {
                out.push(format!(
                    "values imports from the rest of the crate: {from} → {to}"
                ));
            }
        }
    }
    for (m, words) in &g.threading {
        if m != EXECUTOR {
            let words: Vec<&str> = words.iter().copied().collect();
            out.push(format!(
                "threads outside exec: {m} uses {}",
                words.join(", ")
            ));
        }
    }
    for (m, (file, lines, generated)) in &g.lines {
        if !generated && *lines > MAX_CODE_LINES {
            let name = file
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(file)
                .display();
            out.push(format!(
                "file over {MAX_CODE_LINES} lines of code: {name} ({m})"
            ));
        }
    }
    out.sort();
    out
}

#[test]
fn the_layers_only_look_down() {
    let g = graph();
    let found = problems(&g);
    let known: BTreeSet<&str> = KNOWN.iter().copied().collect();
    let new: Vec<&String> = found
        .iter()
        .filter(|p| !known.contains(p.as_str()))
        .collect();
    let gone: Vec<&&str> = KNOWN
        .iter()
        .filter(|k| !found.iter().any(|p| p == *k))
        .collect();
    // Sizes are reported for the closing note whatever the verdict.
    let mut sizes: Vec<(usize, String)> = g
        .lines
        .iter()
        .filter(|(_, (_, _, generated))| !generated)
        .map(|(m, (_, n, _))| (*n, m.clone()))
        .collect();
    sizes.sort_by(|a, b| b.cmp(a));
    println!(
        "largest files (lines of code): {:?}",
        &sizes[..sizes.len().min(6)]
    );
    println!("problems: {}", found.len());
    assert!(
        new.is_empty(),
        "layering problems (see ARCHITECTURE.md):\n  {}",
        new.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  ")
    );
    assert!(
        gone.is_empty(),
        "fixed, remove from KNOWN in tests/layering.rs:\n  {}",
        gone.iter().map(|s| **s).collect::<Vec<_>>().join("\n  ")
    );
}

#[test]
fn the_checks_catch_what_they_look_for() {
    // A cycle, a rule-to-rule import, and values and pipeline importing upwards, in a made-up
    // graph.
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    let mut add = |a: &str, b: &str| {
        edges
            .entry(a.to_string())
            .or_default()
            .insert(b.to_string());
        edges.entry(b.to_string()).or_default();
    };
    add("engine", "pipeline::xml");
    add("pipeline::xml", "engine");
    add("pipeline::xml_decl", "rules::input::xml_declaration");
    add("pipeline::split", "exec");
    add("rules::loc::loc_invalid", "rules::loc::loc_length");
    add("values::uri", "diagnostic");
    add("rules::loc::loc_length", "rules::loc");
    // A helper module beside the rules may serve them, but never import a rule itself.
    add("rules::loc::loc_length", "rules::loc::walk");
    add("rules::loc::walk", "rules::loc::loc_fragment");
    let threading = [
        (
            "exec",
            "use std::thread;\nlet (tx, rx) = std::sync::mpsc::channel();",
        ),
        ("engine", "std::thread::scope(|s| s.spawn(f));"),
        ("bin::cli", "use std::sync::{Condvar, Mutex};"),
        ("pipeline::split", "rayon::scope(|s| {});"),
        ("pipeline::input", "let q = crossbeam::channel::bounded(1);"),
        (
            "site_set",
            "fn spawn_thread() {} my_thread::x(); Mutex::new(0);",
        ),
    ]
    .into_iter()
    .map(|(m, code)| (m.to_string(), threading_in(code)))
    .filter(|(_, words)| !words.is_empty())
    .collect();
    let g = Graph {
        edges,
        mod_rs: ["rules::loc".to_string(), "rules::loc::walk".to_string()]
            .into_iter()
            .collect(),
        rule_files: [
            "rules::loc::loc_fragment".to_string(),
            "rules::loc::loc_invalid".to_string(),
            "rules::loc::loc_length".to_string(),
        ]
        .into_iter()
        .collect(),
        lines: BTreeMap::new(),
        threading,
    };
    assert_eq!(
        problems(&g),
        vec![
            "import cycle: engine ↔ pipeline::xml".to_string(),
            "pipeline imports a layer above it: pipeline::xml → engine".to_string(),
            "pipeline imports a layer above it: pipeline::xml_decl → rules::input::xml_declaration"
                .to_string(),
            "rule file imports a rule file: rules::loc::loc_invalid → rules::loc::loc_length"
                .to_string(),
            "rules helper imports a rule file: rules::loc::walk → rules::loc::loc_fragment"
                .to_string(),
            "threads outside exec: bin::cli uses Condvar".to_string(),
            "threads outside exec: engine uses thread::".to_string(),
            "threads outside exec: pipeline::input uses crossbeam".to_string(),
            "threads outside exec: pipeline::split uses rayon::".to_string(),
            "values imports from the rest of the crate: values::uri → diagnostic".to_string(),
        ]
    );
    // Paths are read from groups and nested groups.
    let paths = paths_in("use crate::{a::{b, c::d}, e};\nlet x = super::f::g(1);");
    let shown: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        shown,
        ["crate::a::b", "crate::a::c::d", "crate::e", "super::f::g"]
    );
    assert!(declares_rule("declare_rule! {\n") && !declares_rule("pub fn walk() {}"));
    assert_eq!(
        code_lines("// c\n\nfn a() {}\n#[cfg(test)]\nmod tests {\nfn b() {}\n}\n"),
        1
    );
}
