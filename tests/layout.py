#!/usr/bin/env python3
"""The layout src/README states, held (issue 32): no include cycle between
modules (a .c and its .h are one module; an edge is a #include "x.h"), no
source file over 1,200 lines, and --export's writer (pgn_export.c) calling
no replay function: it formats the record of the reading and the check.
Prints "ok ..."/"FAIL ..." lines and a count; exit 0 either way (the
suite counts).  Usage: tests/layout.py [SRC]"""
import os
import re
import sys

SRC = sys.argv[1] if len(sys.argv) > 1 else "src"
MAX_LINES = 1200
passed = failed = 0


def check(ok, what, why=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok layout: " + what)
    else:
        failed += 1
        print("FAIL layout: " + what + (": " + why if why else ""))


files = sorted(f for f in os.listdir(SRC) if f.endswith((".c", ".h")))
text = {f: open(os.path.join(SRC, f), encoding="utf-8", errors="replace").read() for f in files}

# the module graph
mods = {}
for f in files:
    m = f[:-2]
    mods.setdefault(m, set()).update(re.findall(r'^\s*#\s*include\s+"([^"/]+)\.h"', text[f], re.M))
for m in mods:
    mods[m].discard(m)
    mods[m] &= set(mods)

# strongly connected components (iterative Tarjan): each of more than one
# module is a cycle
index, low, stack, on, comps = {}, {}, [], set(), []
counter = 0
for root in sorted(mods):
    if root in index:
        continue
    work = [(root, iter(sorted(mods[root])))]
    index[root] = low[root] = counter
    counter += 1
    stack.append(root)
    on.add(root)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = counter
                counter += 1
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(mods[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))
check(not comps, "no include cycle between the %d modules of %s" % (len(mods), SRC),
      "; ".join(" ".join(c) for c in comps))

long_files = ["%s (%d)" % (f, text[f].count("\n")) for f in files if text[f].count("\n") > MAX_LINES]
check(not long_files, "no source file over %d lines" % MAX_LINES, ", ".join(long_files))

# pgn_export.c: no call into the replay (san_, gen_, rules_, pos_ moves,
# game_check)
exp = text.get("pgn_export.c", "")
calls = sorted(set(re.findall(r"\b((?:san|gen|rules|pos)_[a-z_0-9]+|game_check)\s*\(", exp)))
check(exp != "" and not calls, "pgn_export.c calls no replay function", ", ".join(calls))

print("%d passed, %d failed" % (passed, failed))
