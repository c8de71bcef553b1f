#!/usr/bin/env python3
"""games.py - pgncheck's verdicts on CHA's test vector as games
(../shared/unwinnable: flag-vector.pgn, dead.pgn, expected.tsv; its README
says how CHA's verdicts were obtained), with the searches of --unwin-nodes.

Usage: games.py BIN EVERY NODES MIN_FLAG_PCT MIN_DEAD_PCT [LAWS]
Every EVERY-th game of each file, run with --unwin-nodes=NODES and
--rules=LAWS (default 2014: the games are undated, and a dead position
beyond the material list is a rule of the Laws of 1997 and after, R22).
NODES "default": the program's own defaults, neither option given (the
searches where a verdict or a draw's reason depends on them; the undated
games judged by the older laws, a draw's reason whatever the date).

- flag-vector.pgn (FIDE 6.9, R29): a win on time where CHA says the winner
  cannot mate must become a draw (wrong-result); where CHA says it can, the
  result must stand.  Unsound: a draw where the winner can mate.
- dead.pgn (FIDE 5.2.2, R22): a 1/2-1/2 game with no moves from each
  position; where CHA calls it dead, the reason must be dead-position.
  Unsound: dead-position where CHA says a side can mate.
- dead.pgn again, each game's result made 1-0 and run under the Laws of
  2014 (--rules=2014, as the searches' pass): a decisive result on a dead
  position is a wrong result, so where CHA calls it dead the outcome must be
  1/2-1/2 for a dead position, with a wrong-result error (the precheck of
  a decisive result's final position, src/dead.c: result_may_be_dead, must
  let every one through).
  Unsound: that outcome where CHA says a side can mate.
FENs with material no legal game reaches (R3) are refused (invalid) and are
no questions.  Fails on any unsound verdict or fewer than the given
percentages decided.  Prints "N passed, N failed".
"""
import csv
import json
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(os.environ.get("PGNCHECK_CORPUS", os.path.join(TOP, "..", "shared", "corpus")), "..", "unwinnable")


def games(path, every):
    text = open(path, encoding="utf-8").read()
    parts = text.split('[Event "')[1:]
    return "".join('[Event "' + g for i, g in enumerate(parts) if i % every == 0)


def main():
    bin_dir, every, nodes, min_flag, min_dead = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), \
        float(sys.argv[5])
    laws = sys.argv[6] if len(sys.argv) > 6 else "2014"
    if not os.path.isfile(os.path.join(DATA, "expected.tsv")):
        print("ok unwin games # skip: %s not found" % DATA)
        print("1 passed, 0 failed")
        return 0
    expected = {r["event"]: r for r in csv.DictReader(open(os.path.join(DATA, "expected.tsv"), encoding="utf-8"),
                                                       delimiter="\t")}
    passed = failed = 0
    for name in ("flag-vector.pgn", "dead.pgn", "dead.pgn 1-0"):
        pgn = games(os.path.join(DATA, name.split()[0]), every)
        opts = [] if nodes == "default" else ["--rules=" + laws, "--unwin-nodes=" + nodes]
        decisive = name.endswith("1-0")
        if decisive:
            pgn = pgn.replace('[Result "1/2-1/2"]', '[Result "1-0"]').replace("\n1/2-1/2\n", "\n1-0\n")
            opts = ["--rules=" + laws] + opts[1:]
        out = subprocess.run([os.path.join(bin_dir, "pgncheck"), "-f", "jsonl", "-j1", "--no-progress"] + opts +
                             ["-"], input=pgn.encode(), stdout=subprocess.PIPE, check=False).stdout
        questions = decided = 0
        unsound = []
        for line in out.decode("utf-8").splitlines():
            g = json.loads(line)
            if g.get("type") != "game":
                continue
            e = expected[g["event"]]
            if g["reason"] == "invalid":
                continue  # R3: the FEN is refused
            if name == "flag-vector.pgn":
                drawn = g["outcome"] == "1/2-1/2"
                if e["expected"] == "draw":
                    questions += 1
                    decided += drawn
                elif drawn:
                    unsound.append(g["event"])
                else:
                    questions += 1
                    decided += 1  # the result stands: right whether searched or not
            else:
                dead = g["reason"] == "dead-position" and (not decisive or (
                    g["outcome"] == "1/2-1/2" and
                    any(d["code"] == "wrong-result" and d["severity"] == "error" for d in g["diagnostics"])))
                if e["expected"] == "dead":
                    questions += 1
                    decided += dead
                elif dead:
                    unsound.append(g["event"])
        pct = 100.0 * decided / questions if questions else 0
        want = min_flag if name == "flag-vector.pgn" else min_dead
        what = "wins on time judged right" if name == "flag-vector.pgn" else \
            "dead positions found as wrong results" if decisive else "dead positions found"
        ok = not unsound and pct >= want
        print("%s unwin games %s (every %d, %s nodes): %d of %d %s (%.2f%%, at least %.2f%% wanted), "
              "%d unsound%s" % ("ok" if ok else "FAIL", name, every, nodes, decided, questions, what, pct, want,
                                len(unsound), (": " + " ".join(unsound[:10])) if unsound else ""))
        passed += ok
        failed += not ok
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
