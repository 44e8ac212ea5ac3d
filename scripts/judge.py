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
Judge and engine each run in one process (from an empty temporary folder) that gets every
position as a new game (START), after one warm-up search: on a virtual machine a fresh
process's first search can be several times slower than the next.
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


class Brain:
    """A brain in one process for all the positions it is asked about, started from an empty
    temporary folder. Each position comes after START (a new game: an empty hash table), and
    the process has searched once before the first (a fresh process's first search pays for
    its start-up and its first page faults, which a manager's games pay once per process)."""

    def __init__(self, cmd, turn_ms):
        self.turn_ms = turn_ms
        self.cwd = tempfile.TemporaryDirectory()
        self.proc = subprocess.Popen(cmd, shell=True, cwd=self.cwd.name, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.ask([(7, 7), (7, 8), (8, 7)], 15, 0)  # the warm-up search

    def ask(self, stones, size, rule):
        """The value (side to move) and move of the brain on a position given as a move list."""
        n = len(stones)
        lines = ["START %d" % size, "INFO rule %d" % rule, "INFO timeout_turn %d" % self.turn_ms,
                 "INFO timeout_match 100000000", "INFO time_left 100000000",
                 "INFO max_memory 350000000", "BOARD"]
        lines += ["%d,%d,%d" % (x, y, 1 if k % 2 == n % 2 else 2) for k, (x, y) in enumerate(stones)]
        lines.append("DONE")
        self.proc.stdin.write("\n".join(lines) + "\n")
        self.proc.stdin.flush()
        value, move = None, None
        for out in self.proc.stdout:
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
        if move is None:
            sys.exit(f"{self.proc.args}: no move (the brain ended or stopped answering)")
        return value, move

    def close(self):
        try:
            self.proc.stdin.write("END\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
        self.cwd.cleanup()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sgf")
    ap.add_argument("--name", default="moku", help="the engine's name in the SGF (PB/PW)")
    ap.add_argument("--judge", required=True, help="command of the judge brain")
    ap.add_argument("--engine", required=True, help="command of the engine under study")
    ap.add_argument("--judge-ms", type=int, default=1000)
    ap.add_argument("--engine-ms", type=int, default=500)
    ap.add_argument("--context", type=int, default=3, help="positions shown before the loss")
    ap.add_argument("--last", type=int, default=0,
                    help="judge only the engine's last N positions of each lost game (0: all)")
    ap.add_argument("--games", help="judge only these games: FIRST-LAST, counted from 1 in the file")
    args = ap.parse_args()
    games = list(games_of(open(args.sgf, encoding="utf-8", errors="replace").read()))
    if not games:
        sys.exit("no games in " + args.sgf)
    first, last = 1, len(games)
    if args.games:
        m = re.fullmatch(r"(\d+)-(\d+)", args.games)
        if not m or int(m.group(1)) < 1 or int(m.group(1)) > int(m.group(2)):
            ap.error("--games takes FIRST-LAST, such as 1-50")
        first, last = int(m.group(1)), int(m.group(2))
    judge, engine = Brain(args.judge, args.judge_ms), Brain(args.engine, args.engine_ms)
    for gi, g in enumerate(games):
        if not first <= gi + 1 <= last or args.name not in (g["black"], g["white"]):
            continue
        side = 0 if g["black"] == args.name else 1
        won = g["result"].startswith("B" if side == 0 else "W")
        if won or g["result"].startswith("0") or not g["result"]:
            continue
        rows = []
        plies = [k for k in range(g["opening"], len(g["moves"])) if k % 2 == side]
        for k in plies[-args.last:] if args.last > 0 else plies:
            pos = g["moves"][:k]
            jv, jm = judge.ask(pos, g["size"], g["rule"])
            ev, em = engine.ask(pos, g["size"], g["rule"])
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
    judge.close()
    engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
