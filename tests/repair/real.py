#!/usr/bin/env python3
"""Lists what pgncheck proposes for every game of the real corpora whose
main line breaks (issue 35): tests/repair/real.tsv, judged by hand after.

  real.py PGNCHECK DIR... > real.tsv
"""
import json
import subprocess
import sys

BREAKS = {"illegal-move", "ambiguous-move", "bad-move", "null-move"}
print("file\tgame\tline\tply\tcode\tmove\tproposed\tunique\tjudgement")
for d in sys.argv[2:]:
    r = subprocess.run([sys.argv[1], "-r", "-f", "jsonl", "--no-progress", d], stdout=subprocess.PIPE)
    for l in r.stdout.decode("utf-8", "replace").splitlines():
        o = json.loads(l)
        if o.get("type") != "game":
            continue
        if o["reason"] != "invalid":
            continue
        for x in o["diagnostics"]:
            if x["code"] in BREAKS and x["severity"] == "error":
                reps = x.get("repairs", [])
                prop = "; ".join("%s %d: %s -> %s" % (p["edit"], p["ply"], p["old"] or "-", p["new"] or "-")
                                 for p in reps[:4]) + ("; ..." if len(reps) > 4 else "") or "none"
                print("\t".join([o["file"], str(o["index"]), str(x["line"]), str(x["ply"]), x["code"],
                                 x["move"] or "", prop, "yes" if reps and reps[0]["unique"] else "no", ""]))
                break
