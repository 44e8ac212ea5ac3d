#!/usr/bin/env python3
"""Fits move-ordering numbers to the moves an engine played: a conditional logit (softmax over
the legal candidate cells of each position) whose score is linear in the cell's features.

    training/fit_ordering.py games games.txt games.sgf...        # c-gomoku-cli SGF to games
    build/moku_move_features rows.npy games.txt
    training/fit_ordering.py fit rows.npy [--holdout 0.2] [--out ordering.toml] [--scale 150]

The features (bench/tools/move_features.cpp makes the rows): the cell's Pattern4 for the mover
and for the opponent, the count of each line pattern over its four lines for both, and the
Chebyshev distance to the opponent's last move and to the mover's own last move (1, 2, 3, 4,
farther). The fit prints the weights in logit units, and, on the held-out positions, how often
the played move is first, within the first 3 and within the first 10 under the fitted score and
under the engine's ordering score with --config's [classical] table (configs/config.toml by
default). --out writes the fit as the [classical] move-ordering keys for --config.
"""
import argparse
import os
import re
import sys
import tomllib

import numpy as np

P4 = 14
PAT = 16
DIST = 5  # 1, 2, 3, 4, farther
FORBID = 12
NAMES4 = "A_FIVE B_FLEX4 C_BLOCK4_FLEX3 D_BLOCK4_PLUS E_BLOCK4 F_FLEX3_2X G_FLEX3_PLUS H_FLEX3 " \
         "I_BLOCK3_PLUS J_FLEX2_2X K_BLOCK3 L_FLEX2 FORBID NONE".split()
NAMES = "DEAD OL B1 F1 B2 F2 F2A F2B B3 B3S F3 F3S B4 B4S F4 F5".split()
# Weight layout: p4 mover, p4 opponent, patterns mover, patterns opponent, distance to the
# opponent's last move, distance to the mover's last move.
O_P4US, O_P4THEM = 0, P4
O_PATUS, O_PATTHEM = 2 * P4, 2 * P4 + PAT
O_DLAST, O_DOWN = 2 * P4 + 2 * PAT, 2 * P4 + 2 * PAT + DIST
NW = 2 * P4 + 2 * PAT + 2 * DIST


def sgf_games(text):
    """(rule, size, opening count, moves) of each game of a c-gomoku-cli SGF file."""
    games = []
    for block in re.findall(r"\(;(.*?)\)", text, re.S):
        size_m = re.search(r"SZ\[(\d+)\]", block)
        # Without SZ[] the board is 19x19 (SGF FF[4]); c-gomoku-cli always writes SZ[].
        size = int(size_m.group(1)) if size_m else 19
        rule_m = re.search(r"RU\[(\d+)\]", block)
        gomocup = int(rule_m.group(1)) if rule_m else 0
        rule = {0: 0, 1: 1, 4: 2}.get(gomocup)
        if rule is None:
            continue
        moves, opening = [], 0
        for colour, coord, comment in re.findall(r";([BW])\[([a-z]{2})\](C\[[^\]]*\])?", block):
            x, y = ord(coord[0]) - 97, ord(coord[1]) - 97
            moves.append(y * size + x)
            if "opening" in comment:
                opening = len(moves)
        games.append((rule, size, opening, moves))
    return games


def features(rows):
    """Index arrays (one per feature group) into the weight vector, per row."""
    d_last = np.minimum(rows[:, 12], DIST) - 1
    d_own = np.minimum(rows[:, 13], DIST) - 1
    return [O_P4US + rows[:, 2], O_P4THEM + rows[:, 3]] + \
           [O_PATUS + rows[:, 4 + d] for d in range(4)] + \
           [O_PATTHEM + rows[:, 8 + d] for d in range(4)] + \
           [O_DLAST + d_last, O_DOWN + d_own]


def score(w, idx):
    """Each row's score under weights w: the sum of its features' weights (idx: features())."""
    return sum(w[ix] for ix in idx)


def group_bounds(pos):
    starts = np.flatnonzero(np.r_[True, pos[1:] != pos[:-1]])
    return starts


def nll_and_grad(w, idx, label, starts, n_pos, reg, fixed):
    s = score(w, idx)
    m = np.maximum.reduceat(s, starts)
    sizes = np.diff(np.r_[starts, len(s)])
    e = np.exp(s - np.repeat(m, sizes))
    z = np.add.reduceat(e, starts)
    p = e / np.repeat(z, sizes)
    nll = -(np.sum(s[label == 1]) - np.sum(m + np.log(z))) / n_pos + reg * np.sum(w * w)
    r = (p - label) / n_pos
    g = np.zeros_like(w)
    for ix in idx:
        g += np.bincount(ix, weights=r, minlength=len(w))
    g += 2 * reg * w
    g[fixed] = 0
    return nll, g


def ranks(score, label, starts):
    """Rank (0 = first) of the played move in each position, ties broken against it."""
    out = []
    bounds = np.r_[starts, len(score)]
    for a, b in zip(bounds[:-1], bounds[1:]):
        sc, lb = score[a:b], label[a:b]
        played = sc[lb == 1][0]
        out.append(int(np.sum(sc >= played)) - 1)
    return np.array(out)


def engine_score(rows, cfg):
    """The engine's static ordering score of each row under a [classical] table (the same sum as
    ClassicalEvaluator::moveScore)."""
    c = cfg["classical"]
    pat, p4 = np.array(c["pattern_to_move"]), np.array(c["pattern4_to_move"])
    move_p4 = [np.array(c["move_own"]), np.array(c["move_opponent"])]
    move_pat = [np.array(c.get("move_pattern_own", [0] * PAT)),
                np.array(c.get("move_pattern_opponent", [0] * PAT))]
    percent = [c.get("move_cell_own_percent", 100), c.get("move_cell_opponent_percent", 50)]
    dist = [np.array(c.get("move_distance_opponent", [0] * DIST)),
            np.array(c.get("move_distance_own", [0] * DIST))]
    total = np.zeros(len(rows), dtype=np.int64)
    for who, (p4col, first) in enumerate(((2, 4), (3, 8))):
        p4s = rows[:, p4col]
        lines = [rows[:, first + d] for d in range(4)]
        cell = p4[p4s] + np.where(p4s == FORBID, 0, sum(pat[q] for q in lines))
        total += move_p4[who][p4s] + np.fix(cell * percent[who] / 100).astype(np.int64)
        total += sum(move_pat[who][q] for q in lines)
        total += dist[who][np.minimum(rows[:, 12 + who], DIST) - 1]
    return total


def report(name, r):
    print(f"  {name:8s} first {np.mean(r == 0) * 100:5.1f} %  first 3 {np.mean(r < 3) * 100:5.1f} %"
          f"  first 10 {np.mean(r < 10) * 100:5.1f} %  mean rank {np.mean(r):5.2f}")


FIXED = [O_P4US + 13, O_P4THEM + 13, O_PATUS + 0, O_PATTHEM + 0, O_DLAST + DIST - 1,
         O_DOWN + DIST - 1]  # NONE, DEAD and "farther": the zero points of each group


def fit_weights(rows, reg, iterations, log=None):
    """The weights (NW, logit units) that maximise the played moves' likelihood; rows sorted by
    position. Full-batch Adam."""
    n = len(np.unique(rows[:, 0]))
    idx, label, starts = features(rows), rows[:, 1].astype(np.float64), group_bounds(rows[:, 0])
    w = np.zeros(NW)
    mom, vel = np.zeros(NW), np.zeros(NW)
    lr, b1, b2 = 0.05, 0.9, 0.999
    for it in range(1, iterations + 1):
        nll, g = nll_and_grad(w, idx, label, starts, n, reg, FIXED)
        mom = b1 * mom + (1 - b1) * g
        vel = b2 * vel + (1 - b2) * g * g
        w -= lr * (mom / (1 - b1 ** it)) / (np.sqrt(vel / (1 - b2 ** it)) + 1e-8)
        if log and it % 200 == 0:
            log(f"  iteration {it}: loss {nll:.4f}")
    return w


def fit(args):
    rows = np.load(args.rows)
    pos = rows[:, 0]
    n = int(pos.max()) + 1
    cut = int(n * (1 - args.holdout))
    train, test = rows[pos < cut], rows[pos >= cut]
    print(f"{n} positions ({cut} to fit, {n - cut} held out), {len(rows)} candidate cells")
    w = fit_weights(train, args.reg, args.iterations, print)
    tidx, tlabel, tstarts = features(test), test[:, 1], group_bounds(test[:, 0])
    nll_t, _ = nll_and_grad(w, tidx, tlabel.astype(np.float64), tstarts, n - cut, 0.0, FIXED)
    print(f"held-out loss {nll_t:.4f} (uniform {np.mean(np.log(np.diff(np.r_[tstarts, len(test)]))):.4f})")
    s = score(w, tidx)
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    print("held out, the played move:")
    report("fitted", ranks(s, tlabel, tstarts))
    report("engine", ranks(engine_score(test, cfg).astype(np.float64), tlabel, tstarts))

    def show(title, off, names):
        print(title + ": " + " ".join(f"{nm}={w[off + k]:.2f}" for k, nm in enumerate(names)))

    show("p4 mover", O_P4US, NAMES4)
    show("p4 opponent", O_P4THEM, NAMES4)
    show("patterns mover", O_PATUS, NAMES)
    show("patterns opponent", O_PATTHEM, NAMES)
    show("distance to opponent's last", O_DLAST, ["1", "2", "3", "4", "5+"])
    show("distance to own last", O_DOWN, ["1", "2", "3", "4", "5+"])
    if args.out:
        with open(args.out, "w") as f:
            f.write(ordering_toml(w, cfg["classical"], args.scale))
        print(f"written to {args.out}")


def ordering_toml(w, classical, scale):
    """The fitted weights as [classical] move-ordering numbers, `scale` per logit unit. The
    five and open-four entries keep their configured values: the fit leaves out the positions
    they decide (a five on the board, an open-four point of the opponent's), and they must stay
    above everything the fit orders."""
    def ints(values):
        return "[" + ", ".join(str(int(round(v))) for v in values) + "]"

    own = scale * w[O_P4US:O_P4US + P4]
    opp = scale * w[O_P4THEM:O_P4THEM + P4]
    for k in (0, 1):  # A_FIVE, B_FLEX4
        own[k], opp[k] = classical["move_own"][k], classical["move_opponent"][k]
    lines = ["[classical]",
             f"move_own = {ints(own)}",
             f"move_opponent = {ints(opp)}",
             f"move_pattern_own = {ints(scale * w[O_PATUS:O_PATUS + PAT])}",
             f"move_pattern_opponent = {ints(scale * w[O_PATTHEM:O_PATTHEM + PAT])}",
             "move_cell_own_percent = 0",
             "move_cell_opponent_percent = 0",
             f"move_distance_opponent = {ints(scale * w[O_DLAST:O_DLAST + DIST])}",
             f"move_distance_own = {ints(scale * w[O_DOWN:O_DOWN + DIST])}"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("games", help="SGF files to a games.txt for moku_move_features")
    g.add_argument("out")
    g.add_argument("sgf", nargs="+")
    f = sub.add_parser("fit", help="fit the weights to moku_move_features rows")
    f.add_argument("rows")
    f.add_argument("--holdout", type=float, default=0.2)
    f.add_argument("--reg", type=float, default=1e-4)
    f.add_argument("--iterations", type=int, default=1500)
    f.add_argument("--config", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    "..", "configs", "config.toml"))
    f.add_argument("--out", help="write the fitted numbers as a [classical] TOML file")
    f.add_argument("--scale", type=float, default=150, help="engine units per logit unit")
    args = ap.parse_args()
    if args.cmd == "games":
        n = 0
        with open(args.out, "w") as out:
            for path in args.sgf:
                with open(path) as fh:
                    for rule, size, opening, moves in sgf_games(fh.read()):
                        if len(moves) > opening:
                            out.write(f"{rule} {size} {opening} " + " ".join(map(str, moves)) + "\n")
                            n += 1
        print(f"{n} games written to {args.out}")
    else:
        fit(args)


if __name__ == "__main__":
    sys.exit(main())
