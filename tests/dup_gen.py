#!/usr/bin/env python3
"""Generates PGN files for --duplicates and the answers expected of them.

    python3 tests/dup_gen.py DIR [SEED]

writes DIR/a.pgn, DIR/b.pgn, DIR/c.pgn (the cases), DIR/many.pgn (3000
games with distinct main lines, for the memory limit), DIR/expect.tsv (one
row per game of a, b, c in input order: file, index, the file and index of
the first game with its main line or "-", and the code expected) and
DIR/unique.pgn (what --select=unique must write for a b c).

The games move knights only, so that their legality is plain without a
chess engine: White's knights stay on their home squares and ranks 3-4,
Black's on theirs and ranks 5-6.  No move then captures, gives check or is
pinned, and a move is legal when a knight of the side to move jumps to an
empty square of its zone.  SAN is written from this model: a second knight
of the mover that could jump to the same square makes the move name its
file (or its rank, on the same file).

The expected answer comes from the definition, not from pgncheck: a game
whose main line could be replayed to its end (none of the games with an
illegal move, none without moves) is a duplicate of the first earlier such
game with the same start position and the same list of moves; the code is
duplicate-result-differs when both declare results, they differ and the
line has 20 plies or more, else duplicate-game.
"""
import os
import random
import sys

FILES = "abcdefgh"
STD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def sq(name):
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def name(s):
    return FILES[s % 8] + str(s // 8 + 1)


def jumps(s):
    f, r = s % 8, s // 8
    for df, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
        if 0 <= f + df < 8 and 0 <= r + dr < 8:
            yield f + df + 8 * (r + dr)


class Start:
    """A start position of the model: where the knights stand, the side
    to move, the squares other men block, its FEN (None: no FEN tag) and
    an identity: two starts are the same position when it is equal."""

    def __init__(self, knights, side, blocked, fen, ident):
        self.knights, self.side, self.blocked, self.fen, self.ident = knights, side, blocked, fen, ident


def zone(side):
    if side == 0:
        return {sq("b1"), sq("g1")} | set(range(16, 32))
    return {sq("b8"), sq("g8")} | set(range(32, 48))


STANDARD = Start(({sq("b1"), sq("g1")}, {sq("b8"), sq("g8")}), 0, set(), None, "standard")


def legal(knights, side, blocked):
    own = knights[side]
    taken = knights[0] | knights[1] | blocked
    return sorted((a, b) for a in own for b in jumps(a) if b in zone(side) and b not in taken)


def play(start, moves):
    """The SAN of each move, or None when the list is not legal."""
    kn = [set(start.knights[0]), set(start.knights[1])]
    side = start.side
    out = []
    for a, b in moves:
        if (a, b) not in legal(kn, side, start.blocked):
            return None
        other = [k for k in kn[side] if k != a and b in jumps(k)]
        dis = ""
        if other:
            dis = name(a)[1] if other[0] % 8 == a % 8 else name(a)[0]
        out.append((side, "N" + dis + name(b), a, b))
        kn[side].remove(a)
        kn[side].add(b)
        side ^= 1
    return out


def position_after(start, moves):
    kn = [set(start.knights[0]), set(start.knights[1])]
    side = start.side
    for a, b in moves:
        kn[side].remove(a)
        kn[side].add(b)
        side ^= 1
    return kn, side


def random_line(rng, start, n):
    kn = [set(start.knights[0]), set(start.knights[1])]
    side = start.side
    moves = []
    for _ in range(n):
        opts = legal(kn, side, start.blocked)
        a, b = rng.choice(opts)
        moves.append((a, b))
        kn[side].remove(a)
        kn[side].add(b)
        side ^= 1
    return moves


class Game:
    def __init__(self, start, moves, result="1-0", *, tags=None, style=None, illegal_at=None, empty=False):
        self.start, self.moves, self.result = start, list(moves), result
        self.tags = tags or {}
        self.style = style or {}
        self.illegal_at = illegal_at    # an illegal move written before ply illegal_at + 1
        self.empty = empty

    def compared(self):
        return self.illegal_at is None and not self.empty and len(self.moves) > 0

    def key(self):
        return (self.start.ident, tuple(self.moves))


def render(g, rng, serial):
    """The game's text: tags, then movetext in the game's style."""
    tags = {"Event": f"case {serial}", "Site": "?", "Date": "1990.01.01", "Round": str(serial),
            "White": f"W{serial}", "Black": f"B{serial}", "Result": g.result}
    tags.update(g.tags)
    if g.start.fen:
        tags["SetUp"] = "1"
        tags["FEN"] = g.start.fen
    lines = [f'[{k} "{v}"]' for k, v in tags.items()]
    toks = []
    if not g.empty:
        sans = play(g.start, g.moves)
        assert sans is not None, "an illegal line generated"
        numbers = g.style.get("numbers", True) and not g.start.fen
        for i, (side, san, a, b) in enumerate(sans):
            if g.illegal_at == i:
                toks.append("Bb5" if side == 0 else "Bb4")   # blocked by the e-pawn
            spelt = san
            how = g.style.get("spelling")
            if how == "long":
                spelt = "N" + name(a) + "-" + name(b)
            elif how == "over" and len(san) == 3:
                spelt = "N" + name(a)[0] + name(b)
            if numbers and side == 0:
                toks.append(f"{i // 2 + 1}.")
            elif numbers and i == 0:
                toks.append("1...")
            toks.append(spelt)
            if g.style.get("comments") and rng.random() < 0.2:
                toks.append("{a comment}")
            if g.style.get("nags") and rng.random() < 0.2:
                toks.append("$1")
            if g.style.get("variations") and rng.random() < 0.2:
                kn, s = position_after(g.start, g.moves[:i])
                alts = [m for m in legal(kn, s, g.start.blocked) if m != g.moves[i]]
                if alts:
                    alt = rng.choice(alts)
                    sub = Start((kn[0], kn[1]), s, g.start.blocked, None, "-")
                    toks.append("(" + play(sub, [alt])[0][1] + ")")
    toks.append(g.result)
    text = "\n".join(lines) + "\n\n"
    line = ""
    for t in toks:
        if len(line) + 1 + len(t) > 79:
            text += line + "\n"
            line = t
        else:
            line = t if not line else line + " " + t
    return text + line + "\n\n"


def build(rng):
    # Start positions: the standard one, the same as a FEN (counters
    # other than 0 1 too: the clocks are no part of a position), Black to
    # move after 1. e4 with and without an en passant square no capture
    # can use (one position), and positions that differ from the standard
    # one only in a castling right or the side to move.
    std_fen = Start(STANDARD.knights, 0, set(), STD_FEN, "standard")
    std_counters = Start(STANDARD.knights, 0, set(), STD_FEN.replace(" 0 1", " 7 30"), "standard")
    e4 = {sq("e4")}
    after_e4 = Start(STANDARD.knights, 1, e4, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "e4")
    after_e4_noep = Start(STANDARD.knights, 1, e4, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                          "e4")
    no_wk = Start(STANDARD.knights, 0, set(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1", "Qkq")
    nf3 = Start(({sq("b1"), sq("f3")}, {sq("b8"), sq("g8")}), 1, set(),
                "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1", "Nf3")
    results = ["1-0", "0-1", "1/2-1/2", "*"]
    files = {"a": [], "b": [], "c": []}
    pool = []                            # games that later ones copy

    def add(f, g):
        files[f].append(g)
        pool.append(g)

    for f in "abc":
        for _ in range(120):
            r = rng.random()
            withmoves = [p for p in pool if p.moves]
            base = rng.choice(withmoves) if withmoves else None
            if base is None or r < 0.30:
                g = Game(STANDARD, random_line(rng, STANDARD, rng.randint(1, 50)), rng.choice(results))
            elif r < 0.42:
                # a copy: other tags, comments, NAGs, variations, spellings
                g = Game(base.start, base.moves, base.result,
                         tags={"White": "Someone", "Annotator": "x"},
                         style={"comments": True, "nags": True, "variations": True,
                                "numbers": rng.random() < 0.5,
                                "spelling": rng.choice([None, "long", "over"])})
            elif r < 0.48:
                # the same moves, another result (long and short lines)
                g = Game(base.start, base.moves, rng.choice([x for x in results if x != base.result]))
            elif r < 0.56 and len(base.moves) > 1:
                # near copies: one ply fewer (a prefix), one more, the last changed
                kind = rng.randrange(3)
                mv = list(base.moves)
                if kind == 0:
                    mv = mv[:-1]
                elif kind == 1:
                    mv = mv + random_line(rng, Start(*position_after(base.start, mv), base.start.blocked, None, "-"), 1)
                else:
                    kn, s = position_after(base.start, mv[:-1])
                    alts = [m for m in legal(kn, s, base.start.blocked) if m != mv[-1]]
                    if alts:
                        mv[-1] = rng.choice(alts)
                g = Game(base.start, mv, base.result)
            elif r < 0.64 and len(base.moves) > 3:
                # a transposition: two moves of one side swapped, the same
                # final position by another order (kept only when legal)
                mv = list(base.moves)
                i = rng.randrange(len(mv) - 2)
                mv[i], mv[i + 2] = mv[i + 2], mv[i]
                if play(base.start, mv) is None or mv == base.moves:
                    mv = base.moves[: len(base.moves) // 2]   # else a prefix
                g = Game(base.start, mv, base.result)
            elif r < 0.70:
                # a prefix of any length
                g = Game(base.start, base.moves[: rng.randint(1, len(base.moves))], base.result)
            elif r < 0.80:
                # from a set-up position
                st = rng.choice([std_fen, std_counters, after_e4, after_e4_noep, no_wk, nf3])
                src = rng.choice([p for p in pool if p.start.ident == st.ident] or [None])
                mv = list(src.moves) if src and rng.random() < 0.6 else random_line(rng, st, rng.randint(1, 30))
                g = Game(st, mv, src.result if src else rng.choice(results))
            elif r < 0.86:
                # an illegal move (the game is cut short: never compared),
                # at times in a copy of a game or of another cut-short game
                src = rng.choice([p for p in pool if p.illegal_at is not None] or [base])
                mv = list(src.moves) if src.start is STANDARD else random_line(rng, STANDARD, 10)
                at = src.illegal_at if src.illegal_at is not None else rng.randrange(len(mv))
                g = Game(STANDARD, mv, src.result, illegal_at=min(at, len(mv) - 1) if mv else None)
                if not mv:
                    g = Game(STANDARD, [], "*", empty=True)
            elif r < 0.89:
                g = Game(STANDARD, [], "*", empty=True)
            elif r < 0.92:
                # Chess960 from the standard position: the same position
                g = Game(STANDARD, base.moves if base.start is STANDARD else random_line(rng, STANDARD, 8),
                         base.result, tags={"Variant": "Chess960"})
            else:
                g = Game(base.start, base.moves, base.result)   # a plain copy
            add(f, g)
    return files


def main():
    out = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 22
    rng = random.Random(seed)
    files = build(rng)
    first = {}
    rows = []
    unique = []
    serial = 0
    for f in "abc":
        path = os.path.join(out, f + ".pgn")
        with open(path, "w", newline="\n") as fh:
            for i, g in enumerate(files[f], 1):
                serial += 1
                text = render(g, rng, serial)
                fh.write(text)
                dup, code = "-", "-"
                if g.compared():
                    k = g.key()
                    if k in first:
                        ff, fi, fg = first[k]
                        dup = f"{ff}.pgn:{fi}"
                        differ = fg.result != g.result
                        code = "duplicate-result-differs" if differ and len(g.moves) >= 20 else "duplicate-game"
                    else:
                        first[k] = (f, i, g)
                if dup == "-":
                    unique.append(text)
                rows.append(f"{f}.pgn\t{i}\t{dup}\t{code}")
    with open(os.path.join(out, "expect.tsv"), "w") as fh:
        fh.write("\n".join(rows) + "\n")
    with open(os.path.join(out, "unique.pgn"), "w", newline="\n") as fh:
        fh.write("".join(unique))
    # many distinct lines: 3000 games of 40 plies (each line a new one:
    # a repeat is dropped here)
    seen = set()
    with open(os.path.join(out, "many.pgn"), "w", newline="\n") as fh:
        n = 0
        while n < 3000:
            g = Game(STANDARD, random_line(rng, STANDARD, 40), "*")
            if g.key() in seen:
                continue
            seen.add(g.key())
            n += 1
            fh.write(render(g, rng, n))


if __name__ == "__main__":
    main()
