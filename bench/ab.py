#!/usr/bin/env python3
"""A/B timing of commands on one input, for changes smaller than the machine's drift.

    python3 bench/ab.py ROUNDS FILE CMD_A [ARGS...] -- CMD_B [ARGS...] [-- CMD_C ...]

Each round runs every command once on FILE (output to /dev/null), in an order that rotates from
round to round; wall time and CPU time (user + system, from wait4) are taken per run. It prints,
for each command, the medians of its times and the median over rounds of its time divided by
the first command's time in the same round: a machine that slows down for a while slows both
sides of a round, so the ratio holds where the medians alone drift by 10-20 %.
"""
import os
import statistics
import sys
import time


def main():
    if len(sys.argv) < 4 or not sys.argv[1].isdigit():
        sys.exit(__doc__)
    rounds, path = int(sys.argv[1]), sys.argv[2]
    cmds = [c.split() for c in " ".join(sys.argv[3:]).split(" -- ")]
    wall = [[] for _ in cmds]
    cpu = [[] for _ in cmds]
    for r in range(rounds):
        order = list(range(len(cmds)))
        order = order[r % len(order):] + order[:r % len(order)]
        for i in order:
            start = time.perf_counter()
            pid = os.fork()
            if pid == 0:
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, 1)
                os.dup2(null, 2)
                os.execvp(cmds[i][0], cmds[i] + [path])
            _, _, usage = os.wait4(pid, 0)
            wall[i].append(time.perf_counter() - start)
            cpu[i].append(usage.ru_utime + usage.ru_stime)
    for i, cmd in enumerate(cmds):
        rw = statistics.median(wall[i][k] / wall[0][k] for k in range(rounds))
        rc = statistics.median(cpu[i][k] / cpu[0][k] for k in range(rounds))
        print(f"{statistics.median(wall[i]) * 1000:7.1f} ms wall {statistics.median(cpu[i]) * 1000:7.1f} ms CPU"
              f"  × first: wall {rw:.3f} CPU {rc:.3f}  {' '.join(cmd)}")


if __name__ == "__main__":
    main()
