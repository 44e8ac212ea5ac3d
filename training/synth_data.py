#!/usr/bin/env python3
"""Synthetic freestyle games in the FORMAT.md record format, for the tests and for trying the
pipeline without the engine's self-play:

    python3 training/synth_data.py --games 200 --seed 1 --out synth-1.mksp.lz4

A simple rule-based player (win at once if possible, else block the opponent's five point,
else a random cell next to the last stones) plays both sides; each position is recorded with
the move it chose as best move (sometimes as a two-move weighted policy) and the game's result.
Not self-play of the engine: only a learnable, consistent signal.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from moku_data import Record, write_shard  # noqa: E402

DIRS = ((1, 0), (0, 1), (1, -1), (1, 1))


def makes_five(board, n, x, y, color):
    for dx, dy in DIRS:
        count = 1
        for sgn in (1, -1):
            px, py = x + sgn * dx, y + sgn * dy
            while 0 <= px < n and 0 <= py < n and board[py, px] == color:
                count += 1
                px, py = px + sgn * dx, py + sgn * dy
        if count >= 5:
            return True
    return False


def _shift(a, dx, dy):
    """out[y, x] = a[y + dy, x + dx], False off the board."""
    n = a.shape[0]
    out = np.zeros_like(a)
    ys, yd = (slice(dy, n), slice(0, n - dy)) if dy >= 0 else (slice(0, n + dy), slice(-dy, n))
    xs, xd = (slice(dx, n), slice(0, n - dx)) if dx >= 0 else (slice(0, n + dx), slice(-dx, n))
    out[yd, xd] = a[ys, xs]
    return out


def five_points(board, color):
    """bool [n, n]: the empty cells where `color` makes five or more (vectorised)."""
    own = board == color
    total = np.ones(board.shape, dtype=np.int32)
    best = np.zeros(board.shape, dtype=np.int32)
    for dx, dy in DIRS:
        total[:] = 1
        for sgn in (1, -1):
            run = np.ones(board.shape, dtype=bool)
            for k in range(1, 5):
                run &= _shift(own, sgn * k * dx, sgn * k * dy)
                total += run
        best = np.maximum(best, total)
    return (board == 0) & (best >= 5)


def synthetic_games(num_games, size=15, seed=0, max_moves=None):
    rng = np.random.default_rng(seed)
    n = size
    max_moves = max_moves or min(n * n - 1, 80)
    games = []
    for _ in range(num_games):
        board = np.zeros((n, n), dtype=np.int8)  # 1 black, 2 white
        moves = []
        pending = []
        winner = None
        while len(moves) < max_moves:
            side = len(moves) % 2
            me, opp = 1 + side, 2 - side
            empty = np.argwhere(board == 0)  # [y, x]
            wins = [(x, y) for y, x in np.argwhere(five_points(board, me))]
            blocks = [(x, y) for y, x in np.argwhere(five_points(board, opp))] if not wins else []
            if not moves:
                near = [(n // 2, n // 2)]
            else:
                near = set()
                for m in moves[-4:]:
                    mx, my = m % n, m // n
                    for dy in (-1, 0, 1):
                        for dx in (-1, 0, 1):
                            px, py = mx + dx, my + dy
                            if 0 <= px < n and 0 <= py < n and board[py, px] == 0:
                                near.add((px, py))
                near = sorted(near) or [tuple(empty[rng.integers(len(empty))][::-1])]
            cands = wins or blocks or near
            best = cands[rng.integers(len(cands))]
            alt = near[rng.integers(len(near))]
            bm = best[1] * n + best[0]
            policy = []
            if rng.random() < 0.3 and alt != best:
                policy = [(bm, 3), (alt[1] * n + alt[0], 1)]
            pending.append(Record(0, n, side, 0, 0, 0, bm, list(moves), policy))
            board[best[1], best[0]] = me
            moves.append(bm)
            if makes_five(board, n, best[0], best[1], me):
                winner = side
                break
        for r in pending:
            if winner is None:
                r.result = 1
                r.value = 0
            else:
                r.result = 2 if r.side == winner else 0
                r.value = 300 if r.side == winner else -300
        games.append(pending)
    return games


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    games = synthetic_games(args.games, args.size, args.seed)
    write_shard(args.out, games)
    print(f"wrote {args.out}: {args.games} games, {sum(len(g) for g in games)} positions")


if __name__ == "__main__":
    main()
