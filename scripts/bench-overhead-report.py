#!/usr/bin/env python3
"""Table of a scripts/bench-overhead.sh run: per scheduler the median IOPS,
its spread over the rounds (min..max), the median as a ratio to `none`, and
the median CPU time per I/O. Usage: bench-overhead-report.py OUTDIR"""
import json
import statistics
import sys


def main():
    outdir = sys.argv[1]
    kver, order, pts, icount = "?", [], {}, False
    for line in open(f"{outdir}/config.sh"):
        if line.startswith("KVER="):
            kver = line.split("=", 1)[1].strip().strip("'")
        if line.startswith("SCHEDS="):
            order = line.split("=", 1)[1].strip().strip("'").split()
        if line.strip() == "ICOUNT=1":
            icount = True
    jobs = {}
    for line in open(f"{outdir}/results.txt"):
        r, s, iops, ios, ticks, hz = line.split()
        ios, ticks, hz = int(ios), int(ticks), int(hz)
        if not ios:
            # from fio's JSON, after the lines fio prints before it
            if r not in jobs:
                text = open(f"{outdir}/round-{r}.json").read()
                jobs[r] = {j["jobname"]: j["read"] for j in
                           json.loads(text[text.index("{"):])["jobs"]}
            iops, ios = jobs[r][f"m-{s}"]["iops"], jobs[r][f"m-{s}"]["total_ios"]
        cpu_us = ticks * 1e6 / hz / ios if ios else float("nan")
        pts.setdefault(s, []).append((float(iops), cpu_us))
    base = statistics.median(p[0] for p in pts["none"]) if "none" in pts else None
    print(f"kernel {kver}: null_blk irqmode=0 submit_queues=2, fio 4k randread "
          f"libaio QD32 x 2 jobs; {max(len(v) for v in pts.values())} rounds")
    if icount:
        print("icount: 1 vCPU, guest time counts instructions (1 ns each): "
              "CPU us/IO is thousands of instructions per I/O")
    print("| scheduler | median IOPS | spread (min..max) | ratio to none | "
          "CPU us/IO |")
    print("|---|---|---|---|---|")
    for s in order:
        if s not in pts:
            print(f"| {s} | - | - | - | - |")
            continue
        iops = [p[0] for p in pts[s]]
        med = statistics.median(iops)
        ratio = f"{med / base:.2f}" if base else "-"
        cpu = statistics.median(p[1] for p in pts[s])
        half = (max(iops) - min(iops)) / med * 50 if med else 0
        print(f"| {s} | {med:.0f} | {min(iops):.0f}..{max(iops):.0f} "
              f"(+/-{half:.0f}%) | {ratio} | {cpu:.1f} |")


main()
