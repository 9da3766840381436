#!/usr/bin/env python3
"""The reliability report: one row per kernel from RESULTS/rel-KVER.tsv (the
figures the tests/vm/7NN-rel-*.sh tests record) and RESULTS/vm-KVER.txt (their
PASS/FAIL lines). Usage: rel-report.py RESULTS_DIR [KVER...] [--markdown]"""
import collections
import glob
import os
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
if not args:
    sys.exit("usage: rel-report.py RESULTS_DIR [KVER...]")
res = args[0]
kvers = args[1:] or sorted(os.path.basename(f)[4:-4] for f in glob.glob(f"{res}/rel-*.tsv"))


def short(d):
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items())) or "-"


rows = []
for kv in kvers:
    path = f"{res}/rel-{kv}.tsv"
    if not os.path.exists(path):
        continue
    load = collections.Counter()
    faults = collections.Counter()
    inputs = collections.Counter()
    data_errors = reports = 0
    mem = []
    maxdev = 0
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) != 4:
            continue
        test, kind, key, val = f
        try:
            v = int(val)
        except ValueError:
            continue
        if kind == "load":
            if key.startswith("mem_kib_per_device"):
                mem.append(f"{key[19:]} {v} KiB")
            else:
                load[key] += v
            if key == "devices":
                maxdev = max(maxdev, v)
        elif kind == "fault":
            faults[key] += v
        elif kind == "input":
            inputs[key] += v
        elif kind == "data_errors":
            data_errors += v
        elif kind == "kernel_reports":
            reports += v
    passed = failed = 0
    vt = f"{res}/vm-{kv}.txt"
    if os.path.exists(vt):
        for line in open(vt):
            if "-rel-" in line:
                passed += line.startswith("PASS")
                failed += line.startswith("FAIL")
    rows.append((kv, passed, failed, load, maxdev, mem, faults, inputs, data_errors, reports))

print("| kernel | rel tests pass/fail | switches | devices (most at once) | I/Os verified | I/Os under faults | module loads | memory per device | faults survived | bad inputs tried | data errors | kernel reports |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for kv, p, fl, load, maxdev, mem, faults, inputs, de, rep in rows:
    print(f"| {kv} | {p}/{fl} | {load['switches']} | {load['devices']} ({maxdev}) | {load['ios_verified']} "
          f"| {load['ios_under_fault']} | {load['module_loads']} | {'; '.join(mem) or '-'} "
          f"| {short(faults)} | {short(inputs)} | {de} | {rep} |")
