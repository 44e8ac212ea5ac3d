#!/usr/bin/env python3
"""Trains a mix9svq network (quantisation-aware) on self-play records (FORMAT.md).

    python3 training/train.py --data 'selfplay/*.mksp.lz4' --rule freestyle --size 15 \
        --steps 20000 --batch 256 --out runs/fs15
    python3 training/train.py --data ... --out runs/fs15 --steps 40000 --resume   # continue

RUN_DIR gets checkpoint.pt (resumable), log.jsonl (one line per validation point) and
curve.png (train and validation loss vs step, value and policy). Throughput (positions/s) is
printed at every validation point. export.py turns checkpoint.pt into a network file.
"""

import argparse
import glob
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F_

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mix9_model import Mix9Model  # noqa: E402
from mix9_shapes import SHAPE_NB, shape_codes  # noqa: E402
from moku_data import RULES, PositionSet  # noqa: E402


def pick_device(name):
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise SystemExit("train: --device cuda but CUDA is not available")
    return torch.device(name)


def losses(model, boards, value_t, policy_t, device):
    """(value loss, policy loss) tensors: soft-target cross-entropies, the policy over the
    empty cells only."""
    b = torch.from_numpy(np.ascontiguousarray(boards)).to(device)
    codes = shape_codes(b)  # coded on the device (mix9_shapes' torch path)
    vt = torch.from_numpy(np.ascontiguousarray(value_t)).to(device)
    pt = torch.from_numpy(np.ascontiguousarray(policy_t)).to(device).flatten(1)
    occupied = (b != 0).flatten(1)
    value, policy = model(codes)
    lv = -(vt * F_.log_softmax(value, dim=1)).sum(1).mean()
    logits = policy.flatten(1).masked_fill(occupied, -1e9)
    lp = -(pt * F_.log_softmax(logits, dim=1)).sum(1).mean()
    return lv, lp, codes


# ----------------------------------------------------------------------------- checkpoints
# The shape tables (2 x 442,503 x 64) and their SparseAdam moments would make a 700 MB file;
# only the rows that training touched (usage count > 0) differ from the seeded initial values,
# so only those are saved and the rest is re-created from the seed.
def save_checkpoint(path, model, opt_dense, opt_sparse, counts, step, args, history, positions_seen, rng):
    tables = []
    sstate = opt_sparse.state
    for t, emb in enumerate(model.tables):
        rows = torch.from_numpy(np.nonzero(counts[t])[0])
        st = sstate.get(emb.weight, {})
        entry = {"rows": rows, "weight": emb.weight.detach().cpu()[rows]}
        if st:
            entry["step"] = st["step"]
            entry["exp_avg"] = st["exp_avg"].cpu()[rows]
            entry["exp_avg_sq"] = st["exp_avg_sq"].cpu()[rows]
        tables.append(entry)
    dense = {k: v for k, v in model.state_dict().items() if not k.startswith("tables.")}
    ck = {
        "format": "moku-mix9-trainer-1",
        "dense": dense,
        "tables": tables,
        "opt_dense": opt_dense.state_dict() if opt_dense else None,
        "counts": counts,
        "step": step,
        "args": vars(args),
        "history": history,
        "positions_seen": positions_seen,
        "rng": rng.bit_generator.state if rng is not None else None,
    }
    tmp = path + ".tmp"
    torch.save(ck, tmp)
    os.replace(tmp, path)


def load_model(ck, device="cpu"):
    """The model of a checkpoint (tables rebuilt from the seed plus the saved rows)."""
    model = Mix9Model(seed=ck["args"]["seed"])
    model.load_state_dict(ck["dense"], strict=False)
    with torch.no_grad():
        for t, e in enumerate(ck["tables"]):
            model.tables[t].weight.index_copy_(0, e["rows"], e["weight"])
    return model.to(device)


def restore_sparse_state(opt_sparse, model, ck, device):
    for t, e in enumerate(ck["tables"]):
        if "step" not in e:
            continue
        w = model.tables[t].weight
        st = {
            "step": e["step"],
            "exp_avg": torch.zeros_like(w),
            "exp_avg_sq": torch.zeros_like(w),
        }
        rows = e["rows"].to(device)
        st["exp_avg"].index_copy_(0, rows, e["exp_avg"].to(device))
        st["exp_avg_sq"].index_copy_(0, rows, e["exp_avg_sq"].to(device))
        opt_sparse.state[w] = st


# ----------------------------------------------------------------------------- curve
def plot_curve(history, path, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [h["step"] for h in history]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, key in zip(axes, ("value", "policy")):
        ax.plot(steps, [h[f"train_{key}"] for h in history], label="train", marker=".")
        vs = [(h["step"], h[f"val_{key}"]) for h in history if h.get(f"val_{key}") is not None]
        if vs:
            ax.plot([s for s, _ in vs], [v for _, v in vs], label="validation", marker=".")
        ax.set_xlabel("step")
        ax.set_ylabel(f"{key} loss (cross-entropy)")
        ax.set_title(f"{key} head")
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


@torch.no_grad()
def validate(model, ps, idx, batch, device):
    if len(idx) == 0:
        return None, None
    model.eval()
    tv = tp = 0.0
    for s in range(0, len(idx), batch):
        b = idx[s : s + batch]
        boards, vt, pt = ps.batch(b)
        lv, lp, _ = losses(model, boards, vt, pt, device)
        tv += lv.item() * len(b)
        tp += lp.item() * len(b)
    model.train()
    return tv / len(idx), tp / len(idx)


def expand(patterns):
    files = []
    for p in patterns:
        hit = sorted(glob.glob(p))
        if not hit:
            raise SystemExit(f"train: no file matches {p}")
        files.extend(hit)
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True, help="record files or globs (FORMAT.md)")
    ap.add_argument("--rule", choices=sorted(RULES), default="freestyle")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--side", choices=("any", "black", "white"), default="any",
                    help="train on one side to move only (renju needs one network per side)")
    ap.add_argument("--steps", type=int, help="total optimiser steps (default: from --epochs)")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate of the dense weights")
    ap.add_argument("--lr-tables", type=float, default=1e-2, help="SparseAdam learning rate of the shape tables")
    ap.add_argument("--policy-weight", type=float, default=1.0)
    ap.add_argument("--value-mix", type=float, default=0.0,
                    help="value target = (1-m) * game result + m * search winrate")
    ap.add_argument("--val-frac", type=float, default=0.05, help="share of games held out")
    ap.add_argument("--val-max", type=int, default=4096, help="validation positions used")
    ap.add_argument("--val-every", type=int, default=200, help="steps between validation/checkpoint")
    ap.add_argument("--no-augment", action="store_true", help="no random symmetry")
    ap.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="run directory")
    ap.add_argument("--resume", action="store_true", help="continue from RUN_DIR/checkpoint.pt")
    ap.add_argument("--time-limit", type=float, default=0,
                    help="stop after this many seconds of training (then validate and save)")
    args = ap.parse_args(argv)

    if args.threads:
        torch.set_num_threads(args.threads)
    device = pick_device(args.device)
    os.makedirs(args.out, exist_ok=True)
    ck_path = os.path.join(args.out, "checkpoint.pt")
    files = expand(args.data)
    side = {"any": None, "black": 0, "white": 1}[args.side]
    ps = PositionSet.from_files(files, args.rule, args.size, side=side, value_mix=args.value_mix)
    if len(ps) == 0:
        raise SystemExit("train: no usable position")
    train_idx, val_idx = ps.split(args.val_frac, seed=args.seed)
    if len(val_idx) > args.val_max:  # a fixed random subset of the held-out positions
        val_idx = np.sort(np.random.default_rng(args.seed + 1).permutation(val_idx)[: args.val_max])
    print(f"train: {len(train_idx)} positions, validation: {len(val_idx)} positions (held-out games); device {device}")
    steps_per_epoch = max(1, -(-len(train_idx) // args.batch))
    total = args.steps if args.steps else max(1, int(round(args.epochs * steps_per_epoch)))

    if args.resume:
        ck = torch.load(ck_path, map_location="cpu", weights_only=False)
        if ck["args"]["seed"] != args.seed:
            print(f"train: resuming with the checkpoint's seed {ck['args']['seed']}")
            args.seed = ck["args"]["seed"]
        model = load_model(ck, device)
        counts = ck["counts"]
        step, history, positions_seen = ck["step"], ck["history"], ck["positions_seen"]
    else:
        model = Mix9Model(seed=args.seed).to(device)
        counts = np.zeros((2, SHAPE_NB), dtype=np.int64)
        step, history, positions_seen = 0, [], 0
    opt_dense = torch.optim.Adam(model.dense_parameters(), lr=args.lr)
    opt_sparse = torch.optim.SparseAdam(model.sparse_parameters(), lr=args.lr_tables)
    rng = np.random.default_rng(args.seed)
    if args.resume:
        opt_dense.load_state_dict(ck["opt_dense"])
        restore_sparse_state(opt_sparse, model, ck, device)
        if ck.get("rng"):
            rng.bit_generator.state = ck["rng"]
        del ck
    title = f"{os.path.basename(os.path.normpath(args.out))}: {args.rule} {args.size}x{args.size}, batch {args.batch}, {len(ps)} positions"

    order = rng.permutation(train_idx)
    cursor = 0
    acc_v = acc_p = 0.0
    acc_n = 0
    t_train = 0.0
    # usage counts of the shapes, kept on the device and copied out at each checkpoint
    counts_dev = torch.from_numpy(counts).to(device)
    t_start = time.time()
    out_of_time = False
    model.train()
    while step < total and not out_of_time:
        t0 = time.time()
        if cursor + args.batch > len(order):
            order = rng.permutation(train_idx)
            cursor = 0
        idx = order[cursor : cursor + args.batch]
        cursor += args.batch
        boards, vt, pt = ps.batch(idx, rng=rng, augment=not args.no_augment)
        lv, lp, codes = losses(model, boards, vt, pt, device)
        loss = lv + args.policy_weight * lp
        opt_dense.zero_grad(set_to_none=True)
        opt_sparse.zero_grad(set_to_none=True)
        loss.backward()
        opt_dense.step()
        opt_sparse.step()
        touched = []
        for t in range(2):
            c = codes[:, 2 * t : 2 * t + 2].reshape(-1)
            counts_dev[t] += torch.bincount(c, minlength=SHAPE_NB)
            touched.append(torch.unique(c))
        model.clip_(touched)
        step += 1
        positions_seen += len(idx)
        acc_v += lv.item()
        acc_p += lp.item()
        acc_n += 1
        t_train += time.time() - t0
        out_of_time = args.time_limit > 0 and time.time() - t_start >= args.time_limit
        if step % args.val_every == 0 or step == total or out_of_time:
            vv, vp = validate(model, ps, val_idx, args.batch, device)
            rate = acc_n * args.batch / t_train
            h = {
                "step": step,
                "positions": positions_seen,
                "train_value": acc_v / acc_n,
                "train_policy": acc_p / acc_n,
                "val_value": vv,
                "val_policy": vp,
                "positions_per_s": round(rate, 1),
            }
            history.append(h)
            with open(os.path.join(args.out, "log.jsonl"), "a") as f:
                f.write(json.dumps(h) + "\n")
            vs = f", validation value {vv:.4f} policy {vp:.4f}" if vv is not None else ""
            print(f"step {step}/{total}: train value {h['train_value']:.4f} policy {h['train_policy']:.4f}{vs}; {rate:.0f} positions/s", flush=True)
            acc_v = acc_p = 0.0
            acc_n = 0
            t_train = 0.0
            counts = counts_dev.cpu().numpy()
            save_checkpoint(ck_path, model, opt_dense, opt_sparse, counts, step, args, history, positions_seen, rng)
            plot_curve(history, os.path.join(args.out, "curve.png"), title)
    why = " (time limit)" if out_of_time and step < total else ""
    print(f"train: done at step {step}{why}; {ck_path}")


if __name__ == "__main__":
    main()
