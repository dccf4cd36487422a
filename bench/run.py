#!/usr/bin/env python3
"""The sitemap-lint benchmark (issue #7): one command, deterministic inputs, paired runs.

    python3 bench/run.py            # full run: about a minute on 2 cores, plus the release build
    python3 bench/run.py --quick    # smoke test: small inputs, one run each (seconds)
    python3 bench/run.py --runs 9 --only max-52mb,urls-50k
    python3 bench/run.py --baseline OLD/sitemap-lint   # also times an older binary, alternately
    python3 bench/run.py --only max-52mb,findings-52mb --no-build --lint OLD/sitemap-lint   # another binary

What it does, in order:
1. builds the release binary and the two example binaries (`cargo build --release`);
2. generates the inputs into target/bench/ (target/bench/quick/ with --quick), deterministically
   (no randomness, gzip with mtime 0), unless a stamp shows they are already there: nothing large
   is committed;
3. writes target/bench/wrapper.xsd, a schema with no target namespace that imports the official
   sitemaps.org schema and Google's extension schemas from ../shared/corpus/xsd (by absolute
   path), for the files that use extensions;
4. runs, for each input, `sitemap-lint check`, `xmllint --noout --stream --schema` and the
   roxmltree floor (examples/roxmltree_floor.rs: read, gunzip, UTF-8 check, bare parse)
   alternately, N times each (the order rotates every round; the inputs take their rounds in
   turn, so every input is timed throughout the run, not in a window of its own), reads the input files right
   before each run (so that every tool is timed on input in the page cache), and measures every
   process with wait4(2): wall time and user+system CPU time, then runs it again under GNU time
   for its peak RSS (so that the wrapper's own start-up is not timed);
   The `fix-*` rows (issue 19) time `check --fix` against `check` of the same file: max-52mb
   with nothing to fix, findings-52mb (findings on every entry, none with a fix), and fix-10k (the same size, 10,000 raw `&`), whose every run fixes a
   fresh copy made untimed before it;
5. prints a Markdown table of medians with the ratios to xmllint and to the floor, and PASS/FAIL
   for each target of the issue.

With `--baseline PATH`, every `sitemap-lint check` row gets a twin run with the binary at PATH (an
older build: `git worktree add ../old BASE && cargo build --release` there, into another target
directory), in the same rotation as the other tools, so the old and the new binary are timed
alternately on the same input in the same minutes; a last table gives new ÷ old for each row
(issue 17: every ratio within 5 %).

Every command must succeed: sitemap-lint must find nothing in the generated files (they are
valid sitemaps), xmllint must say they validate. A failure is printed and marks the row.

The machine is usually shared (other builds, other benchmarks): compare the ratios measured in one
run, not absolute times across runs, and look at the CPU column when wall times look noisy.

Only the Python 3 standard library is used. Linux only (wait4, ru_maxrss in KiB).
"""

import argparse
import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.path.join(ROOT, "target")
RELEASE = os.path.join(TARGET, "release")
LINT = os.path.join(RELEASE, "sitemap-lint")
FLOOR = os.path.join(RELEASE, "examples", "roxmltree_floor")
UNCAPPED = os.path.join(RELEASE, "examples", "check_uncapped")
SERVE = os.path.join(RELEASE, "examples", "serve_dir")

# Bump when the generated content changes, so cached inputs are regenerated.
GENERATOR_VERSION = "3"

PROTOCOL_MAX = 52_428_800
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"
XHTML_NS = "http://www.w3.org/1999/xhtml"

# Targets from the issue (ratios measured in the same run).
MAX_VS_XMLLINT = 0.40
MAX_VS_FLOOR = 1.35
MAX_RSS_PER_BYTE = 4.5
MAX_SMALL_VS_XMLLINT = 0.35
MAX_SCALING = 1.25  # time and RSS per input byte on the 1,000,000-URL file vs the 50,000-URL file
MAX_LIVE_VS_DISK = 1.5  # issue 20: an index of 1,000 children served from loopback vs the same files on disk
MAX_LIVE_RSS_VS_FILE = 2.0  # issue 20: its peak RSS vs checking the largest of its files alone
MAX_ONE_JOB_VS_FLOOR = 1.5  # --jobs 1 on the 50 MiB file (issue 17)
MAX_VS_BASELINE = 1.05  # new ÷ old binary, each row (issue 17)
MAX_FIX_CLEAN = 1.1  # `check --fix` with nothing to fix vs `check`, on max-52mb
MAX_FINDINGS_VS_CLEAN = 1.15  # findings-52mb against max-52mb (issue 23)
MAX_FIX_10K = 2.0  # `check --fix` applying 10,000 fixes vs `check` of the same file
FIXES = 10_000

LANGS = ("en", "de", "fr", "es")
WORDS = (
    "garden", "kitchen", "outdoor", "lighting", "storage", "travel", "office", "classic",
    "compact", "premium", "wooden", "steel", "organic", "vintage", "modern", "foldable",
)


# --- inputs -------------------------------------------------------------------------------------


def lastmod(i):
    """A valid W3C datetime in the past, varying with i."""
    day = i % 28 + 1
    month = i // 28 % 12 + 1
    year = 2023 + i // 336 % 2
    return f"{year}-{month:02}-{day:02}T{i % 24:02}:{i * 7 % 60:02}:{i * 13 % 60:02}+00:00"


def slug(i):
    return f"{WORDS[i % 16]}-{WORDS[i // 16 % 16]}-{i}"


def plain_urlset(n, start=0):
    """A sitemap of n URLs with loc, lastmod, changefreq and priority (about 220 bytes each)."""
    freqs = ("daily", "weekly", "monthly", "yearly")
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        f'<urlset xmlns="{SITEMAP_NS}">\n',
    ]
    for i in range(start, start + n):
        parts.append(
            "  <url>\n"
            f"    <loc>https://www.example.com/category-{i % 97}/products/{slug(i)}.html?ref=sitemap</loc>\n"
            f"    <lastmod>{lastmod(i)}</lastmod>\n"
            f"    <changefreq>{freqs[i % 4]}</changefreq>\n"
            f"    <priority>0.{i % 9 + 1}</priority>\n"
            "  </url>\n"
        )
    parts.append("</urlset>\n")
    return "".join(parts).encode()


EXTENSION_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    f'<urlset xmlns="{SITEMAP_NS}"\n'
    f'        xmlns:image="{IMAGE_NS}"\n'
    f'        xmlns:xhtml="{XHTML_NS}">\n'
)


def page(group, lang):
    """The URL of the page of `group` in `lang` (the generated files with extensions)."""
    return f"https://www.example.com/{lang}/collections/{WORDS[group % 16]}/{slug(group)}/"


def extension_urlset(n, size):
    """A sitemap of n URLs with hreflang alternates (reciprocal groups of four languages plus
    x-default) and two images each, padded with whitespace to exactly `size` bytes."""
    parts = [EXTENSION_HEAD]

    for i in range(n):
        group, lang = divmod(i, len(LANGS))
        members = [l for k, l in enumerate(LANGS) if group * len(LANGS) + k < n]
        links = "".join(
            f'    <xhtml:link rel="alternate" hreflang="{l}" href="{page(group, l)}"/>\n'
            for l in members
        )
        links += f'    <xhtml:link rel="alternate" hreflang="x-default" href="{page(group, "en")}"/>\n'
        images = "".join(
            "    <image:image>\n"
            f"      <image:loc>https://cdn.example.com/images/{group % 1000:03}/{slug(group)}-{LANGS[lang]}-{k}-1600w.jpg</image:loc>\n"
            "    </image:image>\n"
            for k in range(2)
        )
        parts.append(
            "  <url>\n"
            f"    <loc>{page(group, LANGS[lang])}</loc>\n"
            f"    <lastmod>{lastmod(i)}</lastmod>\n"
            f"{links}{images}"
            "  </url>\n"
        )
    return pad_to("".join(parts), "</urlset>\n", size)


FINDINGS_NOW = "2025-01-01"


def findings_urlset(n, size):
    """The max-size file of a generator gone wrong, where every entry has the same mistakes
    (issue 23): n URLs whose hreflang alternates leave out the page itself
    (`hreflang-self-missing`; x-default points at the home page), whose two images carry the
    deprecated `<image:caption>` (`extension-deprecated`), and whose lastmod lies after
    FINDINGS_NOW, passed as `--now` (`lastmod-future`). Valid against the schemas; padded with
    whitespace to exactly `size` bytes."""
    parts = [EXTENSION_HEAD]

    for i in range(n):
        group, lang = divmod(i, len(LANGS))
        members = [l for k, l in enumerate(LANGS) if group * len(LANGS) + k < n and k != lang]
        links = "".join(
            f'    <xhtml:link rel="alternate" hreflang="{l}" href="{page(group, l)}"/>\n'
            for l in members
        )
        links += '    <xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.com/"/>\n'
        images = "".join(
            "    <image:image>\n"
            f"      <image:loc>https://cdn.example.com/images/{group % 1000:03}/{slug(group)}-{LANGS[lang]}-{k}-1600w.jpg</image:loc>\n"
            f"      <image:caption>{WORDS[(group + k) % 16]} {WORDS[group // 16 % 16]}</image:caption>\n"
            "    </image:image>\n"
            for k in range(2)
        )
        future = "2030" + lastmod(i)[4:]
        parts.append(
            "  <url>\n"
            f"    <loc>{page(group, LANGS[lang])}</loc>\n"
            f"    <lastmod>{future}</lastmod>\n"
            f"{links}{images}"
            "  </url>\n"
        )
    return pad_to("".join(parts), "</urlset>\n", size)


def pad_to(body, tail, size):
    """`body` and `tail` with whitespace between, exactly `size` bytes: lines of at most 80
    spaces (whitespace between the root's children is insignificant)."""
    gap = size - len(body.encode()) - len(tail)
    if gap < 0:
        raise SystemExit(f"generator: the entries do not fit in {size} bytes ({-gap} over)")
    pad = []
    while gap > 0:
        line = min(gap, 81)
        pad.append(" " * (line - 1) + "\n" if line > 1 else "\n")
        gap -= line
    data = (body + "".join(pad) + tail).encode()
    assert len(data) == size, (len(data), size)
    return data


def index(n):
    """A sitemap index of n child sitemaps (about 150 bytes each)."""
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        f'<sitemapindex xmlns="{SITEMAP_NS}">\n',
    ]
    for i in range(n):
        parts.append(
            "  <sitemap>\n"
            f"    <loc>https://www.example.com/sitemaps/products-{i:05}.xml.gz</loc>\n"
            f"    <lastmod>{lastmod(i)}</lastmod>\n"
            "  </sitemap>\n"
        )
    parts.append("</sitemapindex>\n")
    return "".join(parts).encode()


def adversarial(size):
    """The worst complexity attack found for issue #22, at `size` bytes: `<url>` entries with 256
    attributes each, the most src/xml_limits.rs lets through (roxmltree compares each attribute of
    an element with every earlier one). Measured on 2 loaded cores: 21.6 s, against 18.7 s for 64
    namespaces in scope on 100,000 elements and 13.8 s for one page listing another 400,000 times
    in hreflang links (6.7 s for a plain 50 MB sitemap in the same minutes)."""
    attributes = "".join(f' a{i}=""' for i in range(256))
    unit = f"<url{attributes}><loc>https://www.example.com/</loc></url>\n".encode()
    head, tail = f'<urlset xmlns="{SITEMAP_NS}">\n'.encode(), b"</urlset>\n"
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


def with_raw_ampersands(n, size, count):
    """The max-size sitemap (n URLs, `size` bytes) with `count` of its `<loc>` ending in a query
    with a raw `&` (`/?a&b</loc>`): `count` fixes for `check --fix`, at the same size."""
    grow = len(b"?a&b")
    data = extension_urlset(n, size - grow * count)
    data = data.replace(b"/</loc>", b"/?a&b</loc>", count)
    assert len(data) == size and data.count(b"?a&b") == count
    return data


def write(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def generate(out, quick):
    """Writes the inputs into `out` (skipped when the stamp says they are current)."""
    scale = {
        # name: full size, quick size
        "urls": (50_000, 2_000),
        "max_urls": (50_000, 2_000),
        "max_size": (PROTOCOL_MAX, 2_097_152),
        "index": (50_000, 2_000),
        "big": (1_000_000, 40_000),
        "files": (1_000, 50),
        "fixes": (FIXES, 200),
    }
    s = {k: v[1] if quick else v[0] for k, v in scale.items()}
    stamp = os.path.join(out, "STAMP")
    want = f"generator {GENERATOR_VERSION} {sorted(s.items())}\n"
    # Written on its own (added after the stamp's version 3): `--only adversarial` needs no
    # regeneration of the rest.
    hostile = os.path.join(out, "adversarial.xml")
    if not os.path.exists(hostile):
        os.makedirs(out, exist_ok=True)
        write(hostile, adversarial(s["max_size"]))
    # fix-10k (issue 19), written on its own for the same reason.
    fix10k = os.path.join(out, "fix-10k.xml")
    if not os.path.exists(fix10k):
        os.makedirs(out, exist_ok=True)
        write(fix10k, with_raw_ampersands(s["max_urls"], s["max_size"], s["fixes"]))
    # Written on its own too (added after version 3), with a stamp of its own.
    findings = os.path.join(out, "findings-52mb.xml")
    findings_stamp = os.path.join(out, "findings-52mb.stamp")
    findings_want = f"findings 1 {s['max_urls']} {s['max_size']}\n"
    if not (os.path.exists(findings) and os.path.exists(findings_stamp)
            and open(findings_stamp).read() == findings_want):
        os.makedirs(out, exist_ok=True)
        write(findings, findings_urlset(s["max_urls"], s["max_size"]))
        write(findings_stamp, findings_want.encode())
    # The children of live-1000 (issue 20), written on their own with their own stamp, so that
    # `--only live-1000` regenerates nothing else: 1,000 sitemaps of 1,000 URLs (20 of 100 with
    # --quick). Their index is written when the server runs (its URL has the port).
    children, urls = (20, 100) if quick else (1_000, 1_000)
    live = os.path.join(out, "live-1000")
    live_stamp = os.path.join(live, "STAMP")
    live_want = f"generator {GENERATOR_VERSION} {children} × {urls}\n"
    if not (os.path.exists(live_stamp) and open(live_stamp).read() == live_want):
        if os.path.isdir(live):
            shutil.rmtree(live)
        os.makedirs(live)
        for k in range(children):
            write(os.path.join(live, f"s-{k:04}.xml"), plain_urlset(urls, k * urls))
        with open(live_stamp, "w") as f:
            f.write(live_want)
    if os.path.exists(stamp) and open(stamp).read() == want:
        return
    print(f"generating inputs into {os.path.relpath(out, ROOT)} …", file=sys.stderr)
    os.makedirs(out, exist_ok=True)
    if os.path.exists(stamp):
        os.remove(stamp)
    t = time.perf_counter()
    write(os.path.join(out, "urls-50k.xml"), plain_urlset(s["urls"]))
    data = extension_urlset(s["max_urls"], s["max_size"])
    write(os.path.join(out, "max-52mb.xml"), data)
    write(os.path.join(out, "max-52mb.xml.gz"), gzip.compress(data, compresslevel=6, mtime=0))
    del data
    write(os.path.join(out, "index-50k.xml"), index(s["index"]))
    # The big file is written in pieces so the generator stays small in memory.
    big = os.path.join(out, "urls-1m.xml")
    with open(big + ".tmp", "wb") as f:
        chunk = 50_000
        whole = plain_urlset(0)
        head, tail = whole[: whole.index(b"</urlset>")], b"</urlset>\n"
        f.write(head)
        for start in range(0, s["big"], chunk):
            piece = plain_urlset(min(chunk, s["big"] - start), start)
            f.write(piece[len(head) : -len(tail)])
        f.write(tail)
    os.replace(big + ".tmp", big)
    small = os.path.join(out, "small-1000")
    if os.path.isdir(small):
        shutil.rmtree(small)
    os.makedirs(small)
    for k in range(s["files"]):
        write(os.path.join(small, f"sitemap-{k:04}.xml"), plain_urlset(200, k * 200))
    with open(stamp, "w") as f:
        f.write(want)
    print(f"generated in {time.perf_counter() - t:.1f} s", file=sys.stderr)


def wrapper_xsd(xsd_dir, out):
    """A schema with no target namespace importing the official sitemap schema and Google's
    extension schemas (xml.xsd first, so xhtml1-strict.xsd does not fetch it from the network)."""
    imports = [
        ("http://www.w3.org/XML/1998/namespace", "xml.xsd"),
        (SITEMAP_NS, "sitemap.xsd"),
        (IMAGE_NS, "sitemap-image.xsd"),
        ("http://www.google.com/schemas/sitemap-video/1.1", "sitemap-video.xsd"),
        ("http://www.google.com/schemas/sitemap-news/0.9", "sitemap-news.xsd"),
        (XHTML_NS, "xhtml1-strict.xsd"),
    ]
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<!-- Generated by bench/run.py: the official schemas with Google's extensions. -->",
        '<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">',
    ]
    for ns, file in imports:
        loc = os.path.join(xsd_dir, file)
        lines.append(f'  <xsd:import namespace="{ns}" schemaLocation="{loc}"/>')
    lines.append("</xsd:schema>\n")
    path = os.path.join(out, "wrapper.xsd")
    write(path, "\n".join(lines).encode())
    return path


# --- measuring ----------------------------------------------------------------------------------


class Result:
    def __init__(self):
        self.wall = []
        self.cpu = []
        self.rss = []
        self.failure = None


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def live_index(live_dir, base):
    """Writes live-1000/sitemap_index.xml, listing every child at `base` (the server's URL, known
    only once it runs): the same file is served and read from disk."""
    children = sorted(f for f in os.listdir(live_dir) if f.startswith("s-"))
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n', f'<sitemapindex xmlns="{SITEMAP_NS}">\n']
    for name in children:
        parts.append(f"  <sitemap><loc>{base}/{name}</loc></sitemap>\n")
    parts.append("</sitemapindex>\n")
    write(os.path.join(live_dir, "sitemap_index.xml"), "".join(parts).encode())
    return [os.path.join(live_dir, c) for c in children]


def warm(paths):
    """Reads every input file right before a timed run, so that each tool is timed on input in
    the page cache. On the machines this was written on, the kernel drops cached pages of idle
    files within seconds (fincore: 4-8 % of the inputs' pages in 20 s with 22 GB free), and a
    run of small-1000 blocked 170 times in filemap_read (perf, sched_switch): whichever tool came
    first after a pause paid for reading the disk."""
    for path in paths:
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass


def measure(argv, result, inputs=(), exits=(0,), prepare=None, rss=True):
    """Runs argv twice: once on its own for the wall seconds and CPU seconds (user + system), once
    under GNU time for the peak RSS in bytes (not with `rss=False`: bench/ab.py times only).

    Peak RSS comes from GNU time's %M: the rusage of a process forked from this (large) Python
    process would count this process's pages as well. The times are not taken under GNU time:
    its own fork and exec add about 6 ms to every run, the same for every tool, which would
    push the ratios of the fast tools toward 1. Without /usr/bin/time, ru_maxrss of the
    child is used and includes the driver's own size (a note says so).

    `prepare`, when given, runs (untimed) before each of the two runs: `--fix` rewrites its input,
    so each run fixes a fresh copy."""
    with tempfile.TemporaryFile() as err:
        if prepare:
            prepare()
        warm(inputs)
        t = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in exits and result.failure is None:
            err.seek(0)
            tail = err.read().decode(errors="replace").strip().splitlines()[-6:]
            result.failure = f"`{' '.join(os.path.basename(a) for a in argv[:3])} …` exited {proc.returncode}: " + " | ".join(tail)
    peak = usage.ru_maxrss * 1024
    if GNU_TIME and rss:
        if prepare:
            prepare()
        with tempfile.NamedTemporaryFile("r") as rss:
            wrapped = [GNU_TIME, "-f", "%M", "-o", rss.name, *argv]
            subprocess.run(wrapped, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            lines = [l for l in rss.read().split() if l.isdigit()]
            peak = int(lines[-1]) * 1024 if lines else 0
    result.wall.append(wall)
    result.cpu.append(usage.ru_utime + usage.ru_stime)
    result.rss.append(peak)


def in_floors(limit, med, results, ours, xref, fref):
    """A limit against xmllint restated against the floor of the same run: the limit in floor
    times, and the CPU it leaves besides the floor's own work when all cores are busy all the time
    (`budget`), next to the CPU sitemap-lint spent on it (`spent`), both as multiples of the
    floor's CPU time."""
    if not fref:
        return ""
    wall = limit * med[xref]
    floor_cpu = statistics.median(results[fref].cpu)
    cores = os.cpu_count() or 1
    budget = (cores * wall - floor_cpu) / floor_cpu
    spent = (statistics.median(results[ours].cpu) - floor_cpu) / floor_cpu
    return (f"{limit:.2f} × xmllint = {wall / med[fref]:.2f} × floor; "
            f"budget {budget:.2f} × floor CPU, spent {spent:.2f}")


def run_cases(cases, runs):
    """Runs the tools of every case alternately, rotating the order each round, and the cases
    round by round: round 1 of every case, then round 2 of every case, and so on (a case with
    fewer runs drops out). The rows that compare two inputs (findings-52mb against max-52mb) are
    then timed in the same minutes, as the tools of one input are: a machine that slows down for
    a while slows both (one run had findings-52mb `--jobs 1` at 602 ms and max-52mb's at 399 ms,
    minutes apart, where runs side by side measure 1.03 × with `--jobs 1`, 1.10 × on two
    threads)."""
    results = {c["name"]: {name: Result() for name, _ in c["tools"]} for c in cases}
    rounds = max((c.get("runs", runs) for c in cases), default=0)
    for r in range(rounds):
        for case in cases:
            total = case.get("runs", runs)
            if r >= total:
                continue
            tools = case["tools"]
            inputs = case.get("files") or [case["file"]]
            order = tools[r % len(tools) :] + tools[: r % len(tools)]
            for name, argv in order:
                measure(argv, results[case["name"]][name], inputs,
                        case.get("exits", {}).get(name, (0,)), case.get("prepare", {}).get(name))
            print(f"  {case['name']}: round {r + 1}/{total}", file=sys.stderr)
    return results


# --- report -------------------------------------------------------------------------------------


def fmt_mb(n):
    return f"{n / 1e6:,.1f} MB"


def verdict(ok):
    return "PASS" if ok else "**FAIL**"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small inputs, 1 run each (smoke test)")
    ap.add_argument("--runs", type=int, help="runs per tool and input (default 5; 2 for the 1,000,000-URL file; 1 with --quick)")
    ap.add_argument("--only", help="comma-separated input names (urls-50k, max-52mb, findings-52mb, max-52mb.gz, index-50k, adversarial, urls-1m, fix-max-52mb, fix-findings-52mb, fix-10k, small-1000, live-1000)")
    ap.add_argument("--no-build", action="store_true", help="use the binaries already in target/release")
    ap.add_argument("--baseline", help="another sitemap-lint binary (an older build) to time alternately with this one")
    ap.add_argument("--lint", help="the sitemap-lint binary to time (default target/release/sitemap-lint), e.g. an older build to compare with")
    ap.add_argument("--xsd-dir", default=os.path.join(ROOT, "..", "shared", "corpus", "xsd"), help="the official XSDs (default ../shared/corpus/xsd)")
    args = ap.parse_args()
    runs = args.runs or (1 if args.quick else 5)
    global LINT
    if args.lint:
        LINT = os.path.abspath(args.lint)
    big_runs = args.runs or (1 if args.quick else 2)

    if not args.no_build:
        cmd = ["cargo", "build", "--release", "--quiet", "--bin", "sitemap-lint",
               "--example", "roxmltree_floor", "--example", "check_uncapped", "--example", "serve_dir"]
        print("$ " + " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, cwd=ROOT, check=True)

    out = os.path.join(TARGET, "bench", "quick") if args.quick else os.path.join(TARGET, "bench")
    generate(out, args.quick)
    xsd_dir = os.path.abspath(args.xsd_dir)
    xmllint = shutil.which("xmllint")
    have_xsd = os.path.exists(os.path.join(xsd_dir, "sitemap.xsd"))
    if not xmllint or not have_xsd:
        print(f"note: xmllint or the schemas in {xsd_dir} are missing: the xmllint columns stay empty", file=sys.stderr)
    wrapper = wrapper_xsd(xsd_dir, out) if have_xsd else None
    sitemap_xsd = os.path.join(xsd_dir, "sitemap.xsd")
    index_xsd = os.path.join(xsd_dir, "siteindex.xsd")

    def stream(xsd, *files):
        return [xmllint, "--noout", "--stream", "--schema", xsd, *files]

    def p(name):
        return os.path.join(out, name)

    def fresh_copy(src, dst):
        return lambda: shutil.copyfile(src, dst)

    fix_copy = p("fix-10k.copy.xml")
    small_dir = p("small-1000")
    small_files = sorted(os.path.join(small_dir, f) for f in os.listdir(small_dir))
    lint = "sitemap-lint check"
    one = lint + " --jobs 1"
    xs = "xmllint --stream --schema"
    floor = "roxmltree floor"
    cases = [
        dict(name="urls-50k", file=p("urls-50k.xml"), tools=[
            (lint, [LINT, "check", p("urls-50k.xml")]),
            (xs, stream(sitemap_xsd, p("urls-50k.xml"))),
            (floor, [FLOOR, p("urls-50k.xml")]),
        ], targets=True),
        dict(name="max-52mb", file=p("max-52mb.xml"), tools=[
            (lint, [LINT, "check", p("max-52mb.xml")]),
            (one, [LINT, "check", "--jobs", "1", p("max-52mb.xml")]),
            (xs, stream(wrapper, p("max-52mb.xml"))),
            (floor, [FLOOR, p("max-52mb.xml")]),
        ], targets=True),
        # Every entry has three findings (warnings and infos: exit 0): the targets of max-52mb, and at most
        # MAX_FINDINGS_VS_CLEAN × its time. The last three sitemap-lint rows complete issue 23's
        # table: quiet, JSON, and the three rules turned off.
        dict(name="findings-52mb", file=p("findings-52mb.xml"), tools=[
            (lint, [LINT, "check", "--now", FINDINGS_NOW, p("findings-52mb.xml")]),
            (one, [LINT, "check", "--jobs", "1", "--now", FINDINGS_NOW, p("findings-52mb.xml")]),
            (xs, stream(wrapper, p("findings-52mb.xml"))),
            (floor, [FLOOR, p("findings-52mb.xml")]),
            (lint + " -q", [LINT, "check", "-q", "--now", FINDINGS_NOW, p("findings-52mb.xml")]),
            (lint + " --format json", [LINT, "check", "--format", "json", "--now", FINDINGS_NOW, p("findings-52mb.xml")]),
            (lint + " (the three rules off)", [LINT, "check", "--now", FINDINGS_NOW, "--allow", "hreflang-self-missing",
                                               "--allow", "extension-deprecated", "--allow", "lastmod-future",
                                               p("findings-52mb.xml")]),
        ], targets=True),
        dict(name="max-52mb.gz", file=p("max-52mb.xml.gz"), uncompressed=p("max-52mb.xml"), tools=[
            (lint, [LINT, "check", p("max-52mb.xml.gz")]),
            (one, [LINT, "check", "--jobs", "1", p("max-52mb.xml.gz")]),
            (xs, stream(wrapper, p("max-52mb.xml.gz"))),
            (floor, [FLOOR, p("max-52mb.xml.gz")]),
        ], targets=True),
        dict(name="index-50k", file=p("index-50k.xml"), tools=[
            (lint, [LINT, "check", p("index-50k.xml")]),
            (xs, stream(index_xsd, p("index-50k.xml"))),
            (floor, [FLOOR, p("index-50k.xml")]),
        ]),
        # Findings expected (exit 1; xmllint: 3, the attributes are not in the schema): timed, no target.
        dict(name="adversarial", file=p("adversarial.xml"), tools=[
            (lint, [LINT, "check", p("adversarial.xml")]),
            (xs, stream(wrapper, p("adversarial.xml"))),
            (floor, [FLOOR, p("adversarial.xml")]),
        ], exits={lint: (1,), xs: (0, 3)}),
        dict(name="urls-1m", file=p("urls-1m.xml"), runs=big_runs, tools=[
            ("sitemap-lint (library, cap raised)", [UNCAPPED, p("urls-1m.xml")]),
            (xs, stream(sitemap_xsd, p("urls-1m.xml"))),
            (floor, [FLOOR, p("urls-1m.xml")]),
        ], scaling=True),
        # `--fix` with nothing to fix: the file is not written, so no copy is needed.
        dict(name="fix-max-52mb", file=p("max-52mb.xml"), tools=[
            (lint + " --fix", [LINT, "check", "--fix", p("max-52mb.xml")]),
            (lint, [LINT, "check", p("max-52mb.xml")]),
        ], fix_limit=MAX_FIX_CLEAN),
        # `--fix` where every entry has findings, none with a fix (the file is not written):
        # past the caps, they cost a counter with `--fix` too (issues 19, 23).
        dict(name="fix-findings-52mb", file=p("findings-52mb.xml"), tools=[
            (lint + " --fix", [LINT, "check", "--fix", "--now", FINDINGS_NOW, p("findings-52mb.xml")]),
            (lint, [LINT, "check", "--now", FINDINGS_NOW, p("findings-52mb.xml")]),
        ], fix_limit=MAX_FIX_CLEAN),
        # 10,000 raw `&` escaped (exit 0 after fixing; `check` exits 1 on them). Each run fixes a
        # fresh copy (made untimed), and `check` reads the same copy, unfixed.
        dict(name="fix-10k", file=p("fix-10k.xml"), tools=[
            (lint + " --fix", [LINT, "check", "--fix", fix_copy]),
            (lint, [LINT, "check", fix_copy]),
        ], exits={lint: (1,)}, fix_limit=MAX_FIX_10K,
            prepare={lint + " --fix": fresh_copy(p("fix-10k.xml"), fix_copy),
                     lint: fresh_copy(p("fix-10k.xml"), fix_copy)}),
        dict(name="small-1000", files=small_files, tools=[
            (lint + " (one run, all cores)", [LINT, "check", small_dir]),
            ("xmllint --schema (one process)", [xmllint, "--noout", "--schema", sitemap_xsd, *small_files]),
            (xs + " (one process)", stream(sitemap_xsd, *small_files)),
            (floor + " (one process)", [FLOOR, *small_files]),
        ], small=True),
    ]
    # issue 20: an index of 1,000 children of 1,000 URLs, served from loopback by
    # examples/serve_dir.rs (keep-alive, a thread per connection), against the same files on disk.
    # The children's URLs are on www.example.com and the index's on 127.0.0.1: both runs turn
    # off the two rules that says so, and the live run allows the loopback host.
    server = None
    if not args.only or "live-1000" in args.only.split(","):
        server = subprocess.Popen([SERVE, p("live-1000")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        base = server.stdout.readline().strip()
        live_files = live_index(p("live-1000"), base)
        largest = max(live_files, key=os.path.getsize)
        quiet = ["--allow", "loc-private-host", "--allow", "loc-outside-scope"]
        cases.append(dict(name="live-1000", files=[p("live-1000/sitemap_index.xml"), *live_files], tools=[
            (lint + " over HTTP (loopback)", [LINT, "check", "--allow-private-hosts", *quiet, base + "/sitemap_index.xml"]),
            (lint + " (the same files on disk)", [LINT, "check", *quiet, p("live-1000")]),
            (lint + " (its largest file alone)", [LINT, "check", *quiet, largest]),
        ], live=True))
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {c["name"] for c in cases}
        if unknown:
            raise SystemExit(f"unknown input(s): {', '.join(sorted(unknown))}")
        cases = [c for c in cases if c["name"] in wanted]
    if not xmllint or not have_xsd:
        for c in cases:
            c["tools"] = [t for t in c["tools"] if not t[0].startswith("xmllint")]
    baseline = os.path.abspath(args.baseline) if args.baseline else None
    if baseline:
        if not os.access(baseline, os.X_OK):
            raise SystemExit(f"--baseline {args.baseline}: not an executable")
        for c in cases:
            twins = [("old " + n, [baseline, *argv[1:]]) for n, argv in c["tools"] if argv[0] == LINT]
            c["tools"] = c["tools"] + twins
            c.setdefault("exits", {}).update({"old " + n: e for n, e in c.get("exits", {}).items()})

    rows = []
    checks = []
    versus = []
    per_byte = {}
    per_case = {}
    failures = []
    measured = run_cases(cases, runs)
    for case in cases:
        if "files" in case:
            size = sum(os.path.getsize(f) for f in case["files"])
            shown = f"{fmt_mb(size)} in {len(case['files']):,} files"
        else:
            size = os.path.getsize(case.get("uncompressed", case["file"]))
            shown = fmt_mb(size)
            if "uncompressed" in case:
                shown = f"{fmt_mb(os.path.getsize(case['file']))} gzip ({shown})"
        results = measured[case["name"]]
        med = {n: statistics.median(r.wall) for n, r in results.items()}
        names = [n for n, _ in case["tools"]]
        ours = names[0]
        xref = next((n for n in names if n.startswith("xmllint --schema")), None) if case.get("small") else next((n for n in names if n.startswith(xs)), None)
        fref = next((n for n in names if n.startswith(floor)), None)
        for n in names:
            r = results[n]
            if r.failure:
                failures.append(f"{case['name']}, {n}: {r.failure}")
            rss = max(r.rss)
            vs_x = med[n] / med[xref] if xref else None
            vs_f = med[n] / med[fref] if fref else None
            rows.append([
                case["name"] if n == ours else "",
                shown if n == ours else "",
                n + (" ⚠ failed" if r.failure else ""),
                f"{med[n] * 1000:,.0f}",
                f"{statistics.median(r.cpu) * 1000:,.0f}",
                f"{size / 1e6 / med[n]:,.0f}",
                f"{rss / 2**20:,.0f}",
                f"{rss / size:.2f}",
                f"{vs_x:.2f}" if vs_x is not None else "–",
                f"{vs_f:.2f}" if vs_f is not None else "–",
            ])
        r = results[ours]
        label = case["name"]
        if case.get("targets"):
            if xref:
                checks.append((f"{label}: time ≤ {MAX_VS_XMLLINT:.2f} × xmllint --stream --schema", med[ours] / med[xref], MAX_VS_XMLLINT,
                               in_floors(MAX_VS_XMLLINT, med, results, ours, xref, fref)))
            checks.append((f"{label}: time ≤ {MAX_VS_FLOOR:.2f} × roxmltree floor", med[ours] / med[fref], MAX_VS_FLOOR, ""))
            checks.append((f"{label}: peak RSS ≤ {MAX_RSS_PER_BYTE} × input size", max(r.rss) / size, MAX_RSS_PER_BYTE, ""))
        if case.get("small") and xref:
            checks.append((f"{label}: one run ≤ {MAX_SMALL_VS_XMLLINT:.2f} × one xmllint --schema process", med[ours] / med[xref], MAX_SMALL_VS_XMLLINT,
                           in_floors(MAX_SMALL_VS_XMLLINT, med, results, ours, xref, fref)))
        if case.get("live"):
            disk, alone = names[1], names[2]
            checks.append((f"{label}: time over HTTP ≤ {MAX_LIVE_VS_DISK} × the same files on disk", med[ours] / med[disk], MAX_LIVE_VS_DISK, ""))
            checks.append((f"{label}: peak RSS over HTTP ≤ {MAX_LIVE_RSS_VS_FILE} × checking its largest file alone", max(r.rss) / max(results[alone].rss), MAX_LIVE_RSS_VS_FILE, ""))
        if one in results and fref:
            checks.append((f"{label}: --jobs 1 time ≤ {MAX_ONE_JOB_VS_FLOOR:.2f} × roxmltree floor", med[one] / med[fref], MAX_ONE_JOB_VS_FLOOR, ""))
        for n in names:
            if "old " + n in results:
                old = "old " + n
                versus.append((label, n, med[old], med[n], statistics.median(results[old].cpu), statistics.median(results[n].cpu),
                               max(results[old].rss), max(results[n].rss)))
                checks.append((f"{label}: `{n}` time ≤ {MAX_VS_BASELINE:.2f} × the old binary", med[n] / med[old], MAX_VS_BASELINE, ""))
        if case["name"] in ("urls-50k", "urls-1m"):
            per_byte[case["name"]] = (med[ours] / size, max(r.rss) / size)
        if case["name"] in ("max-52mb", "findings-52mb"):
            per_case[case["name"]] = med[ours]
        if case.get("fix_limit"):
            fixed = f" ({200 if args.quick else FIXES:,} fixes)" if case["name"] == "fix-10k" else " (nothing to fix)"
            checks.append((f"{label}: `check --fix`{fixed} ≤ {case['fix_limit']:.1f} × `check`", med[ours] / med[names[1]], case["fix_limit"], ""))

    if server:
        server.stdin.close()
        server.wait(timeout=10)

    if "max-52mb" in per_case and "findings-52mb" in per_case:
        checks.append((f"findings-52mb: time ≤ {MAX_FINDINGS_VS_CLEAN:.2f} × max-52mb", per_case["findings-52mb"] / per_case["max-52mb"], MAX_FINDINGS_VS_CLEAN, ""))
    if "urls-50k" in per_byte and "urls-1m" in per_byte:
        (t_small, m_small), (t_big, m_big) = per_byte["urls-50k"], per_byte["urls-1m"]
        checks.append((f"scaling: time per byte on urls-1m ≤ {MAX_SCALING} × on urls-50k", t_big / t_small, MAX_SCALING, ""))
        checks.append((f"scaling: peak RSS per byte on urls-1m ≤ {MAX_SCALING} × on urls-50k", m_big / m_small, MAX_SCALING, ""))

    header = ["input", "size", "tool", "median ms", "CPU ms", "MB/s", "peak RSS MiB", "RSS / size", "× xmllint", "× floor"]
    print()
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(" --- " if i < 3 else " ---: " for i in range(len(header))) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
    print("| target | measured | verdict | the same limit in this run's floor |")
    print("| --- | ---: | --- | --- |")
    for label, value, limit, floors in checks:
        print(f"| {label} | {value:.2f} | {verdict(value <= limit)} | {floors} |")
    print()
    print("The last column restates each limit against xmllint in units of the roxmltree floor of the same "
          "run (a bare parse on one core): how fast xmllint is next to the floor differs between machines. "
          "`budget` is what the limit leaves, with every core busy the whole time, for all the work besides "
          "the floor's (the model, the rules, the collectors, threads), as a multiple of the floor's CPU time; "
          "`spent` is what sitemap-lint used for it in this run.")
    if versus:
        print()
        print(f"Old binary: {baseline}")
        print()
        print("| input | tool | old ms | new ms | new ÷ old | old CPU ms | new CPU ms | old RSS MiB | new RSS MiB |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for label, n, wo, wn, co, cn, ro, rn in versus:
            print(f"| {label} | {n} | {wo * 1000:,.0f} | {wn * 1000:,.0f} | {wn / wo:.3f} | {co * 1000:,.0f} | {cn * 1000:,.0f} | {ro / 2**20:,.0f} | {rn / 2**20:,.0f} |")
    print()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown CPU")
    load = os.getloadavg()
    print(f"{os.cpu_count()} × {cpu}; load average before the report {load[0]:.2f}; "
          f"medians of {runs} alternating runs ({big_runs} for urls-1m), the inputs round by round in turn; MB = 10^6 bytes; "
          f"`× xmllint` compares with xmllint --stream --schema (with `xmllint --schema` for small-1000).")
    if not GNU_TIME:
        print("(/usr/bin/time is missing: peak RSS includes the driver's own memory; `apt-get install time`.)")
    if args.quick:
        print("(--quick: small inputs and one run each; the verdicts mean nothing at this size.)")
    if failures:
        print()
        for f in failures:
            print(f"FAILED: {f}")
        sys.exit(1)


if __name__ == "__main__":
    main()
