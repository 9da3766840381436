"""ekdisk's timer lateness as elvkit-sim --late-us points.

bench-kernel.sh keeps ekdisk's late_hist for the whole boot in meta.txt as
"ekdisk_late_hist.DEVICE BELOW_US COUNT ... inf COUNT": per request, how
late the guest's timer handed the model's completion back, counted per
power of two of microseconds (the first bucket under 1 us, bucket k from
2^(k-1) to 2^k, the last open). Printed as the points of its quantile
function, PCT:US,... (PCT to four decimals, parts per million: a tail of
a few in 100,000 lies beyond 99.99; each bucket's upper bound at its
cumulative share, the open bucket's bound taken as twice its start),
which elvkit-sim draws every completion's lateness from.

bench-kernel.sh's JSON has the same counts per point and scheduler
(late_hist, summed over its runs: the groups' own share of the boot);
--json prints "WORKLOAD THREADS SCHED POINTS" for each that has them.

usage: late-hist.py META_TXT DEVICE   (exit 1 when the device has none)
       late-hist.py --json BENCH_KERNEL_JSON
"""
import json
import sys

# late_hist's buckets: their labels, and their upper bounds in us (the
# open last one's taken as twice its start)
LABELS = [str(1 << i) for i in range(15)] + ["inf"]
BOUNDS_US = [1 << i for i in range(16)]


def parse(line):
    """The counts of a late_hist line's "BELOW_US COUNT" pairs; ValueError if bad."""
    f = line.split()
    if f[0::2] != LABELS or len(f) != 2 * len(LABELS):
        raise ValueError("not late_hist's BELOW_US COUNT pairs")
    return [int(n) for n in f[1::2]]


def points(counts):
    """elvkit-sim's PCT:US string for late_hist's counts, or None."""
    if len(counts) != len(BOUNDS_US):
        raise ValueError(f"{len(counts)} buckets, not {len(BOUNDS_US)}")
    total = sum(counts)
    if total <= 0:
        return None
    pts, cum, last_us = [(0, 0)], 0, 0
    for us, n in zip(BOUNDS_US, counts):
        if not n:
            continue
        cum += n
        last_us = us
        ppm = cum * 1000000 // total    # rounded down
        if pts[-1][0] < ppm < 1000000:
            pts.append((ppm, us))
    pts.append((1000000, last_us))
    return ",".join(f"{ppm / 10000:g}:{us}" for ppm, us in pts)


def per_point(path):
    """(workload, threads, sched, points) of a bench-kernel JSON's results."""
    with open(path) as f:
        results = json.load(f)["results"]
    for r in results:
        p = r.get("late_hist") and points([int(n) for n in r["late_hist"]])
        if p:
            yield r["workload"], r["threads"], r["sched"], p


def main(argv):
    if len(argv) == 3 and argv[1] == "--json":
        try:
            for row in per_point(argv[2]):
                print(*row)
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"late-hist: {argv[2]}: {e}", file=sys.stderr)
            return 1
        return 0
    if len(argv) != 3:
        print("\n".join(__doc__.strip().splitlines()[-2:]), file=sys.stderr)
        return 2
    key = f"ekdisk_late_hist.{argv[2]} "
    try:
        with open(argv[1]) as f:
            lines = [ln[len(key):] for ln in f if ln.startswith(key)]
    except OSError as e:
        print(f"late-hist: {e}", file=sys.stderr)
        return 1
    if not lines:
        return 1
    try:
        p = points(parse(lines[-1]))
    except ValueError as e:
        print(f"late-hist: {argv[1]}: {e}", file=sys.stderr)
        return 1
    if p is None:
        return 1
    print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
