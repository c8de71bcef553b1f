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
                 of the same game says is ignored (the same fact twice).
A pair is not a cascade when one of the two is a statement about the whole
game or its tag section that the program anchors at the game's first byte
(missing-tag, unfinished-but-decided with no result to point at, ...): it
says nothing of the token found there.  Those codes are GAME_SCOPE below,
each with its reason; so is missing-termination in a game without moves.

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
    example = {}
    cascades = 0
    bad_games = 0
    for g in games:
        n = 0
        for kind, a, b in pairs_in_game(g, lines):
            key = (kind,) + tuple(sorted((a["code"], b["code"])))
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
    print("%d cascades in %d games (of %d games in %d files)" % (cascades, bad_games, len(games), len(files)))
    return 1 if cascades else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
