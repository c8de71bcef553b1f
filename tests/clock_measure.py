#!/usr/bin/env python3
"""clock_measure.py - by hand, not part of make test: the clock findings
(issue 36) on real clocked games.

Usage: tests/clock_measure.py PGNCHECK FILE.pgn...
       tests/clock_measure.py --extract OUT.pgn SOURCE...

The second form writes to OUT.pgn the games of the SOURCE files that have
a [%clk] or [%emt] comment (a .js/.ts/.json SOURCE: its "pgn" JSON strings,
as chess.com's API gives them), which is how each measured file was made
from its source.

Runs PGNCHECK --min-severity=note -f jsonl over the files and prints, per
file and in total, the games, the games with clocks, and for every clock
code (clock-*, time-control-*, flag-*) its diagnostics and games, and the
share of clocked games with a clock warning.  The real data it was run on
is listed in corpus/SOURCES.tsv (rows "measure/clock/..."); fetch it and
extract the clocked games as written there.
"""
import collections
import json
import re
import subprocess
import sys

CLOCK = ("clock-", "time-control-", "flag-")


def extract(out_path, sources):
    pat = re.compile(r'"pgn"\s*:\s*"((?:[^"\\]|\\.)*)"')
    n = 0
    with open(out_path, "w", encoding="utf-8", newline="\n") as out:
        for src in sources:
            data = open(src, encoding="utf-8", errors="replace").read()
            if src.endswith((".js", ".ts", ".json")):
                games = [json.loads('"' + m + '"') for m in pat.findall(data)]
            else:
                games = re.split(r"\n(?=\[Event )", data)
            for g in games:
                if "%clk" in g or "%emt" in g:
                    out.write(g.strip("\n") + "\n\n")
                    n += 1
    print("%d games with clocks" % n, file=sys.stderr)


def main():
    if sys.argv[1] == "--extract":
        extract(sys.argv[2], sys.argv[3:])
        return
    prog, files = sys.argv[1], sys.argv[2:]
    per = collections.OrderedDict()
    tot = {"games": 0, "clocked": 0, "warned": 0, "codes": collections.Counter(), "gcodes": collections.Counter()}
    for f in files:
        out = subprocess.run([prog, "--min-severity=note", "-f", "jsonl", f], capture_output=True, text=True).stdout
        st = {"games": 0, "clocked": 0, "warned": 0, "codes": collections.Counter(), "gcodes": collections.Counter()}
        for line in out.splitlines():
            r = json.loads(line)
            if r.get("type") != "game":
                continue
            st["games"] += 1
            st["clocked"] += "clocks" in r
            seen, warned = set(), False
            for d in r["diagnostics"]:
                if d["code"].startswith(CLOCK):
                    key = (d["code"], d["severity"])
                    st["codes"][key] += 1
                    if key not in seen:
                        st["gcodes"][key] += 1
                        seen.add(key)
                    warned |= d["severity"] in ("warning", "error")
            st["warned"] += warned
        per[f] = st
        for k in ("games", "clocked", "warned"):
            tot[k] += st[k]
        tot["codes"].update(st["codes"])
        tot["gcodes"].update(st["gcodes"])
    for name, st in list(per.items()) + [("total", tot)]:
        share = 100.0 * st["warned"] / st["clocked"] if st["clocked"] else 0.0
        print("%s: %d games, %d with clocks, %d with a clock warning (%.2f%%)" %
              (name, st["games"], st["clocked"], st["warned"], share))
        for (code, sev), n in sorted(st["codes"].items()):
            print("    %-26s %-8s %6d diagnostics in %6d games" % (code, sev, n, st["gcodes"][(code, sev)]))


if __name__ == "__main__":
    main()
