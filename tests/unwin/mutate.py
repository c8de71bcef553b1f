#!/usr/bin/env python3
"""mutate.py - positions near those of a test vector, for the blockade
proof's brute-force check (tests/test_unwin -x).

Usage: mutate.py SEED K FILE
For every line "XY FEN" of FILE (CHA's format), K new positions, each
with one to three random changes: a king moved a step (or anywhere), a
piece taken off, a piece moved, a bishop, knight, rook or queen added;
the side to move drawn at random.  Printed as "?? FEN" (no answer known):
the positions the proof settles are then checked by brute force.  Many
are not legal positions (kings next to each other, a side not to move in
check); tests/test_unwin skips those.  random.Random(SEED): the same
positions every run.
"""
import random
import sys


def parse(placement):
    board = {}
    for i, row in enumerate(placement.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 7 - i)] = ch
                f += 1
    return board


def fen(board, side):
    rows = []
    for r in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            p = board.get((f, r))
            if p:
                row += (str(empty) if empty else "") + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " " + side + " - -"


def mutate(rnd, base):
    b = dict(base)
    for _ in range(rnd.randint(1, 3)):
        op = rnd.random()
        empty = [(f, r) for f in range(8) for r in range(8) if (f, r) not in b]
        pieces = [s for s in b if b[s] in "BNRQbnrq"]
        if op < 0.4:
            k = rnd.choice("Kk")
            at = [s for s in b if b[s] == k][0]
            if rnd.random() < 0.6:
                to = [(at[0] + df, at[1] + dr) for df in (-1, 0, 1) for dr in (-1, 0, 1)
                      if (df or dr) and 0 <= at[0] + df < 8 and 0 <= at[1] + dr < 8
                      and (at[0] + df, at[1] + dr) not in b]
            else:
                to = empty
            if to:
                del b[at]
                b[rnd.choice(to)] = k
        elif op < 0.6:
            if pieces:
                del b[rnd.choice(pieces)]
        elif op < 0.8:
            if pieces and empty:
                p = b.pop(rnd.choice(pieces))
                b[rnd.choice(empty)] = p
        elif empty:
            b[rnd.choice(empty)] = rnd.choice("BbNnBbRrQ")
    return b


def main():
    rnd = random.Random(int(sys.argv[1]))
    k = int(sys.argv[2])
    out = []
    for line in open(sys.argv[3], encoding="utf-8"):
        line = line.strip()
        if len(line) < 4 or line.startswith("#"):
            continue
        base = parse(line[3:].split()[0])
        for _ in range(k):
            out.append("?? " + fen(mutate(rnd, base), rnd.choice("wb")))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
