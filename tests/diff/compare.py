#!/usr/bin/env python3
"""Differential comparison of pgncheck against chessops (see README).

    compare.py [--bin DIR] --peer-dir DIR [--known TSV] [--tsv OUT]
               [--pc-jsonl F] [--peer-jsonl F] FILE...

Runs `DIR/pgncheck -f jsonl --no-variations` and
`node tests/diff/chessops_replay.mjs PEERDIR` over the same files (or reads
their saved output), aligns the games by (file, line of the game's first
line), and compares per game:
  validity  the ply where the main line stops being playable: pgncheck's first
            illegal-move / ambiguous-move / bad-move / null-move /
            moves-after-end (an error, or the warning after a draw the result
            confirms) vs chessops' first unplayable SAN (or, for
            moves-after-end, the ending chessops' position shows one ply before)
  plies     plies of the main line replayed
  fen       the final position's first four FEN fields
  verdict   checkmate / stalemate / dead position (insufficient material) /
            fivefold / 75-move of the final position
Every disagreement gets a class; one listed in known.tsv (file, line, class,
judgement, reason) is explained and does not fail the run. Prints a summary,
one line per class with up to 3 examples (file:line, the SAN moves before the
point), machine lines "CLASS NAME TOTAL RIGHT BUG" for tests/suites/diff.sh,
and "STALE" lines for known.tsv entries that no longer disagree.
Exit status: 0 when every disagreement is in known.tsv, 1 otherwise, 2 on
trouble.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STOP_CODES = ("illegal-move", "ambiguous-move", "bad-move", "null-move", "moves-after-end")
# Reader errors that end pgncheck's replay of a game before its last move.
END_KINDS = {  # words in pgncheck's moves-after-end message -> peer end kind
    "checkmate": "checkmate",
    "stalemate": "stalemate",
    "dead position": "insufficient",
    "fivefold": "fivefold",
    "75-move": "seventy-five",
}
VERDICT_PC = {"checkmate": "checkmate", "stalemate": "stalemate", "dead-position": "dead",
              "fivefold-repetition": "fivefold", "seventy-five-moves": "seventy-five"}
VERDICT_PEER = {"checkmate": "checkmate", "stalemate": "stalemate", "insufficient": "dead",
                "fivefold": "fivefold", "seventy-five": "seventy-five"}


def key_path(path):
    """The file name as known.tsv spells it: from 'real/...' (or 'diff/...') on."""
    p = path.replace(os.sep, "/")
    i = p.rfind("corpus/")
    return p[i + 7:] if i >= 0 else p


def start(cmd):
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(proc, save=None):
    """The command's output lines (both programs run at once)."""
    out, err = proc.communicate()
    if proc.returncode not in (0, 1):
        sys.stderr.write("%s: exit %d\n" % (proc.args[0], proc.returncode))
        sys.stderr.write(err.decode("utf-8", "replace")[-2000:])
        sys.exit(2)
    if save:
        with open(save, "wb") as f:
            f.write(out)
    return out.decode("utf-8", "replace").splitlines()


def load(lines):
    games = {}
    for line in lines:
        if not line.strip():
            continue
        o = json.loads(line)
        if o.get("type", "game") != "game":
            continue
        games[(key_path(o["file"]), o["line"])] = o
    return games


def pc_stop(g):
    """(ply, code, end kind or None, move) of pgncheck's first main-line stop."""
    best = None
    for d in g["diagnostics"]:
        # (moves-after-end is a warning after an automatic draw that the
        # declared 1/2-1/2 confirms: the replay stops there all the same)
        if d["code"] in STOP_CODES and d["ply"] is not None and \
                (d["severity"] == "error" or d["code"] == "moves-after-end"):
            if best is None or d["ply"] < best["ply"]:
                best = d
    if best is None:
        return None
    kind = None
    if best["code"] == "moves-after-end":
        for words, k in END_KINDS.items():
            if words in best["message"]:
                kind = k
    return (best["ply"], best["code"], kind, best["move"])


def peer_stop(p):
    """(ply, 'end' kind or 'illegal', san) of chessops' first stop, or None."""
    end = p.get("end")
    if end and (p["plies"] > end["ply"] or p.get("illegal_ply") == end["ply"] + 1):
        return (end["ply"] + 1, end["kind"], None)
    if p.get("illegal_ply"):
        return (p["illegal_ply"], "illegal", p.get("illegal_san"))
    return None


def fen4(fen):
    return fen.split(" ")[:4] if fen else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=".")
    ap.add_argument("--peer-dir")
    ap.add_argument("--known", default=os.path.join(HERE, "known.tsv"))
    ap.add_argument("--tsv", help="write every disagreement here")
    ap.add_argument("--pc-jsonl")
    ap.add_argument("--peer-jsonl")
    ap.add_argument("--save-pc", help="keep pgncheck's JSON Lines here")
    ap.add_argument("--save-peer", help="keep chessops_replay's JSON Lines here")
    ap.add_argument("--examples", type=int, default=3)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()

    pc_proc = peer_proc = None
    if not a.pc_jsonl:
        pc_proc = start([os.path.join(a.bin, "pgncheck"), "-f", "jsonl", "--no-variations"] + a.files)
    if not a.peer_jsonl:
        if not a.peer_dir:
            ap.error("--peer-dir or --peer-jsonl is required")
        peer_proc = start(["node", os.path.join(HERE, "chessops_replay.mjs"), a.peer_dir] + a.files)
    if pc_proc:
        pc_lines = finish(pc_proc, a.save_pc)
    else:
        pc_lines = open(a.pc_jsonl, encoding="utf-8").read().splitlines()
    if peer_proc:
        peer_lines = finish(peer_proc, a.save_peer)
    else:
        peer_lines = open(a.peer_jsonl, encoding="utf-8").read().splitlines()
    pc, peer = load(pc_lines), load(peer_lines)

    # known.tsv: file, line, class, judgement, reason. judgement is
    # "pgncheck-right" (chessops deviates; pinned in corpus/diff/) or
    # "pgncheck-bug" (reported to the lead; counted as TODO, not a failure).
    known = {}
    if os.path.exists(a.known):
        for line in open(a.known, encoding="utf-8"):
            f = line.rstrip("\n").split("\t")
            if len(f) < 4 or f[0].startswith("#") or f[0] == "file":
                continue
            known[(f[0], int(f[1]), f[2])] = (f[3], f[4] if len(f) > 4 else "")

    dis = collections.defaultdict(list)  # class -> [(key, detail)]
    stats = collections.Counter()

    def disagree(cls, k, detail):
        dis[cls].append((k, detail))

    for k in sorted(set(pc) | set(peer)):
        g, p = pc.get(k), peer.get(k)
        if g is None or p is None:
            side = g or p
            moves = (g and (g["plies"] or pc_stop(g))) or (p and (p.get("plies") or p.get("illegal_ply")))
            if not moves:
                stats["unaligned-empty"] += 1  # header-only or stray text on one side
                continue
            disagree("align-pgncheck-only" if p is None else "align-chessops-only", k,
                     "plies=%s" % side.get("plies"))
            continue
        stats["aligned"] += 1
        # A skipped variant has status "skipped", or "error" when its text
        # also has reader errors: the variant-skipped note tells.
        pc_skip = g["status"] == "skipped" or any(d["code"] == "variant-skipped" for d in g["diagnostics"])
        peer_skip = p["status"] == "skipped"
        if pc_skip or peer_skip:
            if pc_skip != peer_skip:
                disagree("variant", k, "Variant=%r pgncheck %s, chessops %s" % (p.get("variant"), g["status"], p["status"]))
            else:
                stats["skipped-both"] += 1
            continue
        pc_badfen = any(d["code"] == "bad-fen" and d["severity"] == "error"
                        for d in g["diagnostics"])
        if pc_badfen or p["status"] in ("setup-error", "peer-error"):
            if pc_badfen and p["status"] == "setup-error":
                stats["agree"] += 1
                stats["agree-bad-setup"] += 1
            else:
                disagree("setup", k, "pgncheck %s / chessops %s %s" % (
                    "bad-fen" if pc_badfen else g["status"], p["status"], p.get("error", "")))
            continue
        stats["compared"] += 1
        ok = True
        ps, qs = pc_stop(g), peer_stop(p)
        tail = " ".join(p.get("tail") or [])
        if ps or qs:
            if ps and qs and ps[0] == qs[0]:
                same_kind = (ps[1] == "moves-after-end") == (qs[1] != "illegal") and \
                    (ps[1] != "moves-after-end" or ps[2] == qs[1])
                if not same_kind:
                    ok = False
                    disagree("stop-kind", k, "ply %d: pgncheck %s %s / chessops %s; ...%s" % (ps[0], ps[1], ps[2] or "", qs[1], tail))
            elif ps and (qs is None or ps[0] < qs[0]):
                ok = False
                cls = "end-pgncheck-only" if ps[1] == "moves-after-end" else "illegal-pgncheck-only"
                disagree(cls, k, "pgncheck %s at ply %d (%s)%s; chessops %s; ...%s" % (
                    ps[1], ps[0], ps[3], " " + ps[2] if ps[2] else "",
                    "stops at ply %d (%s)" % (qs[0], qs[1]) if qs else "plays all %d plies" % p["plies"], tail))
            else:
                # chessops stops first; did pgncheck stop reading earlier (syntax)?
                if g["plies"] < qs[0] - 1 and g["reason"] == "invalid":
                    cls = "syntax-stop"
                else:
                    cls = "end-chessops-only" if qs[1] != "illegal" else "illegal-chessops-only"
                ok = False
                disagree(cls, k, "chessops %s at ply %d (%s); pgncheck %s plies=%d reason=%s; ...%s" % (
                    qs[1], qs[0], qs[2], "stops at ply %d (%s)" % (ps[0], ps[1]) if ps else "no stop",
                    g["plies"], g["reason"], tail))
        if not ok:
            continue
        # Plies and the final position (the ending's position if moves followed it).
        if qs and qs[1] != "illegal":
            pplies, pfen = p["end"]["ply"], p["end"]["fen"]
        else:
            pplies, pfen = p["plies"], p["fen"]
        if g["plies"] != pplies:
            cls = "syntax-stop" if (g["reason"] == "invalid" and g["plies"] < pplies) else "plies"
            disagree(cls, k, "pgncheck %d plies, chessops %d; ...%s" % (g["plies"], pplies, tail))
            continue
        a4, b4 = fen4(g["fen"]), fen4(pfen)
        if a4 != b4:
            cls = "fen-ep" if a4[:3] == b4[:3] else "fen"
            disagree(cls, k, "pgncheck %s / chessops %s; ...%s" % (" ".join(a4), " ".join(b4), tail))
            continue
        if not ps and g["reason"] != "invalid":
            v1 = VERDICT_PC.get(g["reason"])
            end = p.get("end")
            v2 = VERDICT_PEER.get(p.get("outcome"))
            if v2 is None and end and end["ply"] == p["plies"]:
                v2 = VERDICT_PEER.get(end["kind"])
            if v1 != v2:
                disagree("verdict", k, "pgncheck %s (%s) / chessops %s; ...%s" % (v1, g["reason"], v2, tail))
                continue
        stats["agree"] += 1

    total = sum(len(v) for v in dis.values())
    n_right = n_bug = 0
    print("games: pgncheck %d, chessops %d, aligned %d (header-only or stray on one side only: %d)" % (
        len(pc), len(peer), stats["aligned"], stats["unaligned-empty"]))
    print("compared: %d (skipped as variants by both: %d; bad setup agreed: %d)" % (
        stats["compared"], stats["skipped-both"], stats["agree-bad-setup"]))
    print("agreements: %d" % stats["agree"])
    out = open(a.tsv, "w", encoding="utf-8") if a.tsv else None
    machine = []
    for cls in sorted(dis):
        items = dis[cls]
        judged = [known.get((f, line, cls), ("new", ""))[0] for (f, line), _ in items]
        r, b = judged.count("pgncheck-right"), judged.count("pgncheck-bug")
        n_right += r
        n_bug += b
        machine.append("CLASS %s %d %d %d" % (cls, len(items), r, b))
        print("class %s: %d (pgncheck right %d, pgncheck bug %d, unexplained %d)" % (cls, len(items), r, b, len(items) - r - b))
        order = sorted(range(len(items)), key=lambda i: judged[i] != "new")  # unexplained first
        for i in order[:a.examples]:
            (f, line), detail = items[i]
            why = known.get((f, line, cls))
            print("    %s:%d: %s%s" % (f, line, detail, " [%s: %s]" % why if why else ""))
        if out:
            for ((f, line), detail), j in zip(items, judged):
                out.write("%s\t%d\t%s\t%s\t%s\n" % (f, line, cls, j, detail))
    print("disagreements: %d (pgncheck right %d, pgncheck bug %d, unexplained %d)" % (
        total, n_right, n_bug, total - n_right - n_bug))
    for m in machine:
        print(m)
    files = {k[0] for k in pc}
    found = {(f, line, cls) for cls, items in dis.items() for (f, line), _ in items}
    for k in sorted(known):
        if k[0] in files and k not in found:
            print("STALE %s:%d %s (listed in known.tsv, no longer a disagreement)" % k)
    return 0 if total == n_right + n_bug else 1


if __name__ == "__main__":
    sys.exit(main())
