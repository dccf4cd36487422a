// Runs the checker (sitemap-lint compiled to WebAssembly) off the page's thread, so that the page
// stays responsive while a large sitemap is checked.
//
// Messages in:  {id, op: "check", name, bytes: ArrayBuffer, now: ms since the epoch}
// Messages out: {id, json, text, ms} or {id, error}
// A new operation (the fixes of issue 19, say) is a new `op` here and an export of web/src/lib.rs.
import init, { check } from "./pkg/sitemap_lint_web.js";

const ready = init();

self.onmessage = async (event) => {
  const { id, op, name, bytes, now } = event.data;
  try {
    await ready;
    if (op !== "check") {
      throw new Error(`unknown operation ${op}`);
    }
    const started = performance.now();
    const result = check(name, new Uint8Array(bytes), now);
    const json = result.json();
    const text = result.text();
    result.free();
    self.postMessage({ id, json, text, ms: performance.now() - started });
  } catch (err) {
    self.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
};
