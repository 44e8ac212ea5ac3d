#!/usr/bin/env python3
"""How much of its turn time the engine uses: for the first N balanced openings, a fresh engine
gets the position with BOARD under `INFO timeout_turn T` and the time to its move is measured,
with the nodes of the last iteration each turn completed. `--max-memory` sends the limit with
the position, as c-gomoku-cli does (a fresh process's first turn pays for the table's fresh pages).

`--nodes N` measures speed instead: each turn searches exactly N nodes (INFO max_node, no time
limit), so every build of the same tree does the same work, and nodes/s is N x count over the
wall time, table pages included.

    scripts/timeuse.py [--engine build/pbrain-moku] [--turn 500] [--count 20] [--rule 0]
                       [--max-memory 367001600] [--nodes 2000000]
"""
import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import ROOT, default_openings  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "pbrain-moku"))
    ap.add_argument("--turn", type=int, default=500, help="timeout_turn in ms")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--rule", type=int, default=0)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--openings")
    ap.add_argument("--max-memory", type=int, help="INFO max_memory in bytes, sent with the position")
    ap.add_argument("--nodes", type=int, help="search exactly this many nodes a turn, with no time limit")
    args = ap.parse_args()
    openings = args.openings or default_openings(args.rule, args.size)
    if not openings:
        ap.error("no openings file: give --openings")
    used = []
    nodes = 0
    for line in open(openings).read().split()[: args.count]:
        moves = [(ord(a) - 97, int(b) - 1) for a, b in re.findall(r"([a-v])(\d+)", line)]
        p = subprocess.Popen(args.engine.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        turn = 1000000 if args.nodes else args.turn
        limit = f"INFO max_node {args.nodes}\n" if args.nodes else ""
        p.stdin.write(f"START {args.size}\nINFO rule {args.rule}\nINFO timeout_turn {turn}\nINFO timeout_match 0\n"
                      f"INFO show_detail 1\n{limit}")
        p.stdin.flush()
        if p.stdout.readline().strip() != "OK":
            sys.exit("the engine did not answer START with OK")
        # BOARD: 1 marks the stones of the side to move, 2 the opponent's; black moved first.
        body = "".join(f"{x},{y},{1 if i % 2 == len(moves) % 2 else 2}\n" for i, (x, y) in enumerate(moves))
        start = time.monotonic()
        memory = f"INFO max_memory {args.max_memory}\n" if args.max_memory is not None else ""
        p.stdin.write(memory + "BOARD\n" + body + "DONE\n")
        p.stdin.flush()
        last = 0
        while (reply := p.stdout.readline()).startswith("MESSAGE"):
            if m := re.search(r" nodes (\d+) ", reply):
                last = int(m.group(1))
        used.append((time.monotonic() - start) * 1000)
        nodes += last
        p.stdin.write("END\n")
        p.stdin.flush()
        p.wait()
    mean = sum(used) / len(used)
    if args.nodes:
        total = args.nodes * len(used)
        print(f"{len(used)} positions x {args.nodes} nodes: {sum(used) / 1000:.2f} s, {total * 1000 / sum(used):.0f} nodes/s")
        return
    print(f"turn {args.turn} ms, {len(used)} positions: mean {mean:.0f} ms ({100 * mean / args.turn:.0f} %), "
          f"min {min(used):.0f} ms, max {max(used):.0f} ms; {nodes} nodes, {nodes * 1000 / sum(used):.0f} nodes/s")


if __name__ == "__main__":
    main()
