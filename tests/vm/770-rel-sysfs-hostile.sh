#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="hostile sysfs input: every tunable gets non-numbers, signs, hex, whitespace, NULs, overlong strings and values one past each bound, alone and from 4 concurrent writers while the scheduler is switched; each is refused with EINVAL keeping the old value, or accepted exactly"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rel-lib.sh"
secs=$(rel_n 6)
load_modules || fail "insmod failed"
# shellcheck disable=SC2317 # called by the EXIT trap (rel-lib.sh)
rel_cleanup() { set_sched "$DEV" none 2>/dev/null; }
table=$REL_TMP/table
tunable_table "$SCHED" >"$table"
[ -s "$table" ] || fail "no tunables for $SCHED"
# Schedulers to switch among in the concurrent part: those sharing no
# attribute name with SCHED, so a write that succeeds was served by SCHED.
read -ra all < <(rel_all_scheds "$DEV")
others=()
for s in "${all[@]}"; do
	[ "$s" != "$SCHED" ] || continue
	set_sched "$DEV" "$s" || continue
	clash=
	while read -r name _; do
		[ ! -e "$(iosched_dir "$DEV")/$name" ] || clash=1
	done <"$table"
	[ -n "$clash" ] || others+=("$s")
done
echo "switching between $SCHED and: ${others[*]}"
set_sched "$DEV" "$SCHED" || fail "select $SCHED"
python3 - "$DEV" "$SCHED" "$table" "$secs" "$REL_TMP/kinds" "${others[@]}" <<'PY' || fail "hostile input test failed"
import errno, os, random, re, sys, time
from multiprocessing import Process, Queue

dev, sched, table, secs, kinds_out = sys.argv[1:6]
others = sys.argv[6:]
secs = float(secs)
qdir = f"/sys/block/{dev}/queue"
tun = []
for line in open(table):
    f = line.split()
    if len(f) >= 4:
        tun.append((f[0], int(f[1]), int(f[2]), int(f[3])))
PAGE = os.sysconf("SC_PAGE_SIZE")
LMAX, LMIN = 2**63 - 1, -2**63

def inputs(lo, hi):
    b = lambda v: str(v).encode()
    return {
        "non_number": [b"", b"abc", b"x1", b"1x", b"1.5", b"1e3", b"NaN", b"\n", b"--1",
                       b"+-1", b"-+1", b"- 1", b"1-", b"0b1", b"\xd9\xa3", b"true"],
        "sign": [b"+1", b"-1", b"-0", b"+0", b"+" + b(hi), b"-" + b(abs(lo)), b"+", b"-"],
        "hex_octal": [b"0x10", b"0X1F", b"0x", b"010", b"0o7", b"1f", b"0x" + b"f" * 16],
        "whitespace": [b" 5", b"5 ", b"\t5", b"5\t", b"5\n", b"5\n\n", b"\n5", b"5\r\n",
                       b" ", b"5\x00", b"5\x00junk", b"\x005"],
        "overlong": [b"1" * 30, b"0" * 4000 + b"7", b"9" * (PAGE - 1), b"0" * (PAGE - 1) + b"\n",
                     b"1" * (PAGE + 1), b"0" * 10000 + b"5"],
        "bound": [b(lo - 1), b(lo), b(hi), b(hi + 1), b(LMAX), b(LMAX + 1), b(LMIN),
                  b(LMIN - 1), b(2**64), b(2**64 + 1), b(hi * 10 + 1)],
    }

def expect(raw, lo, hi):
    """The value the shim must accept raw as (kstrtoll base 10, range), or None."""
    if len(raw) > PAGE:
        return None
    s = raw.split(b"\0", 1)[0]          # the kernel sees a C string
    if s.endswith(b"\n"):
        s = s[:-1]
    m = re.fullmatch(rb"([-+]?)([0-9]+)", s)
    if not m:
        return None
    v = int(m.group(2))
    if m.group(1) == b"-":
        v = -v
    if v < LMIN or v > LMAX or v < lo or v > hi:
        return None
    return v

def write(path, raw):
    """(0, bytes written) or (errno, 0). Fewer bytes than raw: the kernel,
    not the shim, cut the write (an empty write never reaches the store;
    6.12 hands a store at most a page of an overlong one)."""
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError as e:
        return e.errno, 0
    try:
        return 0, os.write(fd, raw)
    except OSError as e:
        return e.errno, 0
    finally:
        os.close(fd)

def judge(raw, rc, n, lo, hi):
    """(what the store saw, the value it must have taken or None)."""
    if rc == 0 and n < len(raw):
        raw = raw[:n]
    return raw, expect(raw, lo, hi)

def read(path):
    with open(path) as f:
        return int(f.read())

bad = []
counts = {}
# Part 1: one writer, nothing switching: exact outcome and value.
for name, d, lo, hi in tun:
    p = f"{qdir}/iosched/{name}"
    if write(p, str(d).encode())[0] != 0:
        bad.append(f"{name}: cannot set default {d}")
        continue
    old = d
    for kind, vals in inputs(lo, hi).items():
        for raw in vals:
            counts[kind] = counts.get(kind, 0) + 1
            rc, n = write(p, raw)
            got = read(p)
            r = raw if len(raw) < 40 else raw[:20] + b"...(%d bytes)" % len(raw)
            seen, want = judge(raw, rc, n, lo, hi)
            if rc == 0 and not seen:
                if got != old:
                    bad.append(f"{name} {r!r}: nothing stored but value changed {old} -> {got}")
                continue
            if want is None:
                ok_err = (errno.EINVAL,) if len(raw) <= PAGE else (errno.EINVAL, errno.E2BIG)
                if rc not in ok_err:
                    bad.append(f"{name} {r!r}: {'accepted' if rc == 0 else os.strerror(rc)} ({n} of {len(raw)} bytes), want EINVAL")
                if got != old:
                    bad.append(f"{name} {r!r}: refused but value changed {old} -> {got}")
            else:
                if rc != 0:
                    bad.append(f"{name} {r!r}: refused ({os.strerror(rc)}), want {want}")
                elif got != want:
                    bad.append(f"{name} {r!r}: accepted as {got}, want {want}")
                old = got
    write(p, str(d).encode())

# Part 2: four writers and a reader hammer every tunable while a switcher
# flips the scheduler. A write may fail with ENOENT/ENODEV (the scheduler
# was switched away) but an invalid input must never be accepted, a valid
# one never refused with anything but those, and reads stay in range.
def writer(seed, q):
    rnd = random.Random(seed)
    cases = []
    for name, d, lo, hi in tun:
        for kind, vals in inputs(lo, hi).items():
            for raw in vals:
                cases.append((name, kind, raw, lo, hi))
    errs, n, kinds = [], 0, {}
    end = time.time() + secs
    while time.time() < end:
        name, kind, raw, lo, hi = rnd.choice(cases)
        rc, nw = write(f"{qdir}/iosched/{name}", raw)
        n += 1
        kinds[kind] = kinds.get(kind, 0) + 1
        if rc in (errno.ENOENT, errno.ENODEV):
            continue
        seen, want = judge(raw, rc, nw, lo, hi)
        if rc == 0 and not seen:
            continue
        if want is None and rc == 0:
            errs.append(f"concurrent: {name} accepted invalid {raw[:40]!r}")
        if want is not None and rc != 0:
            errs.append(f"concurrent: {name} refused valid {raw[:40]!r}: {rc}")
        if rc not in (0, errno.EINVAL, errno.E2BIG):
            errs.append(f"concurrent: {name} {raw[:40]!r}: errno {rc}")
    q.put((errs[:20], n, kinds))

def reader(q):
    errs, n = [], 0
    end = time.time() + secs
    while time.time() < end:
        for name, d, lo, hi in tun:
            try:
                v = read(f"{qdir}/iosched/{name}")
            except (OSError, ValueError):
                continue
            n += 1
            if not lo <= v <= hi:
                errs.append(f"concurrent: {name} reads {v}, outside {lo}..{hi}")
    q.put((errs[:20], n, {}))

def switcher(q):
    errs, n = [], 0
    end = time.time() + secs
    order = others + [sched]
    while time.time() < end:
        for s in order if others else [sched]:
            try:
                with open(f"{qdir}/scheduler", "w") as f:
                    f.write(s)
                n += 1
            except OSError as e:
                errs.append(f"switch to {s}: {e}")
            time.sleep(0.05)
    with open(f"{qdir}/scheduler", "w") as f:
        f.write(sched)
    q.put((errs[:20], n, {"switches": n}))

q = Queue()
procs = [Process(target=writer, args=(i, q)) for i in range(4)]
procs += [Process(target=reader, args=(q,)), Process(target=switcher, args=(q,))]
for p in procs:
    p.start()
writes = switches = 0
for _ in procs:
    e, n, k = q.get(timeout=secs + 120)
    bad.extend(e)
    for kk, vv in k.items():
        if kk == "switches":
            switches = vv
        else:
            counts[kk] = counts.get(kk, 0) + vv
for p in procs:
    p.join(60)
with open(kinds_out, "w") as f:
    for k, v in sorted(counts.items()):
        f.write(f"{k} {v}\n")
    f.write(f"switches {switches}\n")
print(f"{sum(counts.values())} writes, {switches} switches during the concurrent part")
for k, v in sorted(counts.items()):
    print(f"  {k}: {v}")
for b in bad[:60]:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
while read -r k v; do
	case $k in
	switches) rel_metric load switches "$v" ;;
	*) rel_metric input "$k" "$v" ;;
	esac
done <"$REL_TMP/kinds"
# Every tunable back at its default.
while read -r name def _; do
	[ "$(cat "$(iosched_dir "$DEV")/$name")" = "$def" ] || echo "$def" >"$(iosched_dir "$DEV")/$name"
done <"$table"
exit 0
