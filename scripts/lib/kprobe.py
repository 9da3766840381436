"""The block layer's state while a bench-kernel point ran (--probe).

The guest's sampler (bench-kernel-guest.sh, probe_sampler) writes
raw/DEVICE/WL-tT.probe: a header, then one line per sample,
"t group wb_normal wb_background wbt_inflight tags_busy tags_waiters
sched_busy sched_waiters dirty_kb writeback_kb rd_ios rd_sectors wr_ios
wr_sectors", "-" for a value the kernel did not show and for samples
before the first group. Groups are fio's "rN-SCHED"; runs of one scheduler
are pooled. The last four are /sys/block/DEV/stat's running totals, so a
request's size comes from their growth between a group's first and last
sample (the I/O of the sample interval before it is left out).

A group's means count its samples from the first to the last that found a
request held (busy driver or scheduler tags): the group's name is set
before fio starts its jobs (0.5 s for one, 1.8 s for 64 under TCG) and
stays until the next group's, so its first and last samples see an idle
queue that belongs to no workload. Counted in, they cut the means by up to
13% (deadline-read, 64 readers: 55.7 requests held against 64 while the
jobs ran).
"""
import os

FIELDS = ("wb_normal", "wb_background", "wbt_inflight", "tags_busy", "tags_waiters",
          "sched_busy", "sched_waiters", "dirty_kb", "writeback_kb")
# The device's completions so far (/sys/block/DEV/stat): a group's count is
# its last sample's less its first.
COUNTS = ("rd_ios", "rd_sectors", "wr_ios", "wr_sectors")
# sbitmap's "busy" is its weight less its cleared bits, read without a lock:
# a clear racing the read can make it wrap below zero (seen: 4294967294 in
# one sample of 6.12, which put a group's mean of tags in use at 1.65e7).
# Such a sample counts as not showing the tags.
TORN_BELOW_ZERO = {"tags_busy", "sched_busy"}


def held(sample):
    """Whether a sample ({field: int or None}) found a request held."""
    return any(sample.get(k) for k in ("tags_busy", "sched_busy"))


def running(samples):
    """A group's samples from the first to the last that found a request
    held: its jobs' span, without the idle before and after them."""
    busy = [i for i, x in enumerate(samples) if held(x)]
    return samples[busy[0]:busy[-1] + 1] if busy else []


def load(path, scheds):
    """{sched: {field: [values], count: total}} from a .probe file; {} when
    there is none. Values are of the samples while the group's jobs ran;
    counts, from the group's first and last sample, are summed over the
    scheduler's groups (runs)."""
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return {}
    groups, span = {}, {}
    for line in lines:
        f = line.split()
        if not f or f[0].startswith("#") or len(f) != 2 + len(FIELDS) + len(COUNTS):
            continue
        group = f[1]
        if not group.startswith("r") or "-" not in group:
            continue
        if group.split("-", 1)[1] not in scheds:
            continue
        sample = {}
        for k, v in zip(FIELDS, f[2:]):
            try:
                sample[k] = int(v)
            except ValueError:
                sample[k] = None
            if k in TORN_BELOW_ZERO and sample[k] is not None and sample[k] >= 1 << 31:
                sample[k] = None
        groups.setdefault(group, []).append(sample)
        try:
            c = [int(v) for v in f[2 + len(FIELDS):]]
        except ValueError:
            continue
        first, _ = span.get(group, (c, c))
        span[group] = (first, c)
    out = {}
    for group, samples in groups.items():
        d = out.setdefault(group.split("-", 1)[1], {k: [] for k in FIELDS})
        for x in running(samples):
            for k in FIELDS:
                if x[k] is not None:
                    d[k].append(x[k])
    for group, (first, last) in span.items():
        d = out[group.split("-", 1)[1]]
        for k, a, b in zip(COUNTS, first, last):
            d[k] = d.get(k, 0) + b - a
    return out


def rq_kb(d, ios, sectors):
    """KiB per request from a scheduler's counts, or None without requests."""
    return d[sectors] / 2 / d[ios] if d.get(ios) else None


def summary(values):
    """(mean, max) of a field's samples, or None when it had none."""
    if not values:
        return None
    return (sum(values) / len(values), max(values))


def rows(out_dir, dev, wl, threads, scheds, width):
    """Print the probe's table for one device and workload; return JSON rows."""
    data = {}
    for t in threads:
        p = load(os.path.join(out_dir, "raw", dev, f"{wl}-t{t}.probe"), scheds)
        if p:
            data[t] = p
    if not data:
        return []
    print(f"  the block layer while it ran (--probe, a sample every 0.2 s; mean, and max "
          "in brackets): wbt's wb_normal and buffered writes in flight, busy driver tags "
          "and their sleepers, busy scheduler tags and their sleepers, Dirty and Writeback MiB, "
          "KiB per device request (reads, writes)")
    print(f"  {'thr':>3} {'scheduler':<{width}} {'n':>4} {'wb_norm':>7} {'wbt_infl':>11} "
          f"{'tags':>11} {'tag_wait':>11} {'sched':>11} {'sch_wait':>11} {'dirty':>6} {'wback':>6} "
          f"{'rd KiB':>6} {'wr KiB':>6}")
    res = []
    for t in threads:
        for s in scheds:
            d = data.get(t, {}).get(s)
            if not d:
                continue
            sm = {k: summary(d[k]) for k in FIELDS}
            n = max(len(d[k]) for k in FIELDS)
            rkb, wkb = rq_kb(d, "rd_ios", "rd_sectors"), rq_kb(d, "wr_ios", "wr_sectors")

            def mm(k):
                v = sm[k]
                return "-" if v is None else f"{v[0]:.1f} ({v[1]})"

            def mean(k, div=1, digits=1):
                v = sm[k]
                return "-" if v is None else f"{v[0] / div:.{digits}f}"
            print(f"  {t:>3} {s:<{width}} {n:>4} {mean('wb_normal'):>7} {mm('wbt_inflight'):>11} "
                  f"{mm('tags_busy'):>11} {mm('tags_waiters'):>11} {mm('sched_busy'):>11} "
                  f"{mm('sched_waiters'):>11} {mean('dirty_kb', 1024):>6} "
                  f"{mean('writeback_kb', 1024):>6} {'-' if rkb is None else f'{rkb:.0f}':>6} "
                  f"{'-' if wkb is None else f'{wkb:.0f}':>6}")
            r = {"device": dev, "workload": wl, "threads": t, "sched": s, "samples": n,
                 "read_rq_kb": rkb, "write_rq_kb": wkb}
            for k in FIELDS:
                if sm[k] is not None:
                    r[k + "_mean"] = round(sm[k][0], 3)
                    r[k + "_max"] = sm[k][1]
            # dirty_throttle's "dirty": both, from the same /proc/meminfo reads
            if sm["dirty_kb"] is not None and sm["writeback_kb"] is not None:
                r["dirty_writeback_kb_mean"] = round(sm["dirty_kb"][0] + sm["writeback_kb"][0], 3)
            res.append(r)
    return res
