"""The mix9svq network as a float PyTorch model, trained quantisation-aware.

Every float quantity is the engine's integer divided by its scale (mix9svq.md, "Training-side
scales"), and every rounding, shift and clamp of the integer inference (steps 3-10) is
reproduced with a straight-through estimator (forward: the exact rounding; backward: identity),
so the exported integers compute what the model computed in training:

    codebook      int10 / 32      mapSum f = relu(sum of 4 rows)  (scale 32)
    dwconv w      int16 / 65536   (clip +-0.5)   term = floor(128 w f) / 128, bias int16 / 128
    conv          scale 128       value feature v = [relu(conv) (scale 128), f[32:] (scale 32)]
    layer0        min(floor(sum v * c) , 127) / 128, c = 1/2 (ch < 32), 1/8 (ch >= 32)  (>> 8)
    group g0      min(floor(sum v * c'), 127) / 128, c' = 4, 1                          (>> 5)
    linear        W int8 / 128, b int32 / 16384, output at 16384; crelu = floor(128 y)/128
                  clamped to [0, 127/128] (signed form [-1, 127/128])
    value logits  the last linear's output (int / 16384)
    policy        Wd = clamp(h2, -2, 32767/16384); acc = h2b + Wd . relu(conv) (int / 2^21);
                  logit = sum relu(acc) * pout_w + pout_b; the file stores pout_w / 128^3.

The line-shape features are two embedding tables (442,503 shapes x 64; table 0 for directions
0 and 1, table 1 for 2 and 3) with sparse gradients; export.py compresses them into the
65,536-row codebooks.
"""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F_

from mix9_shapes import SHAPE_NB

CB_MIN, CB_MAX = -512 / 32, 511 / 32


class _RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, g):
        return g


class _FloorSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.floor(x)

    @staticmethod
    def backward(ctx, g):
        return g


def round_ste(x):
    """round() forward, identity gradient."""
    return _RoundSTE.apply(x)


def floor_ste(x):
    """floor() forward, identity gradient."""
    return _FloorSTE.apply(x)


def clamp_ste(x, lo, hi):
    """Clamps the value, passes the gradient through (weights: they are clipped after a step)."""
    return x + (torch.clamp(x, lo, hi) - x).detach()


def crelu(y, signed=False):
    """crelu(x, 7) of a linear output y (float at scale 16384 -> activation at scale 128)."""
    q = floor_ste(y * 128) / 128
    return torch.clamp(q, -1.0 if signed else 0.0, 127 / 128)


def q_linear_weight(w):
    return clamp_ste(round_ste(w * 128), -128, 127) / 128


def q_bias(b):
    return round_ste(b * 16384) / 16384


class QLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_out, n_in))
        self.bias = nn.Parameter(torch.zeros(n_out))
        bound = np.sqrt(6.0 / n_in)  # Kaiming uniform for relu, within the int8 range
        nn.init.uniform_(self.weight, -min(bound, 1.0), min(bound, 1.0))

    def forward(self, x):
        return F_.linear(x, q_linear_weight(self.weight), q_bias(self.bias))

    @torch.no_grad()
    def clip_(self):
        self.weight.clamp_(-128 / 128, 127 / 128)
        self.bias.clamp_(-(2**31) / 16384, (2**31 - 1) / 16384)

    def int_weights(self):
        w = torch.clamp(torch.round(self.weight * 128), -128, 127)
        b = torch.round(self.bias * 16384)
        return w.detach().cpu().numpy().astype(np.int8), b.detach().cpu().numpy().astype(np.int32)


class Star(nn.Module):
    """x (64) -> a = crelu(up1 x), b = signed crelu(up2 x), p = pairwise a.b, crelu(down p)."""

    def __init__(self):
        super().__init__()
        self.up1 = QLinear(64, 128)
        self.up2 = QLinear(64, 128)
        self.down = QLinear(64, 64)

    def forward(self, x):
        a = crelu(self.up1(x))
        b = crelu(self.up2(x), signed=True)
        ab = a * b
        p = ab[..., 0::2] + ab[..., 1::2]
        p = torch.clamp(floor_ste(p * 128) / 128, -1.0, 127 / 128)
        return crelu(self.down(p))


def avg(a, b):
    """(a + b + 1) >> 1 on activations at scale 128."""
    return floor_ste((a * 128 + b * 128 + 1) / 2) / 128


STAR_KINDS = {(0, 0): "corner", (0, 2): "corner", (2, 0): "corner", (2, 2): "corner", (1, 1): "center"}


def group_matrix(n, device):
    """[3, n] one-hot of the 3x3 group split (mix9svq.md step 5)."""
    s1 = n // 3 + (n % 3 == 2)
    s2 = 2 * (n // 3) + (n % 3 > 0)
    idx = torch.tensor([0 if i < s1 else (1 if i < s2 else 2) for i in range(n)], device=device)
    return F_.one_hot(idx, 3).T.float()


class Mix9Model(nn.Module):
    def __init__(self, seed=None):
        super().__init__()
        gen = torch.Generator().manual_seed(seed) if seed is not None else None
        # initial rows uniform in -1..2 (most mapSums > 0)
        self.tables = nn.ModuleList(
            [nn.Embedding(SHAPE_NB, 64, sparse=True, _weight=torch.rand(SHAPE_NB, 64, generator=gen).mul_(3).sub_(1)) for _ in range(2)]
        )
        self.dw_w = nn.Parameter((torch.rand(9, 32, generator=gen) * 2 - 1) / 3)
        self.dw_b = nn.Parameter(torch.zeros(32))
        self.pl1 = QLinear(64, 64)
        self.pl2 = QLinear(64, 528)
        self.stars = nn.ModuleDict({k: Star() for k in ("corner", "edge", "center", "quad")})
        self.vl1 = QLinear(320, 64)
        self.vl2 = QLinear(64, 64)
        self.vl3 = QLinear(64, 4)
        self.pout_w = nn.Parameter(torch.randn(16, generator=gen) * 0.1)
        self.pout_b = nn.Parameter(torch.zeros(1))
        if gen is not None:  # reproducible dense weights too
            with torch.no_grad():
                for m in self.modules():
                    if isinstance(m, QLinear):
                        bound = min(np.sqrt(6.0 / m.weight.shape[1]), 1.0)
                        m.weight.copy_((torch.rand(m.weight.shape, generator=gen) * 2 - 1) * bound)

    def dense_parameters(self):
        return [p for n, p in self.named_parameters() if not n.startswith("tables.")]

    def sparse_parameters(self):
        return [t.weight for t in self.tables]

    @torch.no_grad()
    def clip_(self, touched=None):
        """Clips every weight to its integer range; the tables only on the rows in `touched`
        (a pair of index tensors) when given."""
        for m in self.modules():
            if isinstance(m, QLinear):
                m.clip_()
        self.dw_w.clamp_(-32768 / 65536, 32767 / 65536)
        self.dw_b.clamp_(-32768 / 128, 32767 / 128)
        for i, t in enumerate(self.tables):
            if touched is None:
                t.weight.clamp_(CB_MIN, CB_MAX)
            else:
                rows = touched[i]
                t.weight.index_copy_(0, rows, t.weight.index_select(0, rows).clamp_(CB_MIN, CB_MAX))

    def features(self, codes):
        """codes [B, 4, N, N] -> mapSum f (relu'd) [B, N, N, 64], conv [B, 32, N, N]."""
        ms = 0
        for t in range(2):
            # quantise each distinct row once, then spread it over the cells
            uniq, inv = torch.unique(codes[:, 2 * t : 2 * t + 2], return_inverse=True)
            rows = self.tables[t](uniq)  # [U, 64], sparse gradient
            q = clamp_ste(round_ste(rows * 32), -512, 511) / 32
            ms = ms + q[inv[:, 0]] + q[inv[:, 1]]  # [B, N, N, 64]
        f = torch.relu(ms)
        n = codes.shape[-1]
        x = f[..., :32].permute(0, 3, 1, 2)  # [B, 32, N, N]
        w = clamp_ste(round_ste(self.dw_w * 65536), -32768, 32767) / 65536
        b = clamp_ste(round_ste(self.dw_b * 128), -32768, 32767) / 128
        # gradient: the float depthwise conv; value: the engine's sum of floored terms
        kernel = w.T.reshape(32, 1, 3, 3)  # [ch, 1, ky, kx]
        conv = F_.conv2d(x, kernel, padding=1, groups=32)
        with torch.no_grad():  # float64: the products need up to 27 bits
            xp = F_.pad(x.double(), (1, 1, 1, 1))
            w128 = w.double() * 128
            exact = 0
            for ky in range(3):
                for kx in range(3):
                    term = xp[:, :, ky : ky + n, kx : kx + n] * w128[ky * 3 + kx].view(1, 32, 1, 1)
                    exact = exact + torch.floor(term)
            exact = (exact / 128).float()
        conv = conv + (exact - conv).detach()
        return f, conv + b.view(1, 32, 1, 1)

    def forward(self, codes):
        """codes [B, 4, N, N] (long) -> value logits [B, 3] (win, loss, draw), policy [B, N, N]."""
        n = codes.shape[-1]
        f, conv = self.features(codes)
        rc = torch.relu(conv)  # [B, 32, N, N]
        v = torch.cat([rc, f[..., 32:].permute(0, 3, 1, 2)], dim=1)  # [B, 64, N, N]
        dev = codes.device
        c_glob = torch.cat([torch.full((32,), 0.5, device=dev), torch.full((32,), 1 / 8, device=dev)])
        c_grp = torch.cat([torch.full((32,), 4.0, device=dev), torch.full((32,), 1.0, device=dev)])
        glob = v.sum(dim=(2, 3))  # [B, 64]
        layer0 = torch.clamp(floor_ste(glob * c_glob) / 128, max=127 / 128)
        gm = group_matrix(n, dev)
        grp = torch.matmul(torch.matmul(gm, v), gm.T).permute(0, 2, 3, 1)  # [B, 3, 3, 64]
        g0 = torch.clamp(floor_ste(grp * c_grp) / 128, max=127 / 128)
        # the 3x3 groups through their star blocks, one batched call per kind
        cells = {"corner": ((0, 0), (0, 2), (2, 0), (2, 2)), "edge": ((0, 1), (1, 0), (1, 2), (2, 1)), "center": ((1, 1),)}
        g1 = {}
        for kind, ij in cells.items():
            x = torch.stack([g0[:, i, j] for i, j in ij])  # [k, B, 64]
            y = self.stars[kind](x)
            for k, (i, j) in enumerate(ij):
                g1[i, j] = y[k]
        q = torch.stack(
            [avg(avg(g1[i, j], g1[i, j + 1]), avg(g1[i + 1, j], g1[i + 1, j + 1])) for (i, j) in ((0, 0), (0, 1), (1, 0), (1, 1))]
        )
        quads = list(self.stars["quad"](q))  # 4 x [B, 64]
        l0 = torch.cat([layer0] + quads, dim=1)
        l1 = crelu(self.vl1(l0))
        l2 = crelu(self.vl2(l1))
        value = self.vl3(l2)[:, :3]

        h1 = crelu(self.pl1(layer0))
        h2 = self.pl2(h1)  # [B, 528] at scale 16384
        wd = torch.clamp(h2[:, :512], -2.0, 32767 / 16384).view(-1, 16, 32)
        bd = h2[:, 512:]  # (h2 << 7) at scale 2^21 is h2 at scale 16384
        acc = torch.einsum("boc,bcyx->boyx", wd, rc) + bd.view(-1, 16, 1, 1)
        r = torch.relu(acc)
        policy = torch.einsum("boyx,o->byx", r, self.pout_w) + self.pout_b
        return value, policy

    # ------------------------------------------------------------------ export helpers
    @torch.no_grad()
    def table_int(self, t):
        """int16 [SHAPE_NB, 64] of table t at scale 32 (the values the forward pass used)."""
        w = torch.clamp(torch.round(self.tables[t].weight * 32), -512, 511)
        return w.cpu().numpy().astype(np.int16)

    @torch.no_grad()
    def dense_int_weights(self):
        """Every weight of the file but the codebooks and mappings, as mix9_int.LAYOUT names."""
        out = {}
        out["dw_w"] = torch.clamp(torch.round(self.dw_w * 65536), -32768, 32767).cpu().numpy().astype(np.int16)
        out["dw_b"] = torch.clamp(torch.round(self.dw_b * 128), -32768, 32767).cpu().numpy().astype(np.int16)
        for name, lin in (("pl1", self.pl1), ("pl2", self.pl2), ("vl1", self.vl1), ("vl2", self.vl2), ("vl3", self.vl3)):
            out[name + "_w"], out[name + "_b"] = lin.int_weights()
        for kind, star in self.stars.items():
            for part in ("up1", "up2", "down"):
                out[f"star_{kind}_{part}_w"], out[f"star_{kind}_{part}_b"] = getattr(star, part).int_weights()
        out["pout_w"] = (self.pout_w.detach().cpu().to(torch.float64) / 128**3).numpy().astype(np.float32)
        out["pout_b"] = self.pout_b.detach().cpu().numpy().astype(np.float32)
        return out
