#!/usr/bin/env python3
"""A/B timing of commands on one input, for changes smaller than the machine's drift.

    python3 bench/ab.py ROUNDS FILE CMD_A [ARGS...] -- CMD_B [ARGS...] [-- CMD_C ...]

Each round runs every command once on FILE (appended to its arguments), in an order that rotates
from round to round, each run timed as bench/run.py times it (`measure`: the input read right
before, wall and CPU time from wait4; no peak RSS). It prints, for each command, the medians of
its times and the median over rounds of its time divided by the first command's time in the same
round: a machine that slows down for a while slows both sides of a round, so the ratio holds
where the medians alone drift by 10-20 %. A run that exits with 2 (a usage error) is reported.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import Result, measure  # noqa: E402


def main():
    if len(sys.argv) < 4 or not sys.argv[1].isdigit():
        sys.exit(__doc__)
    rounds, path = int(sys.argv[1]), sys.argv[2]
    cmds = [c.split() + [path] for c in " ".join(sys.argv[3:]).split(" -- ")]
    results = [Result() for _ in cmds]
    for r in range(rounds):
        order = list(range(len(cmds)))
        order = order[r % len(order):] + order[:r % len(order)]
        for i in order:
            # Findings (exit 1) are what some commands are timed on.
            measure(cmds[i], results[i], [path], exits=(0, 1), rss=False)
    first = results[0]
    for cmd, result in zip(cmds, results):
        if result.failure:
            print(f"failed: {result.failure}")
        rw = statistics.median(a / b for a, b in zip(result.wall, first.wall))
        rc = statistics.median(a / b for a, b in zip(result.cpu, first.cpu))
        print(f"{statistics.median(result.wall) * 1000:7.1f} ms wall {statistics.median(result.cpu) * 1000:7.1f} ms CPU"
              f"  × first: wall {rw:.3f} CPU {rc:.3f}  {' '.join(cmd[:-1])}")


if __name__ == "__main__":
    main()
