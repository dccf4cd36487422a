//! Fuzzes suppression comments: the input becomes the body of a `<!-- sitemap-lint: … -->`
//! comment placed where the selector says (before the root, before an entry, inside an entry,
//! twice), in a small sitemap with findings to suppress; then the check and a renderer. A panic,
//! an `internal-error`, a broken span or a raw control character in text output is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sitemap_lint::Settings;
use sitemap_lint_fuzz::check_and_render;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let Ok(body) = std::str::from_utf8(body) else {
        return;
    };
    let comment = format!("<!-- sitemap-lint: {body} -->");
    let none = String::new();
    let at = |slot: u8| {
        if (selector >> 4) & 3 == slot || selector & 0x40 != 0 {
            &comment
        } else {
            &none
        }
    };
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{}<url><loc>https://www.example.com/a b</loc>{}<changefreq>sometimes</changefreq><priority>2</priority></url>\n<url><loc>https://www.example.com/a b</loc></url>{}\n</urlset>\n",
        at(0),
        at(1),
        at(2),
        at(3)
    );
    // Bit 0 stays 0: the name is `.xml` (the text is not gzip).
    check_and_render(
        "sitemap.xml",
        xml.as_bytes(),
        &Settings::default(),
        selector & 0x0e,
    );
});
