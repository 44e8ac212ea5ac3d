#!/usr/bin/env python3
"""Fits a per-pcode evaluation (one value per pcode, the same whichever side is to move, averaged
over the position and the one before its last move) and a threat-mask table to self-play
positions (renju: one table of each per colour, as moku_pcode_features lays out its rows), and
writes them as a [classical.RULE] table (pcode_values, threat_mask_values) for --config, and
with --header as the C++ header of the embedded defaults.

    build/moku_pcode_features data/fs SHARDS...
    /usr/bin/python3 training/fit_pcode.py data/fs --out pcode.toml [--lam 0.5]

The model, for the side to move: v = 0.5 * x . w + t[mask], winrate = sigmoid(v / 200), where x
is moku_pcode_features' count row (both positions summed). The target mixes the game result
(--lam) with the search value's winrate. The pcode values are pulled towards the default
evaluation's (the mean of its to-move and waiting values) by --reg; pcodes that never occur keep
that prior.
"""
import argparse
import sys

import numpy as np
import torch

MASK_NB = 2048
PCODE_NB = 3876


def load(prefix):
    x = np.load(prefix + ".x.npy", mmap_mode="r")
    y = np.load(prefix + ".y.npy")
    prior = np.load(prefix + ".prior.npy").astype(np.float64)
    return x, y, prior.mean(axis=1)


def mask_count(columns):
    """The threat-mask table's size for rows of `columns` pcode counts (one table per colour
    when there are two pcode tables)."""
    return MASK_NB * max(1, columns // PCODE_NB)


def model_value(w, t, x, mask):
    return 0.5 * (x @ w) + t[mask]


def loss_of(w, t, x, mask, target):
    v = model_value(w, t, x, mask)
    return torch.nn.functional.binary_cross_entropy_with_logits(v / 200.0, target)


def fit(x_np, y_np, prior, lam=0.5, reg=1e-6, epochs=20, batch=8192, lr=10.0, holdout=0.1,
        min_ply=0, log=None):
    """Pcode values w (len(prior)) and threat-mask values t (MASK_NB, or twice that with a table
    per colour), in engine units, fitted to the rows of moku_pcode_features (x_np, y_np) by Adam
    over minibatches."""
    keep = np.flatnonzero(y_np[:, 3] >= min_ply)
    n = len(keep)
    # Hold out the last positions (the shards are in game order, so mostly whole games).
    cut = int(n * (1 - holdout))
    tr, te = keep[:cut], keep[cut:]
    if log:
        log(f"{n} positions ({len(tr)} to fit, {len(te)} held out)")

    def tensors(idx):
        x = torch.from_numpy(np.asarray(x_np[idx], dtype=np.float32))
        mask = torch.from_numpy(y_np[idx, 0].astype(np.int64))
        target = torch.from_numpy((lam * y_np[idx, 1] + (1 - lam) * y_np[idx, 2]).astype(np.float32))
        return x, mask, target

    xt, mt, tt = tensors(te)
    rt = torch.from_numpy(y_np[te, 1].astype(np.float32))  # the results alone
    prior_t = torch.tensor(prior, dtype=torch.float32)
    w = prior_t.clone().requires_grad_(True)
    t = torch.zeros(mask_count(len(prior)), requires_grad=True)
    if log and len(te):
        with torch.no_grad():
            log(f"held-out loss with the prior: {loss_of(w, t, xt, mt, tt).item():.4f} "
                f"(against the results alone {loss_of(w, t, xt, mt, rt).item():.4f})")
    opt = torch.optim.Adam([w, t], lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    rng = np.random.default_rng(1)
    for epoch in range(epochs):
        perm = rng.permutation(tr)
        total = 0.0
        for s in range(0, len(perm), batch):
            idx = np.sort(perm[s:s + batch])
            x, mask, target = tensors(idx)
            opt.zero_grad()
            loss = loss_of(w, t, x, mask, target)
            penalty = reg * ((w - prior_t) ** 2).sum() + reg * (t ** 2).sum()
            (loss + penalty).backward()
            opt.step()
            total += loss.item() * len(idx)
        sched.step()
        if log and len(te):
            with torch.no_grad():
                held = loss_of(w, t, xt, mt, tt).item()
                held_r = loss_of(w, t, xt, mt, rt).item()
            log(f"epoch {epoch + 1}: loss {total / len(tr):.4f}, held out {held:.4f} "
                f"(against the results alone {held_r:.4f})")
    return w.detach().numpy().astype(np.float64), t.detach().numpy().astype(np.float64)


def write_tables(w, t, rule, out, header=None, command=""):
    """The [classical.RULE] TOML table of the rounded values, and optionally the C++ header of
    the embedded defaults."""
    wv = np.clip(np.rint(w).astype(int), -30000, 30000)
    tv = np.clip(np.rint(t).astype(int), -30000, 30000)
    with open(out, "w") as f:
        f.write(f"[classical.{rule}]\n")
        f.write(wrapped("pcode_values = [", wv, "]"))
        f.write(wrapped("threat_mask_values = [", tv, "]"))
    if header:
        name = rule.upper()
        with open(header, "w") as f:
            f.write(f"// The {rule} per-pcode evaluation, made by training/fit_pcode.py "
                    f"(see the README):\n// {command}\n#pragma once\n\n"
                    "#include <cstdint>\n\nnamespace moku::eval {\n\n// clang-format off\n")
            f.write(wrapped(f"constexpr int16_t {name}_PCODE_VALUE[] = {{", wv, "};"))
            f.write("\n")
            f.write(wrapped(f"constexpr int16_t {name}_THREAT_MASK_VALUE[] = {{", tv, "};"))
            f.write("// clang-format on\n\n} // namespace moku::eval\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("prefix", help="moku_pcode_features' PREFIX")
    ap.add_argument("--out", required=True, help="the [classical.RULE] table (TOML)")
    ap.add_argument("--header", help="also the C++ header of the embedded defaults")
    ap.add_argument("--rule", default="freestyle", help="the rule the positions are of")
    ap.add_argument("--lam", type=float, default=0.5, help="weight of the game result")
    ap.add_argument("--reg", type=float, default=1e-6, help="pull towards the prior, per unit^2")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=8192)
    ap.add_argument("--lr", type=float, default=10.0)
    ap.add_argument("--holdout", type=float, default=0.1)
    ap.add_argument("--min-ply", type=int, default=0)
    args = ap.parse_args()
    x_np, y_np, prior = load(args.prefix)
    log = lambda m: print(m, file=sys.stderr)  # noqa: E731
    w, t = fit(x_np, y_np, prior, args.lam, args.reg, args.epochs, args.batch, args.lr,
               args.holdout, args.min_ply, log)
    counts = np.bincount(y_np[:, 0].astype(np.int64), minlength=len(t))
    seen = np.flatnonzero(counts)
    log("threat masks seen most (mask: positions, value): " +
        ", ".join(f"{m}: {counts[m]}, {t[m]:.0f}" for m in seen[np.argsort(-counts[seen])][:12]))
    write_tables(w, t, args.rule, args.out, args.header,
                 "training/fit_pcode.py " + " ".join(sys.argv[1:]))


def wrapped(head, values, tail, width=100):
    """`head` values, `tail` as lines of at most `width` characters."""
    lines, line = [], head
    for i, v in enumerate(values):
        item = f"{v}," if i + 1 < len(values) else f"{v}{tail}"
        if len(line) + 1 + len(item) > width:
            lines.append(line.rstrip())
            line = "    "
        line += ("" if line.endswith(("[", "{", "    ")) else " ") + item
    lines.append(line)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
