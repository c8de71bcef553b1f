#!/usr/bin/env python3
"""Checks pgncheck's verdict on corpus/diff/NAME.pgn against NAME.expect.

    expect.py PGNCHECK NAME.pgn NAME.expect

The .expect format is described in tests/diff/README. Prints "ok NAME" or
"FAIL NAME: what differs" lines, one per assertion line, and exits 1 if any
assertion failed.
"""
import json
import os
import shlex
import subprocess
import sys


def check(game, key, value):
    """None when the assertion holds, else a description of the difference."""
    if key in ("status", "reason", "outcome", "plies", "result"):
        got = game.get(key)
        got = "null" if got is None else str(got)
        return None if got == value else "%s=%s, want %s" % (key, got, value)
    if key == "fen":
        got = " ".join((game.get("fen") or "").split(" ")[:4])
        want = " ".join(value.split(" ")[:4])
        return None if got == want else "fen %r, want %r" % (got, want)
    diags = game.get("diagnostics", [])
    if key in ("error", "warning", "note"):
        code, _, ply = value.partition("@")
        for d in diags:
            if d["severity"] == key and code in ("*", d["code"]) and (not ply or str(d["ply"]) == ply):
                return None
        have = ", ".join("%s:%s@%s" % (d["severity"], d["code"], d["ply"]) for d in diags)
        return "no %s %s; have %s" % (key, value, have or "no diagnostics")
    if key == "no":
        hits = [d for d in diags if d["code"] == value]
        return None if not hits else "unexpected %s: %s" % (value, hits[0]["message"])
    if key == "errors":
        n = sum(1 for d in diags if d["severity"] == "error")
        return None if str(n) == value else "%d errors, want %s" % (n, value)
    return "unknown assertion %s" % key


def main():
    binary, pgn, expect = sys.argv[1:4]
    name = os.path.splitext(os.path.basename(pgn))[0]
    proc = subprocess.run([binary, "-f", "jsonl", pgn], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1):
        print("FAIL %s: pgncheck exit %d: %s" % (name, proc.returncode, proc.stderr.decode()[:200]))
        return 1
    games = [json.loads(l) for l in proc.stdout.decode("utf-8").splitlines() if l.strip()]
    games = [g for g in games if g.get("type") == "game"]
    bad = 0
    n = 0
    for line in open(expect, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        n += 1
        pairs = [w.partition("=") for w in shlex.split(line)]
        index = 1
        for k, _, v in pairs:
            if k == "game":
                index = int(v)
        label = "%s game %d" % (name, index)
        if index > len(games):
            print("FAIL %s: pgncheck reported %d games" % (label, len(games)))
            bad += 1
            continue
        errs = [e for e in (check(games[index - 1], k, v) for k, _, v in pairs if k != "game") if e]
        if errs:
            print("FAIL %s: %s" % (label, "; ".join(errs)))
            bad += 1
        else:
            print("ok %s: %s" % (label, line))
    if n == 0:
        print("FAIL %s: no expectation in %s" % (name, expect))
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
