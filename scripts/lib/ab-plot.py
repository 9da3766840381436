#!/usr/bin/env python3
"""PNG plots of A/B results, from either host, through gnuplot.

usage: ab-plot.py [--no-wall] JSON... OUTDIR

JSON is `elvkit-sim --json` output (an array of rows) or
`scripts/bench-kernel.sh --json` output (an object with "results" and
"walls", and "plot_fields": per workload, which result fields are its
throughput, max and p99 latency; by default rate_mbs, max_lat_ms and
p99_lat_ms). For every device and workload it writes into OUTDIR:
  DEVICE-WORKLOAD-latency.png     max (solid) and p99 (dashed) latency
                                  against threads, both axes log scale
  DEVICE-WORKLOAD-throughput.png  MB/s against threads
  DEVICE-WORKLOAD-SUFFIX.png      a third plot where the JSON's plot_fields
                                  names one ("extra"; bench-kernel's startup:
                                  DEVICE-startup-startup.png, start-up time)
  DEVICE-WORKLOAD.gp              the gnuplot script, data inline, to restyle
one line per scheduler, the wall marked: a dotted vertical line and, on
the latency plot, a circle, in the scheduler's colour, and its thread
count in the key. --no-wall leaves the walls out (a sweep of two points,
as bench-sim-profiles.sh's read-vs-write, has no wall to speak of).
Bad arguments exit 2 with one line; gnuplot missing or failing exits 1.
"""
import json
import os
import re
import shutil
import subprocess
import sys

PROG = "ab-plot"


class Usage(Exception):
    pass


def sim_walls(rows):
    """The wall as elvkit-sim's report_wall() finds it (src/sim/report.c):
    per scheduler, over its rows in the order given, the first thread count
    whose max latency is 10x or more the previous row's (which must be > 0).
    The kernel report uses the same rule and writes its walls into its JSON."""
    walls, prev = {}, {}
    for r in rows:
        s = r["sched"]
        if s in walls:
            continue
        p = prev.get(s)
        if p is not None and p > 0 and r["max"] >= 10 * p:
            walls[s] = r["threads"]
        prev[s] = r["max"]
    return walls


def num(v):
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


# Which fields are a row's throughput, max and p99 latency: these, unless the
# JSON's "plot_fields" (bench-kernel's report, per workload) says otherwise.
DEFAULT_FIELDS = {"rate": "rate_mbs", "max": "max_lat_ms", "p99": "p99_lat_ms"}


def row(r, path, plot_fields=None):
    try:
        wl = str(r["workload"])
        f = dict(DEFAULT_FIELDS)
        if isinstance(plot_fields, dict) and isinstance(plot_fields.get(wl), dict):
            f.update(plot_fields[wl])
        extra = f.get("extra") if isinstance(f.get("extra"), dict) else None
        return {"sched": str(r["sched"]), "device": str(r["device"]),
                "workload": wl, "threads": int(r["threads"]),
                "max": num(r.get(f["max"])) if f["max"] else None,
                "p99": num(r.get(f["p99"])) if f["p99"] else None,
                "rate": num(r.get(f["rate"])) if f["rate"] else None,
                "extra": num(r.get(extra["field"])) if extra else None,
                "fields": f}
    except (KeyError, TypeError, ValueError) as e:
        raise Usage(f"{path}: a result lacks sched/device/workload/threads ({e})")


def load(path):
    """Normalise one file into {(device, workload): group}."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise Usage(f"{path}: {e.strerror}")
    except ValueError as e:
        raise Usage(f"{path}: not JSON ({e})")
    if isinstance(data, list):  # elvkit-sim --json
        host, rows, kwalls = "elvkit-sim", [row(r, path) for r in data], None
    elif isinstance(data, dict) and isinstance(data.get("results"), list):
        host = f"kernel {data.get('kernel', '?')} (QEMU)"
        rows = [row(r, path, data.get("plot_fields")) for r in data["results"]]
        kwalls = data.get("walls")
    else:
        raise Usage(f"{path}: neither elvkit-sim's nor bench-kernel's --json output")
    groups = {}
    for r in rows:
        g = groups.setdefault((r["device"], r["workload"]),
                              {"host": host, "rows": [], "walls": {}, "file": path})
        g["rows"].append(r)
    for (dev, wl), g in groups.items():
        if isinstance(kwalls, list):
            g["walls"] = {w["sched"]: w["wall_threads"] for w in kwalls
                          if w.get("device") == dev and w.get("workload") == wl
                          and w.get("wall_threads") is not None}
        else:
            g["walls"] = sim_walls(g["rows"])
    return groups


def q(s):
    """A gnuplot double-quoted string."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def fnum(v, log):
    # "?" is gnuplot's missing value: a log axis cannot show 0.
    if v is None or (log and v <= 0):
        return "?"
    return f"{v:.6g}"


def script(dev, wl, g, walls_on):
    rows = g["rows"]
    scheds = list(dict.fromkeys(r["sched"] for r in rows))
    threads = sorted({r["threads"] for r in rows})
    walls = g["walls"] if walls_on else {}
    has_p99 = any(r["p99"] is not None for r in rows)
    # Names come from the JSON: keep them from reaching outside OUTDIR.
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", f"{dev}-{wl}").lstrip(".")
    out = ["# " + f"{PROG}: {g['host']}, {dev} / {wl}, from {g['file']}",
           "# Data inline: edit and rerun `gnuplot " + stem + ".gp` here to restyle.",
           'set datafile missing "?"']
    for i, s in enumerate(scheds):
        out.append(f"$s{i} << EOD")
        for r in sorted((r for r in rows if r["sched"] == s), key=lambda r: r["threads"]):
            out.append(f"{r['threads']} {fnum(r['max'], True)} {fnum(r['p99'], True)}"
                       f" {fnum(r['rate'], False)} {fnum(r['extra'], False)}")
        out.append("EOD")
    out += [
        # pngcairo draws smoother lines; plain png (libgd) is the fallback.
        'if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {',
        '  set terminal pngcairo size 800,500 noenhanced font "sans,10"',
        "} else {",
        "  set terminal png size 800,500 noenhanced",
        "}",
        "set logscale x 2",
        f"set xrange [{threads[0] / 1.3:.6g}:{threads[-1] * 1.3:.6g}]",
        "set xtics (" + ", ".join(f'"{t}" {t}' for t in threads) + ")",
        "set xlabel \"threads\"",
        "set grid",
        # The key under the x label, not over it (plain "below" overlaps it).
        "set bmargin 6",
        "set key at screen 0.5, screen 0.01 center bottom horizontal",
    ]

    def wall_marks():
        marks = []
        for i, s in enumerate(scheds):
            if s in walls:
                marks.append(f"set arrow from {walls[s]}, graph 0 to {walls[s]}, graph 1"
                             f" nohead dt 3 lw 1.5 lc {i + 1}")
        return marks

    def key(s):
        if not walls_on:
            return s
        return f"{s} (wall {walls[s]})" if s in walls else f"{s} (no wall)"

    fields = rows[0]["fields"]
    extra = fields.get("extra") if isinstance(fields.get("extra"), dict) else None
    head = f"{g['host']}: {dev} / {wl}"
    wall_note = (f"the wall ({fields.get('max_label', 'max latency')} >= 10x the previous"
                 " thread count's): dotted" if walls else "")
    lat = [r for r in rows if r["max"] and r["max"] > 0]
    if lat:
        what = ("max (solid) and p99 (dashed) latency" if has_p99
                else str(fields.get("max_label", "max latency (these results have no p99)")))
        # A p99 of 0 (99% page-cache hits) has no place on a log axis: say so.
        zero = [s for s in scheds if any(r["p99"] == 0 for r in rows if r["sched"] == s)]
        if zero:
            what += f"\np99 of 0 ms, off the log axis: {', '.join(zero)}"
        title = f"{head}: {what}" + (f"\n{wall_note}, and circled" if walls else "")
        out += ["", f"set output {q(stem + '-latency.png')}", f"set title {q(title)}",
                "set logscale y 10", "set ylabel \"latency (ms)\"", "unset arrow"]
        out += wall_marks()
        plots = []
        for i, s in enumerate(scheds):
            plots.append(f"$s{i} using 1:2 with linespoints lw 2 pt 7 lc {i + 1} title {q(key(s))}")
            if any(r["p99"] for r in rows if r["sched"] == s):
                plots.append(f"$s{i} using 1:3 with linespoints dt 2 lw 1.5 pt 1 lc {i + 1} notitle")
        for i, s in enumerate(scheds):
            if s in walls:
                y = next((r["max"] for r in rows if r["sched"] == s and r["threads"] == walls[s]), None)
                if y and y > 0:
                    out.append(f"$w{i} << EOD\n{walls[s]} {y:.6g}\nEOD")
                    plots.append(f"$w{i} using 1:2 with points pt 6 ps 3 lw 2 lc {i + 1} notitle")
        out.append("plot " + ", \\\n     ".join(plots))
    else:
        print(f"{PROG}: {dev} / {wl}: no latency above 0, no latency plot", file=sys.stderr)
    out += ["", f"set output {q(stem + '-throughput.png')}",
            f"set title {q(head + ': ' + str(fields.get('rate_label', 'throughput')) + (chr(10) + wall_note if walls else ''))}",
            "unset logscale y", "set yrange [0:*]", "set ylabel \"MB/s\"", "unset arrow"]
    out += wall_marks()
    out.append("plot " + ", \\\n     ".join(
        f"$s{i} using 1:4 with linespoints lw 2 pt 7 lc {i + 1} title {q(key(s))}"
        for i, s in enumerate(scheds)))
    pngs = 2 if lat else 1
    if extra and any(r["extra"] is not None for r in rows):
        # A third plot the JSON asks for (bench-kernel's startup: start-up time).
        suffix = re.sub(r"[^A-Za-z0-9_-]", "_", str(extra.get("suffix", "extra")))
        label = str(extra.get("label", extra["field"]))
        out += ["", f"set output {q(stem + '-' + suffix + '.png')}",
                f"set title {q(head + ': ' + label + (chr(10) + wall_note if walls else ''))}",
                "unset logscale y", "set yrange [0:*]", f"set ylabel {q(label)}", "unset arrow"]
        out += wall_marks()
        out.append("plot " + ", \\\n     ".join(
            f"$s{i} using 1:5 with linespoints lw 2 pt 7 lc {i + 1} title {q(key(s))}"
            for i, s in enumerate(scheds)))
        pngs += 1
    return stem, "\n".join(out) + "\n", pngs


def main(argv):
    args = argv[1:]
    walls_on = True
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if args[:1] == ["--no-wall"]:
        walls_on, args = False, args[1:]
    if len(args) < 2 or any(a.startswith("-") for a in args):
        raise Usage("usage: ab-plot.py [--no-wall] JSON... OUTDIR")
    *files, outdir = args
    if os.path.exists(outdir) and not os.path.isdir(outdir):
        raise Usage(f"{outdir}: exists and is not a directory")
    groups = {}
    for f in files:
        for k, g in load(f).items():
            if k in groups:
                raise Usage(f"{f}: {k[0]} / {k[1]} is also in {groups[k]['file']}")
            groups[k] = g
    if not groups:
        raise Usage(f"{' '.join(files)}: no results")
    if not shutil.which("gnuplot"):
        print(f"{PROG}: gnuplot is not installed; run make deps", file=sys.stderr)
        return 1
    os.makedirs(outdir, exist_ok=True)
    n = 0
    for (dev, wl), g in sorted(groups.items()):
        stem, text, pngs = script(dev, wl, g, walls_on)
        with open(os.path.join(outdir, stem + ".gp"), "w") as f:
            f.write(text)
        p = subprocess.run(["gnuplot", stem + ".gp"], cwd=outdir,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode:
            last = (p.stderr.strip().splitlines() or ["?"])[-1]
            print(f"{PROG}: gnuplot failed on {os.path.join(outdir, stem)}.gp: {last}",
                  file=sys.stderr)
            return 1
        n += pngs
    print(f"{PROG}: {n} PNGs in {outdir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Usage as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(2)
