#!/usr/bin/env python3
"""Fits the classical evaluation's numbers ([classical] in configs/config.toml) to self-play
results: a logistic fit of winrate = 1 / (1 + exp(-value / 200)) over positions, where the value
is linear in the numbers (see bench/tools/classical_features.cpp, which makes the input).

    build/moku_features features.npy shards/*.mksp.lz4
    training/fit_classical.py features.npy --out fitted.toml [--lam 0.5] [--reg 1e-4]

The target mixes the game result and the search value's winrate: lam * result + (1 - lam) *
winrate. The numbers are pulled towards the embedded defaults (--reg, per squared unit of value),
so that rare features stay near them. The last --holdout part of the rows is held out, and the
loss before and after is printed on both parts. The output is a [classical] table that
`pbrain-moku --config FILE` reads (move ordering and the threat block percentage unchanged).
"""
import argparse
import os
import sys
import tomllib

import numpy as np

PATTERNS = 16
PATTERN4 = 14
THREATS = 5
FEATURES = 2 * PATTERNS + 2 * PATTERN4 + 2 * THREATS

# The embedded defaults, in feature order, read from configs/config.toml (a test keeps its
# [classical] table equal to src/eval/classical.cpp's numbers).
CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs", "config.toml")
with open(CONFIG, "rb") as _f:
    _CLASSICAL = tomllib.load(_f)["classical"]
DEFAULTS = {k: list(_CLASSICAL[k]) for k in ("pattern_to_move", "pattern_waiting", "pattern4_to_move",
                                             "pattern4_waiting", "threat_own", "threat_opponent")}
KEYS = list(DEFAULTS)
# Entries that stay fixed: the value of a dead or overline pattern is 0 by definition (the
# engine's patterns give those cells nothing), and "no threat" is the zero point of each side.
FIXED = [0, 1, PATTERNS + 0, PATTERNS + 1, 2 * PATTERNS + 2 * PATTERN4, 2 * PATTERNS + 2 * PATTERN4 + THREATS]


def loss_and_grad(w, X, t, w0, reg):
    v = X @ w
    p = 1.0 / (1.0 + np.exp(-np.clip(v, -20000, 20000) / 200.0))
    eps = 1e-7
    ce = -np.mean(t * np.log(p + eps) + (1 - t) * np.log(1 - p + eps))
    grad = X.T @ (p - t) / (200.0 * len(t))
    d = w - w0
    return ce + reg * np.mean(d * d), grad + 2 * reg * d / len(w)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("features", help=".npy file from moku_features")
    ap.add_argument("--out", required=True, help="TOML file to write ([classical] table)")
    ap.add_argument("--lam", type=float, default=0.5, help="weight of the game result in the target")
    ap.add_argument("--reg", type=float, default=1e-4, help="pull towards the defaults")
    ap.add_argument("--holdout", type=float, default=0.1)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--lr", type=float, default=2.0, help="Adam step, in value units")
    ap.add_argument("--min-stones", type=int, default=0, help="leave out positions with fewer stones")
    args = ap.parse_args()

    data = np.load(args.features)
    if data.ndim != 2 or data.shape[1] != FEATURES + 3:
        sys.exit(f"fit_classical: {args.features}: expected rows of {FEATURES + 3} values, got shape {data.shape}")
    data = data[data[:, FEATURES + 2] >= args.min_stones]
    if len(data) < 100:
        sys.exit(f"fit_classical: only {len(data)} positions: too few to fit")
    X = data[:, :FEATURES].astype(np.float64)
    t = args.lam * data[:, FEATURES] + (1 - args.lam) * data[:, FEATURES + 1]
    cut = int(len(t) * (1 - args.holdout))
    Xtr, ttr, Xte, tte = X[:cut], t[:cut], X[cut:], t[cut:]
    w0 = np.array(sum(DEFAULTS.values(), []), dtype=np.float64)
    free = np.ones(FEATURES, dtype=bool)
    free[FIXED] = False

    w = w0.copy()
    m = np.zeros_like(w)
    s = np.zeros_like(w)
    b1, b2 = 0.9, 0.999
    before_tr = loss_and_grad(w0, Xtr, ttr, w0, 0)[0]
    before_te = loss_and_grad(w0, Xte, tte, w0, 0)[0]
    for step in range(1, args.steps + 1):
        _, g = loss_and_grad(w, Xtr, ttr, w0, args.reg)
        g[~free] = 0
        m = b1 * m + (1 - b1) * g
        s = b2 * s + (1 - b2) * g * g
        w -= args.lr * (m / (1 - b1**step)) / (np.sqrt(s / (1 - b2**step)) + 1e-12)
        if step % 500 == 0 or step == args.steps:
            tr = loss_and_grad(w, Xtr, ttr, w0, 0)[0]
            te = loss_and_grad(w, Xte, tte, w0, 0)[0]
            print(f"step {step}: train {tr:.5f} (defaults {before_tr:.5f}), held out {te:.5f} (defaults {before_te:.5f})")

    wi = np.rint(w).astype(int)
    lines = [
        "[classical]",
        f"# Fitted by training/fit_classical.py from {args.features}: {len(t)} positions,",
        f"# lam {args.lam}, reg {args.reg}; held-out loss {loss_and_grad(wi.astype(float), Xte, tte, w0, 0)[0]:.5f}"
        f" (defaults {before_te:.5f}).",
    ]
    at = 0
    for k in KEYS:
        n = len(DEFAULTS[k])
        lines.append(f"{k} = [{', '.join(str(v) for v in wi[at:at + n])}]")
        at += n
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    at = 0
    for k in KEYS:
        n = len(DEFAULTS[k])
        print(f"  {k}: {list(wi[at:at + n])} (defaults {DEFAULTS[k]})")
        at += n


if __name__ == "__main__":
    main()
