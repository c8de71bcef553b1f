#!/usr/bin/env python3
"""scaleout.py - compare a whole-file pgncheck run with chunked runs (GNU parallel).

Usage: scaleout.py WHOLE.jsonl FILE NAME CHUNKED.jsonl [split]
WHOLE.jsonl: pgncheck -f jsonl FILE; CHUNKED.jsonl: the chunks' outputs in
order (parallel -k), each ending with its summary line.

Positions are recovered exactly: a chunk's base offset is the sum of the
"bytes" of the summaries before it; its base line is the number of line
ends in FILE before that offset (chunks start at line starts).  Then every
game lying wholly inside a chunk must be reported exactly as in the whole
run (all fields, recovered offsets and lines included), and every chunk
boundary that falls inside a game must be said: the chunk that ends there
reports the game's beginning with missing-termination ("input ends inside
the game") and the next chunk reports what follows (a game or non-game
text) at the boundary.  Prints ok/FAIL lines and a tally on the last line.
"""
import json
import re
import sys

whole_path, data_path, name, chunked_path = sys.argv[1:5]
split_mode = len(sys.argv) > 5
data = open(data_path, "rb").read()
passed = failed = 0


def result(cond, msg, why=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok " + msg)
    else:
        failed += 1
        print("FAIL %s: %s" % (msg, why))


def load(path):
    return [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]


whole = [j for j in load(whole_path) if j["type"] == "game"]
chunks, cur = [], []
for j in load(chunked_path):
    cur.append(j)
    if j["type"] == "summary":
        chunks.append(cur)
        cur = []
result(not cur, "%s: every chunk's output ends with its summary (%d chunks)" % (name, len(chunks)),
       "%d records after the last summary" % len(cur))

# line ends before each offset ('\n', lone '\r'; CRLF once)
breaks = [m.start() for m in re.finditer(rb"\r\n|\r|\n", data)]


def lines_before(off):
    lo, hi = 0, len(breaks)
    while lo < hi:
        mid = (lo + hi) // 2
        if breaks[mid] < off:
            lo = mid + 1
        else:
            hi = mid
    return lo


base = 0
recovered = []      # (chunk no, game record with absolute positions)
bounds = []         # absolute offsets where chunks start
for k, ch in enumerate(chunks):
    bounds.append(base)
    at_line_start = base == 0 or data[base - 1:base] in (b"\n", b"\r")
    lb = lines_before(base)
    for j in ch:
        if j["type"] not in ("game", "diagnostic"):
            continue
        j = dict(j)
        j["file"] = None
        if j["type"] == "game":
            j["offset"] += base
            j["line"] += lb
            for d in j["diagnostics"]:
                if d["line"] is not None:
                    if d["line"] == 1 and not at_line_start:
                        d["column"] = None
                    d["line"] += lb
        recovered.append((k, j))
    base += ch[-1]["bytes"] if ch and ch[-1]["type"] == "summary" else 0
result(base == len(data), "%s: the chunks' byte counts add up to the file (%d bytes)" % (name, len(data)),
       "chunks cover %d bytes" % base)

games = [(k, j) for k, j in recovered if j["type"] == "game"]
by_off = {}
for k, j in games:
    by_off.setdefault(j["offset"], []).append((k, j))
starts = [g["offset"] for g in whole] + [len(data)]
exact = split = lost = 0
examples = []
problems = []
for i, g in enumerate(whole):
    g = dict(g, file=None)
    lo, hi = starts[i], starts[i + 1]
    inner = [b for b in bounds if lo < b < hi]
    cands = by_off.get(lo, [])
    if not inner:
        # wholly inside one chunk: identical after recovery (index is per chunk)
        same = [j for _, j in cands if dict(j, index=None) == dict(g, index=None)]
        if same:
            exact += 1
        else:
            lost += 1
            if len(problems) < 3:
                problems.append("game %d at offset %d: %s" % (i + 1, lo, (json.dumps(cands[0][1])[:300]
                                                                           if cands else "not reported")))
        continue
    # a chunk boundary inside the game: the first part must say it is cut
    split += 1
    head = [j for _, j in cands]
    said = head and any(d["code"] == "missing-termination" for d in head[0]["diagnostics"])
    # the rest: the next chunk reports a game (or non-game text) from the boundary on
    b = inner[0]
    nxt = bounds.index(b)
    tail = [j for k, j in recovered if k == nxt and (j["type"] == "diagnostic" or b <= j["offset"] < hi)]
    if not said or not tail:
        lost += 1
        if len(problems) < 3:
            problems.append("game %d cut at %d: head %s, %d records after the cut" % (
                i + 1, b, json.dumps(head[0])[:200] if head else "missing", len(tail)))
    elif len(examples) < 1:
        examples.append("game %d cut at offset %d: head has missing-termination; the next chunk begins with %s" % (
            i + 1, b, ", ".join(sorted({d["code"] for d in tail[0].get("diagnostics", [tail[0]])}))))
result(lost == 0, "%s: %d games whole: %d reported identically (offsets and lines recovered), %d cut by a chunk "
       "boundary and said so" % (name, len(whole), exact, split), "; ".join(problems))
if not split_mode:
    result(split == 0, "%s: every chunk starts at a game start" % name, "%d games cut" % split)
else:
    result(split > 0, "%s: the split really cuts games (%d)" % (name, split), "no game was cut")
for e in examples:
    print("note: " + e)
total = sum(ch[-1]["games"] for ch in chunks if ch and ch[-1]["type"] == "summary")
result(total == len(whole) + split, "%s: games counted over the chunks = whole + cut games (%d = %d + %d)" % (
    name, total, len(whole), split), "counted %d" % total)
print("%d passed, %d failed" % (passed, failed))
