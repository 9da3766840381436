#!/usr/bin/env python3
"""Where a request's time goes, and how the device takes turns between
processes, from a trace of either host: the kernel's (bench-kernel.sh
--trace-wake: tracefs's block_getrq, block_rq_issue, block_rq_complete)
or the simulator's (elvkit-sim --trace: blkparse's text, I D C).

Per request, from its allocation or insert (I) to its dispatch (D) and
completion (C), each request named by its first sector, its process by
the task that allocated it:
  I2D      in the scheduler (the kernel's I is block_getrq: the request's
           allocation, just before its insert)
  D2C      on the device
  think    a process's completion to its next request's I
and per turn (consecutive completions of one process's requests, as a
scheduler that serves one queue at a time makes them):
  reads per turn  requests completed in it
  C2C in turn     completion to completion within a turn
  between turns   the last completion of one turn to the first of the next

usage: turns.py [--window FROM TO] TRACE     one host's table
       turns.py [--window FROM TO] --pair SIM KERNEL LABEL
                                              the two side by side (mean, p90)
A file holding several runs (elvkit-sim --trace with --runs or more
points: "#" lines between them) is read run by run and pooled.
--window keeps the simulator's events from FROM to TO seconds of each run
(the kernel's trace is a window already: bench-kernel.sh --trace-wake
records the middle half of a run), so that both count the same requests:
one whose I or D came before the window is not counted, which leaves out
many of the longest waits on both sides alike.
"""
import gzip
import math
import re
import statistics
import sys

from waketrace import EVENT, RQ     # the kernel's tracefs lines, as waketrace.py reads them

BLKPARSE = re.compile(r"^\s*\d+,\d+\s+\d+\s+\d+\s+([\d.]+)\s+(\d+)\s+([IDC])\s+\S+ (\d+) \+ (\d+)")
ACTION = {"block_getrq": "I", "block_rq_issue": "D", "block_rq_complete": "C"}
ROWS = (("I2D", "ms"), ("D2C", "ms"), ("think", "ms"),
        ("reads per turn", ""), ("C2C in turn", "ms"), ("between turns", "ms"))


def runs(path):
    """[[(time s, action, sector, pid or None), ...] per run]."""
    opener = gzip.open if path.endswith(".gz") else open
    out = [[]]
    with opener(path, "rt", errors="replace") as f:
        for line in f:
            if line.startswith("#"):
                if out[-1]:
                    out.append([])
                continue
            m = BLKPARSE.match(line)
            if m:
                out[-1].append((float(m.group(1)), m.group(3), int(m.group(4)), int(m.group(2))))
                continue
            m = EVENT.match(line)
            a = m and ACTION.get(m.group(4))
            r = a and RQ.match(m.group(5))
            if r:
                out[-1].append((float(m.group(3)), a, int(r.group(3)),
                                int(m.group(2)) if a == "I" else None))
    return [r for r in out if r]


def measure(evs, vals):
    """Add one run's values (ms, and counts) to vals {row: [values]}."""
    owner, at_i, at_d = {}, {}, {}
    last_c = {}             # pid -> its latest completion, until its next I
    turn = None             # [pid, last completion, completions]
    for t, a, sector, pid in evs:
        if a == "I":
            owner[sector] = pid
            at_i[sector] = t
            if pid in last_c:
                vals["think"].append((t - last_c.pop(pid)) * 1e3)
        elif a == "D":
            if sector in at_i:
                at_d[sector] = t
                vals["I2D"].append((t - at_i[sector]) * 1e3)
        elif sector in owner:
            pid = owner.pop(sector)
            at_i.pop(sector, None)
            if sector in at_d:
                vals["D2C"].append((t - at_d.pop(sector)) * 1e3)
            last_c[pid] = t
            if turn and turn[0] == pid:
                vals["C2C in turn"].append((t - turn[1]) * 1e3)
                turn[1] = t
                turn[2] += 1
            else:
                if turn:
                    vals["reads per turn"].append(turn[2])
                    vals["between turns"].append((t - turn[1]) * 1e3)
                turn = [pid, t, 1]


def table(path, window=None):
    vals = {name: [] for name, _ in ROWS}
    for evs in runs(path):
        if window:
            evs = [e for e in evs if window[0] <= e[0] < window[1]]
        measure(evs, vals)
    return vals


def stats(v):
    if not v:
        return None
    s = sorted(v)
    # p90 by nearest rank: the smallest value with 90% at or below it
    return statistics.fmean(s), s[math.ceil(0.9 * len(s)) - 1], len(s)


def fmt(x):
    if x is None:
        return "-"
    return f"{x:.0f}" if x >= 100 else f"{x:.3g}"


def main(argv):
    window = None
    if len(argv) > 3 and argv[1] == "--window":
        try:
            window = (float(argv[2]), float(argv[3]))
        except ValueError:
            window = (1, 0)
        if not 0 <= window[0] < window[1]:
            print(f"turns.py: --window {argv[2]} {argv[3]}: not FROM < TO seconds", file=sys.stderr)
            return 2
        argv = argv[:1] + argv[4:]
    if len(argv) == 5 and argv[1] == "--pair":
        sim, ker = table(argv[2], window), table(argv[3])
        print(f"-- {argv[4]}: simulator / kernel, mean (p90)")
        for name, unit in ROWS:
            a, b = stats(sim[name]), stats(ker[name])
            cells = [("-" if s is None else f"{fmt(s[0])} ({fmt(s[1])})") for s in (a, b)]
            ratio = f"{b[0] / a[0]:.2f}x" if a and b and a[0] else "-"
            print(f"  {name + (' ' + unit if unit else ''):<20} {cells[0]:>14} / {cells[1]:<14} {ratio:>6}")
        return 0
    if len(argv) == 2 and not argv[1].startswith("-"):
        vals = table(argv[1], window)
        print(f"{'':<20} {'n':>7} {'mean':>8} {'p90':>8}")
        for name, unit in ROWS:
            s = stats(vals[name])
            print(f"{name + (' ' + unit if unit else ''):<20} "
                  + ("      0        -        -" if s is None else f"{s[2]:>7} {fmt(s[0]):>8} {fmt(s[1]):>8}"))
        return 0
    print("usage: turns.py [--window FROM TO] TRACE | turns.py [--window FROM TO] --pair SIM_TRACE KERNEL_TRACE LABEL",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
