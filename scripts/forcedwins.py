#!/usr/bin/env python3
"""Forced wins kept at a time limit: for every puzzle of tests/data/mate_quintet.jsonl (renju VCF
and VCT positions with their solution lines) and of tests/data/vcf_moku.jsonl (freestyle,
standard and renju VCF positions needing 5 to 9 fours, with a solver line), a fresh engine gets
the position by BOARD under `INFO timeout_turn T`; counted are the searches that report a proven
win (`ev M..`) and the moves that start a listed line.

    scripts/forcedwins.py [ENGINE] [TURN_MS]     (defaults: build/pbrain-moku 1000)
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = {"freestyle": 0, "standard": 1, "renju": 4}
eng = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "pbrain-moku")
turn = int(sys.argv[2]) if len(sys.argv) > 2 else 1000


def puzzles():
    """(id, kind, rule, board rows, attacker 'X' or 'O', first moves of the listed lines)."""
    for l in open(os.path.join(ROOT, "tests", "data", "mate_quintet.jsonl")):
        d = json.loads(l)
        att = "X" if d["attacker"] == "black" else "O"
        yield d["id"], d["kind"], d["rule"], d["board"], att, {tuple(s["line"][0]) for s in d["solutions"]}
    for l in open(os.path.join(ROOT, "tests", "data", "vcf_moku.jsonl")):
        d = json.loads(l)
        att = "X" if d["to_move"] == "black" else "O"
        yield d["id"], "VCF", d["rule"], d["board"], att, {tuple(d["solver_line"][0])}


res = []
for pid, kind, rule, b, att, firsts in puzzles():
    blacks = []
    whites = []
    for y, row in enumerate(b):
        for x, c in enumerate(row):
            if c == "X":
                blacks.append((x, y))
            elif c == "O":
                whites.append((x, y))
    # BOARD: stones in move order, black first (the order renju needs).
    seq = []
    for i in range(max(len(blacks), len(whites))):
        if i < len(blacks):
            seq.append((blacks[i], "X"))
        if i < len(whites):
            seq.append((whites[i], "O"))
    p = subprocess.Popen([eng], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write(f"START {len(b)}\nINFO rule {RULES[rule]}\nINFO timeout_turn {turn}\nINFO timeout_match 0\n")
    p.stdin.flush()
    p.stdout.readline()
    body = "".join(f"{x},{y},{1 if c == att else 2}\n" for (x, y), c in seq)
    p.stdin.write("BOARD\n" + body + "DONE\n")
    p.stdin.flush()
    last = ""
    while True:
        ln = p.stdout.readline()
        if not ln.startswith("MESSAGE"):
            break
        last = ln
    mv = tuple(map(int, ln.strip().split(",")))
    res.append((pid.split("/", 1)[-1], kind, " ev M" in last, mv in firsts))
    p.stdin.write("END\n")
    p.stdin.flush()
    p.wait()
for r in res:
    print(r)
print(eng, "proven wins:", sum(r[2] for r in res), "/", len(res), " first move of a listed line:", sum(r[3] for r in res))
