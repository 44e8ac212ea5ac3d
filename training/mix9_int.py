"""The trainer's own integer inference of a mix9svq file, written from mix9svq.md (numpy).

    net = Mix9File.load("net.bin.lz4")
    wld, policy = net.evaluate(board)   # board: digits [N, N] for the side to move
    # wld: the three value-head int32 (win, loss, draw at scale 16384)
    # policy: float32 [N, N], the logit of every empty cell (nan on stones), summed in the
    #         reference's AVX2 order, so equal bit for bit to the reference outputs.

Also `read_payload` / `write_file` (the exporter uses them) and the format constants.
"""

import struct

import lz4frame
import numpy as np

from mix9_shapes import SHAPE_NB, shape_codes

MAGIC = 0xACD8CC6A
ARCH_HASH = 0x84E275F6
PAYLOAD_BYTES = 12409180
CODEBOOK_ROWS = 65536
F, D, PM = 64, 32, 16
RULE_BITS = {"freestyle": 1, "standard": 2, "renju": 4}

# (name, dtype, shape) in payload order after the two codebooks (10-bit packed, handled apart).
_STAR = [
    ("up1_w", np.int8, (128, 64)),
    ("up1_b", np.int32, (128,)),
    ("up2_w", np.int8, (128, 64)),
    ("up2_b", np.int32, (128,)),
    ("down_w", np.int8, (64, 64)),
    ("down_b", np.int32, (64,)),
]
STAR_NAMES = ("corner", "edge", "center", "quad")
LAYOUT = (
    [
        ("map0", np.uint16, (SHAPE_NB,)),
        ("map1", np.uint16, (SHAPE_NB,)),
        ("dw_w", np.int16, (9, 32)),
        ("dw_b", np.int16, (32,)),
        ("pl1_w", np.int8, (64, 64)),
        ("pl1_b", np.int32, (64,)),
        ("pl2_w", np.int8, (528, 64)),
        ("pl2_b", np.int32, (528,)),
    ]
    + [(f"star_{s}_{n}", t, sh) for s in STAR_NAMES for (n, t, sh) in _STAR]
    + [
        ("vl1_w", np.int8, (64, 320)),
        ("vl1_b", np.int32, (64,)),
        ("vl2_w", np.int8, (64, 64)),
        ("vl2_b", np.int32, (64,)),
        ("vl3_w", np.int8, (4, 64)),
        ("vl3_b", np.int32, (4,)),
        ("pout_w", np.float32, (16,)),
        ("pout_b", np.float32, (1,)),
    ]
)
CODEBOOK_BYTES = CODEBOOK_ROWS * 64 * 10 // 8
PADDING = 44


def unpack10(buf):
    """Signed 10-bit values of one LSB-first bit stream -> int16 [rows, 64]."""
    b = np.frombuffer(buf, dtype=np.uint8).astype(np.uint16).reshape(-1, 5)
    # 5 bytes hold 4 values: 40 bits
    v = np.empty((b.shape[0], 4), dtype=np.int32)
    v[:, 0] = b[:, 0] | ((b[:, 1] & 0x03) << 8)
    v[:, 1] = (b[:, 1] >> 2) | ((b[:, 2] & 0x0F) << 6)
    v[:, 2] = (b[:, 2] >> 4) | ((b[:, 3] & 0x3F) << 4)
    v[:, 3] = (b[:, 3] >> 6) | (b[:, 4] << 2)
    v = np.where(v >= 512, v - 1024, v)
    return v.reshape(-1, 64).astype(np.int16)


def pack10(values):
    """int [rows, 64] in -512..511 -> bytes (LSB-first 10-bit stream)."""
    v = np.asarray(values, dtype=np.int64).reshape(-1, 4)
    if v.min() < -512 or v.max() > 511:
        raise ValueError("codebook value outside the 10-bit range")
    u = (v & 0x3FF).astype(np.uint64)
    word = u[:, 0] | (u[:, 1] << 10) | (u[:, 2] << 20) | (u[:, 3] << 30)  # 40 bits
    out = np.empty((v.shape[0], 5), dtype=np.uint8)
    for i in range(5):
        out[:, i] = ((word >> np.uint64(8 * i)) & np.uint64(0xFF)).astype(np.uint8)
    return out.tobytes()


def read_payload(raw):
    """Parses the decompressed file: returns (header dict, weights dict of numpy arrays)."""
    if len(raw) < 20:
        raise ValueError("file too short for the header")
    magic, arch, rules, sizes, dlen = struct.unpack_from("<5I", raw, 0)
    if magic != MAGIC:
        raise ValueError(f"bad magic {magic:#x}")
    if arch != ARCH_HASH:
        raise ValueError(f"bad arch hash {arch:#x}")
    off = 20 + dlen
    if len(raw) != off + PAYLOAD_BYTES:
        raise ValueError(f"payload is {len(raw) - off} bytes, expected {PAYLOAD_BYTES}")
    header = {
        "rule_mask": rules,
        "size_mask": sizes,
        "description": raw[20:off].decode("utf-8"),
    }
    w = {}
    w["cb0"] = unpack10(raw[off : off + CODEBOOK_BYTES])
    off += CODEBOOK_BYTES
    w["cb1"] = unpack10(raw[off : off + CODEBOOK_BYTES])
    off += CODEBOOK_BYTES
    for name, dt, shape in LAYOUT:
        nbytes = int(np.prod(shape)) * np.dtype(dt).itemsize
        w[name] = np.frombuffer(raw, dtype=np.dtype(dt).newbyteorder("<"), count=int(np.prod(shape)), offset=off).reshape(shape).astype(dt)
        off += nbytes
    assert off + PADDING == len(raw)
    return header, w


def build_file(header, w):
    """The decompressed bytes of a mix9svq file from a header dict and weights dict."""
    desc = header["description"].encode("utf-8")
    parts = [struct.pack("<5I", MAGIC, ARCH_HASH, header["rule_mask"], header["size_mask"], len(desc)), desc]
    parts.append(pack10(w["cb0"]))
    parts.append(pack10(w["cb1"]))
    for name, dt, shape in LAYOUT:
        a = np.asarray(w[name])
        if a.shape != shape:
            raise ValueError(f"{name}: shape {a.shape}, expected {shape}")
        if np.issubdtype(dt, np.integer):
            info = np.iinfo(dt)
            if a.min() < info.min or a.max() > info.max:
                raise ValueError(f"{name}: value outside {dt.__name__}")
        parts.append(a.astype(np.dtype(dt).newbyteorder("<")).tobytes())
    parts.append(bytes(PADDING))
    raw = b"".join(parts)
    assert len(raw) == 20 + len(desc) + PAYLOAD_BYTES
    return raw


def write_file(path, header, w):
    raw = build_file(header, w)
    with open(path, "wb") as f:
        f.write(lz4frame.compress(raw, compression_level=0))
    return len(raw)


# ---------------------------------------------------------------- integer arithmetic helpers
def wrap32(x):
    return ((np.asarray(x, dtype=np.int64) + 2**31) % 2**32 - 2**31).astype(np.int64)


def wrap16(x):
    return ((np.asarray(x, dtype=np.int64) + 2**15) % 2**16 - 2**15).astype(np.int64)


def sat16(x):
    return np.clip(x, -32768, 32767)


def crelu(x, s=7):
    return np.clip(sat16(x) >> s, 0, 127)


def screlu(x, s=7):  # the signed form
    return np.clip(sat16(x) >> s, -128, 127)


def linear(wt, b, x):
    return wrap32(wt.astype(np.int64) @ np.asarray(x, dtype=np.int64) + b.astype(np.int64))


def group_index(n):
    s1 = n // 3 + (n % 3 == 2)
    s2 = 2 * (n // 3) + (n % 3 > 0)
    return np.array([0 if i < s1 else (1 if i < s2 else 2) for i in range(n)])


def _fl32_of_sum(a, b):
    """float32(a + b) rounded once, for float64 a and b whose sum may not be exact in float64
    (emulates an FMA: TwoSum gives the exact error, which breaks float32 ties)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)  # s + e == a + b exactly
    f = s.astype(np.float32)
    f64 = f.astype(np.float64)
    # the neighbour of f on the side of s
    up = np.nextafter(f, np.float32(np.inf)).astype(np.float64)
    dn = np.nextafter(f, np.float32(-np.inf)).astype(np.float64)
    other = np.where(s > f64, up, dn)
    mid = (f64 + other) / 2  # exact in float64
    tie = (s == mid) & (e != 0) & (s != f64)
    # s lies exactly half-way: the exact sum lies on the side of e
    towards_other = np.sign(e) == np.sign(other - f64)
    fix = tie & towards_other
    f = np.where(fix, other.astype(np.float32), f)
    return f


class Mix9File:
    def __init__(self, header, w):
        self.header = header
        self.w = w

    @classmethod
    def load(cls, path):
        with open(path, "rb") as f:
            raw = lz4frame.decompress(f.read())
        return cls(*read_payload(raw))

    def supports(self, rule, n):
        return bool(self.header["rule_mask"] & RULE_BITS[rule]) and bool(self.header["size_mask"] >> (n - 1) & 1)

    # -------------------------------------------------------------- the forward pass
    def features(self, board):
        """mapSum int64 [N, N, 64] (values of int16), conv int64 [N, N, 32] (int16 wrapped)."""
        w = self.w
        n = board.shape[0]
        codes = shape_codes(board)  # [4, n, n]
        ms = np.zeros((n, n, 64), dtype=np.int64)
        for d in range(4):
            rows = w[f"map{d // 2}"][codes[d]]
            ms += w[f"cb{d // 2}"][rows].astype(np.int64)
        ms = wrap16(ms)
        f = np.maximum(ms, 0)
        fp = np.zeros((n + 2, n + 2, 32), dtype=np.int64)
        fp[1:-1, 1:-1] = 4 * f[:, :, :32]
        conv = np.broadcast_to(w["dw_b"].astype(np.int64), (n, n, 32)).copy()
        for ky in range(3):
            for kx in range(3):
                src = fp[ky : ky + n, kx : kx + n]  # s = t + (kx-1, ky-1)
                conv += (w["dw_w"][ky * 3 + kx].astype(np.int64) * src) >> 16
        conv = wrap16(conv)
        return ms, conv

    def star(self, name, x):
        w = self.w
        p = f"star_{name}_"
        a = crelu(linear(w[p + "up1_w"], w[p + "up1_b"], x))
        b = screlu(linear(w[p + "up2_w"], w[p + "up2_b"], x))
        prod = a[0::2] * b[0::2] + a[1::2] * b[1::2]
        pp = np.clip(prod >> 7, -128, 127)
        return crelu(linear(w[p + "down_w"], w[p + "down_b"], pp))

    def evaluate(self, board):
        w = self.w
        board = np.asarray(board)
        n = board.shape[0]
        ms, conv = self.features(board)
        f = np.maximum(ms, 0)
        v = np.concatenate([np.maximum(conv, 0), f[:, :, 32:]], axis=2)  # [n, n, 64]
        glob = v.sum(axis=(0, 1))
        gi = group_index(n)
        group = np.zeros((3, 3, 64), dtype=np.int64)
        for i in range(3):
            for j in range(3):
                group[i, j] = v[gi == i][:, gi == j].sum(axis=(0, 1))  # rows y, columns x
        layer0 = np.minimum(sat16(glob) >> 8, 127)
        g0 = np.minimum(sat16(group) >> 5, 127)
        kind = {(0, 0): "corner", (0, 2): "corner", (2, 0): "corner", (2, 2): "corner", (1, 1): "center"}
        g1 = {}
        for i in range(3):
            for j in range(3):
                g1[i, j] = self.star(kind.get((i, j), "edge"), g0[i, j])

        def avg(a, b):
            return (a + b + 1) >> 1

        def quad(i, j):
            return avg(avg(g1[i, j], g1[i, j + 1]), avg(g1[i + 1, j], g1[i + 1, j + 1]))

        l0 = np.concatenate([layer0] + [self.star("quad", quad(i, j)) for (i, j) in ((0, 0), (0, 1), (1, 0), (1, 1))])
        l1 = crelu(linear(w["vl1_w"], w["vl1_b"], l0))
        l2 = crelu(linear(w["vl2_w"], w["vl2_b"], l1))
        o = linear(w["vl3_w"], w["vl3_b"], l2)
        wld = [int(o[0]), int(o[1]), int(o[2])]

        h1 = crelu(linear(w["pl1_w"], w["pl1_b"], layer0))
        h2 = linear(w["pl2_w"], w["pl2_b"], h1)
        wd = sat16(h2[:512]).reshape(16, 32)
        bd = wrap32(h2[512:] << 7)
        r = np.maximum(conv, 0).reshape(n * n, 32)
        acc = wrap32(r @ wd.T + bd)  # [cells, 16]
        rr = np.maximum(acc, 0).astype(np.float32)
        pw = w["pout_w"].astype(np.float32)
        pb = np.float32(w["pout_b"][0])
        # AVX2 order: lane_i = fma(r[i+8], pw[i+8], r[i]*pw[i]); s_i = lane_i + lane_{i+4};
        # logit = ((s0 + s1) + (s2 + s3)) + pb
        lo = (rr[:, :8] * pw[:8]).astype(np.float32)  # rounded products
        hi = rr[:, 8:].astype(np.float64) * pw[8:].astype(np.float64)  # exact in float64
        lane = _fl32_of_sum(hi, lo.astype(np.float64))
        s = (lane[:, :4] + lane[:, 4:]).astype(np.float32)
        logit = ((s[:, 0] + s[:, 1]) + (s[:, 2] + s[:, 3])) + pb
        logit = logit.astype(np.float32).reshape(n, n)
        logit = np.where(board == 0, logit, np.float32(np.nan))
        return wld, logit
