#!/usr/bin/env python3
"""Scores pgncheck's repairs on a benchmark made by gen.py (issue 35).

  bench.py PGNCHECK GAMES.pgn GAMES.tsv [--repair]

For each game: exact (one proven repair, and the main line it gives is the
original), wrong (one proven repair, another line), left (none or several),
and whether the original line is among the ranked repairs; of the games
left, "first": the original ranked first alone (below the share a repair
needs), "tied": first with another line of the same share (no evidence in
the record between them: only a guess could repair it).  From -f jsonl's
"repairs" (each applied to the corrupted main line as its ply, old and new
say); with --repair, also from the games --repair writes: their main lines
must be the lines the unique repairs give, and a game without one must be
copied unchanged.  Prints a table per kind and the totals; exits 1 when
targets given with --min-exact / --max-wrong / --min-among are missed.
"""
import json
import subprocess
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import gen  # noqa: E402


def main_line(text):
    p = gen.parse(text.splitlines())
    return [gen.strip_mark(m) for m in p[1]] if p else None


def apply(line, r):
    old = r["old"].split()
    new = [gen.strip_mark(t).rstrip("!?") for t in r["new"].split()]
    i = r["ply"] - 1
    return line[:i] + new + line[i + len(old):]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) if "=" in a else (a[2:], "1") for a in sys.argv[1:] if a.startswith("--"))
    pgncheck, games_pgn, games_tsv = args
    rows = [l.rstrip("\n").split("\t") for l in open(games_tsv)]
    text = open(games_pgn).read()
    games = gen.split_games(text)
    assert len(games) == len(rows), (len(games), len(rows))
    r = subprocess.run([pgncheck, "-f", "jsonl", games_pgn], stdout=subprocess.PIPE)
    reps = [json.loads(l) for l in r.stdout.decode().splitlines()]
    reps = [o for o in reps if o.get("type") == "game"]
    assert len(reps) == len(rows)
    written = None
    if "repair" in opts:
        w = subprocess.run([pgncheck, "--repair", "-q", games_pgn], stdout=subprocess.PIPE)
        written = gen.split_games(w.stdout.decode())
        assert len(written) == len(rows), (len(written), len(rows))
    stats = {}
    bad_writes = 0
    for row, g, o, k in zip(rows, games, reps, range(len(rows))):
        kind, orig = row[1], row[3].split()
        line = main_line("\n".join(g))
        reps_ = []
        for d in o["diagnostics"]:
            reps_ = reps_ or d.get("repairs", [])
        lines = [apply(line, x) for x in reps_]
        unique = len(reps_) >= 1 and reps_[0].get("unique")
        s = stats.setdefault(kind, [0, 0, 0, 0, 0, 0, 0])
        s[0] += 1
        if unique:
            s[1 if lines[0] == orig else 2] += 1
        else:
            s[3] += 1
            # left: the original ranked first alone (a threshold could take
            # it), or tied for first with another line (nothing recorded
            # tells them apart)
            top = reps_[0]["share"] if reps_ else None
            mine = [x["share"] for x, l in zip(reps_, lines) if l == orig]
            if mine and mine[0] == top:
                s[5 if sum(x["share"] == top for x in reps_) == 1 else 6] += 1
        s[4] += orig in lines
        if written is not None:
            got = main_line("\n".join(written[k]))
            want = lines[0] if unique else line
            if got != want:
                bad_writes += 1
                if bad_writes <= 5:
                    print("--repair wrote another line for game %d (%s)" % (k + 1, kind), file=sys.stderr)
        if "verbose" in opts and (not unique or lines[0] != orig) and (opts["verbose"] != "wrong" or unique):
            print("game %d %s ply %s: %s" % (k + 1, kind, row[2], "; ".join(
                "%s %s:%s->%s%s" % (x["edit"], x["ply"], x["old"], x["new"], " *" if l == orig else "")
                for x, l in zip(reps_, lines)) or "none"), file=sys.stderr)
    print("%-16s %6s %7s %7s %7s %7s %7s %7s" % ("kind", "games", "exact", "wrong", "left", "among", "first",
                                                  "tied"))
    tot = [0, 0, 0, 0, 0, 0, 0]
    for kind in gen.KINDS:
        if kind not in stats:
            continue
        s = stats[kind]
        tot = [a + b for a, b in zip(tot, s)]
        print("%-16s %6d %7d %7d %7d %7d %7d %7d" % (kind, *s))
    n = max(tot[0], 1)
    print("%-16s %6d %7d %7d %7d %7d %7d %7d" % ("all", *tot))
    print("%-16s %6s %6.1f%% %6.2f%% %6.1f%% %6.1f%% %6.1f%% %6.1f%%" % (
        "share", "", *(100 * t / n for t in tot[1:3]), *(100 * t / n for t in tot[3:])))
    ok = True
    if written is not None:
        print("--repair: %d of %d games written with another main line than the unique repair gives"
              % (bad_writes, tot[0]))
        ok = bad_writes == 0
    if "min-exact" in opts and 100 * tot[1] / n < float(opts["min-exact"]):
        ok = False
    if "max-wrong" in opts and 100 * tot[2] / n > float(opts["max-wrong"]):
        ok = False
    if "min-among" in opts and 100 * tot[4] / n < float(opts["min-among"]):
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
