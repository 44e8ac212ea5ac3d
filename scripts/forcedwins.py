#!/usr/bin/env python3
"""Forced wins kept at a time limit: for every puzzle of tests/data/mate_quintet.jsonl (renju VCF
and VCT positions with their solution lines), a fresh engine gets the position by BOARD under
`INFO timeout_turn T`; counted are the searches that report a proven win (`ev M..`) and the
moves that start a listed solution line.

    scripts/forcedwins.py [ENGINE] [TURN_MS]     (defaults: build/pbrain-moku 1000)
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
eng = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "pbrain-moku")
turn = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
res=[]
for l in open(os.path.join(ROOT, 'tests', 'data', 'mate_quintet.jsonl')):
    d=json.loads(l)
    b=d['board']; blacks=[];whites=[]
    for y,row in enumerate(b):
        for x,c in enumerate(row):
            if c=='X': blacks.append((x,y))
            elif c=='O': whites.append((x,y))
    att='X' if d['attacker']=='black' else 'O'
    # Renju BOARD: stones in move order, black first.
    seq=[]
    for i in range(max(len(blacks),len(whites))):
        if i<len(blacks): seq.append((blacks[i],'X'))
        if i<len(whites): seq.append((whites[i],'O'))
    p=subprocess.Popen([eng],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True,bufsize=1)
    p.stdin.write(f"START 15\nINFO rule 4\nINFO timeout_turn {turn}\nINFO timeout_match 0\n"); p.stdin.flush(); p.stdout.readline()
    body="".join(f"{x},{y},{1 if c==att else 2}\n" for (x,y),c in seq)
    p.stdin.write("BOARD\n"+body+"DONE\n"); p.stdin.flush()
    last=""
    while True:
        ln=p.stdout.readline()
        if not ln.startswith("MESSAGE"): break
        last=ln
    firsts={tuple(s['line'][0]) for s in d['solutions']}
    mv=tuple(map(int,ln.strip().split(',')))
    win=' ev M' in last
    res.append((d['id'].split('/')[-1],d['kind'],win,mv in firsts))
    p.stdin.write("END\n"); p.stdin.flush(); p.wait()
for r in res: print(r)
print(eng, "proven wins:", sum(r[2] for r in res), "/", len(res), " first move of a listed line:", sum(r[3] for r in res))
