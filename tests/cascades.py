#!/usr/bin/env python3
"""cascades.py - counts diagnostic cascades: one mistake reported as several.

Usage: cascades.py [--list] [--jobs N] PGNCHECK PATH...

Runs `PGNCHECK -f jsonl` over every *.pgn (any case) under each PATH and
looks, in each game, at the diagnostics of severity warning or error for
two that stem from one token of the input:
  same position  two diagnostics at the same line and column;
  one token      a diagnostic whose column lies inside the token (read from
                 the file) at which another one on its line starts, e.g. a
                 tag pair [pgn] whose '[' and ']' each get one;
  ignored tag    a missing-tag that names a tag a tag-name-case diagnostic
                 of the same game says is ignored (the same fact twice);
  same tag       a missing-tag that names the tag of a tag pair the same
                 game has a bad-tag, unterminated-string or tag-too-long
                 about (the pair was dropped: one fault, said twice);
  caused         one diagnostic that exists because of another of the same
                 game (CAUSES below, each with its reason), e.g. moves after
                 the end and the wrong result that ignores the end.
A pair is not a cascade when one of the two is a statement about the whole
game or its tag section that the program anchors at the game's first byte
(missing-tag, unfinished-but-decided with no result to point at, ...): it
says nothing of the token found there.  Those codes are GAME_SCOPE below,
each with its reason; so is missing-termination in a game without moves.

A pair that KNOWN lists (its kind, codes and a test) is not counted as a
cascade: it is printed apart with the reason it stays.

Prints each pattern (the codes of a pair, sorted, and the kind) with its
count and a first example, then "N cascades in G games (of T games)".
Exit status 0 when there are none, 1 when there are, 2 on trouble.
"""
import collections
import json
import os
import re
import subprocess
import sys

# Codes that describe the whole game and sit at its first byte (or at the
# tag they are about, which may be that first byte): a second diagnostic at
# the same place is about something else.
GAME_SCOPE = {
    # the Seven Tag Roster as a whole (anchored at the game's start)
    "missing-tag",
    # a FEN tag without SetUp: about the pair of tags, anchored at FEN
    "fen-without-setup",
    # the game's start when the result is missing altogether
    "unfinished-but-decided",
    # a game with tags and no moves (anchored at the game's start)
    "empty-game",
}

# One diagnostic caused by another of the same game (issue 31): (cause,
# effect codes, test on the pair and its game, why it is one fact).  A
# main-line move that stops the replay is at ply plies + 1 (a
# variation's moves are judged from their own position).
CAUSES = [
    ("move-number", ("illegal-move", "ambiguous-move"),
     lambda a, b, g: a.get("ply") == 1 and "this is move 1 of White" in (a.get("message") or "") and
     b.get("ply") == (g.get("plies") or 0) + 1,
     "a game with no FEN whose first move is numbered after move 1 starts mid-way: the illegal move "
     "that follows has the same cause, missing opening moves or FEN"),
    ("moves-after-end", ("wrong-result", "unfinished-but-decided"), lambda a, b, g: True,
     "moves recorded after the end and a result that ignores the end: the record did not see the end"),
    ("setup-without-fen", ("illegal-move", "ambiguous-move"),
     lambda a, b, g: b.get("ply") == (g.get("plies") or 0) + 1,
     "SetUp \"1\" without its FEN leaves the standard position, where the moves fail"),
    ("missing-termination", ("unfinished-but-decided",),
     lambda a, b, g: "result is missing" in (b.get("message") or ""),
     "no marker (and no Result tag): the result is missing because the marker is"),
]

# Pairs that stay, with the reason: (kind, (code, code) sorted, test on
# the pair and its game, why).
KNOWN = [
    ("same tag", ("missing-tag", "unterminated-string"),
     lambda a, b, g: any(d.get("code") == "missing-termination" and "input ends inside" in (d.get("message") or "")
                         for d in g.get("diagnostics") or []),
     "the input ends inside the tag pair: there is no value to keep, the roster does lack the tag"),
]


def known(kind, a, b, g):
    codes = tuple(sorted((a["code"], b["code"])))
    for k, c, test, why in KNOWN:
        if k == kind and c == codes and test(a, b, g):
            return why
    return None

# Tag-level findings after which the reader drops the pair (a missing-tag
# that names it is the same fault).
DROPS_TAG = ("bad-tag", "unterminated-string", "tag-too-long")
TAG_NAME = re.compile(rb'\[[ \t]*([A-Za-z0-9_]+)')

SEVERE = ("warning", "error")
# one PGN token from column c: a tag pair's '[' with its name, a string, a
# comment on its line, else a run of symbol characters (SAN, numbers with
# periods, results, NAGs), else one character
TOKEN = re.compile(rb'\[[ \t]*[A-Za-z0-9_]*|"(?:[^"\\\n\r]|\\.)*"?|\{[^}\n\r]*\}?|[^\s{}()\[\];"]+|.')


def pgn_files(paths):
    out = []
    for p in paths:
        if os.path.isfile(p):
            out.append(p)
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            for f in sorted(files):
                if f.lower().endswith(".pgn"):
                    out.append(os.path.join(root, f))
    return out


class Lines:
    """The lines of a file as pgncheck counts them (LF, CRLF or CR ends a line)."""

    def __init__(self):
        self.cache = {}

    def get(self, path):
        if path not in self.cache:
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:
                data = b""
            self.cache = {path: re.split(rb"\r\n|\r|\n", data)}
        return self.cache[path]

    def token_end(self, path, line, col):
        """The column just past the token at (line, col), col + 1 if unknown."""
        lines = self.get(path)
        if not (1 <= line <= len(lines)) or col is None or col < 1:
            return (col or 0) + 1
        m = TOKEN.match(lines[line - 1], col - 1)
        return col + (len(m.group(0)) if m else 1)

    def tag_name(self, path, line, col):
        """The name of the tag pair at (line, col): the last '[' of the line
        at or before col; None if there is none."""
        lines = self.get(path)
        if not (1 <= line <= len(lines)) or not col:
            return None
        text = lines[line - 1]
        k = text.rfind(b"[", 0, col)
        m = TAG_NAME.match(text, k) if k >= 0 else None
        return m.group(1).decode("ascii") if m else None


IGNORED = re.compile(r'tag "([^"]*)" is not "([A-Za-z]+)".*\bignored\b')


def pairs_in_game(g, lines):
    """Yields (kind, diag_a, diag_b) for each cascade pair."""
    alld = g.get("diagnostics") or []
    scope = GAME_SCOPE
    if any(d.get("code") == "empty-game" for d in alld):
        # a game with tags and no moves: its missing marker is about the
        # movetext that is not there, anchored at the last tag's '[' (there
        # is no token to point past); not about that tag
        scope = GAME_SCOPE | {"missing-termination"}
    ds = [d for d in alld if d.get("severity") in SEVERE and d.get("line")]
    ds.sort(key=lambda d: (d["line"], d["column"] or 0))
    for i, a in enumerate(ds):
        a_end = None
        for b in ds[i + 1:]:
            if b["line"] != a["line"]:
                break
            if a["code"] in scope or b["code"] in scope:
                continue
            if b["column"] == a["column"]:
                yield "same position", a, b
                continue
            if a_end is None:
                a_end = lines.token_end(g["file"], a["line"], a["column"])
                if a.get("move"):
                    a_end = max(a_end, (a["column"] or 0) + len(a["move"]))
            if a["column"] is not None and b["column"] is not None and b["column"] < a_end:
                yield "one token", a, b
    ignored = []
    for d in ds:
        if d["code"] == "tag-name-case":
            m = IGNORED.search(d.get("message") or "")
            if m:
                ignored.append((m.group(2), d))
    for d in ds:
        if d["code"] == "missing-tag":
            named = set(re.split(r",\s*", (d.get("message") or "").split("lacks", 1)[-1].strip()))
            for name, t in ignored:
                if name in named:
                    yield "ignored tag", t, d
            for t in ds:
                if t["code"] in DROPS_TAG and lines.tag_name(g["file"], t["line"], t["column"]) in named:
                    yield "same tag", t, d
    for cause, effects, test, _ in CAUSES:
        for a in ds:
            if a["code"] != cause:
                continue
            for b in ds:
                if b["code"] in effects and test(a, b, g):
                    yield "caused", a, b


def run(binary, files, jobs):
    """The game records of pgncheck's JSON Lines output for files."""
    games = []
    for k in range(0, len(files), 200):
        proc = subprocess.run([binary, "-j%d" % jobs, "-f", "jsonl", "--"] + files[k:k + 200],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if proc.returncode not in (0, 1):
            sys.stderr.write("cascades.py: %s exit %d: %s\n" % (binary, proc.returncode,
                                                                 proc.stderr.decode("utf-8", "replace")[:300]))
            sys.exit(2)
        for l in proc.stdout.decode("utf-8", "replace").splitlines():
            r = json.loads(l)
            if r.get("type") == "game":
                games.append(r)
    return games


def main(argv):
    listing = False
    jobs = 2
    args = argv[1:]
    while args and args[0].startswith("--"):
        if args[0] == "--list":
            listing = True
            args = args[1:]
        elif args[0] == "--jobs" and len(args) > 1:
            jobs = int(args[1])
            args = args[2:]
        else:
            break
    if len(args) < 2:
        sys.stderr.write("usage: cascades.py [--list] [--jobs N] PGNCHECK PATH...\n")
        return 2
    files = pgn_files(args[1:])
    if not files:
        sys.stderr.write("cascades.py: no PGN files under %s\n" % " ".join(args[1:]))
        return 2
    games = run(args[0], files, jobs)
    lines = Lines()
    patterns = collections.Counter()
    stays = collections.Counter()
    example = {}
    cascades = 0
    bad_games = 0
    for g in games:
        n = 0
        for kind, a, b in pairs_in_game(g, lines):
            key = (kind,) + tuple(sorted((a["code"], b["code"])))
            why = known(kind, a, b, g)
            if why:
                stays[key + (why,)] += 1
                continue
            patterns[key] += 1
            if key not in example:
                example[key] = "%s:%d:%s (game %d): %s | %s" % (g["file"], a["line"], a["column"], g["index"],
                                                               a.get("message"), b.get("message"))
            n += 1
        cascades += n
        bad_games += n > 0
    for key, count in sorted(patterns.items(), key=lambda kv: (-kv[1], kv[0])):
        print("%6d  %-14s %s" % (count, key[0], " + ".join(key[1:])))
        if listing:
            print("        e.g. %s" % example[key])
    for key, count in sorted(stays.items()):
        print("%6d  %-14s %s (listed, stays: %s)" % (count, key[0], " + ".join(key[1:3]), key[3]))
    print("%d cascades in %d games (of %d games in %d files)" % (cascades, bad_games, len(games), len(files)))
    return 1 if cascades else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
