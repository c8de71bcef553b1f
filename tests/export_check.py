#!/usr/bin/env python3
"""--export on real files: the export is checked against the input.

Usage: export_check.py PGNCHECK TMPDIR FILE...

For each FILE, from the brief of issue 22 ("Export"), not from the
program's output:
  - --export -j1 and -j2 write the same bytes (games and findings);
  - the export of the export is the export (a fixed point);
  - the export holds as many games as the input; each has the outcome,
    reason, plies and final FEN the input's game has (-f jsonl);
  - checked with --strict, a game that had no error has no finding above
    note, but for the ones no export can mend, which are about what the
    game says rather than how it is written (CONTENT below), and only
    where the input's game had the same one;
  - a game that had an error is copied byte for byte: its text from the
    game's first byte (the records' offsets) up to its last line that is
    not blank, then one blank line.
Prints "ok"/"FAIL" lines and "N passed, N failed".
"""
import os
import re
import subprocess
import sys

from corpus_check_lib import Tally, game_records as games

# Findings about the game's content: an export writes the game as it is,
# so these stay (each only where the input's game had it too).
CONTENT = {
    "bad-byte", "duplicate-tag", "fen-counters", "plycount-mismatch", "win-without-mating-material",
    "unfinished-but-decided", "tag-name-case", "laws-2014-ending", "null-move-in-variation",
    "bad-clock", "threefold-available", "fifty-moves-available", "chess960-castling",
    "duplicate-game", "duplicate-result-differs",
    "time-control-contradicted", "clock-negative", "clock-emt-mismatch", "clock-period-misplaced", "flag-wrong-side",
}

# Games without an error that an export cannot write without changing what
# they say: tags alike but for case whose order decides which counts, a
# null move in a variation (the line after it is not replayed), moves after
# an automatic draw that the declared 1/2-1/2 confirms (a warning, issue
# 31: the replay stops at the end, an export would drop them).
AS_READ = {"tag-name-case", "null-move-in-variation", "moves-after-end"}


def run(args, out=None):
    with open(out, "wb") if out else open(os.devnull, "wb") as o:
        p = subprocess.run(args, stdout=o if out else subprocess.PIPE, stderr=subprocess.PIPE)
    return p


def timeless(err):
    """The findings without the summary's seconds."""
    return re.sub(rb'"seconds":[0-9.e+-]+', b"", err)


def as_read(data, start, end):
    """The game's text as --select copies it: up to its last line that is
    not blank, that line's end, then one blank line."""
    seg = data[start:end]
    k = len(seg)
    while k > 0 and seg[k - 1] in b" \t\r\n\f\v":
        k -= 1
    body = seg[:k]
    rest = seg[k:]
    i = 0
    while i < len(rest) and rest[i] in b" \t":
        i += 1
    # the game's line end: the one after its last line (a game ends
    # with its marker's line), else its last one
    eol = b"\n"
    if rest[i:i + 2] == b"\r\n" or rest[i:i + 1] in (b"\n", b"\r"):
        eol = rest[i:i + 2] if rest[i:i + 2] == b"\r\n" else rest[i:i + 1]
    else:
        for j in range(len(body) - 1, -1, -1):
            if body[j] == 10:
                eol = b"\r\n" if j and body[j - 1] == 13 else b"\n"
                break
            if body[j] == 13:
                eol = b"\r"
                break
    if rest[i:i + 2] == b"\r\n":
        return body + rest[:i + 2] + eol
    if rest[i:i + 1] in (b"\n", b"\r"):
        return body + rest[:i + 1] + eol
    return body + rest[:i] + eol + eol


def main():
    pgncheck, tmp, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    tally = Tally(detail_lines=12, quiet_ok=True)    # thousands of files: failures only
    ok, fail = tally.ok, tally.fail

    e1, e2, e3 = (os.path.join(tmp, n) for n in ("e1.pgn", "e2.pgn", "e3.pgn"))
    counts = {"games": 0, "as read": 0}
    for f in files:
        name = os.path.relpath(f)
        orig = games(run([pgncheck, "-f", "jsonl", "-j1", f]).stdout)
        p1 = run([pgncheck, "-f", "jsonl", "-j1", "--export", f], e1)
        p2 = run([pgncheck, "-f", "jsonl", "-j2", "--export", f], e2)
        if p1.returncode > 1:
            fail(name + ": --export exit %d" % p1.returncode, p1.stderr.decode("utf-8", "replace"))
            continue
        with open(e1, "rb") as h:
            x1 = h.read()
        with open(e2, "rb") as h:
            x2 = h.read()
        if x1 == x2 and timeless(p1.stderr) == timeless(p2.stderr):
            ok(name)
        else:
            fail(name + ": --export -j2 differs from -j1")
        run([pgncheck, "-q", "--export", e1], e3)
        with open(e3, "rb") as h:
            x3 = h.read()
        if x3 == x1:
            ok(name)
        else:
            fail(name + ": the export of the export differs",
                 subprocess.run(["diff", e1, e3], stdout=subprocess.PIPE).stdout.decode("utf-8", "replace"))
        back = games(run([pgncheck, "-f", "jsonl", "--strict", "-j1", e1]).stdout)
        if len(back) != len(orig):
            fail(name + ": %d games in, %d in the export" % (len(orig), len(back)))
            continue
        with open(f, "rb") as h:
            data = h.read()
        offsets = [g["offset"] for g in orig] + [len(data)]
        counts["games"] += len(orig)
        counts["as read"] += sum(a["status"] in ("error", "skipped") for a in orig)
        bad = []
        for i, (a, b) in enumerate(zip(orig, back)):
            for k in ("outcome", "reason", "plies", "fen"):
                if a.get(k) != b.get(k):
                    bad.append("game %d: %s %r, in the export %r" % (i + 1, k, a.get(k), b.get(k)))
            if a["status"] in ("error", "skipped"):
                continue
            had = {d["code"] for d in a["diagnostics"]}
            want = as_read(data, a["offset"], offsets[i + 1])
            after_end = any(d["code"] == "unfinished-but-decided" and " follow" in d["message"]
                            for d in a["diagnostics"])    # (moves after the end, folded in)
            if (had & AS_READ or after_end) and x1[b["offset"]:b["offset"] + len(want)] == want:
                continue    # copied as read: no export keeps what it says
            for d in b["diagnostics"]:
                if d["severity"] != "note" and not (d["code"] in CONTENT and d["code"] in had):
                    bad.append("game %d (line %d): %s in the export: %s" % (i + 1, b["line"], d["code"], d["message"]))
        # the games with an error, byte for byte
        for i, (a, b) in enumerate(zip(orig, back)):
            if a["status"] not in ("error", "skipped"):
                continue
            want = as_read(data, a["offset"], offsets[i + 1])
            got = x1[b["offset"]:b["offset"] + len(want)]
            if got != want:
                # text after the game that is no game (left out, as a
                # line "[/pgn]" after a game without marker): the copy is
                # the game's lines before it, whole
                nxt = back[i + 1]["offset"] if i + 1 < len(back) else len(x1)
                out = x1[b["offset"]:nxt].rstrip(b" \t\r\n\f\v")
                rest = want[len(out):]
                if not (out and want.startswith(out) and rest[:1] in (b"\r", b"\n")):
                    bad.append("game %d (line %d): not copied as read" % (i + 1, a["line"]))
        if bad:
            fail(name + ": %d faults" % len(bad), "\n".join(bad))
        else:
            ok(name)
    print("note: compared: %d files, %d games, %d of them with an error or a variant (copied as read)"
          % (len(files), counts["games"], counts["as read"]))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
