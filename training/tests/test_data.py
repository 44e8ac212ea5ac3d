"""moku_data: damaged files are reported and the good part kept; invalid records skipped;
symmetries move stones and policy targets together."""

import os
import tempfile
import unittest

import numpy as np

import common  # noqa: F401  (puts training/ on sys.path)
from moku_data import PositionSet, Record, read_shard, sym_array, sym_xy, write_shard
from mix9_shapes import board_from_moves
from synth_data import synthetic_games


def game(n=15, moves=((7, 7), (8, 8), (6, 6))):
    """One game's records: every prefix of `moves` as a position, black wins."""
    cells = [y * n + x for x, y in moves]
    recs = []
    for s in range(len(cells)):
        side = s % 2
        recs.append(Record(0, n, side, 2 if side == 0 else 0, 0, 0, cells[s], cells[:s], []))
    return recs


class Reader(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "a.mksp.lz4")
        self.games = synthetic_games(6, size=9, seed=3)
        self.offsets = write_shard(self.path, self.games, games_per_frame=2)
        self.per_frame = [sum(len(g) for g in self.games[i : i + 2]) for i in range(0, 6, 2)]

    def tearDown(self):
        self.tmp.cleanup()

    def original(self):
        with open(self.path, "rb") as f:
            return f.read()

    def write(self, data):
        p = os.path.join(self.tmp.name, "b.mksp.lz4")
        with open(p, "wb") as f:
            f.write(data)
        return p

    def test_clean_file(self):
        recs, rep = read_shard(self.path)
        self.assertEqual(len(recs), sum(self.per_frame))
        self.assertEqual((rep.invalid, rep.damaged, rep.messages), (0, False, []))
        self.assertEqual(recs[3].moves, self.games[0][3].moves)

    def test_truncated_file_keeps_earlier_frames(self):
        data = self.original()
        recs, rep = read_shard(self.write(data[:-7]))
        self.assertEqual(len(recs), self.per_frame[0] + self.per_frame[1])
        self.assertTrue(rep.damaged)
        self.assertEqual(len(rep.messages), 1)
        self.assertIn("truncated", rep.messages[0])
        self.assertIn(f"byte {self.offsets[2]}", rep.messages[0])
        self.assertIn("b.mksp.lz4", rep.messages[0])

    def test_corrupt_frame_keeps_earlier_frames(self):
        data = bytearray(self.original())
        data[self.offsets[1] + 40] ^= 0x5A  # inside the second frame's data: checksum fails
        recs, rep = read_shard(self.write(bytes(data)))
        self.assertEqual(len(recs), self.per_frame[0])
        self.assertTrue(rep.damaged)
        self.assertIn("corrupt", rep.messages[0])
        self.assertIn(f"byte {self.offsets[1]}", rep.messages[0])

    def test_invalid_records_skipped_and_counted(self):
        g = game()
        bad_twice = Record(0, 15, 1, 0, 0, 0, 5, [112, 112, 3], [])  # cell played twice (and side wrong)
        bad_side = Record(0, 15, 0, 0, 0, 0, 5, [112], [])
        bad_best = Record(0, 15, 1, 0, 0, 0, 112, [112], [])  # best move on a stone
        bad_policy = Record(0, 15, 1, 0, 0, 0, 5, [112], [(112, 1)])
        bad_off = Record(0, 15, 1, 0, 0, 0, 5, [300], [])
        bad_result = Record(0, 15, 1, 3, 0, 0, 5, [112], [])
        write_shard(self.path, [g + [bad_twice, bad_side, bad_best, bad_policy, bad_off, bad_result] + g])
        recs, rep = read_shard(self.path)
        self.assertEqual(len(recs), 2 * len(g))
        self.assertEqual(rep.invalid, 6)
        self.assertFalse(rep.damaged)
        text = "\n".join(rep.messages)
        for what in ("played twice", "side to move", "best move", "policy move", "off the board", "result"):
            self.assertIn(what, text)
        ps = PositionSet(recs, 15)
        self.assertEqual(len(ps), 2 * len(g))

    def test_broken_magic_ends_the_file(self):
        data = lz4_frames_with_garbage(game())
        recs, rep = read_shard(self.write(data))
        self.assertEqual(len(recs), len(game()))
        self.assertIn("bad magic", "\n".join(rep.messages))


def lz4_frames_with_garbage(records):
    import lz4frame

    from moku_data import encode_record

    good = b"".join(encode_record(r) for r in records)
    return lz4frame.compress(good + b"\x00" * 30 + good, content_checksum=True)


class Symmetry(unittest.TestCase):
    def test_move_and_board_transforms_agree(self):
        rng = np.random.default_rng(2)
        for n in (5, 9, 15):
            for _ in range(20):
                k = int(rng.integers(0, n * n // 2))
                cells = rng.choice(n * n, size=k, replace=False)
                moves = [(int(c % n), int(c // n)) for c in cells]
                board = board_from_moves(moves, n)
                for s in range(8):
                    moved = [sym_xy(x, y, n, s) for x, y in moves]
                    np.testing.assert_array_equal(board_from_moves(moved, n), sym_array(board, s))
        # the eight symmetries are distinct on an asymmetric board
        b = np.arange(25).reshape(5, 5)
        self.assertEqual(len({sym_array(b, s).tobytes() for s in range(8)}), 8)

    def test_batch_moves_stones_and_policy_together(self):
        n = 15
        games = synthetic_games(3, size=n, seed=9)
        recs = [r for g in games for r in g]
        ps = PositionSet(recs, n)
        idx = np.arange(len(ps))
        for s in range(8):
            boards, vt, pol = ps.batch(idx, syms=np.full(len(idx), s))
            for i in range(0, len(recs), 5):
                r = recs[i]
                moves = [sym_xy(m % n, m // n, n, s) for m in r.moves]
                np.testing.assert_array_equal(boards[i], board_from_moves(moves, n))
                expect = np.zeros((n, n), dtype=np.float32)
                targets = r.policy or [(r.best, 1)]
                total = sum(w for _, w in targets)
                for m, w in targets:
                    x, y = sym_xy(m % n, m // n, n, s)
                    expect[y, x] += w / total
                np.testing.assert_allclose(pol[i], expect, rtol=1e-6)
                self.assertEqual(float(pol[i][boards[i] != 0].sum()), 0.0)  # never on a stone
                self.assertAlmostEqual(float(vt[i].sum()), 1.0, places=6)

    def test_value_targets(self):
        g = game()
        ps = PositionSet(g, 15)
        np.testing.assert_array_equal(ps.value_t[0], [1, 0, 0])  # black to move, black won
        np.testing.assert_array_equal(ps.value_t[1], [0, 1, 0])
        r = Record(0, 15, 0, 1, 0, 200, 112, [], [])
        ps = PositionSet([r], 15, value_mix=0.5)
        wr = 1 / (1 + np.exp(-1.0))
        np.testing.assert_allclose(ps.value_t[0], [0.5 * wr, 0.5 * (1 - wr), 0.5], rtol=1e-6)

    def test_split_keeps_games_whole(self):
        games = synthetic_games(20, size=9, seed=4)
        ps = PositionSet([r for g in games for r in g], 9)
        tr, va = ps.split(0.2, seed=1)
        self.assertEqual(len(tr) + len(va), len(ps))
        self.assertFalse(set(ps.game[tr]) & set(ps.game[va]))
        self.assertEqual(len(set(ps.game[va])), 4)
        self.assertEqual(len(set(ps.game)), 20)


if __name__ == "__main__":
    unittest.main()
