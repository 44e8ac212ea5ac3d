#!/usr/bin/env python3
"""Finds where the games of an SGF file were lost: for every position of a lost game where the
named engine was to move, asks a judge engine (another Gomocup brain, such as Rapfi) and the
engine under study for their evaluation and move, and marks the move after which the judge
first sees a forced loss.

    scripts/match.py ... --sgf games.sgf          # games with their moves
    scripts/judge.py games.sgf --name moku --judge /path/to/pbrain-rapfi \\
        --engine build/pbrain-moku --judge-ms 1000 --engine-ms 500 > judged.txt

Each line: game, ply, the judge's value (from the side of `--name`, a forced win or loss as
+-20000) and move, the engine's value and move, the move that was played. A summary per lost
game follows: the last positions before the judge's forced loss, with both engines' views. A
value the judge calls lost while the engine calls it good is a threat the engine did not see.
Judge and engine each run in a fresh process per position, from an empty temporary folder.
"""
import argparse
import re
import subprocess
import sys
import tempfile


def games_of(sgf_text):
    for block in re.findall(r"\(;FF.*?\)\s*(?=\(;FF|\Z)", sgf_text, re.S):
        tag = lambda t: (re.search(t + r"\[([^\]]*)\]", block) or [None, ""])[1]
        moves = [(ord(m[0]) - 97, ord(m[1]) - 97) for m in re.findall(r";[BW]\[([a-z]{2})\]", block)]
        yield {"black": tag("PB"), "white": tag("PW"), "result": tag("RE"), "size": int(tag("SZ") or 15),
               "rule": int(tag("RU") or 0), "moves": moves, "opening": len(re.findall(r"C\[opening move\]", block))}


def ask(cmd, stones, size, rule, turn_ms):
    """The value (side to move) and move of a brain on a position given as a move list."""
    n = len(stones)
    lines = ["START %d" % size, "INFO rule %d" % rule, "INFO timeout_turn %d" % turn_ms,
             "INFO timeout_match 100000000", "INFO time_left 100000000", "INFO max_memory 350000000", "BOARD"]
    lines += ["%d,%d,%d" % (x, y, 1 if k % 2 == n % 2 else 2) for k, (x, y) in enumerate(stones)]
    lines.append("DONE")
    with tempfile.TemporaryDirectory() as cwd:
        p = subprocess.Popen(cmd, shell=True, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
        p.stdin.write("\n".join(lines) + "\n")
        p.stdin.flush()
        value, move = None, None
        for out in p.stdout:
            m = re.search(r"Eval ([+-])M\d+", out) or re.search(r" ev (-?)M\d+", out)
            if m:
                value = -20000 if m.group(1) == "-" else 20000
            else:
                m = re.search(r"Eval (-?\d+)", out) or re.search(r" ev (-?\d+)", out)
                if m:
                    value = int(m.group(1))
            if re.match(r"^\d+,\d+$", out.strip()):
                move = out.strip()
                break
        try:
            p.stdin.write("END\n")
            p.stdin.flush()
            p.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            p.kill()
    return value, move


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sgf")
    ap.add_argument("--name", default="moku", help="the engine's name in the SGF (PB/PW)")
    ap.add_argument("--judge", required=True, help="command of the judge brain")
    ap.add_argument("--engine", required=True, help="command of the engine under study")
    ap.add_argument("--judge-ms", type=int, default=1000)
    ap.add_argument("--engine-ms", type=int, default=500)
    ap.add_argument("--context", type=int, default=3, help="positions shown before the loss")
    args = ap.parse_args()
    games = list(games_of(open(args.sgf, encoding="utf-8", errors="replace").read()))
    if not games:
        sys.exit("no games in " + args.sgf)
    for gi, g in enumerate(games):
        if args.name not in (g["black"], g["white"]):
            continue
        side = 0 if g["black"] == args.name else 1
        won = g["result"].startswith("B" if side == 0 else "W")
        if won or g["result"].startswith("0") or not g["result"]:
            continue
        rows = []
        for k in range(g["opening"], len(g["moves"])):
            if k % 2 != side:
                continue
            pos = g["moves"][:k]
            jv, jm = ask(args.judge, pos, g["size"], g["rule"], args.judge_ms)
            ev, em = ask(args.engine, pos, g["size"], g["rule"], args.engine_ms)
            played = "%d,%d" % g["moves"][k]
            rows.append((k, jv, jm, ev, em, played))
            print(gi + 1, k, "judge", jv, jm, "engine", ev, em, "played", played, flush=True)
        lost = next((i for i, r in enumerate(rows) if r[1] is not None and r[1] <= -20000), None)
        if lost is None:
            print("game %d: the judge saw no forced loss" % (gi + 1))
            continue
        view = " | ".join("ply %d judge %s (%s) engine %s (%s) played %s" % r
                          for r in rows[max(0, lost - args.context):lost + 1])
        print("game %d: forced loss from ply %d: %s" % (gi + 1, rows[lost][0], view), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
