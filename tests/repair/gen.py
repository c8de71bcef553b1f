#!/usr/bin/env python3
"""The --repair benchmark's generator (issue 35).

Takes clean real games (no comments, variations, NAGs or FEN; pgncheck finds
no error in them), injects ONE transcription error of a kind into each at a
random ply, by editing the SAN text only (no move generator of our own, none
of pgncheck's logic decides the edit), and keeps the corrupted games that no
longer replay (pgncheck -f jsonl says illegal-move, ambiguous-move,
bad-move or null-move in the main line).

  gen.py PGNCHECK SEED PER_KIND OUT.pgn OUT.tsv FILE...

OUT.tsv: one line a kept game, in the order of OUT.pgn: its index, the kind,
the 1-based ply injected at, and the original main line (SAN tokens without
check marks, space separated).  The games are written with their Seven Tag
Roster and the moves renumbered, 80 columns at most.
"""
import json
import random
import re
import subprocess
import sys

KINDS = ["piece-letter", "language", "disambiguation", "destination", "pawn-file", "castling",
         "promotion", "transposed", "missing-move", "missing-pair", "written-twice"]
ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}

PIECE_RE = re.compile(r"^([NBRQK])([a-h]?[1-8]?)(x?)([a-h][1-8])([+#]?)$")
DISAMB_RE = re.compile(r"^([NBRQ])([a-h]|[1-8]|[a-h][1-8])(x?)([a-h][1-8])([+#]?)$")
PAWN_CAP_RE = re.compile(r"^([a-h])x([a-h][1-8])(=[QRBN])?([+#]?)$")
PAWN_RE = re.compile(r"^([a-h])([1-8])(=[QRBN])?([+#]?)$")
PROMO_RE = re.compile(r"^([a-h]x?[a-h]?[18])=([QRBN])([+#]?)$")


def split_games(text):
    games, cur = [], []
    for line in text.splitlines():
        if line.startswith("[Event ") and any(not l.startswith("[") for l in cur if l.strip()):
            games.append(cur)
            cur = []
        cur.append(line)
    if cur:
        games.append(cur)
    return games


def parse(lines):
    tags, moves = {}, []
    body = []
    for l in lines:
        m = re.match(r'^\[(\w+)\s+"(.*)"\]\s*$', l)
        if m:
            tags[m.group(1)] = m.group(2)
        else:
            body.append(l)
    text = " ".join(body)
    if any(c in text for c in "{}();$%<>") or "FEN" in tags or "Variant" in tags:
        return None
    result = None
    for tok in re.sub(r"(\d+)\.+", r" ", text).split():
        if tok in RESULTS:
            result = tok
            break
        if tok in ("!", "?", "!!", "??", "!?", "?!"):
            return None
        moves.append(re.sub(r"[!?]+$", "", tok))
    if not moves or result is None:
        return None
    return tags, moves, result


def strip_mark(t):
    return t.rstrip("+#")


def corrupt(kind, moves, rnd):
    """(new moves, ply) or None where the game has no place for the kind."""
    n = len(moves)
    def pick(pred):
        cands = [i for i in range(n) if pred(i)]
        return rnd.choice(cands) if cands else None
    new = list(moves)
    if kind == "piece-letter":
        i = pick(lambda i: PIECE_RE.match(moves[i]))
        if i is None:
            return None
        p = moves[i][0]
        new[i] = rnd.choice([c for c in "NBRQK" if c != p]) + moves[i][1:]
    elif kind == "language":
        i = pick(lambda i: moves[i][0] in "NBRQ")
        if i is None:
            return None
        new[i] = {"N": "S", "B": "L", "R": "T", "Q": "D"}[moves[i][0]] + moves[i][1:]
    elif kind == "disambiguation":
        i = pick(lambda i: DISAMB_RE.match(moves[i]))
        if i is None:
            return None
        m = DISAMB_RE.match(moves[i])
        d = m.group(2)
        if rnd.random() < 0.5:
            d2 = ""
        elif d[0] in "abcdefgh":
            d2 = rnd.choice([c for c in "abcdefgh" if c != d[0]])
        else:
            d2 = rnd.choice([c for c in "12345678" if c != d[0]])
        new[i] = m.group(1) + d2 + m.group(3) + m.group(4) + m.group(5)
    elif kind == "destination":
        def dest(t):
            m = re.search(r"([a-h])([1-8])(=[QRBN])?[+#]?$", t)
            return m if m and not t.startswith("O") else None
        i = pick(lambda i: dest(moves[i]))
        if i is None:
            return None
        t = moves[i]
        m = dest(t)
        f, r = ord(m.group(1)) - 97, int(m.group(2))
        opts = [(f + df, r + dr) for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= f + df < 8 and 1 <= r + dr <= 8]
        f2, r2 = rnd.choice(opts)
        new[i] = t[:m.start(1)] + chr(97 + f2) + str(r2) + t[m.end(2):]
    elif kind == "pawn-file":
        i = pick(lambda i: PAWN_CAP_RE.match(moves[i]))
        if i is None:
            return None
        m = PAWN_CAP_RE.match(moves[i])
        df = ord(m.group(2)[0]) - 97
        opts = [chr(97 + x) for x in (df - 1, df + 1) if 0 <= x < 8 and chr(97 + x) != m.group(1)]
        if not opts:
            return None
        new[i] = rnd.choice(opts) + moves[i][1:]
    elif kind == "castling":
        i = pick(lambda i: strip_mark(moves[i]) in ("O-O", "O-O-O"))
        if i is None:
            return None
        t = moves[i]
        new[i] = t.replace("O-O-O", "X").replace("O-O", "O-O-O").replace("X", "O-O")
    elif kind == "promotion":
        i = pick(lambda i: PROMO_RE.match(moves[i]))
        if i is None:
            return None
        m = PROMO_RE.match(moves[i])
        new[i] = m.group(1) + m.group(3)
    elif kind == "transposed":
        i = pick(lambda i: i + 2 < n and strip_mark(moves[i]) != strip_mark(moves[i + 2]))
        if i is None:
            return None
        new[i], new[i + 2] = moves[i + 2], moves[i]
    elif kind == "missing-move":
        i = pick(lambda i: True)
        del new[i]
    elif kind == "missing-pair":
        i = pick(lambda i: i + 1 < n)
        if i is None:
            return None
        del new[i:i + 2]
    elif kind == "written-twice":
        i = pick(lambda i: True)
        new.insert(i, moves[i])
    if new == moves:
        return None
    return new, i + 1


def render(tags, moves, result):
    out = ['[%s "%s"]' % (k, tags.get(k, "?")) for k in ROSTER]
    out.append("")
    words, line = [], ""
    for i, mv in enumerate(moves):
        words.append(("%d. %s" % (i // 2 + 1, mv)) if i % 2 == 0 else mv)
    words.append(result)
    for w in words:
        if line and len(line) + 1 + len(w) > 79:
            out.append(line)
            line = w
        else:
            line = line + " " + w if line else w
    out.append(line)
    out.append("")
    return "\n".join(out) + "\n"


def checked(pgncheck, text):
    """pgncheck's verdict on each game of text: the set of codes of its diagnostics."""
    r = subprocess.run([pgncheck, "-f", "jsonl", "--ignore=repair-found", "-"], input=text.encode(),
                       stdout=subprocess.PIPE)
    out = []
    for l in r.stdout.decode().splitlines():
        o = json.loads(l)
        if o.get("type") == "game":
            out.append({d["code"] for d in o["diagnostics"] if d["severity"] == "error"})
    return out


BREAKS = {"illegal-move", "ambiguous-move", "bad-move", "null-move"}


def main():
    pgncheck, seed, per_kind, out_pgn, out_tsv = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
    rnd = random.Random(seed)
    clean = []
    for f in sys.argv[6:]:
        with open(f, encoding="utf-8", errors="replace") as fh:
            for g in split_games(fh.read()):
                p = parse(g)
                if p and len(p[1]) >= 10:
                    clean.append(p)
    # pgncheck's word that they are clean (no error at all)
    texts = [render(t, m, r) for t, m, r in clean]
    verdicts = checked(pgncheck, "".join(texts))
    clean = [c for c, v in zip(clean, verdicts) if not v]
    rnd.shuffle(clean)
    kept_pgn, kept_tsv = [], []
    pos = 0
    for kind in KINDS:
        got, tries = 0, 0
        while got < per_kind and tries < per_kind * 20:
            batch = []
            while len(batch) < (per_kind - got) * 2 and tries < per_kind * 20:
                tags, moves, result = clean[pos % len(clean)]
                pos += 1
                tries += 1
                c = corrupt(kind, moves, rnd)
                if c:
                    batch.append((tags, moves, result, c[0], c[1]))
            if not batch:
                break
            v = checked(pgncheck, "".join(render(t, nm, r) for t, m, r, nm, ply in batch))
            for (tags, moves, result, nm, ply), codes in zip(batch, v):
                if got < per_kind and codes & BREAKS:
                    got += 1
                    kept_pgn.append(render(tags, nm, result))
                    kept_tsv.append("%s\t%d\t%s" % (kind, ply, " ".join(strip_mark(m) for m in moves)))
    with open(out_pgn, "w") as fh:
        fh.write("".join(kept_pgn))
    with open(out_tsv, "w") as fh:
        for i, l in enumerate(kept_tsv):
            fh.write("%d\t%s\n" % (i + 1, l))


if __name__ == "__main__":
    main()
