// Drives the built page (target/web) in the distribution's Chromium through playwright-core, from
// tests/web.rs. It serves the page on loopback, pastes a broken sitemap and compares the findings
// and the underlined text with what the command line reported, follows a finding from the
// keyboard, makes and opens a share link and a `#gz=` link, optionally times a large file, saves
// a screenshot, and checks that no request went anywhere but to the page's own files.
//
//   node web/test/browser.mjs CONFIG.json
//
// CONFIG: {web, modules, chromium, screenshot, broken: {text, expected}, link: {text, expected},
//          bench?: path}. `expected` is `sitemap-lint check --format json` of the text.
// Prints one JSON line of facts on success; exits 1 with the reason otherwise.
import { createServer } from "node:http";
import { readFileSync, existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { extname, join, normalize, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const require = createRequire(join(resolve(config.modules), "noop.js"));
const { chromium } = require("playwright-core");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
};
const OWN_FILES = new Set([
  "/index.html",
  "/app.js",
  "/worker.js",
  "/style.css",
  "/pkg/sitemap_lint_web.js",
  "/pkg/sitemap_lint_web_bg.wasm",
]);

const served = [];
const root = resolve(config.web);
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  served.push(path);
  const file = normalize(join(root, path === "/" ? "/index.html" : path));
  if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream" });
  res.end(readFileSync(file));
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const origin = `http://127.0.0.1:${server.address().port}`;

function fail(message) {
  throw new Error(message);
}

const browser = await chromium.launch({
  executablePath: config.chromium,
  // What this closed network needs (see the env notes): no background traffic, no QUIC.
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const facts = {};
const requested = [];
try {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  context.on("request", (r) => requested.push(r.url()));
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });

  // Runs `action`, then waits until a check has finished and its results are shown.
  async function checked(p, action) {
    await p.evaluate(() => {
      const summary = document.getElementById("summary");
      if (summary) delete summary.dataset.roundTripMs;
    });
    await action();
    await p.waitForFunction(() => document.getElementById("summary").dataset.roundTripMs, null, {
      timeout: 120_000,
    });
  }

  // The findings shown, and for each the text under its underline (all pieces marked with it).
  async function shown(p) {
    return p.evaluate(() => {
      const view = document.getElementById("document");
      return [...document.querySelectorAll("#findings > li")].map((li, k) => ({
        severity: li.querySelector(".sev").className.replace("sev ", ""),
        code: li.querySelector(".code").textContent.slice(1, -1),
        message: li.querySelector(".message").textContent,
        help: [...li.querySelectorAll(".help")].map((e) => e.textContent),
        doc: li.querySelector("a.doc").href,
        underlined: [...view.querySelectorAll(`mark[data-f~="${k}"]:not(.point)`)]
          .map((m) => m.textContent)
          .join(""),
        point: !!view.querySelector(`mark.point[data-f="${k}"]`),
      }));
    });
  }

  // Compares what the page shows with the command line's report of the same text.
  function compare(what, text, expected, got) {
    const diags = expected.files[0].diagnostics;
    if (got.length !== diags.length) {
      fail(`${what}: the page shows ${got.length} findings, the CLI ${diags.length}`);
    }
    const bytes = Buffer.from(text, "utf8");
    diags.forEach((d, k) => {
      const g = got[k];
      for (const key of ["severity", "code", "message"]) {
        if (g[key] !== d[key]) fail(`${what}: finding ${k}: ${key} ${JSON.stringify(g[key])} != ${JSON.stringify(d[key])}`);
      }
      if (d.help && !g.help.includes(`Help: ${d.help}`)) fail(`${what}: finding ${k}: help missing`);
      if (!g.doc.endsWith(`/docs/rules.md#${d.code}`)) fail(`${what}: finding ${k}: doc link ${g.doc}`);
      const under = bytes.subarray(d.span.start.offset, d.span.end.offset).toString("utf8");
      if (under === "") {
        if (!g.point) fail(`${what}: finding ${k}: no caret for an empty span`);
      } else if (g.underlined !== under) {
        fail(`${what}: finding ${k} (${d.code}): underlined ${JSON.stringify(g.underlined)}, expected ${JSON.stringify(under)}`);
      }
    });
  }

  await page.goto(`${origin}/index.html`);
  // Paste the broken sitemap: typing checks by itself after a pause.
  await checked(page, () => page.fill("#source", config.broken.text));
  const broken = await shown(page);
  compare("pasted", config.broken.text, config.broken.expected, broken);
  facts.pasted = broken.map((f) => [f.code, f.underlined]);
  facts.summary = await page.textContent("#summary");
  facts.listRole = await page.evaluate(() => document.getElementById("findings").tagName);

  // Keyboard: Tab reaches the first finding, Enter scrolls to its underline and focuses it.
  await page.focus("#findings > li:first-child button.go");
  await page.keyboard.press("Enter");
  facts.focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
  if (facts.focused !== "u-0") fail(`Enter on the first finding focused ${facts.focused}`);

  await page.screenshot({ path: config.screenshot, fullPage: true });

  // Share: the link holds the document; opening it in a new page shows the same findings.
  // The link is written once the document is compressed (CompressionStream, asynchronous).
  await page.click("#share");
  await page.waitForFunction(() => document.getElementById("share-link").value !== "");
  const link = await page.inputValue("#share-link");
  if (!link.startsWith(`${origin}/index.html#gz=`)) fail(`share link ${link}`);
  const again = await context.newPage();
  await checked(again, () => again.goto(link));
  compare("shared link", config.broken.text, config.broken.expected, await shown(again));
  facts.shareLinkLength = link.length;

  // "Apply safe fixes": the document becomes what `check --fix -` writes, and is checked again.
  await checked(page, () => page.click("#fix"));
  const fixedText = await page.inputValue("#source");
  if (fixedText !== config.broken.fixed) {
    fail(`fixed document differs from the CLI's:\n${fixedText}\n--- CLI\n${config.broken.fixed}`);
  }
  facts.fixed = await page.textContent("#source-note");

  // A `#gz=` link made elsewhere (base64url, unpadded, of the gzip-compressed document).
  const hash = gzipSync(Buffer.from(config.link.text, "utf8")).toString("base64url");
  if (hash.includes("=")) fail("base64url must be unpadded");
  const linked = await context.newPage();
  await checked(linked, () => linked.goto(`${origin}/index.html#gz=${hash}`));
  const fromLink = await shown(linked);
  compare("#gz= link", config.link.text, config.link.expected, fromLink);
  facts.link = fromLink.map((f) => [f.code, f.underlined]);
  facts.linkText = await linked.inputValue("#source");
  if (facts.linkText !== config.link.text) fail("the #gz= link's document is not shown in the text box");

  if (config.bench) {
    const bench = await context.newPage();
    await bench.goto(`${origin}/index.html`);
    await checked(bench, () => bench.setInputFiles("#file", config.bench));
    facts.bench = await bench.evaluate(() => ({
      roundTripMs: Number(document.getElementById("summary").dataset.roundTripMs),
      checkMs: Number(document.getElementById("summary").dataset.checkMs),
      summary: document.getElementById("summary").textContent,
    }));
  }

  if (problems.length) fail(problems.join("\n"));
} finally {
  await browser.close();
  server.close();
}

// Nothing but the page's own files, from its own origin.
for (const url of requested) {
  const u = new URL(url);
  if (u.protocol === "data:") continue;
  if (u.origin !== origin || !OWN_FILES.has(u.pathname)) fail(`unexpected request: ${url}`);
}
for (const path of served) {
  if (!OWN_FILES.has(path)) fail(`unexpected request to the server: ${path}`);
}
facts.requests = [...new Set(requested.map((u) => new URL(u).pathname))].sort();
console.log(JSON.stringify(facts));
