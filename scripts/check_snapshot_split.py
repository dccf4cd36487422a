#!/usr/bin/env python3
"""Checks that a change of corpus snapshots only split them by rule (issue 17).

Usage: scripts/check_snapshot_split.py [BASE]   (BASE: a git revision, `main` by default)

Compares the snapshots of corpus/ at BASE with the working tree (untracked files included) and
accepts exactly these changes:
- a `corpus/rules/<rule>/<fixture>.expected` whose new text is its old text with the diagnostic
  blocks of every other rule removed (a block runs from its `severity[rule]: message` line to the
  next such line), nothing else changed, added or reordered;
- a fixture moved from `corpus/rules/<rule>/` to `corpus/cases/` (it shows several rules
  together), whose case snapshot is its old snapshot with only the path in it changed;
- other files (fixtures, corpus/xsd-verdicts.tsv) added, changed or removed, listed for review.
Anything else is reported and the exit status is 1.
"""
import re
import subprocess
import sys

HEADER = re.compile(r"^(error|warning|info|note|help)\[([a-z0-9-]+)\]: ", re.M)
SNAPSHOT = ".expected"


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def old_text(base, path):
    return git("show", f"{base}:{path}")


def new_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def blocks(text):
    """The text before the first diagnostic, and each diagnostic block with its rule."""
    starts = [m.start() for m in HEADER.finditer(text)]
    if not starts:
        return text, []
    out = []
    for i, s in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        out.append((HEADER.match(text, s).group(2), text[s:end]))
    return text[: starts[0]], out


def split_of(text, rule):
    head, bs = blocks(text)
    return head + "".join(b for r, b in bs if r in (rule, "internal-error"))


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "main"
    changes = []
    for line in git("diff", "--name-status", "-M", base, "--", "corpus/").splitlines():
        status, *paths = line.split("\t")
        changes.append((status[0], paths))
    for path in git("ls-files", "--others", "--exclude-standard", "corpus/").splitlines():
        changes.append(("A", [path]))

    problems, removed_lines, split, moved, others = [], 0, 0, [], []
    # A snapshot that moved with its fixture is a deletion and an addition, whether git pairs
    # them as a rename or not.
    pairs = []
    for status, paths in changes:
        if status == "R":
            pairs.append(("D", [paths[0]]))
            pairs.append(("A", [paths[1]]))
        else:
            pairs.append((status, paths))
    renamed = {p[0]: p[1] for s, p in changes if s == "R" and not p[0].endswith(SNAPSHOT)}
    deleted = {p[0] for s, p in pairs if s == "D"}
    added = {p[0] for s, p in pairs if s == "A"}
    for status, paths in pairs:
        path = paths[-1]
        if status == "M" and path.endswith(SNAPSHOT) and path.startswith("corpus/rules/"):
            rule = path.split("/")[2]
            old, new = old_text(base, path), new_text(path)
            if split_of(old, rule) != new:
                problems.append(f"{path}: not its old text without the other rules' blocks")
            else:
                split += 1
                removed_lines += old.count("\n") - new.count("\n")
        elif status == "D" and path.endswith(SNAPSHOT):
            fixture = path[: -len(SNAPSHOT)]
            case = renamed.get(fixture)
            if not (case and case.startswith("corpus/cases/") and case + SNAPSHOT in added):
                problems.append(f"{path}: removed, and its fixture did not move to corpus/cases/")
                continue
            old = old_text(base, path).replace(fixture[len("corpus/"):], case[len("corpus/"):])
            if old != new_text(case + SNAPSHOT):
                problems.append(f"{case}{SNAPSHOT}: not the old snapshot of {fixture} with its path changed")
            else:
                moved.append(f"{fixture} -> {case}")
        elif status == "A" and path.endswith(SNAPSHOT):
            if path[: -len(SNAPSHOT)] not in renamed.values():
                problems.append(f"{path}: a new snapshot")
        elif path.endswith(SNAPSHOT):
            problems.append(f"{path}: {status}, not a split by rule")
        elif path in renamed and renamed[path].startswith("corpus/cases/"):
            if path + SNAPSHOT not in deleted:
                problems.append(f"{renamed[path]}: moved from {path} without its snapshot")
        elif path in renamed.values():
            pass  # the arrival of a moved fixture
        else:
            others.append(f"{status} {path}")

    print(f"{split} snapshots split (only other rules' blocks removed, {removed_lines} lines)")
    for m in moved:
        print(f"moved to the cases, snapshot unchanged: {m}")
    for f in others:
        print(f"for review (not a snapshot): {f}")
    for p in problems:
        print(f"PROBLEM {p}")
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
