#!/usr/bin/env python3
"""laws_check.py - runs pgncheck over hand-written case files and compares
each game with the hand-derived expectation in the sibling .expect file.

Usage: laws_check.py PGNCHECK CASE.pgn...

Expectation format (CASE.expect next to CASE.pgn), one record per game:

    # comment (ignored), blank lines ignored
    options: --no-variations          optional, whole file: extra arguments
    game N key=value ...              N is the 1-based game index
      CODE LINE:COL ply=P [move=TEXT] [sev=SEVERITY] ["message substring"]...

Keys on a game line (each optional; only the keys given are checked):
    status   ok | warning | error | skipped
    outcome  1-0 | 0-1 | 1/2-1/2 | * | null
    reason   checkmate, stalemate, ... (the man page, OUTPUT FORMATS, jsonl)
    plies    integer
    fen      the final position (quote it: fen="... w - - 0 1")
    rules    2014 | 1997 (the Laws that judged the game, R45)
A game line is followed by its diagnostics, indented.  The list is the
complete set: every diagnostic the program reports for that game must be
listed and every listed one must be reported (order does not matter).
LINE:COL may be LINE:* when only the line is pinned down; ply=- means the
diagnostic is not about a move (JSON null); sev= pins the severity (note,
warning, error) where a code's severity depends on the game.  Message substrings are
matched case-sensitively against the message.

Output: "ok NAME" or "FAIL NAME: detail" per game and per file exit status.
The caller counts the lines.
"""
import json
import os
import shlex
import subprocess
import sys


class Expect:
    def __init__(self, index, keys, lineno):
        self.index = index
        self.keys = keys
        self.diags = []
        self.lineno = lineno


def parse_expect(path):
    options = []
    games = []
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            if s.startswith("options:"):
                options = shlex.split(s[len("options:"):])
                continue
            words = shlex.split(s)
            if words[0] == "game" and not line[0].isspace():
                keys = {}
                for w in words[2:]:
                    k, _, v = w.partition("=")
                    keys[k] = v
                games.append(Expect(int(words[1]), keys, lineno))
                continue
            if not games or not line[0].isspace():
                raise ValueError("%s:%d: diagnostic outside a game" % (path, lineno))
            code, where = words[0], words[1]
            ln, _, col = where.partition(":")
            d = {"code": code, "line": int(ln), "column": None if col == "*" else int(col),
                 "ply": "any", "move": None, "subs": []}
            for w in words[2:]:
                if w.startswith("ply="):
                    v = w[4:]
                    d["ply"] = None if v == "-" else int(v)
                elif w.startswith("move="):
                    d["move"] = w[5:]
                elif w.startswith("sev="):
                    d["sev"] = w[4:]
                else:
                    d["subs"].append(w)
            games[-1].diags.append(d)
    return options, games


def diag_matches(want, got):
    if want["code"] != got.get("code") or want["line"] != got.get("line"):
        return False
    if want["column"] is not None and want["column"] != got.get("column"):
        return False
    if want["ply"] != "any" and want["ply"] != got.get("ply"):
        return False
    if want["move"] is not None and want["move"] != got.get("move"):
        return False
    if want.get("sev") is not None and want["sev"] != got.get("severity"):
        return False
    msg = got.get("message") or ""
    return all(s in msg for s in want["subs"])


def show(d):
    return "%s %s:%s ply=%s move=%s %r" % (d.get("code"), d.get("line"), d.get("column"), d.get("ply"),
                                           d.get("move"), d.get("message"))


def show_want(d):
    return "%s %d:%s ply=%s%s%s" % (d["code"], d["line"], "*" if d["column"] is None else d["column"],
                                    "-" if d["ply"] is None else d["ply"],
                                    ("" if d["move"] is None else " move=" + d["move"]) +
                                    ("" if d.get("sev") is None else " sev=" + d["sev"]),
                                    "".join(" %r" % s for s in d["subs"]))


def check_game(name, exp, got):
    problems = []
    for k, v in exp.keys.items():
        g = got.get(k)
        if k == "plies":
            ok = g == int(v)
        elif k == "outcome" and v == "null":
            ok = g is None
        else:
            ok = g == v
        if not ok:
            problems.append("%s: want %s, got %s" % (k, v, json.dumps(g)))
    left = list(got.get("diagnostics") or [])
    for w in exp.diags:
        for i, d in enumerate(left):
            if diag_matches(w, d):
                del left[i]
                break
        else:
            problems.append("missing diagnostic: " + show_want(w))
    for d in left:
        problems.append("unexpected diagnostic: " + show(d))
    if problems:
        print("FAIL %s: %s" % (name, "; ".join(problems)))
        return False
    print("ok %s" % name)
    return True


def run_case(binary, pgn):
    base = pgn[:-4] if pgn.endswith(".pgn") else pgn
    exp_path = base + ".expect"
    short = os.path.relpath(pgn)
    if not os.path.exists(exp_path):
        print("FAIL %s: no expectation file %s" % (short, exp_path))
        return 0, 1
    try:
        options, games = parse_expect(exp_path)
    except (ValueError, IndexError) as e:
        print("FAIL %s: bad expectation file: %s" % (short, e))
        return 0, 1
    proc = subprocess.run([binary, "-f", "jsonl"] + options + [pgn], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    records = []
    try:
        for l in proc.stdout.decode("utf-8").splitlines():
            records.append(json.loads(l))
    except ValueError as e:
        print("FAIL %s: output is not JSON Lines: %s" % (short, e))
        return 0, 1
    got_games = {r["index"]: r for r in records if r.get("type") == "game"}
    passed = failed = 0
    for exp in games:
        name = "%s#%d" % (short, exp.index)
        g = got_games.pop(exp.index, None)
        if g is None:
            print("FAIL %s: game not reported" % name)
            failed += 1
        elif check_game(name, exp, g):
            passed += 1
        else:
            failed += 1
    if got_games:
        print("FAIL %s: games without an expectation: %s" % (short, sorted(got_games)))
        failed += 1
    file_diags = [r for r in records if r.get("type") == "diagnostic"]
    if file_diags:
        print("FAIL %s: unexpected file-level diagnostics: %s" % (short, "; ".join(show(d) for d in file_diags)))
        failed += 1
    # --strict / --werror: warnings count as errors for the exit status.
    werror = "--strict" in options or "--werror" in options
    bad = ("error", "warning") if werror else ("error",)
    want_rc = 1 if any(e.keys.get("status") in bad for e in games) else 0
    if proc.returncode == want_rc:
        print("ok %s: exit %d" % (short, want_rc))
        passed += 1
    else:
        print("FAIL %s: exit %d, want %d" % (short, proc.returncode, want_rc))
        failed += 1
    return passed, failed


def main():
    if len(sys.argv) < 3:
        print("usage: laws_check.py PGNCHECK CASE.pgn...", file=sys.stderr)
        return 2
    binary = sys.argv[1]
    passed = failed = 0
    for pgn in sys.argv[2:]:
        p, f = run_case(binary, pgn)
        passed += p
        failed += f
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
