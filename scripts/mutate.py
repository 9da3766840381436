#!/usr/bin/env python3
"""Which behaviour of the policies do the userspace tests hold? A mutation check.

usage: scripts/mutate.py [--sample N] [--seed S] FILE...

In a throwaway clone of HEAD (uncommitted changes are not in it), change one
operator on one line of FILE (a policy or library source: src/policy/*,
src/lib/*), rebuild the unit and simulator tests, and run them, the
FILE's own policy's first, until one fails. Each such change is a mutant:
"killed" when a test failed, "survived" when none did, "no build" when it
did not compile (-Werror). A survivor is behaviour no test holds, or a change
that changes nothing (a bound that is never reached, a counter no test
reads): read each one. N sites per file (default 20), sampled reproducibly
by seed S (default 1). About 10 s per killed mutant and a minute per
survivor on two CPUs. Prints a line per mutant and a summary; exits 0
whatever survived, 2 on a usage error.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

# (pattern, replacement): one operator each, applied at one place at a time.
OPERATORS = [
    (r"<=", "<"), (r">=", ">"), (r"(?<![<-])<(?![<=])", "<="),
    (r"(?<![->])>(?![>=])", ">="), (r"==", "!="), (r"!=", "=="),
    (r"&&", "||"), (r"\|\|", "&&"), (r"\+=", "-="), (r"-=", "+="),
    (r"(?<![!=<>])!(?!=)", ""), (r"\+ 1\b", "- 1"), (r"- 1\b", "+ 1"),
    (r"\breturn 1;", "return 0;"), (r"\breturn 0;", "return 1;"),
    (r"\+\+;", "--;"),
]
# A source's own tests (by name) run first: they kill its mutants soonest.
OWN_TESTS = {"deadline_read": ("dl-", "deadline"), "anticipatory": ("antic",),
             "fair_queue": ("fq-",), "dlq": ("dl-", "dlq"), "pheap": ("pheap", "fq-"),
             "rbtree": ("rbtree",)}
TEST_TIMEOUT = 300


def usage(msg):
    sys.stderr.write("mutate.py: %s (try 'scripts/mutate.py --help')\n" % msg)
    sys.exit(2)


def sites(text):
    """Every (line number, old line, new line, operator) in code lines."""
    out = []
    in_comment = False
    for i, line in enumerate(text.split("\n")):
        s = line.strip()
        if in_comment:
            in_comment = "*/" not in s
            continue
        if s.startswith("/*") and "*/" not in s:
            in_comment = True
            continue
        # statements inside functions only: no tables, strings or directives
        if (not line.startswith("\t") or s.startswith(("*", "/*", "//", "#", "."))
                or '"' in s):
            continue
        code = re.sub(r"/\*.*?\*/", "", line)
        for pat, rep in OPERATORS:
            for m in re.finditer(pat, code):
                new = code[:m.start()] + rep + code[m.end():]
                out.append((i + 1, line, new, "%s -> %s" % (m.group(0), rep or "(none)")))
    return out


def tests(repo, path):
    base = os.path.splitext(os.path.basename(path))[0]
    own = OWN_TESTS.get(base.replace("fair_queue_wf2q", "fair_queue"), ())
    cmds = []
    for name in sorted(os.listdir(os.path.join(repo, "tests/unit"))):
        if re.match(r"\d{3}-.*\.c$", name):
            cmds.append(("unit/" + name[:-2], [os.path.join(repo, "build/unit", name[:-2])]))
    for name in sorted(os.listdir(os.path.join(repo, "tests/sim"))):
        m = re.match(r"(\d{3}-.*)\.(c|sh)$", name)
        if m:
            cmds.append(("sim/" + m.group(1),
                         [os.path.join(repo, "build/sim-san/tests", m.group(1))]
                         if m.group(2) == "c" else
                         ["bash", os.path.join(repo, "tests/sim", name)]))
    cmds.sort(key=lambda c: not any(k in c[0] for k in own))
    return cmds


def build(repo):
    return subprocess.run(["make", "-s", "-j2", "unit-build", "sim-test-build"],
                          cwd=repo, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def first_failure(repo, cmds, env):
    for name, cmd in cmds:
        try:
            r = subprocess.run(cmd, cwd=repo, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=TEST_TIMEOUT)
        except subprocess.TimeoutExpired:
            return name + " (timed out)"
        if r.returncode:
            return name
    return None


def main(argv):
    if "-h" in argv or "--help" in argv:
        print(__doc__.strip())
        return 0
    n, seed, files = 20, 1, []
    while argv:
        a = argv.pop(0)
        if a in ("--sample", "--seed"):
            if not argv or not argv[0].isdigit():
                usage("%s needs a number" % a)
            v = int(argv.pop(0))
            if a == "--sample":
                n = v
            else:
                seed = v
        elif a.startswith("-"):
            usage("unknown option %s" % a)
        else:
            files.append(a)
    if not files:
        usage("no FILE given")
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for f in files:
        rel = os.path.relpath(os.path.abspath(f), top)
        if not re.match(r"src/(policy|lib)/[^/]+\.[ch]$", rel) or \
                not os.path.isfile(os.path.join(top, rel)):
            usage("%s: not a policy or library source (src/policy/, src/lib/)" % f)
    tmp = tempfile.mkdtemp(prefix="elvkit-mutate.")
    try:
        repo = os.path.join(tmp, "repo")
        subprocess.run(["git", "clone", "-q", top, repo], check=True)
        env = dict(os.environ, ELVKIT_RESULTS=os.path.join(tmp, "results"),
                   ELVKIT_SIM=os.path.join(repo, "build/sim-san/elvkit-sim"))
        if not build(repo):
            sys.stderr.write("mutate.py: HEAD's tests do not build\n")
            return 1
        count = {"killed": 0, "survived": 0, "no build": 0}
        for f in files:
            rel = os.path.relpath(os.path.abspath(f), top)
            path = os.path.join(repo, rel)
            text = open(path).read()
            chosen = sites(text)
            random.Random(seed).shuffle(chosen)
            cmds = tests(repo, rel)
            for line_no, old, new, op in chosen[:n]:
                t0 = time.time()
                lines = text.split("\n")
                lines[line_no - 1] = new
                open(path, "w").write("\n".join(lines))
                try:
                    if not build(repo):
                        res, by = "no build", ""
                    else:
                        by = first_failure(repo, cmds, env)
                        res = "killed" if by else "survived"
                finally:
                    open(path, "w").write(text)
                count[res] += 1
                print("%-8s %s:%d  %s  |  %s%s  (%d s)" % (
                    res, rel, line_no, op, new.strip(), "  by " + by if by else "",
                    time.time() - t0), flush=True)
        print("%d mutants: %d killed, %d survived, %d did not build" % (
            sum(count.values()), count["killed"], count["survived"], count["no build"]))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
