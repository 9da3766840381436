#!/usr/bin/env python3
"""Report of one scripts/bench-kernel.sh run (one boot).

Reads OUTDIR/config.sh, OUTDIR/meta.txt, OUTDIR/raw/DEVICE/WL-tT.{json,lat}
(fio JSON and the guest's exact per-I/O latency shares) and
OUTDIR/raw/DEVICE/dbench-tT-rR-SCHED.txt (dbench's output), and with
--probe OUTDIR/raw/DEVICE/WL-tT.probe (scripts/lib/kprobe.py), prints one table
per device and workload with every value also as a ratio to `none` of the
same boot, then the wall. --json FILE writes the same numbers.
usage: bench-kernel-report.py OUTDIR [--json FILE]
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import kprobe  # noqa: E402
import waketrace  # noqa: E402

WL_DESC = {
    "seqread": "sequential reads, 128 KiB O_DIRECT, sync (psync), a region per thread",
    "randread": "random reads, 4 KiB O_DIRECT, sync, a region per thread",
    "seqwrite": "sequential buffered writes, 128 KiB, a region per thread",
    "randwrite": "random buffered writes, 4 KiB, a region per thread",
    "read-vs-write": "N sync sequential O_DIRECT readers (128 KiB) vs 1 buffered "
                     "streaming writer; latency = the readers'",
    "startup": "a fresh process's dependent 4 KiB O_DIRECT reads (psync, one at a time) "
               "while N sync sequential O_DIRECT readers (128 KiB) stream",
    "dbench": "dbench on ext4 on the device (memory-backed), N clients",
    "interleaved": "N sync sequential O_DIRECT readers (128 KiB) of one region, "
                   "reader i reading blocks i, i + N, ...",
}

# Which result fields stand for a workload's throughput, max latency and p99
# latency: the wall is found on "max", and scripts/lib/ab-plot.py draws these
# (the JSON carries this table as "plot_fields"), so plots and walls agree.
# "extra" is a third plot: FIELD against threads, with its label and file suffix.
# The scheduler column's width: 14, or the longest name of the run (a
# variant such as fair-queue+async_depth=8); set in main().
SW = 14
PLOT_FIELDS_DEFAULT = {"rate": "rate_mbs", "max": "max_lat_ms", "p99": "p99_lat_ms"}
PLOT_FIELDS = {
    "startup": {"rate": "rate_mbs", "max": "startup_max_lat_ms", "p99": None,
                "rate_label": "streamers' MB/s",
                "max_label": "the start-up job's max latency",
                "extra": {"field": "startup_s", "label": "start-up time (s)",
                          "suffix": "startup"}},
    "dbench": {"rate": "dbench_mbs", "max": "dbench_max_lat_ms", "p99": None,
               "rate_label": "dbench MB/s", "max_label": "dbench's max latency"},
}


def plot_fields(wl):
    return PLOT_FIELDS.get(wl, PLOT_FIELDS_DEFAULT)


def load_config(out):
    cfg = {}
    with open(os.path.join(out, "config.sh")) as f:
        for line in f:
            m = re.match(r"^([A-Z_]+)='?([^']*)'?$", line.strip())
            if m:
                cfg[m.group(1)] = m.group(2)
    return cfg


def load_meta(out):
    meta = {}
    path = os.path.join(out, "meta.txt")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition(" ")
                meta.setdefault(k, []).append(v)
    return meta


def load_fio(path):
    with open(path) as f:
        text = f.read()
    i = text.find("{")  # fio may print warnings before the JSON
    if i < 0:
        raise ValueError("no JSON")
    return json.loads(text[i:])


def job(fio, name):
    for j in fio["jobs"]:
        if j["jobname"] == name:
            return j
    return None


def run_metrics(fio, lats, wl, key):
    """Metrics of group KEY ("r1-none") of a point's fio JSON; raises ValueError
    when the run did not happen or its scheduler could not be selected."""
    setup, j = job(fio, "setup-" + key), job(fio, key)
    if setup is None or j is None:
        raise ValueError("no result")
    if setup.get("error", 0) or j.get("error", 0):
        raise ValueError(f"fio error {setup.get('error', 0) or j.get('error', 0)} "
                         "(scheduler selection or I/O)")
    lat = lats.get(key)
    if lat is None:
        raise ValueError("no latency log")
    if not lat.get("selected", 1):
        raise ValueError("the scheduler could not be selected")
    extra = {}
    if wl == "startup":
        # The streamers are KEY; sKEY the fresh process under load, iKEY the
        # same job alone just before (the idle baseline).
        su, idle = job(fio, "s" + key), job(fio, "i" + key)
        if su is None or idle is None:
            raise ValueError("no start-up job result")
        if su.get("error", 0) or idle.get("error", 0):
            raise ValueError(f"fio error {su.get('error', 0) or idle.get('error', 0)} (start-up job)")
        extra = {"startup_s": su["job_runtime"] / 1e3,
                 "startup_idle_s": idle["job_runtime"] / 1e3,
                 "startup_max_lat_ms": su["read"]["lat_ns"]["max"] / 1e6,
                 "startup_idle_max_lat_ms": idle["read"]["lat_ns"]["max"] / 1e6,
                 "startup_ios": su["read"]["total_ios"]}
    if wl in ("read-vs-write", "startup"):
        d = j["read"]
        rate = d["bw_bytes"] / 1e6
        w = job(fio, "w" + key)
        wmbs = w["write"]["bw_bytes"] / 1e6 if w else None
        if wl == "startup":
            wmbs = None
        elif w:
            # The writer's MB per second of its own CPU: what copying into
            # the page cache costs in this guest (elvkit-sim --copy-mbs).
            cpu_s = (w["usr_cpu"] + w["sys_cpu"]) / 100 * w["job_runtime"] / 1e3
            extra["write_cpu_mbs"] = w["write"]["io_bytes"] / 1e6 / cpu_s if cpu_s > 0 else None
            # The writeback estimate the group started with, which the
            # last writer (the group before, another scheduler) left.
            extra["wb_bw_start_kbps"] = lat.get("wb_bw_kbps")
    else:
        d = j["read"] if j["read"]["total_ios"] > 0 else j["write"]
        rate = (j["read"]["bw_bytes"] + j["write"]["bw_bytes"]) / 1e6
        wmbs = None
    if lat.get("late_hist"):
        # ekdisk's timer lateness over the group (late_hist's counts)
        extra["late_hist"] = lat["late_hist"]
    n = lat["n"]
    # fio's completion-latency percentiles (on by default; submission adds
    # next to nothing with libaio/psync): the p99 of the same I/Os, and the
    # p99.9 that shows the tail when the p99 sits on a knee of it.
    pct = d.get("clat_ns", {}).get("percentile", {})
    p99, p999 = pct.get("99.000000"), pct.get("99.900000")
    return {
        "rate_mbs": rate,
        "write_mbs": wmbs,
        "cpu_pct": j["usr_cpu"] + j["sys_cpu"],
        "avg_lat_ms": d["lat_ns"]["mean"] / 1e6,
        "max_lat_ms": d["lat_ns"]["max"] / 1e6,
        "p99_lat_ms": p99 / 1e6 if p99 is not None else None,
        "p999_lat_ms": p999 / 1e6 if p999 is not None else None,
        # tiobench's shares over 2 and 10 s, and two under them that show
        # a tail's share where a p99 on a knee of it moves tenfold for a
        # tenth of a percent of the I/Os (None: a run from before 2026-12-05)
        **{f"pct_over_{t}": (100.0 * lat[f"over_{t}"] / n if n else 0.0)
           if f"over_{t}" in lat else None for t in ("100ms", "500ms", "2s", "10s")},
        "ios": n,
        **extra,
    }


DBENCH_RE = re.compile(r"Throughput\s+([0-9.]+)\s+MB/sec\s+(\d+)\s+clients.*?"
                       r"max_latency=([0-9.]+)\s*ms")
OURS_RE = re.compile(r"^elvkit-bench: exit (\d+) selected (\d)", re.M)


def dbench_metrics(path, clients):
    """One dbench run's result from its output (dbench's closing line
    "Throughput X MB/sec N clients N procs max_latency=Y ms" and the guest's
    own "elvkit-bench: exit RC selected 0|1"); raises ValueError."""
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError:
        raise ValueError("no result")
    ours = OURS_RE.search(text)
    if ours is None:
        raise ValueError("no exit status (the run did not finish)")
    if ours.group(2) != "1":
        raise ValueError("the scheduler could not be selected")
    m = DBENCH_RE.search(text)
    if ours.group(1) != "0" or m is None:
        last = [ln for ln in text.strip().splitlines() if not ln.startswith("elvkit-bench:")]
        raise ValueError(f"dbench exit {ours.group(1)}" + (f": {last[-1].strip()}" if last else ""))
    if int(m.group(2)) != clients:
        raise ValueError(f"dbench ran {m.group(2)} clients, expected {clients}")
    return {"dbench_mbs": float(m.group(1)), "dbench_max_lat_ms": float(m.group(3))}


RATIO_KEYS = {"rate_mbs": "rate_vs_none", "cpu_pct": "cpu_vs_none",
              "avg_lat_ms": "avg_lat_vs_none", "max_lat_ms": "max_lat_vs_none"}


def aggregate(runs):
    agg = {}
    for k in list(dict.fromkeys(k for r in runs for k in r)):
        if any(isinstance(r.get(k), list) for r in runs):
            continue            # counts per run (late_hist): summed by the rows
        vals = [r[k] for r in runs if r.get(k) is not None]
        if not vals:
            agg[k], agg[k + "_pm"] = None, None
            continue
        agg[k] = sum(vals) / len(vals)
        agg[k + "_pm"] = (max(vals) - min(vals)) / 2
    return agg


def fmt(v, pm, runs, digits):
    if v is None:
        return "-"
    s = f"{v:.{digits}f}"
    if runs > 1:
        s += f"±{pm:.{digits}f}"
    return s


def ratio(v, base):
    if v is None or base is None or base == 0:
        return None
    return v / base


def fmt_ratio(r):
    return "-" if r is None else f"{r:.2f}x"


def digits_for(v):
    if v is None:
        return 1
    return 0 if abs(v) >= 1000 else 1 if abs(v) >= 10 else 2


def fio_table(out, dev, wl, threads, scheds, nruns, missing, failures):
    """{(threads, sched): (aggregate, runs)} of a fio workload's points."""
    table = {}
    for t in threads:
        base = os.path.join(out, "raw", dev, f"{wl}-t{t}")
        if not os.path.exists(base + ".json"):
            continue
        err = ""
        if os.path.exists(base + ".err"):
            with open(base + ".err") as f:
                lines = f.read().strip().splitlines()
                err = lines[-1] if lines else ""
        try:
            fio = load_fio(base + ".json")
            with open(base + ".lat") as f:
                lats = json.load(f)
        except (OSError, ValueError) as e:
            failures.append(f"{dev}/{wl}/t{t}: {e} {err}".strip())
            continue
        if lats.get("rc", 0) != 0:
            failures.append(f"{dev}/{wl}/t{t}: fio exit {lats['rc']} {err}".strip())
        for s in scheds:
            runs = []
            for r in range(1, nruns + 1):
                try:
                    runs.append(run_metrics(fio, lats, wl, f"r{r}-{s}"))
                except (ValueError, KeyError, TypeError) as e:
                    if s not in missing:
                        failures.append(f"{dev}/{wl}/t{t}/run{r}/{s}: {e}")
            if runs:
                table[(t, s)] = (aggregate(runs), len(runs), runs)
    return table


def dbench_table(out, dev, threads, scheds, nruns, missing, failures):
    """The same from dbench's outputs, one file per run."""
    table = {}
    for t in threads:
        for s in scheds:
            runs = []
            for r in range(1, nruns + 1):
                path = os.path.join(out, "raw", dev, f"dbench-t{t}-r{r}-{s}.txt")
                if not os.path.exists(path) and (s in missing or r == 1):
                    continue  # not run (missing scheduler, or the point never reached)
                try:
                    runs.append(dbench_metrics(path, t))
                except ValueError as e:
                    failures.append(f"{dev}/dbench/t{t}/run{r}/{s}: {e}")
            if runs:
                table[(t, s)] = (aggregate(runs), len(runs), runs)
    return table


def col(a, k, n, width, digits=None):
    v = a.get(k)
    d = digits_for(v) if digits is None else digits
    return f"{fmt(v, a.get(k + '_pm'), n, d):>{width}}"


def rcol(r, width=6):
    return f"{fmt_ratio(r):>{width}}"


def points(table, threads, scheds):
    """(threads, sched, aggregate, runs, none's aggregate) in table order."""
    for t in threads:
        base = table.get((t, "none"), (None,))[0]
        for s in scheds:
            if (t, s) in table:
                a, n, runs = table[(t, s)]
                yield t, s, a, n, runs, base


def result(t, s, n, a, rat, **more):
    res = {"threads": t, "sched": s, "runs": n}
    res.update(a)
    res.update(rat)
    res.update(more)
    return res


def fio_rows(table, threads, scheds, nr_rq, runtime, meta, late):
    """The classic workloads' table: the header, then (line, JSON result) per point."""
    mixed = any(a.get("write_mbs") is not None for a, _, _ in table.values())
    yield (f"{'thr':>4} {'scheduler':<{SW}} {'MB/s' if not mixed else 'rd MB/s':>14} {'xnone':>6}"
           + (f" {'wr MB/s':>12} {'xnone':>6}" if mixed else "")
           + f" {'CPU %':>12} {'xnone':>6} {'avg ms':>12} {'xnone':>6}"
           f" {'max ms':>14} {'xnone':>7} {'p99 ms':>12} {'p99.9 ms':>12} {'>2s %':>7} {'>10s %':>7} {'I/Os':>8} {'nr_rq':>5}",
           None)
    for t, s, a, n, runs, base in points(table, threads, scheds):
        rat = {RATIO_KEYS[k]: ratio(a[k], base[k] if base else None) for k in RATIO_KEYS}
        rat["write_vs_none"] = ratio(a["write_mbs"], base["write_mbs"] if base else None)
        line = f"{t:>4} {s:<{SW}} {col(a, 'rate_mbs', n, 14)} {rcol(rat['rate_vs_none'])}"
        if mixed:
            line += f" {col(a, 'write_mbs', n, 12)} {rcol(rat['write_vs_none'])}"
        line += (f" {col(a, 'cpu_pct', n, 12, 1)} {rcol(rat['cpu_vs_none'])}"
                 f" {col(a, 'avg_lat_ms', n, 12)} {rcol(rat['avg_lat_vs_none'])}"
                 f" {col(a, 'max_lat_ms', n, 14)} {rcol(rat['max_lat_vs_none'], 7)}"
                 f" {col(a, 'p99_lat_ms', n, 12)} {col(a, 'p999_lat_ms', n, 12)}"
                 f" {a['pct_over_2s']:>7.3f} {a['pct_over_10s']:>7.3f} {a['ios']:>8.0f}"
                 f" {nr_rq.get(s, '-'):>5}")
        # run by run, for elvkit-sim --wb-bw-init (one per seed)
        wb_runs = [r.get("wb_bw_start_kbps") for r in runs] if mixed else None
        # ekdisk's timer lateness over the point's runs (elvkit-sim --late-us)
        hists = [r["late_hist"] for r in runs if r.get("late_hist")]
        late = [sum(c) for c in zip(*hists)] if hists else None
        yield line, result(t, s, n, a, rat, wb_bw_start_kbps_runs=wb_runs, late_hist=late,
                           nr_requests=int(nr_rq[s]) if s in nr_rq else None)


def startup_rows(table, threads, scheds, nr_rq, runtime, meta, late):
    """Start-up under load: the fresh process's time, as a ratio to its idle
    time (same scheduler, same run) and to none's, its max latency, and the
    streamers' MB/s and max latency."""
    delay = float(meta.get("startup", ["200 1 1024"])[0].split()[1])
    yield (f"{'thr':>4} {'scheduler':<{SW}} {'start-up s':>12} {'xidle':>7} {'idle s':>11}"
           f" {'xnone':>6} {'su max ms':>12} {'xnone':>6} {'stream MB/s':>12} {'xnone':>6}"
           f" {'str max ms':>12} {'nr_rq':>5}", None)
    for t, s, a, n, runs, base in points(table, threads, scheds):
        def b(k):
            return base.get(k) if base else None
        rat = {"startup_vs_idle": ratio(a["startup_s"], a["startup_idle_s"]),
               "startup_vs_none": ratio(a["startup_s"], b("startup_s")),
               "startup_max_lat_vs_none": ratio(a["startup_max_lat_ms"], b("startup_max_lat_ms")),
               "rate_vs_none": ratio(a["rate_mbs"], b("rate_mbs")),
               "max_lat_vs_none": ratio(a["max_lat_ms"], b("max_lat_ms"))}
        # Runs whose start-up job was still reading when the streamers stopped.
        outlived = sum(1 for r in runs if delay + r["startup_s"] > runtime)
        if outlived:
            late.append(f"t{t} {s} ({outlived}/{n} runs)")
        yield (f"{t:>4} {s:<{SW}} {col(a, 'startup_s', n, 12, 3)} {rcol(rat['startup_vs_idle'], 7)}"
               f" {col(a, 'startup_idle_s', n, 11, 3)} {rcol(rat['startup_vs_none'])}"
               f" {col(a, 'startup_max_lat_ms', n, 12)} {rcol(rat['startup_max_lat_vs_none'])}"
               f" {col(a, 'rate_mbs', n, 12)} {rcol(rat['rate_vs_none'])}"
               f" {col(a, 'max_lat_ms', n, 12)} {nr_rq.get(s, '-'):>5}",
               result(t, s, n, a, rat, startup_outlived_load=outlived,
                      nr_requests=int(nr_rq[s]) if s in nr_rq else None))


def dbench_rows(table, threads, scheds, nr_rq, runtime, meta, late):
    """dbench: its throughput and max latency, as ratios to none's."""
    yield (f"{'cli':>4} {'scheduler':<{SW}} {'dbench MB/s':>14} {'xnone':>6}"
           f" {'max lat ms':>14} {'xnone':>7} {'nr_rq':>5}", None)
    for t, s, a, n, _, base in points(table, threads, scheds):
        rat = {"dbench_mbs_vs_none": ratio(a["dbench_mbs"], base["dbench_mbs"] if base else None),
               "dbench_max_lat_vs_none": ratio(a["dbench_max_lat_ms"],
                                               base["dbench_max_lat_ms"] if base else None)}
        yield (f"{t:>4} {s:<{SW}} {col(a, 'dbench_mbs', n, 14)} {rcol(rat['dbench_mbs_vs_none'])}"
               f" {col(a, 'dbench_max_lat_ms', n, 14)} {rcol(rat['dbench_max_lat_vs_none'], 7)}"
               f" {nr_rq.get(s, '-'):>5}",
               result(t, s, n, a, rat, nr_requests=int(nr_rq[s]) if s in nr_rq else None))


# btt 1.2 (Debian 12) names the queued-to-complete row Q2Cdm.
BTT_ROWS = {"I2D": "I2D", "D2C": "D2C", "Q2C": "Q2C", "Q2Cdm": "Q2C"}


def btt_averages(path):
    """{"I2D": (avg_ms, n), ...} from the "All Devices" table of btt's output
    (rows: NAME MIN AVG MAX N, seconds), or None when there is none."""
    try:
        text = open(path).read()
    except OSError:
        return None
    if "All Devices" not in text:
        return None
    avg = {}
    for line in text.split("All Devices", 1)[1].splitlines():
        f = line.split()
        if len(f) == 5 and f[0] in BTT_ROWS and BTT_ROWS[f[0]] not in avg:
            try:
                avg[BTT_ROWS[f[0]]] = (float(f[2]) * 1e3, int(f[4]))
            except ValueError:
                continue
        if line.startswith("==") and avg:
            break       # the next table
    return avg or None


def point_heading(dev, point, what):
    """Print the heading of a traced point WORKLOAD:THREADS; (workload, threads)."""
    wl, t = point.split(":")
    print()
    print(f"== {dev} / {wl} / {t} threads: {what}")
    return wl, t


def blktrace_rows(out, dev, points, scheds, kernel, failures):
    """Print btt's averages per scheduler for the traced points; JSON rows."""
    rows = []
    for p in points:
        wl, t = point_heading(dev, p, "where the time goes (blktrace, btt; "
                              "a separate run per scheduler)")
        print(f"{'scheduler':<{SW}} {'I2D ms':>10} {'Q2D ms':>10} {'D2C ms':>10} {'Q2C ms':>10} {'I/Os':>8}")
        for s in scheds:
            path = os.path.join(out, "raw", dev, "blktrace", f"{wl}-t{t}-{s}.btt")
            a = btt_averages(path)
            if a is None or "D2C" not in a or "Q2C" not in a:
                if os.path.exists(path) or os.path.isdir(os.path.dirname(path)):
                    failures.append(f"{dev}/{wl}/t{t}/{s}: no btt summary ({path})")
                continue
            i2d = a.get("I2D", (None, 0))[0]
            q2d = a["Q2C"][0] - a["D2C"][0]
            r = {"kernel": kernel, "device": dev, "workload": wl, "threads": int(t),
                 "sched": s, "i2d_ms": i2d, "q2d_ms": q2d, "d2c_ms": a["D2C"][0],
                 "q2c_ms": a["Q2C"][0], "ios": a["Q2C"][1]}
            rows.append(r)
            print(f"{s:<{SW}} {'-' if i2d is None else f'{i2d:.3f}':>10} {q2d:>10.3f}"
                  f" {r['d2c_ms']:>10.3f} {r['q2c_ms']:>10.3f} {r['ios']:>8}")
        print("  I2D: inserted into the scheduler until dispatched (none: no insert)."
              " Q2D = Q2C - D2C: queued until dispatched, scheduler and tag waits."
              " D2C: on the device.")
    return rows


def waketrace_rows(out, dev, points, scheds, kernel, meta, failures):
    """Print each scheduler's wake trace for the --trace-wake points; JSON rows."""
    rows = []
    for p in points:
        wl, t = point_heading(dev, p, "waking for a request (tracefs, the middle half of a "
                              "separate run per scheduler; times from a task's request completing)")
        for v in meta.get(f"wake_error.{dev}", []):
            print(f"  wake trace error: {v}")
        for s in scheds:
            base = os.path.join(out, "raw", dev, "wake", f"{wl}-t{t}-{s}")
            vals = waketrace.load_point(base + ".trace.gz")
            if not vals:
                if os.path.isdir(os.path.dirname(base)):
                    failures.append(f"{dev}/{wl}/t{t}/{s}: no wake trace ({base}.trace.gz)")
                continue
            print(f"-- {s}")
            tg = waketrace.tags(base + ".tags")
            waketrace.print_table(vals, tg)
            rows += [{"kernel": kernel, "device": dev, "workload": wl, "threads": int(t),
                      "sched": s, **r} for r in waketrace.rows(vals) + waketrace.pool_rows(tg, s)]
    if rows:
        print("  done -> woken: its I/O wait (a reader) or wbt (the writer) ends; woken -> running:"
              " CPU delay; wakes per next > 1: sleeps for a tag or wbt lost; slept: bio to"
              " request; done -> waiter woken: any completion to a waiting task's wakeup")
    return rows


def main(argv):
    args = argv[1:]
    json_out = None
    if "--json" in args:
        i = args.index("--json")
        if i + 1 >= len(args):
            print("bench-kernel-report: --json needs a file", file=sys.stderr)
            return 2
        json_out = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        print("usage: bench-kernel-report.py OUTDIR [--json FILE]", file=sys.stderr)
        return 2
    out = args[0]
    cfg = load_config(out)
    meta = load_meta(out)
    devices = cfg["DEVICES"].split()
    workloads = cfg["WORKLOADS"].split()
    threads = [int(t) for t in cfg["THREADS"].split()]
    nruns = int(cfg["RUNS"])
    scheds = cfg["SCHEDS"].split()
    global SW
    SW = max([14] + [len(s) for s in scheds])
    kernel = meta.get("kernel", [cfg["KVER"]])[0]

    print(f"bench-kernel: {kernel}, QEMU/TCG, {meta.get('cpus', ['?'])[0]} vCPUs, "
          f"{int(meta.get('mem_kb', ['0'])[0]) // 1024} MiB, {meta.get('fio', ['fio ?'])[0]}, "
          f"runtime {cfg['RUNTIME']} s per point, {nruns} run(s) per point"
          + (" (mean ± half the range)" if nruns > 1 else ""))
    print("  ratios (x none) are to `none` on the same device in the same boot; "
          "TCG inflates CPU cost, never compare across boots")
    for k in ("error", "load_error"):
        for v in meta.get(k, []):
            print(f"  {k.replace('_', ' ')}: {v}")
    set_after = cfg.get("TUNES", "").split()
    if cfg.get("NR_REQUESTS"):
        set_after.append(f"nr_requests={cfg['NR_REQUESTS']}")
    if set_after:
        print(f"  set after every switch (--tune, --nr-requests; where the scheduler has it): "
              f"{' '.join(set_after)}")

    results, walls, failures, probed = [], [], [], []
    for dev in devices:
        print()
        for v in meta.get(f"device_error.{dev}", []):
            print(f"{dev}: {v}")
        if f"device.{dev}" not in meta:
            continue
        print(f"### device {dev}: {meta[f'device.{dev}'][0]}")
        print(f"    rotational={meta.get(f'rotational.{dev}', ['?'])[0]}, "
              f"max_sectors_kb={meta.get(f'max_sectors_kb.{dev}', ['?'])[0]}, "
              f"vm.dirty_bytes/background={meta.get(f'dirty_bytes.{dev}', ['?'])[0]}")
        for v in meta.get(f"ekdisk_stats.{dev}", []):
            st = v.split()
            st = {k: int(n) for k, n in zip(st[::2], st[1::2])}
            if st.get("done"):
                print(f"    ekdisk: {st['done']} requests, model latency "
                      f"{st['model_ns'] / st['done'] / 1e6:.2f} ms on average; "
                      f"the timer handed them back {st['late_ns'] / st['done'] / 1e6:.3f} ms late "
                      "on average (the guest's vCPUs waiting for host cores)")
        for s in scheds:
            for v in meta.get(f"tune_refused.{dev}.{s}", []):
                print(f"    {s} refused: {v}")
        for v in meta.get(f"tune_unused.{dev}", []):
            print(f"    --tune {v}: no scheduler here has it; nothing was set")
        missing = meta.get(f"missing.{dev}", [])
        nr_rq = {s: meta[f"nr_requests.{dev}.{s}"][0] for s in scheds
                 if f"nr_requests.{dev}.{s}" in meta}
        if missing:
            print(f"    not available on this kernel: {', '.join(missing)}")
        for wl in workloads:
            if wl == "dbench":
                table = dbench_table(out, dev, threads, scheds, nruns, missing, failures)
            else:
                table = fio_table(out, dev, wl, threads, scheds, nruns, missing, failures)
            if not table:
                continue
            print()
            print(f"== {dev} / {wl}: {WL_DESC[wl]}")
            for v in meta.get(f"dbench_fs.{dev}", []) if wl == "dbench" else []:
                print(f"   {v}; {meta.get('dbench', ['dbench'])[0]}, -t {cfg['RUNTIME']}")
            if wl == "startup":
                su = meta.get("startup", ["200 1 1024"])[0].split()
                print(f"   start-up: {su[0]} reads from a {su[2]} MiB region past the streamers, "
                      f"{su[1]} s after them; idle = the same job alone just before, "
                      "same scheduler")
            printer = {"startup": startup_rows, "dbench": dbench_rows}.get(wl, fio_rows)
            late = []
            for line, res in printer(table, threads, scheds, nr_rq, int(cfg["RUNTIME"]), meta, late):
                print(line)
                if res is not None:
                    results.append({"kernel": kernel, "device": dev, "workload": wl, **res})
            if late:
                print(f"  start-up outlived the streamers ({cfg['RUNTIME']} s) in: "
                      + ", ".join(late) + " (its tail ran on an idle device)")
            # The wall: the smallest thread count whose max latency is >= 10x
            # the previous thread count's.
            mk = plot_fields(wl)["max"]
            wl_walls = []
            for s in scheds:
                pts = [(t, table[(t, s)][0][mk]) for t in threads
                       if (t, s) in table and table[(t, s)][0].get(mk) is not None]
                if not pts:
                    continue
                wall = None
                for (_, prev), (t, cur) in zip(pts, pts[1:]):
                    if prev > 0 and cur >= 10 * prev:
                        wall = t
                        break
                walls.append({"kernel": kernel, "device": dev, "workload": wl, "sched": s,
                              "wall_threads": wall})
                wl_walls.append(f"{s} {wall if wall is not None else '-'}")
            what = plot_fields(wl).get("max_label", "max latency")
            print(f"  the wall ({what} >= 10x the previous thread count's; - = not hit "
                  f"up to {threads[-1]}): " + ", ".join(wl_walls))
            if wl != "dbench":
                probed += [{"kernel": kernel, **r} for r in
                           kprobe.rows(out, dev, wl, threads, scheds, SW)]
    traced, woken = [], []
    for dev in devices:
        points = cfg.get("BLKTRACE", "").split()
        if points:
            traced += blktrace_rows(out, dev, points, scheds, kernel, failures)
        points = cfg.get("WAKETRACE", "").split()
        if points:
            woken += waketrace_rows(out, dev, points, scheds, kernel, meta, failures)
    if failures:
        print()
        print("failed points (left out of the tables):")
        for f in failures:
            print("  " + f)
    if json_out:
        with open(json_out, "w") as f:
            json.dump({"kernel": kernel, "config": cfg, "meta": meta,
                       "results": results, "walls": walls, "failures": failures,
                       "blktrace": traced, "wake": woken, "probe": probed,
                       "plot_fields": {wl: plot_fields(wl) for wl in workloads}},
                      f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
