#!/usr/bin/env python3
"""Guest instructions per I/O per kernel function, from bench-overhead.sh
--profile's raw results: for every scheduler, the blocks its measured jobs
executed (the prof-NNNN.txt between its markers, marks.txt), symbolised
with the guest's kallsyms.txt and divided by the jobs' I/Os (results.txt).
Prints each scheduler's total, then the functions where a scheduler's
instructions per I/O differ most from the base scheduler's.

usage: insnprof-report.py OUTDIR [--base SCHED] [--top N]
"""
import argparse
import bisect
import collections
import os
import sys

USER = "[user]"


def load_symbols(path):
    addrs, names = [], []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3 or parts[1] not in "tTwW":
                continue
            name = parts[2]
            if len(parts) > 3:
                name += " " + parts[3]          # [module]
            addrs.append(int(parts[0], 16))
            names.append(name)
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def symbolise(addrs, names, vaddr):
    if vaddr < 0xffff800000000000:
        return USER
    i = bisect.bisect_right(addrs, vaddr) - 1
    return names[i] if i >= 0 else "[unknown]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--base")
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()

    ios = collections.Counter()
    with open(os.path.join(a.out, "results.txt")) as f:
        for line in f:
            r, sched, _iops, n, *_ = line.split()
            ios[(r, sched)] = int(n)
    with open(os.path.join(a.out, "marks.txt")) as f:
        marks = [line.strip() for line in f if line.strip()]
    addrs, names = load_symbols(os.path.join(a.out, "kallsyms.txt"))
    if addrs and all(x == 0 for x in addrs[:100]):
        sys.exit("insnprof-report: kallsyms.txt has no addresses (read as root?)")

    # fio runs a job's prerun and postrun once per clone (numjobs=2): the
    # job is what ran after its first start marker, up to its last end
    # marker, and profile k holds what ran from marker k-1 to marker k.
    span = {}
    for k, mark in enumerate(marks, 1):
        r, rest = mark.split(".", 1)
        sched, what = rest.rsplit(".", 1)
        first, last = span.get((r, sched), (None, None))
        if what == "start" and first is None:
            first = k
        if what == "end":
            last = k
        span[(r, sched)] = (first, last)

    per = collections.defaultdict(collections.Counter)   # sched -> fn -> insns
    total_ios = collections.Counter()
    order = []
    for (r, sched), (first, last) in span.items():
        if first is None or last is None or not ios[(r, sched)]:
            continue
        if sched not in order:
            order.append(sched)
        total_ios[sched] += ios[(r, sched)]
        fns = per[sched]
        for k in range(first + 1, last + 1):
            path = os.path.join(a.out, "prof-%04d.txt" % k)
            if not os.path.exists(path):
                sys.exit("insnprof-report: %s missing: the plugin wrote fewer "
                         "profiles than the guest ran markers" % path)
            with open(path) as f:
                for line in f:
                    v, n, e = line.split()
                    fns[symbolise(addrs, names, int(v, 16))] += int(n) * int(e)
    if not order:
        sys.exit("insnprof-report: no profiled job in " + a.out)

    base = a.base or ("mq-deadline" if "mq-deadline" in order else order[0])
    if base not in order:
        sys.exit("insnprof-report: --base %s was not measured" % base)
    pio = {s: {fn: v / total_ios[s] for fn, v in per[s].items()} for s in order}

    print("\nInstructions per I/O, whole guest (kernel and fio), from the profile:")
    print("| scheduler | per I/O | kernel | user | vs %s |" % base)
    print("|---|---|---|---|---|")
    tot = {s: sum(pio[s].values()) for s in order}
    for s in order:
        user = pio[s].get(USER, 0)
        print("| %s | %.0f | %.0f | %.0f | %+.0f |" %
              (s, tot[s], tot[s] - user, user, tot[s] - tot[base]))

    # none differs everywhere (no scheduler at all): totals only
    others = [s for s in order if s not in (base, "none")]
    if not others:
        return
    fns = set()
    for s in order:
        fns |= set(pio[s])
    score = {fn: max(abs(pio[s].get(fn, 0) - pio[base].get(fn, 0))
                     for s in others) for fn in fns}
    top = sorted(fns, key=lambda fn: -score[fn])[:a.top]
    print("\nWhere they differ from %s: instructions per I/O by function "
          "(%s's, then each one's difference), the %d largest:" %
          (base, base, len(top)))
    print("| function | %s | %s |" % (base, " | ".join(others)))
    print("|---|---|" + "---|" * len(others))
    for fn in top:
        b = pio[base].get(fn, 0)
        print("| %s | %.1f | %s |" % (fn, b, " | ".join(
            "%+.1f" % (pio[s].get(fn, 0) - b) for s in others)))


if __name__ == "__main__":
    main()
