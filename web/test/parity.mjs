// Runs the page's checker (target/web/pkg, the wasm module the page's worker loads) in Node.js on
// files, and prints one `--format json` report per line, in the order given. tests/web.rs compares
// them with `sitemap-lint check --format json` on the same files.
//
//   node web/test/parity.mjs target/web/pkg NOW_MS FILE...
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, nowMs, ...files] = process.argv.slice(2);
const glue = await import(pathToFileURL(resolve(pkg, "sitemap_lint_web.js")).href);
glue.initSync({ module: readFileSync(join(pkg, "sitemap_lint_web_bg.wasm")) });

for (const file of files) {
  const result = glue.check(file, readFileSync(file), Number(nowMs));
  process.stdout.write(result.json().trimEnd() + "\n");
  result.free();
}
