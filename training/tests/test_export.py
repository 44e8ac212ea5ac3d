"""export.py round trip: a seeded random model -> mix9svq file -> (a) pbrain-moku evaluate equals
mix9_int bit for bit, (b) mix9_int equals the float QAT model within the stated tolerance; the
file layout; the codebook compression when a table overflows."""

import json
import os
import struct
import subprocess
import tempfile
import unittest

import lz4frame
import numpy as np
import torch

from common import engine_path
import export
import mix9_int
from mix9_int import Mix9File
from mix9_model import Mix9Model
from mix9_shapes import SHAPE_NB, board_from_moves, shape_codes


def random_positions(rng, count):
    """(size, moves) with sizes 7..20, 0..60 stones; not necessarily reachable positions."""
    out = []
    for i in range(count):
        n = 15 if i % 2 == 0 else int(rng.choice([7, 9, 12, 20]))
        k = int(rng.integers(0, min(60, n * n - 1)))
        cells = rng.choice(n * n, size=k, replace=False)
        out.append((n, [(int(c % n), int(c // n)) for c in cells]))
    return out


class ExportRoundTrip(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.tmp = tempfile.TemporaryDirectory()
        rng = np.random.default_rng(7)
        cls.positions = random_positions(rng, 24)
        cls.boards = [board_from_moves(m, n) for n, m in cls.positions]
        counts = np.zeros((2, SHAPE_NB), dtype=np.int64)
        for b in cls.boards:
            c = shape_codes(b)
            for d in range(4):
                np.add.at(counts[d // 2], c[d].ravel(), 1)
        cls.model = Mix9Model(seed=5)
        cls.path = os.path.join(cls.tmp.name, "rt.bin.lz4")
        cls.stats = export.export_model(cls.model, counts, cls.path, 1, export.size_mask("5-22"), "round trip test")
        cls.net = Mix9File.load(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_file_layout(self):
        with open(self.path, "rb") as f:
            data = f.read()
        self.assertEqual(data[:4], bytes([0x04, 0x22, 0x4D, 0x18]))
        raw = lz4frame.decompress(data)
        magic, arch, rules, sizes, dlen = struct.unpack_from("<5I", raw)
        self.assertEqual((magic, arch, rules), (0xACD8CC6A, 0x84E275F6, 1))
        self.assertEqual(sizes, sum(1 << (s - 1) for s in range(5, 23)))
        self.assertEqual(raw[20 : 20 + dlen].decode(), "round trip test")
        self.assertEqual(len(raw) - 20 - dlen, 12409180)
        self.assertEqual(raw[-44:], bytes(44))
        for t in range(2):  # the seen shapes of these positions fit: exact, nothing clustered
            self.assertEqual(self.stats[f"table{t}"]["clustered_shapes"], 0)

    def test_engine_equals_mix9_int(self):
        exe = engine_path()
        if exe is None:
            self.skipTest("pbrain-moku not built (set MOKU_ENGINE)")
        lines = "".join(json.dumps({"board_size": n, "moves": [list(m) for m in mv]}) + "\n" for n, mv in self.positions)
        # the scalar kernel sums the policy in the reference (AVX2) order on every machine
        p = subprocess.run([exe, "evaluate", "--network", self.path, "--simd", "scalar"], input=lines,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        out = [json.loads(line) for line in p.stdout.splitlines()]
        self.assertEqual(len(out), len(self.positions))
        for i, (o, b) in enumerate(zip(out, self.boards)):
            wld, pol = self.net.evaluate(b)
            self.assertEqual(o["value_wld_x16384"], wld, f"position {i}")
            self.assertEqual(len(o["policy"]), int((b == 0).sum()))
            for x, y, h in o["policy"]:
                self.assertEqual(np.float32(float.fromhex(h)), pol[y, x], f"position {i} cell {x},{y}")

    def test_mix9_int_close_to_float_model(self):
        """Tolerance: value logits within 2/16384 (in practice equal), policy logits within
        1e-4 * max(1, |logit|) (float32 summation order)."""
        spread = []
        for i, b in enumerate(self.boards):
            with torch.no_grad():
                v, p = self.model(torch.from_numpy(shape_codes(b[None])))
            wld, pol = self.net.evaluate(b)
            np.testing.assert_allclose(np.array(wld) / 16384, v[0].numpy().astype(np.float64), rtol=0, atol=2 / 16384,
                                       err_msg=f"position {i}")
            e = b == 0
            fp = p[0].numpy()[e]
            np.testing.assert_allclose(pol[e], fp, rtol=1e-4, atol=1e-4, err_msg=f"position {i}")
            spread.append(float(np.ptp(fp)) if fp.size else 0.0)
            spread.append(float(np.ptp(wld)))
        self.assertGreater(max(spread), 0.01)  # not a degenerate all-equal network

    def test_clustering_when_a_table_overflows(self):
        rng = np.random.default_rng(1)
        q = np.zeros((SHAPE_NB, 64), dtype=np.int16)
        used = rng.choice(SHAPE_NB, size=600, replace=False)
        q[used] = rng.integers(-512, 512, size=(600, 64))
        counts = np.zeros(SHAPE_NB, dtype=np.int64)
        counts[used] = rng.integers(1, 1000, size=600)
        counts[used[:5]] = 10**6  # the five most used rows must stay exact
        cb, mp, st = export.compress_table(q, counts, clusters=32, rows_total=128, log=lambda *_: None)
        self.assertEqual(cb.shape, (128, 64))
        self.assertEqual(st["distinct"], 600)
        self.assertGreater(st["clustered_shapes"], 0)
        self.assertTrue((mp < 128).all())
        for s in used[:5]:
            np.testing.assert_array_equal(cb[mp[s]], q[s])
        unseen = np.setdiff1d(np.arange(SHAPE_NB), used)
        self.assertTrue((mp[unseen] == 0).all())
        self.assertFalse(cb[0].any())
        # each clustered shape maps to its nearest centroid (up to the rounding of the
        # centroids to integers: at most 0.5 per coordinate)
        cent = cb[128 - 32 :].astype(np.float64)
        rare = [s for s in used if mp[s] >= 128 - 32]
        self.assertGreater(len(rare), 100)
        for s in rare[:50]:
            dist = ((cent - q[s]) ** 2).sum(1)
            d_assigned = np.sqrt(dist[mp[s] - (128 - 32)])
            self.assertLessEqual(d_assigned, np.sqrt(dist.min()) + 2 * 0.5 * np.sqrt(64) + 1e-9)

    def test_written_file_reads_back(self):
        with open(self.path, "rb") as f:
            header, w = mix9_int.read_payload(lz4frame.decompress(f.read()))
        self.assertEqual(header["description"], "round trip test")
        dense = self.model.dense_int_weights()
        for k, v in dense.items():
            np.testing.assert_array_equal(w[k], v, err_msg=k)


if __name__ == "__main__":
    unittest.main()
