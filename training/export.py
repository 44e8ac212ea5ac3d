#!/usr/bin/env python3
"""Exports a trained checkpoint (train.py) as a mix9svq file (mix9svq.md) that pbrain-moku loads.

    python3 training/export.py RUN_DIR/checkpoint.pt --out net.bin.lz4 [--sizes 15] [--rule freestyle]

Codebooks. Each table of 442,503 shapes x 64 (quantised to the 10-bit grid, scale 32) must fit a
65,536-row codebook plus a u16 mapping:
  * shapes never seen in training (count 0 in the checkpoint's usage counts) map to row 0,
    which is all zeros (their trained rows were never updated and carry no information);
  * when the distinct quantised rows of the seen shapes fit in the other rows, each gets its
    own row: the export is exact (the file computes what the model computed);
  * otherwise the most used distinct rows keep an exact row each and only the rarely used rest
    is clustered into --clusters centroids (mini-batch k-means in torch, usage-weighted
    sampling, then each rare row maps to its nearest centroid). The report says how many
    shapes were clustered and the mean squared error of that step.
Every other weight is quantised at the scales of mix9_model.py (the same rounding as training).
"""

import argparse
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mix9_int  # noqa: E402
from mix9_shapes import SHAPE_NB  # noqa: E402
from train import load_model, pick_device  # noqa: E402

ROWS = mix9_int.CODEBOOK_ROWS


def _unique_rows(a):
    """np.unique over the rows of an int16 matrix (fast: rows viewed as opaque bytes)."""
    a = np.ascontiguousarray(a)
    v = a.view(np.dtype((np.void, a.dtype.itemsize * a.shape[1]))).ravel()
    _, first, inverse = np.unique(v, return_index=True, return_inverse=True)
    return a[first], inverse.ravel()


def _nearest(x, c, c2):
    """Index of the nearest centroid of each row of x (squared distances through one matmul)."""
    return (c2.unsqueeze(0) - 2 * (x @ c.T)).argmin(dim=1)


def kmeans(x, weights, k, iters=None, batch=4096, seed=0, log=print, device="cpu"):
    """Mini-batch k-means (Sculley 2010) of rows x [R, 64] (float), sampling by weights, on
    `device` (the samples are drawn on the CPU with a seeded generator).
    iters defaults to about five passes over the rows (20..200 batches).
    Returns (centroids [k, 64], assignment [R]) on the CPU."""
    g = torch.Generator().manual_seed(seed)
    x = torch.as_tensor(x, dtype=torch.float32).to(device)
    if iters is None:
        iters = int(min(200, max(20, -(-5 * x.shape[0] // batch))))
    p = torch.as_tensor(weights, dtype=torch.float64)
    p = p / p.sum()
    init = torch.multinomial(p, k, replacement=k > x.shape[0], generator=g).to(device)
    c = x[init].clone()
    seen = torch.zeros(k, device=device)
    for _ in range(iters):
        idx = torch.multinomial(p, batch, replacement=True, generator=g).to(device)
        xb = x[idx]
        a = _nearest(xb, c, (c * c).sum(1))
        cnt = torch.bincount(a, minlength=k).float()
        sums = torch.zeros_like(c).index_add_(0, a, xb)
        seen += cnt
        m = cnt > 0
        eta = (cnt[m] / seen[m]).unsqueeze(1)
        c[m] = (1 - eta) * c[m] + eta * (sums[m] / cnt[m].unsqueeze(1))
    c = torch.clamp(torch.round(c), -512, 511)  # the codebook holds the rounded centroids
    c2 = (c * c).sum(1)
    assign = torch.empty(x.shape[0], dtype=torch.long, device=device)
    for s in range(0, x.shape[0], 8192):
        assign[s : s + 8192] = _nearest(x[s : s + 8192], c, c2)
    return c.cpu(), assign.cpu()


def compress_table(q, counts, clusters=8192, log=print, rows_total=ROWS, device="cpu"):
    """q: int16 [SHAPE_NB, 64] quantised rows; counts: [SHAPE_NB] usage. Returns
    (codebook int16 [rows_total, 64], mapping uint16 [SHAPE_NB], stats dict)."""
    seen = np.nonzero(counts > 0)[0]
    codebook = np.zeros((rows_total, 64), dtype=np.int16)
    mapping = np.zeros(SHAPE_NB, dtype=np.uint16)  # unseen -> row 0 (zeros)
    stats = {"seen": int(seen.size), "distinct": 0, "clustered_shapes": 0, "cluster_mse": 0.0}
    if seen.size == 0:
        return codebook, mapping, stats
    rows, inv = _unique_rows(q[seen])
    stats["distinct"] = int(rows.shape[0])
    usage = np.bincount(inv, weights=counts[seen].astype(np.float64), minlength=rows.shape[0])
    # the codebook row of each distinct row; an all-zero row (if any) shares row 0
    target = np.zeros(rows.shape[0], dtype=np.int64)
    nonzero = np.nonzero(rows.any(axis=1))[0]
    free = rows_total - 1
    if nonzero.size <= free:
        target[nonzero] = np.arange(1, nonzero.size + 1)
        codebook[1 : nonzero.size + 1] = rows[nonzero]
    else:
        k = min(clusters, free - 1)
        order = nonzero[np.argsort(-usage[nonzero], kind="stable")]
        exact, rare = order[: free - k], order[free - k :]
        target[exact] = np.arange(1, exact.size + 1)
        codebook[1 : exact.size + 1] = rows[exact]
        t0 = time.time()
        cent, assign = kmeans(rows[rare].astype(np.float32), usage[rare], k, log=log, device=device)
        cent_q = cent.to(torch.int16).numpy()
        base = exact.size + 1
        codebook[base : base + k] = cent_q
        target[rare] = base + assign.numpy()
        err = ((rows[rare].astype(np.float64) - cent_q[assign.numpy()]) ** 2).mean(axis=1)
        stats["clustered_shapes"] = int(np.isin(inv, rare).sum())
        stats["cluster_mse"] = float((err * usage[rare]).sum() / usage[rare].sum())
        stats["kmeans_s"] = round(time.time() - t0, 1)
    mapping[seen] = target[inv].astype(np.uint16)
    return codebook, mapping, stats


def size_mask(spec):
    """'15' -> 1<<14; '5-22' -> bits 4..21; '15,20' -> both."""
    mask = 0
    for part in spec.split(","):
        if "-" in part:
            lo, hi = map(int, part.split("-"))
        else:
            lo = hi = int(part)
        for s in range(lo, hi + 1):
            if not 5 <= s <= 22:
                raise ValueError(f"board size {s} outside 5..22")
            mask |= 1 << (s - 1)
    return mask


def export_model(model, counts, path, rule_mask, sizes_mask, description, clusters=8192, log=print, device="cpu"):
    """Writes `model` as a mix9svq file. counts: [2, SHAPE_NB] shape usage (None = every shape
    seen). Returns a stats dict."""
    t0 = time.time()
    w = model.dense_int_weights()
    stats = {}
    for t in range(2):
        q = model.table_int(t)
        c = np.ones(SHAPE_NB, dtype=np.int64) if counts is None else np.asarray(counts[t])
        cb, mp, st = compress_table(q, c, clusters=clusters, log=log, device=device)
        w[f"cb{t}"], w[f"map{t}"] = cb, mp
        stats[f"table{t}"] = st
    header = {"rule_mask": rule_mask, "size_mask": sizes_mask, "description": description}
    mix9_int.write_file(path, header, w)
    stats["seconds"] = round(time.time() - t0, 1)
    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoint")
    ap.add_argument("--out", required=True)
    ap.add_argument("--rule", choices=sorted(mix9_int.RULE_BITS), help="default: the checkpoint's")
    ap.add_argument("--sizes", help="board sizes the file declares, e.g. 15 or 5-22 (default: the trained size)")
    ap.add_argument("--clusters", type=int, default=8192, help="k-means centroids when a table overflows")
    ap.add_argument("--description", help="default: names the data and the run")
    ap.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"),
                    help="where k-means runs (auto: CUDA when there is one)")
    args = ap.parse_args()
    device = pick_device(args.device)
    ck = torch.load(args.checkpoint, map_location="cpu", weights_only=False)
    model = load_model(ck)
    cfg = ck["args"]
    rule = args.rule or cfg["rule"]
    sizes = args.sizes or str(cfg["size"])
    desc = args.description or (
        f"moku trainer: rule {rule}, size {cfg['size']}, run {os.path.basename(os.path.normpath(cfg['out']))}, "
        f"step {ck['step']}, {ck.get('positions_seen', 0)} positions from {', '.join(cfg['data'])}"
    )
    stats = export_model(model, ck["counts"], args.out, mix9_int.RULE_BITS[rule], size_mask(sizes), desc, args.clusters,
                         device=device)
    for t in range(2):
        s = stats[f"table{t}"]
        how = "exact" if s["clustered_shapes"] == 0 else (
            f"{s['clustered_shapes']} rarely used shapes clustered, mse {s['cluster_mse']:.3f} (int units)"
        )
        print(f"table {t}: {s['seen']} shapes seen, {s['distinct']} distinct rows: {how}")
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes) in {stats['seconds']} s: {desc}")


if __name__ == "__main__":
    main()
