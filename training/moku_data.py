"""Reader (and a small writer) of the self-play record format of training/FORMAT.md, and the
position set the trainer samples batches from.

    recs, report = read_shard("shard-1.mksp.lz4")       # list of Record, ReadReport
    ps = PositionSet.from_files(paths, rule="freestyle", size=15)
    codes, value_t, policy_t, empty = ps.batch(indices, rng=rng, augment=True)

Damaged input is never trained on silently: a truncated or corrupt frame at the end of a file
is reported (file, byte offset) and the records of the frames before it are kept; an invalid
record is reported and skipped; the counts are printed by the trainer.
"""

import dataclasses
import struct

import lz4frame
import numpy as np

MAGIC = 0x50534B4D
VERSION = 1
RULES = {"freestyle": 0, "standard": 1, "renju": 2}
HEAD = struct.Struct("<IBBBBBBhHHBB")  # 18 bytes
assert HEAD.size == 18


@dataclasses.dataclass
class Record:
    rule: int
    size: int
    side: int  # 0 black, 1 white (to move)
    result: int  # 0 loss, 1 draw, 2 win for the side to move
    flags: int
    value: int  # search value, engine scale
    best: int  # y * N + x
    moves: list  # [y * N + x, ...] black first
    policy: list  # [(move, weight), ...]; empty: best move only


def encode_record(r):
    head = HEAD.pack(MAGIC, VERSION, r.rule, r.size, r.side, r.result, r.flags, r.value, r.best, len(r.moves), len(r.policy), 0)
    body = struct.pack(f"<{len(r.moves)}H", *r.moves)
    body += b"".join(struct.pack("<HH", m, w) for m, w in r.policy)
    return head + body


def write_shard(path, games, games_per_frame=16):
    """Writes games (each a list of Record) as FORMAT.md: one LZ4 frame (content checksum on)
    per `games_per_frame` games. Returns the byte offsets where the frames start."""
    offsets = []
    with open(path, "wb") as f:
        for g in range(0, len(games), games_per_frame):
            data = b"".join(encode_record(r) for game in games[g : g + games_per_frame] for r in game)
            offsets.append(f.tell())
            f.write(lz4frame.compress(data, content_checksum=True))
    return offsets


@dataclasses.dataclass
class ReadReport:
    path: str
    records: int = 0
    invalid: int = 0
    messages: list = dataclasses.field(default_factory=list)
    damaged: bool = False

    def say(self, msg):
        self.messages.append(f"{self.path}: {msg}")


def _frames(path, data, report):
    """Yields the decompressed content of each complete, valid frame; reports the first broken
    one (truncated or corrupt) with its byte offset and stops there."""
    off = 0
    while off < len(data):
        d = lz4frame.FrameDecompressor()
        try:
            out = d.decompress(data[off:])
        except RuntimeError as e:
            report.damaged = True
            report.say(f"corrupt LZ4 frame at byte {off}: {e}; its records and any after it are not used")
            return
        if not d.eof:
            report.damaged = True
            report.say(f"truncated LZ4 frame at byte {off} (file ends at {len(data)}); its records are not used")
            return
        yield off, out
        off = len(data) - len(d.unused_data or b"")


def validate(r):
    """The reason a record is invalid (FORMAT.md, Validity), or None."""
    n = r.size
    if r.rule not in (0, 1, 2):
        return f"rule {r.rule}"
    if not 5 <= n <= 22:
        return f"board size {n}"
    if r.result > 2:
        return f"result {r.result}"
    if r.side != len(r.moves) % 2:
        return f"side to move {r.side} with {len(r.moves)} stones"
    if len(r.moves) >= n * n:
        return f"{len(r.moves)} stones on {n}x{n}"
    cells = n * n
    occupied = set()
    for m in r.moves:
        if m >= cells:
            return f"move {m} off the board"
        if m in occupied:
            return f"cell {m} played twice"
        occupied.add(m)
    if r.best >= cells or r.best in occupied:
        return f"best move {r.best} not an empty cell"
    for m, _ in r.policy:
        if m >= cells or m in occupied:
            return f"policy move {m} not an empty cell"
    return None


def parse_stream(buf, report, frame_off=0):
    """Records of one frame's decompressed bytes. A broken magic or an unknown version ends the
    file (returns (records, False))."""
    out = []
    off = 0
    while off < len(buf):
        if len(buf) - off < HEAD.size:
            report.say(f"incomplete record header at content byte {off} of the frame at file byte {frame_off}; the file ends there")
            return out, False
        magic, ver, rule, n, side, result, flags, value, best, s, k, _ = HEAD.unpack_from(buf, off)
        if magic != MAGIC or ver != VERSION:
            what = f"bad magic {magic:#x}" if magic != MAGIC else f"unknown version {ver}"
            report.say(f"{what} at content byte {off} of the frame at file byte {frame_off}; the rest of the file is not used")
            return out, False
        end = off + HEAD.size + 2 * s + 4 * k
        if end > len(buf):
            report.say(f"record at content byte {off} of the frame at file byte {frame_off} runs past its frame; the file ends there")
            return out, False
        moves = list(struct.unpack_from(f"<{s}H", buf, off + HEAD.size))
        pol = struct.unpack_from(f"<{2 * k}H", buf, off + HEAD.size + 2 * s)
        r = Record(rule, n, side, result, flags, value, best, moves, list(zip(pol[0::2], pol[1::2])))
        why = validate(r)
        if why:
            report.invalid += 1
            if report.invalid <= 10:
                report.say(f"invalid record at content byte {off} of the frame at file byte {frame_off} skipped: {why}")
        else:
            out.append(r)
        off = end
    return out, True


def read_shard(path):
    with open(path, "rb") as f:
        data = f.read()
    report = ReadReport(path)
    records = []
    for frame_off, content in _frames(path, data, report):
        recs, ok = parse_stream(content, report, frame_off)
        records.extend(recs)
        if not ok:
            report.damaged = True
            break
    report.records = len(records)
    if report.invalid > 10:
        report.say(f"{report.invalid} invalid records skipped in all")
    return records, report


# ------------------------------------------------------------------------- symmetries
def sym_xy(x, y, n, s):
    """Symmetry s (0..7) of a square board on a cell: transpose if s & 4, then mirror x if
    s & 1, then mirror y if s & 2."""
    if s & 4:
        x, y = y, x
    if s & 1:
        x = n - 1 - x
    if s & 2:
        y = n - 1 - y
    return x, y


def sym_array(a, s):
    """The same symmetry on arrays [..., N, N] indexed [y, x]."""
    if s & 4:
        a = np.swapaxes(a, -1, -2)
    if s & 1:
        a = a[..., :, ::-1]
    if s & 2:
        a = a[..., ::-1, :]
    return a


# ------------------------------------------------------------------------- position set
class PositionSet:
    """The records of one rule and board size as arrays, ready for batches."""

    def __init__(self, records, size, value_mix=0.0):
        n = size
        m = len(records)
        self.size = n
        self.boards = np.zeros((m, n, n), dtype=np.uint8)
        self.value_t = np.zeros((m, 3), dtype=np.float32)
        pol_off = np.zeros(m + 1, dtype=np.int64)
        pol_cells, pol_w = [], []
        self.game = np.zeros(m, dtype=np.int64)
        game, prev = -1, None
        for i, r in enumerate(records):
            b = self.boards[i]
            mv = np.asarray(r.moves, dtype=np.int64)
            own = mv[r.side :: 2]  # the side to move played moves r.side, r.side + 2, ...
            opp = mv[1 - r.side :: 2]
            b.flat[own] = 1
            b.flat[opp] = 2
            onehot = np.zeros(3, dtype=np.float32)
            onehot[{2: 0, 0: 1, 1: 2}[r.result]] = 1  # logits are (win, loss, draw)
            if value_mix > 0:
                wr = 1.0 / (1.0 + np.exp(-r.value / 200.0))
                onehot = (1 - value_mix) * onehot + value_mix * np.array([wr, 1 - wr, 0], dtype=np.float32)
            self.value_t[i] = onehot
            total = sum(w for _, w in r.policy)
            if r.policy and total > 0:
                for mvv, w in r.policy:
                    pol_cells.append(mvv)
                    pol_w.append(w / total)
                pol_off[i + 1] = pol_off[i] + len(r.policy)
            else:  # K = 0 (or all weights zero): the best move
                pol_cells.append(r.best)
                pol_w.append(1.0)
                pol_off[i + 1] = pol_off[i] + 1
            # a record starts a new game unless its moves extend the previous record's
            if prev is None or len(r.moves) <= len(prev) or r.moves[: len(prev)] != prev:
                game += 1
            self.game[i] = game
            prev = r.moves
        self.pol_off = pol_off
        self.pol_cell = np.asarray(pol_cells, dtype=np.int64)
        self.pol_w = np.asarray(pol_w, dtype=np.float32)

    def __len__(self):
        return len(self.boards)

    @classmethod
    def from_files(cls, paths, rule, size, side=None, value_mix=0.0, log=print):
        """Reads every file, keeps the records of `rule` and `size` (and side to move, 0 or 1,
        if given), and reports what was read and what was dropped."""
        keep = []
        total = invalid = other = 0
        for p in paths:
            recs, rep = read_shard(p)
            for msg in rep.messages:
                log(msg)
            total += rep.records
            invalid += rep.invalid
            for r in recs:
                if r.rule == RULES[rule] and r.size == size and (side is None or r.side == side):
                    keep.append(r)
                else:
                    other += 1
        log(f"data: {len(paths)} files, {total} valid records, {invalid} invalid skipped, "
            f"{other} of another rule/size/side left out, {len(keep)} used")
        return cls(keep, size, value_mix)

    def split(self, val_frac, seed=0):
        """(train indices, validation indices), whole games on either side."""
        games = np.unique(self.game)
        rng = np.random.default_rng(seed)
        nval = int(round(len(games) * val_frac))
        if val_frac > 0 and len(games) > 1:
            nval = max(1, min(nval, len(games) - 1))
        val_games = rng.permutation(games)[:nval]
        is_val = np.isin(self.game, val_games)
        return np.nonzero(~is_val)[0], np.nonzero(is_val)[0]

    def policy_dense(self, idx):
        n = self.size
        out = np.zeros((len(idx), n * n), dtype=np.float32)
        for j, i in enumerate(idx):
            a, b = self.pol_off[i], self.pol_off[i + 1]
            out[j, self.pol_cell[a:b]] += self.pol_w[a:b]
        return out.reshape(len(idx), n, n)

    def batch(self, idx, rng=None, augment=False, syms=None):
        """numpy (boards [B,N,N] uint8, value target [B,3], policy target [B,N,N]) with a random
        symmetry per position when augment (or the symmetries `syms`, one per position)."""
        idx = np.asarray(idx)
        boards = self.boards[idx].copy()
        pol = self.policy_dense(idx)
        if augment or syms is not None:
            if syms is None:
                syms = rng.integers(0, 8, size=len(idx))
            syms = np.asarray(syms)
            for s in range(1, 8):
                sel = syms == s
                if sel.any():
                    boards[sel] = sym_array(boards[sel], s)
                    pol[sel] = sym_array(pol[sel], s)
        return boards, self.value_t[idx], pol

