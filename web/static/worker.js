// Runs the checker (sitemap-lint compiled to WebAssembly) off the page's thread, so that the page
// stays responsive while a large sitemap is checked.
//
// Messages in:  {id, op: "check" | "fix", name, bytes: ArrayBuffer, now: ms since the epoch}
// Messages out: check: {id, json, text, ms}; fix: {id, text, applied, unfixable}; or {id, error}
import init, { check, fix } from "./pkg/sitemap_lint_web.js";

const ready = init();

self.onmessage = async (event) => {
  const { id, op, name, bytes, now } = event.data;
  try {
    await ready;
    if (op === "fix") {
      const fixed = fix(name, new Uint8Array(bytes), now);
      const answer = { id, text: fixed.text(), applied: fixed.applied(), unfixable: fixed.unfixable() };
      fixed.free();
      self.postMessage(answer);
      return;
    }
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
