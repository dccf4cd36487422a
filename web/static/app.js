// The page: input (paste, drop, open, `#gz=` links), the check in a Web Worker, and the results
// (summary, findings, the document with the findings underlined in place). Nothing is sent
// anywhere: the only requests are for this page's own files.

const RULES_DOC_URL = "https://github.com/sitemap-lint/sitemap-lint/blob/main/docs/rules.md";
// Larger documents are not put into the text box, and the document view shows only the lines
// around findings (the browser would spend seconds laying out millions of lines).
const EDITABLE_MAX = 1 << 20;
const WHOLE_VIEW_MAX = 1 << 20;
const EXCERPT_FINDINGS_MAX = 2000;
const AUTO_CHECK_MAX = 256 << 10;

const $ = (id) => document.getElementById(id);
const source = $("source");
const nameInput = $("name");
const summary = $("summary");
const findingsList = $("findings");
const docView = $("document");
const docNote = $("document-note");
const sourceNote = $("source-note");

// A file opened or dropped, or a shared link, as raw bytes: checked as they are (gzip is
// decompressed by the checker) until the text box is edited.
let loaded = null;
let worker = null;
let nextId = 0;
let pending = new Map();
let autoTimer = 0;

function startWorker() {
  worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (event) => {
    const done = pending.get(event.data.id);
    if (done) {
      pending.delete(event.data.id);
      done(event.data);
    }
  };
  worker.onerror = (event) => {
    for (const done of pending.values()) done({ error: event.message || "the checker failed" });
    pending.clear();
  };
}

function run(message, transfer) {
  if (!worker) startWorker();
  const id = ++nextId;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker.postMessage({ id, ...message }, transfer);
  });
}

function currentName() {
  return nameInput.value.trim() || "sitemap.xml";
}

function currentBytes() {
  if (loaded) return loaded.bytes;
  return new TextEncoder().encode(source.value);
}

function isGzip(bytes) {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

// The name the checker sees: a gzip input keeps (or gets) its `.gz`, as a file on disk would.
function checkedName(bytes) {
  const name = currentName();
  return isGzip(bytes) && !/\.gz$/i.test(name) ? `${name}.gz` : name;
}

let checkSeq = 0;
async function check() {
  const seq = ++checkSeq;
  const bytes = currentBytes();
  const name = checkedName(bytes);
  summary.textContent = "Checking…";
  summary.className = "";
  const copy = bytes.slice().buffer;
  const started = performance.now();
  const answer = await run({ op: "check", name, bytes: copy, now: Date.now() }, [copy]);
  const roundTrip = performance.now() - started;
  if (seq !== checkSeq) return; // a newer check was started meanwhile
  if (answer.error) {
    // A trap leaves the module unusable: the next check starts a fresh worker.
    worker.terminate();
    worker = null;
    summary.textContent = `The checker failed: ${answer.error}`;
    summary.className = "has-error";
    return;
  }
  const report = JSON.parse(answer.json);
  show(report, answer.text, name, { checkMs: answer.ms, roundTripMs: roundTrip });
  if (loaded && loaded.fillText) {
    loaded.fillText = false;
    if (answer.text.length <= EDITABLE_MAX) {
      source.value = answer.text;
    }
  }
}

// Byte offsets (UTF-8) into the text → indices into the JavaScript string (UTF-16).
function utf16Offsets(text, byteOffsets) {
  const wanted = [...new Set(byteOffsets)].sort((a, b) => a - b);
  const map = new Map();
  let byte = 0;
  let i = 0;
  for (const target of wanted) {
    while (byte < target && i < text.length) {
      const c = text.charCodeAt(i);
      if (c < 0x80) { byte += 1; i += 1; }
      else if (c < 0x800) { byte += 2; i += 1; }
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) { byte += 4; i += 2; }
      else { byte += 3; i += 1; }
    }
    map.set(target, i);
  }
  return map;
}

const SYMBOL = { error: "✖", warning: "▲", info: "ℹ" };
const RANK = { error: 3, warning: 2, info: 1 };

function plural(n, word) {
  return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
}

function show(report, text, name, timing) {
  const file = report.files[0] || { diagnostics: [] };
  const diags = file.diagnostics;
  const s = report.summary;
  const parts = [];
  if (s.errors) parts.push(plural(s.errors, "error"));
  if (s.warnings) parts.push(plural(s.warnings, "warning"));
  if (s.infos) parts.push(plural(s.infos, "info"));
  const what = parts.length ? parts.join(", ") : "No problems";
  const urls = s.urls ? `, ${plural(s.urls, "URL")}` : "";
  const secs = (timing.roundTripMs / 1000).toFixed(timing.roundTripMs < 1000 ? 3 : 2);
  summary.textContent = `${what} in ${name}${urls} (checked in ${secs} s)`;
  summary.className = s.errors ? "has-error" : s.warnings ? "has-warning" : parts.length ? "" : "clean";
  summary.dataset.checkMs = String(timing.checkMs);
  summary.dataset.roundTripMs = String(timing.roundTripMs);

  const offsets = [];
  for (const d of diags) offsets.push(d.span.start.offset, d.span.end.offset);
  const at = utf16Offsets(text, offsets);
  const spans = diags.map((d, k) => ({
    k,
    severity: d.severity,
    start: at.get(d.span.start.offset),
    end: at.get(d.span.end.offset),
  }));

  renderFindings(diags);
  renderDocument(text, spans);
}

function renderFindings(diags) {
  const items = diags.map((d, k) => {
    const li = document.createElement("li");
    li.id = `f-${k}`;
    const go = document.createElement("button");
    go.type = "button";
    go.className = "go";
    go.dataset.k = String(k);
    const sev = document.createElement("span");
    sev.className = `sev ${d.severity}`;
    sev.textContent = `${SYMBOL[d.severity] || ""} ${d.severity}`;
    const code = document.createElement("span");
    code.className = "code";
    code.textContent = `[${d.code}]`;
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = `line ${d.span.start.line}, column ${d.span.start.column}`;
    const message = document.createElement("span");
    message.className = "message";
    message.textContent = d.message;
    go.append(sev, " ", code, " ", where, ": ", message);
    li.append(go);
    if (d.label) {
      const label = document.createElement("p");
      label.className = "help";
      label.textContent = `Underlined: ${d.label}`;
      li.append(label);
    }
    if (d.help) {
      const help = document.createElement("p");
      help.className = "help";
      help.textContent = `Help: ${d.help}`;
      li.append(help);
    }
    if (d.notes.length || d.labels.length) {
      const notes = document.createElement("ul");
      notes.className = "notes";
      for (const n of d.notes) {
        const item = document.createElement("li");
        item.textContent = `Note: ${n}`;
        notes.append(item);
      }
      for (const l of d.labels) {
        const item = document.createElement("li");
        item.textContent = `Line ${l.span.start.line}, column ${l.span.start.column}: ${l.message}`;
        notes.append(item);
      }
      li.append(notes);
    }
    const doc = document.createElement("a");
    doc.className = "doc";
    doc.href = `${RULES_DOC_URL}#${d.code}`;
    doc.target = "_blank";
    doc.rel = "noopener noreferrer";
    doc.textContent = `Documentation of ${d.code}`;
    li.append(doc);
    return li;
  });
  findingsList.replaceChildren(...items);
}

// Lines of `text` around `[start, end)`: from the start of the line before to the end of the
// line after.
function around(text, start, end) {
  let from = text.lastIndexOf("\n", Math.max(0, start - 1));
  from = from <= 0 ? 0 : text.lastIndexOf("\n", from - 1) + 1;
  let to = text.indexOf("\n", end);
  if (to !== -1) to = text.indexOf("\n", to + 1);
  return [from, to === -1 ? text.length : to + 1];
}

function countLines(text, from, to) {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function renderDocument(text, spans) {
  const fragment = document.createDocumentFragment();
  const named = new Set();
  if (text.length <= WHOLE_VIEW_MAX) {
    docNote.textContent = "";
    appendMarked(fragment, text, 0, text.length, spans, named);
  } else {
    const shown = spans.slice(0, EXCERPT_FINDINGS_MAX);
    const ranges = [];
    for (const sp of shown) {
      const [from, to] = around(text, sp.start, sp.end);
      const last = ranges[ranges.length - 1];
      if (last && from <= last[1]) last[1] = Math.max(last[1], to);
      else ranges.push([from, to]);
    }
    if (!ranges.length) ranges.push([0, around(text, 0, 0)[1]]);
    docNote.textContent = `The document has ${plural(text.length, "character")}: only the lines around ` +
      `${shown.length < spans.length ? `the first ${shown.length} findings` : "the findings"} are shown.`;
    let at = 0;
    let line = 1;
    for (const [from, to] of ranges) {
      if (from > at) {
        const skipped = countLines(text, at, from);
        line += skipped;
        const gap = document.createElement("span");
        gap.className = "gap";
        gap.textContent = `⋮ ${plural(skipped, "line")} not shown; line ${line.toLocaleString("en-US")} follows`;
        fragment.append(gap);
      }
      appendMarked(fragment, text, from, to, spans, named);
      line += countLines(text, from, to);
      at = to;
    }
    if (at < text.length) {
      const gap = document.createElement("span");
      gap.className = "gap";
      gap.textContent = "⋮ the rest is not shown";
      fragment.append(gap);
    }
  }
  docView.replaceChildren(fragment);
}

// Appends text[from, to) with the findings' spans as <mark>s: where spans overlap, the text is
// cut at every span boundary and each piece names all its findings (`data-f`) and takes the most
// severe one's class. The first piece of finding k has the id `u-k`; an empty span is a caret.
function appendMarked(parent, text, from, to, spans, named) {
  const events = [];
  for (const sp of spans) {
    if (sp.end < from || sp.start > to) continue;
    if (sp.start === sp.end) {
      events.push({ at: sp.start, kind: 0, sp });
    } else {
      events.push({ at: Math.max(sp.start, from), kind: 1, sp });
      events.push({ at: Math.min(sp.end, to), kind: -1, sp });
    }
  }
  events.sort((a, b) => a.at - b.at || a.kind - b.kind);
  const active = new Set();
  let pos = from;
  const flush = (upTo) => {
    if (upTo <= pos) return;
    const piece = text.slice(pos, upTo);
    if (active.size) {
      const mark = document.createElement("mark");
      let worst = null;
      const ks = [];
      for (const sp of active) {
        ks.push(sp.k);
        if (!worst || RANK[sp.severity] > RANK[worst.severity]) worst = sp;
        if (!mark.id && !named.has(sp.k)) {
          named.add(sp.k);
          mark.id = `u-${sp.k}`;
        }
      }
      mark.className = worst.severity;
      mark.dataset.f = ks.sort((a, b) => a - b).join(" ");
      mark.tabIndex = -1;
      mark.textContent = piece;
      parent.append(mark);
    } else {
      parent.append(piece);
    }
    pos = upTo;
  };
  for (const ev of events) {
    flush(ev.at);
    if (ev.kind === 1) active.add(ev.sp);
    else if (ev.kind === -1) active.delete(ev.sp);
    else {
      const caret = document.createElement("mark");
      caret.className = `point ${ev.sp.severity}`;
      caret.dataset.f = String(ev.sp.k);
      if (!named.has(ev.sp.k)) {
        named.add(ev.sp.k);
        caret.id = `u-${ev.sp.k}`;
      }
      caret.tabIndex = -1;
      caret.setAttribute("aria-label", `finding ${ev.sp.k + 1} is here`);
      parent.append(caret);
    }
  }
  flush(to);
}

function markOf(k) {
  return docView.querySelector(`#u-${k}`) || docView.querySelector(`mark[data-f~="${k}"]`);
}

findingsList.addEventListener("click", (event) => {
  const go = event.target.closest("button.go");
  if (!go) return;
  const mark = markOf(go.dataset.k);
  for (const m of docView.querySelectorAll("mark.current")) m.classList.remove("current");
  if (!mark) return;
  const k = go.dataset.k;
  for (const m of docView.querySelectorAll(`mark[data-f~="${k}"]`)) m.classList.add("current");
  mark.scrollIntoView({ block: "center", inline: "nearest" });
  mark.focus({ preventScroll: true });
});

// Clicking underlined text goes to its finding in the list.
docView.addEventListener("click", (event) => {
  const mark = event.target.closest("mark");
  if (!mark) return;
  const item = $(`f-${mark.dataset.f.split(" ")[0]}`);
  if (item) {
    item.scrollIntoView({ block: "nearest" });
    item.querySelector("button").focus({ preventScroll: true });
  }
});

async function load(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  nameInput.value = file.name;
  loaded = { bytes, fillText: true };
  sourceNote.textContent = `${file.name} (${plural(bytes.length, "byte")}) is checked as it is` +
    (bytes.length > EDITABLE_MAX ? "; it is too large to show here for editing." : "; editing the text checks the edited text.");
  source.value = "";
  await check();
}

source.addEventListener("input", () => {
  loaded = null;
  sourceNote.textContent = "";
  clearTimeout(autoTimer);
  if (source.value.length <= AUTO_CHECK_MAX) autoTimer = setTimeout(check, 300);
});
$("check").addEventListener("click", () => check());

// "Apply safe fixes": the same fixes as `sitemap-lint check --fix`; the fixed text replaces the
// document (decompressed when it was gzip) and is checked again.
$("fix").addEventListener("click", async () => {
  const bytes = currentBytes();
  const name = checkedName(bytes);
  const copy = bytes.slice().buffer;
  const answer = await run({ op: "fix", name, bytes: copy, now: Date.now() }, [copy]);
  if (answer.error) {
    worker.terminate();
    worker = null;
    sourceNote.textContent = `The fixes failed: ${answer.error}`;
    return;
  }
  if (answer.unfixable) {
    sourceNote.textContent = `Not fixed: ${answer.unfixable}`;
    return;
  }
  if (answer.applied === 0) {
    sourceNote.textContent = "Nothing to fix safely.";
    return;
  }
  loaded = null;
  nameInput.value = name.replace(/\.gz$/i, "");
  source.value = answer.text;
  sourceNote.textContent = `${answer.applied === 1 ? "1 fix" : `${answer.applied.toLocaleString("en-US")} fixes`} applied; the document below is the fixed one.`;
  await check();
});

// "Download": the document as it stands (the fixed one after "Apply safe fixes").
$("download").addEventListener("click", () => {
  const blob = loaded ? new Blob([loaded.bytes]) : new Blob([source.value], { type: "application/xml" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = currentName();
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
});
$("file").addEventListener("change", (event) => {
  const file = event.target.files[0];
  if (file) load(file);
});
nameInput.addEventListener("change", () => check());

const drop = $("drop");
drop.addEventListener("dragover", (event) => {
  event.preventDefault();
  drop.classList.add("over");
});
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (event) => {
  event.preventDefault();
  drop.classList.remove("over");
  const file = event.dataTransfer.files[0];
  if (file) load(file);
});

// Links: `#gz=` then the base64url (unpadded) of the gzip-compressed document; `&name=` may
// give the file name when it is not sitemap.xml.
function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function gzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

$("share").addEventListener("click", async () => {
  const bytes = currentBytes();
  const compressed = isGzip(bytes) ? bytes : await gzip(bytes);
  const params = new URLSearchParams();
  const name = currentName().replace(/\.gz$/i, "");
  if (name !== "sitemap.xml") params.set("name", name);
  const hash = `#gz=${toBase64Url(compressed)}${params.size ? `&${params}` : ""}`;
  history.replaceState(null, "", hash);
  const link = $("share-link");
  link.value = location.href;
  $("share-out").hidden = false;
  link.focus();
  link.select();
  try {
    await navigator.clipboard.writeText(location.href);
    sourceNote.textContent = "The link is copied to the clipboard.";
  } catch {
    sourceNote.textContent = "Copy the link below.";
  }
});

async function fromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const gz = params.get("gz");
  if (!gz) return false;
  let bytes;
  try {
    bytes = fromBase64Url(gz);
  } catch {
    summary.textContent = "The link's #gz= part is not base64url.";
    summary.className = "has-error";
    return true;
  }
  nameInput.value = params.get("name") || "sitemap.xml";
  loaded = { bytes, fillText: true };
  sourceNote.textContent = "Loaded from the link.";
  await check();
  return true;
}

window.addEventListener("hashchange", fromHash);
fromHash();
