#!/usr/bin/env bash
# Builds the web page into target/web/: index.html, its script and style, the worker, and the
# checker compiled to WebAssembly with its wasm-bindgen glue (target/web/pkg/).
#
#   bash web/build.sh
#
# Installs what it needs when missing: the wasm32-unknown-unknown target of the toolchain
# (rustup) and the wasm-bindgen CLI of exactly the version web/Cargo.lock pins (cargo install).
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' web/Cargo.lock)
if [ -z "$version" ]; then
    echo "web/build.sh: no wasm-bindgen in web/Cargo.lock" >&2
    exit 1
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
    cargo install wasm-bindgen-cli --version "$version" --locked
fi

cargo build --release --locked --target wasm32-unknown-unknown \
    --manifest-path web/Cargo.toml --target-dir target/web-build

out=target/web
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out/pkg" \
    target/web-build/wasm32-unknown-unknown/release/sitemap_lint_web.wasm
cp web/static/index.html web/static/app.js web/static/worker.js web/static/style.css "$out/"

wasm="$out/pkg/sitemap_lint_web_bg.wasm"
echo "web/build.sh: $out/ built; the wasm is $(wc -c < "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzip-compressed"
