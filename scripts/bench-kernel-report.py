#!/usr/bin/env python3
"""Report of one scripts/bench-kernel.sh run (one boot).

Reads OUTDIR/config.sh, OUTDIR/meta.txt and OUTDIR/raw/DEVICE/WL-tT-rR-SCHED.{json,lat}
(fio JSON and the guest's exact per-I/O latency shares), prints one table per
device and workload with every value also as a ratio to `none` of the same boot,
then the wall. --json FILE writes the same numbers.
usage: bench-kernel-report.py OUTDIR [--json FILE]
"""
import json
import os
import re
import sys

WL_DESC = {
    "seqread": "sequential reads, 128 KiB O_DIRECT, sync (psync), a region per thread",
    "randread": "random reads, 4 KiB O_DIRECT, sync, a region per thread",
    "seqwrite": "sequential buffered writes, 128 KiB, a region per thread",
    "randwrite": "random buffered writes, 4 KiB, a region per thread",
    "read-vs-write": "N sync sequential O_DIRECT readers (128 KiB) vs 1 buffered "
                     "streaming writer; latency = the readers'",
}


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
    if wl == "read-vs-write":
        d = j["read"]
        rate = d["bw_bytes"] / 1e6
        w = job(fio, "w" + key)
        wmbs = w["write"]["bw_bytes"] / 1e6 if w else None
    else:
        d = j["read"] if j["read"]["total_ios"] > 0 else j["write"]
        rate = (j["read"]["bw_bytes"] + j["write"]["bw_bytes"]) / 1e6
        wmbs = None
    n = lat["n"]
    # fio's completion-latency percentiles (on by default; submission adds
    # next to nothing with libaio/psync): the p99 of the same I/Os.
    p99 = d.get("clat_ns", {}).get("percentile", {}).get("99.000000")
    return {
        "rate_mbs": rate,
        "write_mbs": wmbs,
        "cpu_pct": j["usr_cpu"] + j["sys_cpu"],
        "avg_lat_ms": d["lat_ns"]["mean"] / 1e6,
        "max_lat_ms": d["lat_ns"]["max"] / 1e6,
        "p99_lat_ms": p99 / 1e6 if p99 is not None else None,
        "pct_over_2s": 100.0 * lat["over_2s"] / n if n else 0.0,
        "pct_over_10s": 100.0 * lat["over_10s"] / n if n else 0.0,
        "ios": n,
    }


KEYS = ["rate_mbs", "write_mbs", "cpu_pct", "avg_lat_ms", "max_lat_ms",
        "p99_lat_ms", "pct_over_2s", "pct_over_10s", "ios"]
RATIO_KEYS = {"rate_mbs": "rate_vs_none", "cpu_pct": "cpu_vs_none",
              "avg_lat_ms": "avg_lat_vs_none", "max_lat_ms": "max_lat_vs_none"}


def aggregate(runs):
    agg = {}
    for k in KEYS:
        vals = [r[k] for r in runs if r[k] is not None]
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

    results, walls, failures = [], [], []
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
        missing = meta.get(f"missing.{dev}", [])
        nr_rq = {s: meta[f"nr_requests.{dev}.{s}"][0] for s in scheds
                 if f"nr_requests.{dev}.{s}" in meta}
        if missing:
            print(f"    not available on this kernel: {', '.join(missing)}")
        for wl in workloads:
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
                        table[(t, s)] = (aggregate(runs), len(runs))
            if not table:
                continue
            print()
            print(f"== {dev} / {wl}: {WL_DESC[wl]}")
            mixed = wl == "read-vs-write"
            hdr = (f"{'thr':>4} {'scheduler':<14} {'MB/s' if not mixed else 'rd MB/s':>14} {'xnone':>6}"
                   + (f" {'wr MB/s':>12} {'xnone':>6}" if mixed else "")
                   + f" {'CPU %':>12} {'xnone':>6} {'avg ms':>12} {'xnone':>6}"
                   f" {'max ms':>14} {'xnone':>7} {'p99 ms':>12} {'>2s %':>7} {'>10s %':>7} {'I/Os':>8} {'nr_rq':>5}")
            print(hdr)
            for t in threads:
                base = table.get((t, "none"), (None, 0))[0]
                for s in scheds:
                    if (t, s) not in table:
                        continue
                    a, n = table[(t, s)]
                    rat = {RATIO_KEYS[k]: ratio(a[k], base[k] if base else None) for k in RATIO_KEYS}
                    rat["write_vs_none"] = ratio(a["write_mbs"], base["write_mbs"] if base else None)
                    line = (f"{t:>4} {s:<14} {fmt(a['rate_mbs'], a['rate_mbs_pm'], n, digits_for(a['rate_mbs'])):>14}"
                            f" {fmt_ratio(rat['rate_vs_none']):>6}")
                    if mixed:
                        line += (f" {fmt(a['write_mbs'], a['write_mbs_pm'], n, digits_for(a['write_mbs'])):>12}"
                                 f" {fmt_ratio(rat['write_vs_none']):>6}")
                    line += (f" {fmt(a['cpu_pct'], a['cpu_pct_pm'], n, 1):>12} {fmt_ratio(rat['cpu_vs_none']):>6}"
                             f" {fmt(a['avg_lat_ms'], a['avg_lat_ms_pm'], n, digits_for(a['avg_lat_ms'])):>12}"
                             f" {fmt_ratio(rat['avg_lat_vs_none']):>6}"
                             f" {fmt(a['max_lat_ms'], a['max_lat_ms_pm'], n, digits_for(a['max_lat_ms'])):>14}"
                             f" {fmt_ratio(rat['max_lat_vs_none']):>7}"
                             f" {fmt(a['p99_lat_ms'], a['p99_lat_ms_pm'], n, digits_for(a['p99_lat_ms'])):>12}"
                             f" {a['pct_over_2s']:>7.3f} {a['pct_over_10s']:>7.3f} {a['ios']:>8.0f}"
                             f" {nr_rq.get(s, '-'):>5}")
                    print(line)
                    res = {"kernel": kernel, "device": dev, "workload": wl, "threads": t,
                           "sched": s, "runs": n}
                    res.update({k: v for k, v in a.items()})
                    res.update(rat)
                    res["nr_requests"] = int(nr_rq[s]) if s in nr_rq else None
                    results.append(res)
            # The wall: the smallest thread count whose max latency is >= 10x
            # the previous thread count's.
            wl_walls = []
            for s in scheds:
                pts = [(t, table[(t, s)][0]["max_lat_ms"]) for t in threads if (t, s) in table]
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
            print(f"  the wall (max latency >= 10x the previous thread count's; - = not hit "
                  f"up to {threads[-1]}): " + ", ".join(wl_walls))
    if failures:
        print()
        print("failed points (left out of the tables):")
        for f in failures:
            print("  " + f)
    if json_out:
        with open(json_out, "w") as f:
            json.dump({"kernel": kernel, "config": cfg, "meta": meta,
                       "results": results, "walls": walls, "failures": failures}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
