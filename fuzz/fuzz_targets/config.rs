//! Fuzzes the configuration file: `config::parse` on any text, then `config::resolve`, then a
//! check with the resolved settings (so `sitemap-url`, `max-url-length`, `preset` and `[rules]`
//! values reach the rules), then a renderer. The input is the configuration, a NUL byte, and
//! the sitemap (a default one when there is no NUL). A panic anywhere, an `internal-error`, or an
//! error message with a raw control character is a crash.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use sitemap_lint::config;
use sitemap_lint::Settings;
use sitemap_lint_fuzz::{assert_plain_text, check_and_render, name_for};

const SITEMAP: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n<url><loc>https://www.example.com/a/</loc><lastmod>2024-01-01</lastmod><changefreq>daily</changefreq><priority>0.5</priority>\n<xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"https://www.example.com/a/\"/></url>\n<url><loc>https://\u{4f8b}\u{3048}.jp/b</loc></url>\n</urlset>\n";

fuzz_target!(|data: &[u8]| {
    let Some((&selector, data)) = data.split_first() else {
        return;
    };
    let (config_bytes, sitemap) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, SITEMAP.as_bytes()),
    };
    let Ok(text) = std::str::from_utf8(config_bytes) else {
        return;
    };
    // A bare file name: a relative `site-root` resolves against the current folder.
    let config = match config::parse(Path::new("sitemap-lint.toml"), text) {
        Ok(c) => c,
        Err(e) => {
            assert_plain_text(&e.to_string().replace("\n  help: ", " "));
            return;
        }
    };
    let mut base = Settings::default();
    base.now = 1_700_000_000;
    let resolved = config::resolve(&base, Some(&config), &[]);
    let mut settings = resolved.settings;
    // Never walk the fuzzing machine's folders.
    settings.site_root = None;
    check_and_render(name_for(selector), sitemap, &settings, selector);
});
