#!/usr/bin/env python3
"""Every fact the shim needs about its target kernel, from that kernel's BTF
(via pahole) and its public headers, written as two headers into OUT_DIR:

  elvkit_btf_layout.h  sizes and member offsets of the private structures,
                       as the target kernel lays them out
  elvkit_facts.h       EK_FACT_* switches: the API's shape (from BTF) and
                       what the public headers provide or mean

This is the one channel for kernel differences: src/shim/ never tests a
version number or probes a macro itself; src/shim/compat.h turns these
facts into helpers and src/shim/layout_check.c proves the layout. A member
or a header probe the generator cannot decide stops the build, so a new
kernel is looked at instead of guessed.

Usage: kernel-facts.py BTF_FILE INCLUDE_DIR[:INCLUDE_DIR...] OUT_DIR
                       [--tamper STRUCT.MEMBER]
INCLUDE_DIR: where the target's include/linux/*.h are searched, in order.
"""
import os
import re
import subprocess
import sys

STRUCTS = ["elevator_type", "elevator_mq_ops", "elevator_queue", "elv_fs_entry",
           "blk_mq_alloc_data"]
MEMBER_RE = re.compile(
    r"^\t(?P<decl>.*?);\s*/\*\s*(?P<off>\d+)(?::\s*\d+)?\s+(?P<size>\d+)\s*\*/")

KNOWN = {
    "elevator_queue": {"type", "et", "elevator_data", "kobj", "sysfs_lock",
                       "flags", "registered", "hash"},
    "elevator_mq_ops": {"init_sched", "exit_sched", "init_hctx", "exit_hctx",
                        "depth_updated", "alloc_sched_data", "free_sched_data",
                        "allow_merge", "bio_merge", "request_merge",
                        "request_merged", "requests_merged", "limit_depth",
                        "prepare_request", "finish_request", "insert_requests",
                        "dispatch_request", "has_work", "completed_request",
                        "requeue_request", "former_request", "next_request",
                        "init_icq", "exit_icq"},
    "blk_mq_alloc_data": {"q", "flags", "shallow_depth", "cmd_flags",
                          "rq_flags", "nr_tags", "cached_rq", "cached_rqs",
                          "ctx", "hctx"},
}


def die(msg):
    sys.exit("kernel-facts: " + msg)


def member_name(decl):
    m = re.search(r"\(\*(\w+)\)\(", decl)          # function pointer
    if m:
        return m.group(1)
    m = re.search(r"(\w+)\s*(\[\d+\])?\s*(:\s*\d+)?$", decl)
    return m.group(1)


def parse(btf, name):
    out = subprocess.run(["pahole", "-C", name, btf], capture_output=True,
                         text=True).stdout
    if not out.strip():
        die(f"struct {name} not found in {btf}")
    members, size = {}, None
    for line in out.splitlines():
        m = MEMBER_RE.match(line)
        if m:
            members[member_name(m.group("decl"))] = (int(m.group("off")),
                                                     m.group("decl"))
        s = re.search(r"/\* size: (\d+)", line)
        if s:
            size = int(s.group(1))
    return size, members


def header(incdirs, name):
    for d in incdirs:
        path = os.path.join(d, "linux", name)
        if os.path.exists(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                return f.read()
    die(f"no include/linux/{name} in {':'.join(incdirs)}")


def one_of(text, what, choices):
    """The single fact among choices (pattern -> value) the text states."""
    found = {v for pat, v in choices if re.search(pat, text)}
    if len(found) != 1:
        die(f"cannot tell {what} from the headers ({len(found)} answers)")
    return found.pop()


def btf_facts(info):
    et, ops, eq = (info["elevator_type"][1], info["elevator_mq_ops"][1],
                   info["elevator_queue"][1])
    for s, known in KNOWN.items():
        unknown = sorted(set(info[s][1]) - known)
        if unknown:
            die(f"struct {s} has members elvkit does not know: "
                + ", ".join(unknown))

    def sig(member):
        return ops[member][1] if member in ops else ""

    return {
        "EK_FACT_ELEVATOR_FEATURES": "elevator_features" in et,
        "EK_FACT_DEBUGFS_ATTRS": "queue_debugfs_attrs" in et,
        "EK_FACT_INIT_SCHED_TAKES_EQ": "struct elevator_queue" in sig("init_sched"),
        "EK_FACT_DEPTH_UPDATED_TAKES_Q": "struct request_queue" in sig("depth_updated"),
        "EK_FACT_SCHED_DATA_OPS": "alloc_sched_data" in ops,
        "EK_FACT_INSERT_FLAGS": "blk_insert_t" in sig("insert_requests"),
        "EK_FACT_EQ_TAGS": "et" in eq,
        "EK_FACT_EQ_FLAGS": "flags" in eq,
        "EK_FACT_EQ_REGISTERED_BIT": "registered" in eq,
        "EK_FACT_ALLOC_CACHED_RQS": "cached_rqs" in info["blk_mq_alloc_data"][1],
    }


def header_facts(incdirs):
    hrtimer = header(incdirs, "hrtimer.h")
    blkmq = header(incdirs, "blk-mq.h")
    blkdev = header(incdirs, "blkdev.h")
    sbitmap = header(incdirs, "sbitmap.h")
    # sbitmap_queue_get_shallow()'s own documentation says what its depth
    # counts: bits of one word (the caller scales, as 6.1's mq-deadline
    # does in dd_to_word_depth) or of the whole queue.
    shallow = sbitmap[sbitmap.find("sbitmap_queue_get_shallow() - "):]
    return {
        "EK_FACT_HRTIMER_SETUP": bool(re.search(
            r"\bhrtimer_setup\(struct hrtimer \*", hrtimer)),
        "EK_FACT_RQF_USE_SCHED": bool(re.search(
            r"#define\s+RQF_USE_SCHED\b", blkmq)),
        "EK_FACT_BLK_QUEUE_ROT": one_of(blkdev, "the rotational test", [
            (r"#define\s+blk_queue_rot\(", True),
            (r"#define\s+blk_queue_nonrot\(", False)]),
        # ekdisk's block driver API (src/ekdisk/ekdisk_compat.h)
        "EK_FACT_ALLOC_DISK_LIMITS": bool(re.search(
            r"blk_mq_alloc_disk\(set, lim, queuedata\)", blkmq)),
        "EK_FACT_BLK_FEAT": bool(re.search(
            r"#define\s+BLK_FEAT_ROTATIONAL\b", blkdev)),
        "EK_FACT_MQ_F_SHOULD_MERGE": bool(re.search(
            r"\bBLK_MQ_F_SHOULD_MERGE\b", blkmq)),
        # a task's plug caches the block layer's time (blk_time_get_ns)
        "EK_FACT_PLUG_TIME": bool(re.search(
            r"struct blk_plug \{[^}]*\bu64 cur_ktime;", blkdev)),
        # the queue has an async_depth of its own (queue/async_depth), which
        # the kernel's schedulers read in limit_depth instead of a tunable
        "EK_FACT_QUEUE_ASYNC_DEPTH": bool(re.search(
            r"^struct request_queue \{\n(?:(?!^\};).)*?^\tunsigned int\s+async_depth;",
            blkdev, re.M | re.S)),
        "EK_FACT_SHALLOW_PER_WORD": one_of(shallow, "what a shallow depth counts", [
            (r"@shallow_depth: The maximum number of bits to allocate from a single word", True),
            (r"@shallow_depth: The maximum number of bits to allocate from the queue", False)]),
    }


def write(path, guard, source, lines):
    with open(path + ".tmp", "w") as f:
        f.write("\n".join([f"/* Generated by scripts/kernel-facts.py from {source} */",
                           f"#ifndef {guard}", f"#define {guard}"] + lines
                          + ["#endif", ""]))
    os.replace(path + ".tmp", path)


def main():
    args = sys.argv[1:]
    tamper = None
    if "--tamper" in args:
        i = args.index("--tamper")
        tamper = args[i + 1]
        del args[i:i + 2]
    if len(args) != 3:
        die("usage: kernel-facts.py BTF_FILE INCLUDE_DIR[:...] OUT_DIR [--tamper S.M]")
    btf, incdirs, outdir = args[0], args[1].split(":"), args[2]
    info = {s: parse(btf, s) for s in STRUCTS}

    lay = []
    for s, (size, members) in info.items():
        lay.append(f"#define EK_BTF_SIZEOF_{s} {size}")
        for m, (off, _) in members.items():
            if tamper == f"{s}.{m}":
                off += 8
            lay.append(f"#define EK_BTF_OFFSETOF_{s}_{m} {off}")

    facts = btf_facts(info)
    facts.update(header_facts(incdirs))
    fac = [f"#define {k} {1 if v else 0}" for k, v in facts.items()]

    write(f"{outdir}/elvkit_btf_layout.h", "ELVKIT_BTF_LAYOUT_H", btf, lay)
    write(f"{outdir}/elvkit_facts.h", "ELVKIT_FACTS_H",
          btf + " and " + ":".join(incdirs), fac)


main()
