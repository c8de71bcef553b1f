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

The expected answer comes from the definition (the man page, --duplicates),
not from pgncheck.  Only a game whose main line could be replayed to its
end (none of the games with an illegal move, none without moves) is
compared.  Of the games with one start position and one list of moves,
the first is kept; a later one is the same game as the first kept game
whose players are compatible (compatible() below, written from the rule)
and whose Date agrees where both are complete, or, failing that, when the
line has 40 plies or more, as the first game; else it is another game
(same-moves) and kept too.  The code of the same game is
duplicate-result-differs when both declare results, they differ and the
line has 20 plies or more, else duplicate-game.
"""
import os
import random
import re
import sys
import unicodedata

LONG = 40           # plies from which the same moves are the same game

# ---- players' names, as the man page defines compatible ones ----
SKELETON = [("tsch", "ch"), ("tch", "ch"), ("sch", "sh"), ("kh", "h"), ("ch", "h"), ("ck", "k"), ("ph", "f"),
            ("w", "v"), ("j", "i"), ("y", "i"), ("c", "k"), ("q", "k"), ("ou", "u"), ("ae", "a"), ("oe", "o"),
            ("ue", "u")]


def skeleton(w):
    for a, b in SKELETON:
        w = w.replace(a, b)
    return re.sub(r"(.)\1+", r"\1", w)


def words(name):
    """Words: runs of letters and digits, lower case, a Latin-1 letter
    with a diacritic as its base letter; other characters separate."""
    out, cur = [], ""
    for ch in name or "":
        if ch.isascii():
            if ch.isalnum():
                cur += ch.lower()
                continue
        elif 0xC0 <= ord(ch) <= 0xFF and ch not in "\u00d7\u00f7":
            base = unicodedata.normalize("NFD", ch)[0]
            if base.isascii() and base.isalpha():
                cur += base.lower()
                continue
            cur += ch
            continue
        elif ord(ch) > 0xFF:
            cur += ch
            continue
        if cur:
            out.append(cur)
        cur = ""
    if cur:
        out.append(cur)
    return out[:8]


def distance(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def word_match(a, b):
    """2: the same word (or spelt otherwise); 1: an abbreviation; 0: not."""
    if a == b:
        return 2
    if any(c.isdigit() for c in a + b):
        return 0
    s, l = sorted((a, b), key=len)
    if len(s) <= 3 and l.startswith(s):
        return 1
    x, y = skeleton(a), skeleton(b)
    n = min(len(x), len(y))
    edits = 2 if n >= 8 else 1 if n >= 4 else 0
    return 2 if distance(x, y) <= edits else 0


def compatible(p, q):
    a, b = words(p), words(q)
    if not a or not b:
        return True
    if len(a) > len(b):
        a, b = b, a

    def pair(i, used, full):
        if i == len(a):
            return full
        return any(pair(i + 1, used | {j}, full or m == 2)
                   for j in range(len(b)) if j not in used
                   for m in [word_match(a[i], b[j])] if m)
    return pair(0, frozenset(), False)


def complete(date):
    return bool(re.fullmatch(r"[0-9]{4}\.[0-9]{2}\.[0-9]{2}", date or ""))


def same_players(a, b):
    return (compatible(a.white, b.white) and compatible(a.black, b.black) and
            not (complete(a.date) and complete(b.date) and a.date != b.date))


# People, each with spellings of one name (compatible by the rule), and
# names that are not compatible with them (other people).
PEOPLE = [
    ["Nimzowitsch, Aron", "Nimzovitch, A", "NIMZOWITSCH,A.", "Aron Nimzowitsch"],
    ["Korchnoi, Viktor", "Kortchnoi, V", "Kortschnoj, Viktor", "korchnoi v"],
    ["Kholmov, Ratmir", "Cholmov, R", "Kholmov,R"],
    ["Lasker, Emanuel", "Lasker,Em", "Lasker, E."],
    ["Myers, Hugh", "Meyers, H", "Myers"],
    ["H\u00fcbner, Robert", "Huebner, R", "Hubner,Robert"],
    ["Tal, Mikhail", "Tal, Mihail", "Tal,M"],
    ["Karpov, Anatoly", "Karpov,A"],
    ["Kasparov, Garry", "Kasparov, G"],
    ["Polgar, Judit", "Polgar,J"],
    ["Polgar, Susan", "Polgar, S."],
    ["player123"],
    ["player124"],
]
UNKNOWN = ["?", ""]
DATES = ["1990.01.01", "1990.01.02", "1990.??.??", "????.??.??", "1991.05.17"]

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
    def __init__(self, start, moves, result="1-0", *, tags=None, style=None, illegal_at=None, empty=False,
                 who=None):
        self.start, self.moves, self.result = start, list(moves), result
        self.white, self.black, self.date = who or ("?", "?", "????.??.??")
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
    tags = {"Event": f"case {serial}", "Site": "?", "Date": g.date, "Round": str(serial),
            "White": g.white, "Black": g.black, "Result": g.result}
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

    def person():
        return rng.randrange(len(PEOPLE))

    def spelt(k):
        return rng.choice(UNKNOWN) if rng.random() < 0.05 else rng.choice(PEOPLE[k])

    def players():
        """A new game's players (indices into PEOPLE) and date."""
        return person(), person(), rng.choice(DATES)

    def who(p, respell=True):
        w, b, d = p
        return (spelt(w) if respell else PEOPLE[w][0], spelt(b) if respell else PEOPLE[b][0], d)

    def add(f, g, p=None):
        g.people = p
        files[f].append(g)
        pool.append(g)

    for f in "abc":
        for _ in range(120):
            r = rng.random()
            withmoves = [p for p in pool if p.moves]
            base = rng.choice(withmoves) if withmoves else None
            p = players()
            bp = getattr(base, "people", None) or p
            if base is None or r < 0.30:
                g = Game(STANDARD, random_line(rng, STANDARD, rng.randint(1, 60)), rng.choice(results),
                         who=who(p))
            elif r < 0.36:
                # a copy: other tags, comments, NAGs, variations, spellings
                # of the moves and of the players' names
                g = Game(base.start, base.moves, base.result, tags={"Annotator": "x", "Event": "copied"},
                         style={"comments": True, "nags": True, "variations": True,
                                "numbers": rng.random() < 0.5,
                                "spelling": rng.choice([None, "long", "over"])},
                         who=who(bp))
                p = bp
            elif r < 0.42:
                # the same moves by other players (or on another date):
                # the same game only on a long line
                q = (person(), person(), rng.choice(DATES))
                g = Game(base.start, base.moves, base.result, who=who(q))
                p = q
            elif r < 0.48:
                # the same moves, another result (long and short lines)
                g = Game(base.start, base.moves, rng.choice([x for x in results if x != base.result]), who=who(bp))
                p = bp
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
                g = Game(base.start, mv, base.result, who=who(bp))
                p = bp
            elif r < 0.64 and len(base.moves) > 3:
                # a transposition: two moves of one side swapped, the same
                # final position by another order (kept only when legal)
                mv = list(base.moves)
                i = rng.randrange(len(mv) - 2)
                mv[i], mv[i + 2] = mv[i + 2], mv[i]
                if play(base.start, mv) is None or mv == base.moves:
                    mv = base.moves[: len(base.moves) // 2]   # else a prefix
                g = Game(base.start, mv, base.result, who=who(bp))
                p = bp
            elif r < 0.70:
                # a prefix of any length
                g = Game(base.start, base.moves[: rng.randint(1, len(base.moves))], base.result, who=who(bp))
                p = bp
            elif r < 0.80:
                # from a set-up position
                st = rng.choice([std_fen, std_counters, after_e4, after_e4_noep, no_wk, nf3])
                src = rng.choice([p for p in pool if p.start.ident == st.ident] or [None])
                mv = list(src.moves) if src and rng.random() < 0.6 else random_line(rng, st, rng.randint(1, 30))
                sp = getattr(src, "people", None) if src and rng.random() < 0.7 else None
                g = Game(st, mv, src.result if src else rng.choice(results), who=who(sp or p))
                p = sp or p
            elif r < 0.86:
                # an illegal move (the game is cut short: never compared),
                # at times in a copy of a game or of another cut-short game
                src = rng.choice([p for p in pool if p.illegal_at is not None] or [base])
                mv = list(src.moves) if src.start is STANDARD else random_line(rng, STANDARD, 10)
                at = src.illegal_at if src.illegal_at is not None else rng.randrange(len(mv))
                g = Game(STANDARD, mv, src.result, illegal_at=min(at, len(mv) - 1) if mv else None, who=who(p))
                if not mv:
                    g = Game(STANDARD, [], "*", empty=True)
            elif r < 0.89:
                g = Game(STANDARD, [], "*", empty=True)
            elif r < 0.92:
                # Chess960 from the standard position: the same position
                g = Game(STANDARD, base.moves if base.start is STANDARD else random_line(rng, STANDARD, 8),
                         base.result, tags={"Variant": "Chess960"}, who=who(bp))
                p = bp
            else:
                g = Game(base.start, base.moves, base.result, who=who(bp, respell=False))   # a plain copy
                p = bp
            add(f, g, p)
    return files


def main():
    out = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 22
    rng = random.Random(seed)
    files = build(rng)
    kept = {}           # (start, moves): the games kept, in input order
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
                    games = kept.setdefault(k, [])
                    same = [x for x in games if same_players(x[2], g)]
                    if same or (games and len(g.moves) >= LONG):
                        ff, fi, fg = (same or games)[0]
                        dup = f"{ff}.pgn:{fi}"
                        differ = fg.result != g.result
                        code = "duplicate-result-differs" if differ and len(g.moves) >= 20 else "duplicate-game"
                    else:
                        if games:
                            code = "same-moves"
                        games.append((f, i, g))
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
