"""Who waits for a request, and how late it is woken (bench-kernel --trace-wake).

The guest (bench-kernel-guest.sh, wake_point) records tracefs's
block_bio_queue, block_bio_backmerge and _frontmerge, block_getrq,
block_rq_issue (for turns.py), block_rq_complete, sched_wakeup and sched_switch over the middle half of one scheduler's run into
raw/DEVICE/wake/WL-tT-SCHED.trace.gz, and debugfs's hctx0/tags and
sched_tags half-way through into .tags beside it.

A request belongs to the task whose block_getrq allocated it (its first
sector names it until block_rq_complete). Per direction (read: the fio
readers; write: whoever allocates write requests, the flusher's kworker for
buffered writes), over each task's requests:
  done -> woken     its request completed; the task's next wakeup (the
                    reader's I/O wait ends; the flusher's, wbt's)
  woken -> running  that wakeup until the task is switched in: CPU delay
  done -> woken, waiting
                    as done -> woken, for requests that completed while
                    their task waited for its next (the writer under wbt:
                    its bios' end, then wbt's wake)
  done -> bio       (reads) the completion until the reader's next bio: the
                    application's and the system call's time, what
                    elvkit-sim's --think stands for
  done -> next      the completion until the task's next request
  wakes per next    wakeups in between: 1 when it got the next at its first
                    try; each one more is a sleep for a tag (or wbt) lost
  slept %           share of requests whose task slept between its bio and
                    the request (block_bio_queue to block_getrq)
  slept ms          how long those waited
  last wake -> rq   the last of those wakeups until the request
and over all tasks that wait between a bio and its request:
  done -> waiter woken  the latest completion before each wakeup of one
  done -> waiter runs   ... until it is switched in, where it asks again:
                        what elvkit-sim's --tag-wake-us stands for
  woken per done        how many are woken per completion that wakes any
and, where the kernel traced wbt (wbt_lat, wbt_stat, wbt_timer), how its
monitoring windows ended (latency_exceeded() in block/blk-wbt.c), as
shares of the windows:
  wbt: read out too long  a read has been on the device longer than the
                    window, or longer than the target with none completed
                    (wbt_lat without wbt_stat): scale down
  wbt: fastest read slow  the window's fastest read took longer than the
                    target (wbt_lat, then wbt_stat): scale down
  wbt: reads fast   a read, 3 writes and neither of those: scale up
  wbt: unknown, writes  too few samples, but writes then: scale up
  wbt: idle         nothing: back towards step 0 every fifth
Only what the trace holds is counted: a request allocated before the trace
started, or completed after it stopped, is left out.

From the run's start (.start.trace.gz beside the trace: the bios queued in
its first seconds, tracing on before fio started):
  reader start      each fio reader's first read bio after the first one's:
                    the order and spread in which fio's jobs begin (what
                    elvkit-sim's --start-us stands for)
"""
import gzip
import re
import statistics

EVENT = re.compile(r"^\s*(.+)-(\d+)\s+(?:\(\s*\S+\)\s+)?\[\d+\]\s+(?:\S+\s+)?([\d.]+): (\w+): (.*)$")
# "253,0 RS 778143488 + 256 [fio]"; block_rq_complete adds "() " before
# the sector, block_rq_issue the bytes and "() " (and both an I/O
# priority after the count on 6.12).
RQ = re.compile(r"(\d+,\d+) (\S+) (?:\d+ )?(?:\(.*?\) )?(\d+) \+ (\d+)")
WAKE_PID = re.compile(r"\bpid=(\d+)")
NEXT_PID = re.compile(r"next_pid=(\d+)")
WBT_STATUS = re.compile(r"\bstatus=(\d+)")
# blk-wbt.c's LAT_OK = 1, LAT_UNKNOWN, LAT_UNKNOWN_WRITES, LAT_EXCEEDED;
# exceeded is split by whether wbt_stat came with it (the fastest read).
WBT_OUTCOMES = {1: "wbt_ok", 2: "wbt_unknown", 3: "wbt_unknown_writes", 4: "wbt_exceeded_issue"}

# (key, direction or None, label, unit): the report's rows in order.
METRICS = (
    ("done_to_wake", "read", "done -> woken", "us"),
    ("wake_to_run", "read", "woken -> running", "us"),
    ("done_to_bio", "read", "done -> bio", "us"),
    ("done_to_next", "read", "done -> next", "us"),
    ("wakes_per_next", "read", "wakes per next", ""),
    ("slept_share", "read", "slept", "%"),
    ("slept", "read", "slept", "ms"),
    ("last_wake_to_rq", "read", "last wake -> rq", "us"),
    ("done_to_wake", "write", "done -> woken", "us"),
    ("done_to_wake_waiting", "write", "done -> woken, waiting", "us"),
    ("wake_to_run", "write", "woken -> running", "us"),
    ("done_to_next", "write", "done -> next", "us"),
    ("wakes_per_next", "write", "wakes per next", ""),
    ("slept_share", "write", "slept", "%"),
    ("slept", "write", "slept", "ms"),
    ("last_wake_to_rq", "write", "last wake -> rq", "us"),
    ("done_to_waiter_wake", None, "done -> waiter woken", "us"),
    ("done_to_waiter_run", None, "done -> waiter runs", "us"),
    ("woken_per_done", None, "woken per done", ""),
    ("wbt_exceeded_issue", None, "wbt: read out too long", "%"),
    ("wbt_exceeded_min", None, "wbt: fastest read slow", "%"),
    ("wbt_ok", None, "wbt: reads fast", "%"),
    ("wbt_unknown_writes", None, "wbt: unknown, writes", "%"),
    ("wbt_unknown", None, "wbt: idle", "%"),
    ("reader_start", "read", "reader start", "us"),
)


def direction(rwbs):
    if "W" in rwbs:
        return "write"
    if "R" in rwbs:
        return "read"
    return None


def events(lines):
    """(time s, event, pid, args) per trace line, in the trace's order."""
    for line in lines:
        m = EVENT.match(line)
        if m:
            yield float(m.group(3)), m.group(4), int(m.group(2)), m.group(5)


def analyse(lines):
    """{(key, direction): [values]} from a trace's lines (see the module's
    description). Times in us, slept in ms, slept_share in % (one value)."""
    vals = {}

    def add(key, d, v):
        vals.setdefault((key, d), []).append(v)

    owner = {}      # first sector -> (pid, direction) of a request allocated
    done = {}       # pid -> (time, direction) its request completed
    woken = {}      # pid -> wakeup times since that completion
    running = {}    # pid -> when it was first switched in after that
    queued = {}     # pid -> time of its latest bio
    read_done = {}  # pid -> when its read completed, until its next bio
    end_waiting = {}  # pid -> (time, direction) its request completed while it waited
    q_wakes = {}    # pid -> wakeups since its latest bio
    got = {}        # direction -> [requests, of them slept]
    last_done = None
    per_done = {}   # completion time -> waiters it woke
    waiter_woke = {}  # pid -> the completion before its wakeup, until it runs
    wbt_stat = False  # wbt_stat since the last wbt_timer
    windows = {}    # outcome -> wbt windows that ended so
    for t, ev, pid, a in events(lines):
        if ev == "block_bio_queue":
            if pid in read_done:
                add("done_to_bio", "read", (t - read_done.pop(pid)) * 1e6)
            queued[pid] = t
            q_wakes[pid] = []
        elif ev in ("block_bio_backmerge", "block_bio_frontmerge"):
            # merged into a request it has (its plug) or one queued: it
            # waits for no request
            queued.pop(pid, None)
            q_wakes.pop(pid, None)
        elif ev == "block_getrq":
            m = RQ.match(a)
            d = m and direction(m.group(2))
            if not d:
                continue
            owner[int(m.group(3))] = (pid, d)
            if pid in done:
                dt, dd = done.pop(pid)
                w = woken.pop(pid, [])
                add("done_to_next", dd, (t - dt) * 1e6)
                add("wakes_per_next", dd, len(w))
                if w:
                    add("done_to_wake", dd, (w[0] - dt) * 1e6)
                    if pid in running:
                        add("wake_to_run", dd, (running[pid] - w[0]) * 1e6)
                running.pop(pid, None)
            n = got.setdefault(d, [0, 0])
            n[0] += 1
            qt, w = queued.pop(pid, None), q_wakes.pop(pid, [])
            if qt is not None and w:
                n[1] += 1
                add("slept", d, (t - qt) * 1e3)
                add("last_wake_to_rq", d, (t - w[-1]) * 1e6)
        elif ev == "block_rq_complete":
            m = RQ.match(a)
            if not m:
                continue
            last_done = t
            o = owner.pop(int(m.group(3)), None)
            if o:
                done[o[0]] = (t, o[1])
                if o[1] == "read":
                    read_done[o[0]] = t
                if o[0] in q_wakes:
                    end_waiting[o[0]] = (t, o[1])
                woken[o[0]] = []
                running.pop(o[0], None)
        elif ev == "sched_wakeup":
            m = WAKE_PID.search(a)
            if not m:
                continue
            p = int(m.group(1))
            if p in end_waiting:
                et, ed = end_waiting.pop(p)
                add("done_to_wake_waiting", ed, (t - et) * 1e6)
            if p in woken:
                woken[p].append(t)
            if p in q_wakes:
                q_wakes[p].append(t)
                if last_done is not None:
                    add("done_to_waiter_wake", None, (t - last_done) * 1e6)
                    per_done[last_done] = per_done.get(last_done, 0) + 1
                    waiter_woke.setdefault(p, last_done)
        elif ev == "wbt_stat":
            wbt_stat = True
        elif ev == "wbt_timer":
            m = WBT_STATUS.search(a)
            o = m and WBT_OUTCOMES.get(int(m.group(1)))
            if o:
                o = "wbt_exceeded_min" if o == "wbt_exceeded_issue" and wbt_stat else o
                windows[o] = windows.get(o, 0) + 1
            wbt_stat = False
        elif ev == "sched_switch":
            m = NEXT_PID.search(a)
            if m:
                p = int(m.group(1))
                if woken.get(p) and p not in running:
                    running[p] = t
                if p in waiter_woke:
                    add("done_to_waiter_run", None, (t - waiter_woke.pop(p)) * 1e6)
    for d, (n, slept) in got.items():
        vals[("slept_share", d)] = [100.0 * slept / n]
    if per_done:
        vals[("woken_per_done", None)] = list(per_done.values())
    if windows:
        for o in set(WBT_OUTCOMES.values()) | {"wbt_exceeded_min"}:
            vals[(o, None)] = [100.0 * windows.get(o, 0) / sum(windows.values())]
    return vals


# The percentiles of a metric's "points" in the JSON: its quantile
# function, for elvkit-sim's PCT:US delays.
POINT_PCTS = (0, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100)


def summary(v):
    """n, p10, median, p90 and mean of a list of values."""
    s = sorted(v)
    return {"n": len(s), "p10": s[len(s) // 10], "p50": statistics.median(s),
            "p90": s[9 * len(s) // 10], "mean": statistics.mean(s)}


def points(v):
    """[[pct, value], ...] at POINT_PCTS of a list of values (nearest rank)."""
    s = sorted(v)
    return [[p, s[round(p * (len(s) - 1) / 100)]] for p in POINT_PCTS]


def reader_starts(lines):
    """Each fio task's first read bio, in us after the first one's ([]
    without reads). Only fio's: another task reading then (blkid, a
    shell's dd) would move the first start and could stand in for a
    reader the trace missed."""
    first = {}
    for t, ev, pid, a in events(lines):
        if ev == "block_bio_queue" and pid not in first and a.rstrip().endswith(" [fio]"):
            m = RQ.match(a)
            if m and direction(m.group(2)) == "read":
                first[pid] = t
    t0 = min(first.values(), default=0)
    return sorted((t - t0) * 1e6 for t in first.values())


def load(path, how=analyse):
    """how (analyse) of a .trace.gz (or plain) trace; None when unreadable."""
    try:
        op = gzip.open if path.endswith(".gz") else open
        with op(path, "rt", errors="replace") as f:
            return how(f)
    except (OSError, EOFError):
        return None


def trace_base(path):
    """BASE of BASE.trace.gz or BASE.trace, where .tags and .start.trace.gz
    go beside it; None for another name."""
    for suffix in (".trace.gz", ".trace"):
        if path.endswith(suffix):
            return path[:-len(suffix)]
    return None


def load_point(path):
    """A traced point's analysis (load), with the reader starts of the
    .start.trace.gz beside it where there is one; None without the trace."""
    vals = load(path)
    base = trace_base(path)
    starts = base and load(base + ".start.trace.gz", reader_starts)
    if vals is not None and starts:
        vals[("reader_start", "read")] = starts
    return vals


def tags(path):
    """{"tags"|"sched_tags": {field: value}} from a .tags file (grep -H of
    debugfs hctx0/tags and sched_tags); {} when there is none."""
    out = {}
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return out
    for line in lines:
        name, _, kv = line.partition(":")
        k, eq, v = kv.partition("=")
        if eq and k in ("depth", "busy", "wake_batch", "ws_active"):
            # The first of each (bitmap_tags; breserved_tags come after).
            out.setdefault(name.rsplit("/", 1)[-1], {}).setdefault(k, v)
    return out


def pool_rows(tg, sched):
    """The wake batch of the pool a request of sched is allocated from
    (none: the driver's tags, else the scheduler's), as a JSON row; []
    where the .tags file did not have it."""
    v = tg.get("tags" if sched == "none" else "sched_tags", {}).get("wake_batch")
    return [{"metric": "wake_batch", "dir": None, "unit": "", "value": int(v)}] \
        if v and v.isdigit() else []


def fmt(v, unit):
    if unit in ("us", "ms"):
        return f"{v:.0f}" if abs(v) >= 10 else f"{v:.1f}"
    return f"{v:.1f}" if unit == "%" else f"{v:.2g}" if v < 10 else f"{v:.0f}"


def print_table(vals, tg, width=8):
    """The rows of one scheduler's trace (vals from analyse, tg from tags)."""
    for k in ("tags", "sched_tags"):
        if k in tg:
            print(f"  {k}: " + ", ".join(f"{f} {tg[k][f]}" for f in
                                         ("depth", "busy", "wake_batch", "ws_active") if f in tg[k]))
    print(f"  {'':<6} {'':<26} {'n':>{width}} {'p10':>{width}} {'median':>{width}} "
          f"{'p90':>{width}} {'mean':>{width}}")
    for key, d, label, unit in METRICS:
        v = vals.get((key, d))
        if not v:
            continue
        name = f"{label} ({unit})" if unit else label
        if unit == "%":     # one value: a share
            print(f"  {d or 'any':<6} {name:<26} {'':>{width}} {'':>{width}} "
                  f"{fmt(v[0], unit):>{width}}")
            continue
        s = summary(v)
        print(f"  {d or 'any':<6} {name:<26} {s['n']:>{width}} "
              + " ".join(f"{fmt(s[q], unit):>{width}}" for q in ("p10", "p50", "p90", "mean")))


def rows(vals):
    """JSON rows, one per metric and direction."""
    out = []
    for key, d, _, unit in METRICS:
        v = vals.get((key, d))
        if v:
            # The trace's clock counts whole us: no more digits than that.
            s = {"value": v[0]} if unit == "%" else summary(v)
            r = {"metric": key, "dir": d, "unit": unit, **{k: round(x, 3) for k, x in s.items()}}
            if unit == "us":
                r["points"] = [[p, round(x, 3)] for p, x in points(v)]
            out.append(r)
    return out


def sim_options(rows, results=()):
    """{(workload, threads, sched): {option: value}} from a bench-kernel
    JSON's wake rows (and its results), elvkit-sim's options for
    bench-sim-vs-kernel.sh --calibrate:
      think         the readers' done -> bio: how long a reader takes to
                    ask again after its read completed, as the points of its
                    quantile function ("PCT:US,...", one draw per think)
      tag-wake-us   done -> waiter runs, as points: how long after a
                    completion a task woken for a request runs and asks
                    again. (A JSON from before that metric: the mean done ->
                    waiter woken plus the mean last wake -> rq, the readers'
                    where any slept, else the writer's, a number: uniform 0
                    to 2 x US. Without points, think is the mean.)
      write-end-us  the writer's median done -> woken, waiting: its write
                    request's bios end (page by page) before wbt wakes it
                    and the tag goes back
      wbt-wake-us   the writer's median woken -> running plus its median
                    last wake -> rq: from wbt's wake to its next request
      copy-mbs      the writer's MB per second of its own CPU (fio's, the
                    results' write_cpu_mbs): what its copy into the page
                    cache costs in the guest
      start-us      the last reader's start after the first's: the
                    simulator starts each thread at a random 0..US
      tag-wake-batch  the wake batch of the pool the requests came from
                    (debugfs sched_tags, none's tags): sleepers woken per
                    that many requests freed (7.2's mq-deadline 8, where
                    6.12's is 1)
    The writer's by medians (its means hold its sleeps for other things,
    dirty throttling, requests, that the simulator has of its own), and
    only where it slept before at least half of its requests. An option
    the trace shows nothing for is left out."""
    val = {}
    for r in rows:
        val[(r["workload"], r["threads"], r["sched"], r["metric"], r["dir"])] = r

    def get(key, stat):
        r = val.get(key)
        return None if r is None else r.get(stat)

    def pts(key):
        """elvkit-sim's PCT:US for a row's points (whole us, at most 1 s)."""
        p = get(key, "points")
        return p and ",".join(f"{pc}:{min(round(x), 1000000)}" for pc, x in p)

    copy = {(r["workload"], r["threads"], r["sched"]): r.get("write_cpu_mbs") for r in results}
    out = {}
    for (wl, t, s, m, d) in val:
        if (m, d) != ("done_to_bio", "read"):
            continue
        o = {"think": pts((wl, t, s, m, d)) or get((wl, t, s, m, d), "mean")}
        wake = get((wl, t, s, "done_to_waiter_wake", None), "mean")
        last = get((wl, t, s, "last_wake_to_rq", "read"), "mean")
        if last is None:
            last = get((wl, t, s, "last_wake_to_rq", "write"), "mean")
        waiter = pts((wl, t, s, "done_to_waiter_run", None))
        if waiter:
            o["tag-wake-us"] = waiter
        elif wake is not None and last is not None:
            o["tag-wake-us"] = wake + last
        # Only where the writer slept before most of its requests: then
        # its wakeup after a completion is wbt's (or a request's).
        slept = get((wl, t, s, "slept_share", "write"), "value")
        end = get((wl, t, s, "done_to_wake_waiting", "write"), "p50")
        run = get((wl, t, s, "wake_to_run", "write"), "p50")
        ask = get((wl, t, s, "last_wake_to_rq", "write"), "p50")
        if slept is not None and slept >= 50 and None not in (end, run, ask):
            o["write-end-us"] = end
            o["wbt-wake-us"] = run + ask
        cpu = copy.get((wl, t, s))
        if cpu:
            o["copy-mbs"] = min(cpu, 1000000)  # elvkit-sim's top
        p = get((wl, t, s, "reader_start", "read"), "points")
        if p:
            # at least 1 us: in a random order, as the kernel's (0 is
            # thread order); at most elvkit-sim's 10 s
            o["start-us"] = max(1, min(round(p[-1][1]), 10000000))
            # fewer readers than threads: the trace ended before the
            # last began, and the spread is at least this (main says so)
            o["start-readers"] = get((wl, t, s, "reader_start", "read"), "n")
        batch = get((wl, t, s, "wake_batch", None), "value")
        if batch:
            o["tag-wake-batch"] = batch
        out[(wl, t, s)] = o
    return out


SIM_OPTIONS = ("think", "tag-wake-us", "write-end-us", "wbt-wake-us", "copy-mbs", "start-us",
               "tag-wake-batch")


if __name__ == "__main__":
    import json
    import sys
    if len(sys.argv) == 3 and sys.argv[1] == "--sim-options":
        # "WORKLOAD THREADS SCHED" and the SIM_OPTIONS per traced point,
        # whole us or PCT:US points (copy-mbs: MB/s), "-" for none.
        try:
            kernel = json.load(open(sys.argv[2]))
        except (OSError, ValueError) as e:
            print(f"waketrace: {sys.argv[2]}: {e}", file=sys.stderr)
            sys.exit(1)
        opts = sim_options(kernel.get("wake", []), kernel.get("results", []))
        for (wl, t, s), o in sorted(opts.items()):
            n = o.get("start-readers")
            if n is not None and n < t:
                print(f"waketrace: {wl} {t} {s}: the start trace holds {n} of the"
                      f" {t} readers' starts: --start-us {o['start-us']} is a lower"
                      " bound (START_TRACE)", file=sys.stderr)
            print(wl, t, s, *("-" if k not in o else o[k] if isinstance(o[k], str)
                              else round(o[k]) for k in SIM_OPTIONS))
        sys.exit(0)
    if len(sys.argv) != 2:
        print("usage: waketrace.py TRACE[.gz] | --sim-options BENCH_KERNEL_JSON", file=sys.stderr)
        sys.exit(2)
    r = load_point(sys.argv[1])
    if r is None:
        print(f"waketrace: cannot read {sys.argv[1]}", file=sys.stderr)
        sys.exit(1)
    base = trace_base(sys.argv[1])
    print_table(r, tags(base + ".tags") if base else {})
