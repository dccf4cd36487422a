//! Fuzzes the entry point the property tests use (`tests/properties.rs`): `check_reader` on any
//! bytes, plain or gzip, then a renderer; the invariants are in `src/lib.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sitemap_lint::Settings;
use sitemap_lint_fuzz::{check_and_render, name_for};

fuzz_target!(|data: &[u8]| {
    // The first byte picks the file name (the `.gz` name check) and the output format.
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    check_and_render(name_for(selector), bytes, &Settings::default(), selector);
});
