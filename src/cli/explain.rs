//! `sitemap-lint rules` and `sitemap-lint explain RULE` (moved out of `cli/mod.rs` as they were).

use std::io::{self, Write};

use sitemap_lint::{render, rules};

use super::{ConfigFormat, EXIT_OK, EXIT_TROUBLE};

pub fn list_rules(format: ConfigFormat, out: &mut dyn Write) -> io::Result<()> {
    if format == ConfigFormat::Json {
        let rules: Vec<_> = rules::metas()
            .map(|m| {
                serde_json::json!({
                    "name": m.name,
                    "category": m.category.as_str(),
                    "default_severity": m.default_severity.as_str(),
                    "opt_in": m.opt_in,
                    "fix": m.fix.map(|f| f.as_str()),
                    "summary": m.summary,
                    "docs": m.docs(),
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&rules).map_err(io::Error::other)?;
        return writeln!(out, "{text}");
    }
    let width = rules::metas().map(|m| m.name.len()).max().unwrap_or(0);
    for m in rules::metas() {
        writeln!(
            out,
            "{:width$}  {:9}  {:17}  {}",
            m.name,
            m.category.as_str(),
            sitemap_lint::docs::default_label(m),
            m.summary
        )?;
    }
    Ok(())
}

pub fn explain(name: &str, out: &mut dyn Write) -> io::Result<u8> {
    match rules::find(name) {
        Some(m) => {
            writeln!(out, "# {}\n", m.name)?;
            let fix = match m.fix {
                Some(f) => format!(" Fix: {} (`check --fix`).", f.as_str()),
                None => String::new(),
            };
            writeln!(
                out,
                "Category: {}. Default severity: {}.{fix}\n\n{}\n",
                m.category,
                sitemap_lint::docs::default_label(m),
                m.summary
            )?;
            write!(out, "{}", m.docs())?;
            Ok(EXIT_OK)
        }
        None => {
            eprintln!(
                "sitemap-lint: error: unknown rule `{}`",
                render::visible(name)
            );
            for line in explain_suggestions(name) {
                eprintln!("  {}", render::visible(&line));
            }
            eprintln!("  run `sitemap-lint rules` to list them all");
            Ok(EXIT_TROUBLE)
        }
    }
}

/// What `explain NAME` suggests for a name that is no rule: compared without case, a category's
/// rules, and rules whose names contain it, are contained in it or are a few edits away.
fn explain_suggestions(name: &str) -> Vec<String> {
    use sitemap_lint::rule::Category;
    let lower = name.to_lowercase();
    let mut lines = Vec::new();
    if let Some(category) = Category::ALL.into_iter().find(|c| c.as_str() == lower) {
        let members: Vec<&str> = rules::metas()
            .filter(|m| m.category == category)
            .map(|m| m.name)
            .collect();
        lines.push(format!(
            "`{category}` is a category; its rules: {}",
            members.join(", ")
        ));
    }
    let close: Vec<&str> = rules::metas()
        .map(|m| m.name)
        .filter(|n| {
            lower.len() <= 64
                && (n.contains(&lower)
                    || lower.contains(n)
                    || sitemap_lint::values::text::distance(n, &lower) <= 3)
        })
        .collect();
    if lines.is_empty() && !close.is_empty() {
        lines.push(format!("did you mean: {}", close.join(", ")));
    }
    lines
}
