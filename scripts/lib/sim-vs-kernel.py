#!/usr/bin/env python3
"""Two hosts, one answer: the simulator's and the kernel's A/B side by side.

usage: sim-vs-kernel.py [--limit PCT] SIM_JSON KERNEL_JSON

SIM_JSON is `elvkit-sim --json` output for one device profile, KERNEL_JSON
`scripts/bench-kernel.sh --json` output on `ekdisk-PROFILE` (both read by
scripts/lib/ab-plot.py's loader, the one place that knows their shapes).
For every workload, thread count and scheduler both hosts ran it prints
MB/s, max, p99 and p99.9 latency, the share of reads over 100 ms (and a
writer's MB/s where the workload has one)
on each host and the kernel/simulator ratio, with each host's half range
over its runs (+-) where it ran more than one, and flags (!) a ratio off by
more than PCT (default 25) percent, and by more than the two half ranges
together when there are any; a p99 or p99.9 ratio is marked (~) and
counted apart instead when its two values lie either side of a latency
over which both hosts have the same share of reads (within PCT, or the
half ranges): the same slow mode, which the quantile lands in on one
host only. Where the
kernel ran with --probe, the block layer's state on both hosts too. The kernel's
`none` is the simulator's `noop` (FIFO, no sorting: blk-mq without a
scheduler). Exit 0 when the tables print, whatever they say; 2 on bad use.
"""
import importlib.util
import json
import os
import sys

# The one loader of both hosts' JSON lives in ab-plot.py.
_spec = importlib.util.spec_from_file_location(
    "ab_plot", os.path.join(os.path.dirname(os.path.abspath(__file__)), "ab-plot.py"))
ab = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ab)

SIM_NAME = {"none": "noop"}   # kernel scheduler -> simulator policy
METRICS = (("rate", "MB/s"), ("max", "max ms"), ("p99", "p99 ms"), ("p999", "p99.9 ms"),
           ("over100", "% >100ms"))
# Metrics the loader does not carry: the raw rows' fields, the same name on
# both hosts. p99.9 shows the tail when a p99 sits on a knee of it (a tail
# that holds about 1% of the I/Os puts the p99 in it on one host, just
# below it on the other), and the share of reads over 100 ms how much
# the tail holds (counted per I/O on both hosts; "-" for kernel runs
# before 2026-12-05).
RAW_FIELD = {"p999": "p999_lat_ms", "over100": "pct_over_100ms"}
# The writer's MB/s, in workloads where the simulator's rows have one: as
# the application sees it on both hosts. The kernel's is fio's bandwidth,
# which for buffered writes counts what went into the page cache; the
# simulator's app_write_mbs is that (its write_mbs, the device's, is what
# older simulators wrote: it leaves out the dirty limit's worth that the
# writer puts in the page cache before the device writes any).
WRITER = ("write", "wr MB/s", ("app_write_mbs", "write_mbs"))


def writer_mbs(raw):
    """(MB/s, half range) of a raw row's writer: the first field it has."""
    for f in WRITER[2]:
        if (raw or {}).get(f) is not None:
            return ab.num(raw[f]) or None, ab.num(raw.get(f + "_pm"))
    return None, None


def rows_by_key(groups):
    """{(workload, threads, sched): row} of one host's file."""
    out = {}
    for (_dev, wl), g in groups.items():
        for r in g["rows"]:
            out[(wl, r["threads"], r["sched"])] = r
    return out


def raw_by_key(rows):
    """{(workload, threads, sched): raw JSON row}: what the loader drops
    (half ranges over --runs, the writer's MB/s); {} if rows is not a list."""
    try:
        return {(r["workload"], r["threads"], r["sched"]): r for r in rows}
    except (KeyError, TypeError):
        return {}


def cell(v):
    return "-" if v is None else f"{v:.4g}"


def value(row, raw, m):
    """(value, half range or None) of metric m, a loader row's or a raw field's."""
    if m == WRITER[0]:
        return writer_mbs(raw)
    if m in RAW_FIELD:
        return ab.num((raw or {}).get(RAW_FIELD[m])), ab.num((raw or {}).get(RAW_FIELD[m] + "_pm"))
    field = row["fields"].get(m)
    return row[m], ab.num((raw or {}).get(f"{field}_pm")) if field else None


# A quantile and the shares of reads over fixed latencies (the raw rows'
# fields, in %, on both hosts): where most reads are fast and a slow mode
# holds about 1% of them, a p99 lands in the slow mode on the host where
# it holds a little over 1% and below it on the other, and the ratio is
# of two different modes (a p99.9 likewise, at 0.1%).
QUANTILES = ("p99", "p999")
OVER_MS = ((100, "pct_over_100ms"), (500, "pct_over_500ms"), (2000, "pct_over_2s"),
           (10000, "pct_over_10s"))


def knee(m, x, y, sim_raw, ker_raw, limit):
    """The latency (ms) that quantile m's values x (simulator) and y
    (kernel) lie either side of, where the two hosts' shares of reads
    over it agree (within limit %, or the runs' half ranges): the hosts
    agree on the tail, and only its share against the quantile's level
    puts them in different modes. None when there is no such latency."""
    if m not in QUANTILES or x is None or y is None:
        return None
    for ms, f in OVER_MS:
        if not min(x, y) < ms <= max(x, y):
            continue
        a, b = ab.num((sim_raw or {}).get(f)), ab.num((ker_raw or {}).get(f))
        if not a or not b:
            continue
        pa, pb = ab.num((sim_raw or {}).get(f + "_pm")) or 0, ab.num((ker_raw or {}).get(f + "_pm")) or 0
        if abs(b / a - 1) * 100 <= limit or abs(b - a) <= pa + pb:
            return ms
    return None


def spread_cell(v, pm):
    return cell(v) + (f"±{pm:.3g}" if v is not None and pm else "")


def compare(sim, ker, limit, sim_raw=None, ker_raw=None):
    """Lines of the side-by-side table, and the number of flagged ratios.

    With half ranges (--runs on both hosts) a ratio is flagged only when the
    two ranges do not overlap either: a difference the runs' own spread
    covers is not one between the hosts."""
    sim_raw, ker_raw = sim_raw or {}, ker_raw or {}
    lines, flagged, knees = [], 0, []
    keys = sorted({(wl, t, s) for (wl, t, s) in ker
                   if (wl, t, SIM_NAME.get(s, s)) in sim},
                  key=lambda k: (k[0], k[2], k[1]))
    wl_prev = None
    for wl, t, s in keys:
        if wl != wl_prev:
            writer = any(k[0] == wl and writer_mbs(r)[0] for k, r in sim_raw.items())
            metrics = METRICS + ((WRITER[:2],) if writer else ())
            lines.append("")
            lines.append(f"== {wl}: simulator | kernel (QEMU, ekdisk) | kernel/simulator")
            lines.append(f"{'scheduler':<14} {'thr':>4}" + "".join(
                f" {name + ' sim':>13} {name + ' krn':>13} {'ratio':>7}" for _, name in metrics))
            wl_prev = wl
        sk = (wl, t, SIM_NAME.get(s, s))
        a, b = sim[sk], ker[(wl, t, s)]
        line = f"{s:<14} {t:>4}"
        for m, _ in metrics:
            (x, px), (y, py) = value(a, sim_raw.get(sk), m), value(b, ker_raw.get((wl, t, s)), m)
            r = y / x if x and y is not None else None
            bad = r is not None and abs(r - 1) * 100 > limit
            if bad and (px or py):
                bad = abs(y - x) > (px or 0) + (py or 0)
            at = knee(m, x, y, sim_raw.get(sk), ker_raw.get((wl, t, s)), limit) if bad else None
            if at:
                knees.append(f"{wl} {s} {t}: {name_of(m)} {cell(x)} / {cell(y)} ms either side"
                             f" of {at} ms, over which the hosts have"
                             f" {over_cell(sim_raw.get(sk), at)} / {over_cell(ker_raw.get((wl, t, s)), at)}"
                             f" % of reads")
            flagged += bad and not at
            line += (f" {spread_cell(x, px):>13} {spread_cell(y, py):>13}"
                     f" {'-' if r is None else f'{r:.2f}x':>6}{'~' if at else '!' if bad else ' '}")
        lines.append(line)
    if knees:
        lines.append(f"  ~ a quantile either side of a knee both hosts agree on (the share of"
                     f" reads over it within {limit:g}%), not counted as off:")
        lines += [f"    {k}" for k in knees]
    return lines, flagged, len(keys), len(knees)


def name_of(m):
    return dict(METRICS)[m].replace(" ms", "")


def over_cell(raw, ms):
    """A raw row's share of reads over ms, with its half range."""
    f = dict(OVER_MS)[ms]
    return spread_cell(ab.num((raw or {}).get(f)), ab.num((raw or {}).get(f + "_pm")))


def raw_json(path):
    """A host's JSON as written, for what ab-plot's loader drops (the
    kernel's config and probe rows, the simulator's elapsed_s and block
    averages); None when it cannot be read."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def spans(sim, ker):
    """A line on how long each host measured; flagged when they differ.

    fio runs each kernel point for RUNTIME seconds (time_based), and the
    jobs' requests still queued then drain into its time; the simulator's
    threads must stop there too (its --runtime, which drains the same
    way), or a reader of a big region keeps the simulated run going to
    600 s and the two rates cover different spans. A drain of more than
    half the runtime is flagged too."""
    try:
        runtime = float(ker["config"]["RUNTIME"])
        el = [float(r["elapsed_s"]) for r in sim]
    except (ValueError, KeyError, TypeError):
        return None
    if not el:
        return None
    lo, hi = min(el), max(el)
    off = lo < 0.95 * runtime or hi > 1.5 * runtime
    return (f"{'! ' if off else ''}measured spans: simulator {lo:.3g}-{hi:.3g} s"
            f" (simulated, {runtime:g} s and the drain), kernel {runtime:g} s per"
            f" point and its drain"
            + (": the rates cover different spans" if off else ""))


# The block layer on both hosts: the simulator's time averages (avg_*,
# KiB per request) against the kernel's --probe means (scripts/lib/kprobe.py).
# Requests held are the scheduler's tags, `none`'s the driver's; on the
# device are the driver's tags under a scheduler.
BLOCK = (("wbt_infl", "avg_wbt_inflight", "wbt_inflight_mean", "wbt_inflight_mean"),
         ("held", "avg_tags_used", "tags_busy_mean", "sched_busy_mean"),
         ("sleepers", "avg_tag_sleepers", "tags_waiters_mean", "sched_waiters_mean"),
         ("on_dev", "avg_dev_inflight", "tags_busy_mean", "tags_busy_mean"),
         ("wr_KiB", "write_rq_kb", "write_rq_kb", "write_rq_kb"),
         ("dirty_KiB", "avg_dirty_kb", "dirty_writeback_kb_mean", "dirty_writeback_kb_mean"))


def side_by_side(title, names, sim, ker, cells):
    """The points both hosts have (sim and ker by raw_by_key's keys, the
    kernel's names), a "simulator / kernel" cell per column: cells(sim_row,
    kernel_row, sched) gives the (simulator, its half range over the runs
    or None, kernel) values in the order of names. A column is as wide as
    its widest cell. [] when they share no point."""
    keys = sorted((k for k in ker if (k[0], k[1], SIM_NAME.get(k[2], k[2])) in sim),
                  key=lambda k: (k[0], k[2], k[1]))
    if not keys:
        return []
    rows = [[spread_cell(x, px) + " / " + cell(y)
             for x, px, y in cells(sim[(wl, t, SIM_NAME.get(s, s))], ker[(wl, t, s)], s)]
            for wl, t, s in keys]
    widths = [max([13, len(name)] + [len(r[i]) for r in rows]) for i, name in enumerate(names)]
    lines = ["", title, f"{'workload':<14} {'scheduler':<14} {'thr':>4}"
             + "".join(f" {name:>{w}}" for name, w in zip(names, widths))]
    for (wl, t, s), r in zip(keys, rows):
        lines.append(f"{wl:<14} {s:<14} {t:>4}" + "".join(f" {c:>{w}}" for c, w in zip(r, widths)))
    return lines


def block_lines(sim_rows, ker_json):
    """The block layer side by side where the kernel ran with --probe; [] if not."""
    def cells(a, b, s):
        # a simulator's 0 KiB per request: no such request
        return [(None if sk.endswith("_kb") and not a.get(sk) else a.get(sk),
                 ab.num(a.get(sk + "_pm")), b.get(knone if s == "none" else ksched))
                for _, sk, knone, ksched in BLOCK]

    lines = side_by_side("== the block layer, mean over the run: simulator / kernel (--probe)",
                         [name for name, *_ in BLOCK], raw_by_key(sim_rows),
                         raw_by_key(ker_json.get("probe") if isinstance(ker_json, dict) else None),
                         cells)
    if lines:
        lines.append("  wbt_infl: buffered writes in flight (wbt); held: requests allocated "
                     "(none: the driver's tags); sleepers: tasks waiting for one; on_dev: on "
                     "the device; wr_KiB: KiB per write request; dirty_KiB: the page cache's "
                     "dirty and writeback data (the simulator's with --dirty-kb)")
    return lines


# How wbt's monitoring windows ended, % of them: the simulator's
# wbt_*_pct (its whole run) against the kernel's --trace-wake rows
# (scripts/lib/waketrace.py: the middle half of a separate run), with the
# simulator's half range over its seeds (the kernel's is one traced run).
WBT_WINDOWS = (("read_long", "wbt_exceeded_issue"), ("fastest_slow", "wbt_exceeded_min"),
               ("reads_fast", "wbt_ok"), ("unknown_wr", "wbt_unknown_writes"),
               ("idle", "wbt_unknown"))


def wbt_lines(sim_rows, ker_json):
    """wbt's windows side by side where the kernel traced them; [] if not."""
    ker = {}
    for r in (ker_json.get("wake") or []) if isinstance(ker_json, dict) else []:
        if isinstance(r, dict) and str(r.get("metric", "")).startswith("wbt_"):
            ker.setdefault((r.get("workload"), r.get("threads"), r.get("sched")), {})[r["metric"]] = \
                ab.num(r.get("value"))
    lines = side_by_side("== wbt's windows, how they ended (% of them): simulator / kernel"
                         " (--trace-wake: the middle half of a separate run)",
                         [name for name, _ in WBT_WINDOWS], raw_by_key(sim_rows), ker,
                         lambda a, b, s: [(ab.num(a.get(m + "_pct")), ab.num(a.get(m + "_pct_pm")),
                                           b.get(m)) for _, m in WBT_WINDOWS])
    if lines:
        lines.append("  read_long: a read on the device longer than the window, or than the target"
                     " with none done; fastest_slow: the window's fastest read over the target"
                     " (both scale down); reads_fast: neither, with a read and 3 writes;"
                     " unknown_wr: fewer samples, writes (both scale up); idle: nothing")
    return lines


def main(argv):
    limit = 25.0
    args = list(argv)
    try:
        if args[:1] == ["--limit"]:
            if len(args) < 2:
                raise ab.Usage("--limit needs a number")
            try:
                limit = float(args[1])
            except ValueError:
                raise ab.Usage(f"--limit: '{args[1]}' is not a number")
            args = args[2:]
        if len(args) != 2:
            raise ab.Usage("usage: sim-vs-kernel.py [--limit PCT] SIM_JSON KERNEL_JSON")
        sim_g, ker_g = ab.load(args[0]), ab.load(args[1])
        if any(g["host"] != "elvkit-sim" for g in sim_g.values()):
            raise ab.Usage(f"{args[0]}: not elvkit-sim's --json output")
        if any(g["host"] == "elvkit-sim" for g in ker_g.values()):
            raise ab.Usage(f"{args[1]}: not bench-kernel's --json output")
    except ab.Usage as e:
        print(f"sim-vs-kernel: {e}", file=sys.stderr)
        return 2
    sim_raw, ker_raw = raw_json(args[0]), raw_json(args[1])
    lines, flagged, n, nknee = compare(rows_by_key(sim_g), rows_by_key(ker_g), limit,
                                raw_by_key(sim_raw), raw_by_key((ker_raw or {}).get("results")))
    if not n:
        print("sim-vs-kernel: no workload, thread count and scheduler in both files",
              file=sys.stderr)
        return 2
    print("\n".join(lines))
    bl = block_lines(sim_raw, ker_raw)
    if bl:
        print("\n".join(bl))
    wl = wbt_lines(sim_raw, ker_raw)
    if wl:
        print("\n".join(wl))
    sp = spans(sim_raw, ker_raw)
    if sp:
        print(f"\n{sp}")
    print(f"\n{n} points compared; {flagged} ratios off by more than {limit:g}% (!)"
          + (f", {nknee} more either side of a knee (~)" if nknee else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
