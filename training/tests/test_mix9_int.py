"""mix9_int.py against the reference outputs of tests/data/mix9svq (bit for bit)."""

import json
import os
import unittest

import numpy as np

from common import DATA_DIR
from mix9_int import Mix9File, pack10, unpack10
from mix9_shapes import board_from_moves


class Mix9IntReference(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.net = Mix9File.load(os.path.join(DATA_DIR, "mix9svq", "synthetic-freestyle.bin.lz4"))
        with open(os.path.join(DATA_DIR, "mix9svq", "expected.jsonl")) as f:
            cls.cases = [json.loads(line) for line in f if line.strip()]

    def test_header(self):
        h = self.net.header
        self.assertEqual(h["rule_mask"], 1)
        self.assertEqual(h["description"], "synthetic mix9svq test weight")
        self.assertTrue(self.net.supports("freestyle", 15))
        self.assertFalse(self.net.supports("renju", 15))
        self.assertFalse(self.net.supports("freestyle", 23))

    def test_value_and_policy_bit_exact(self):
        """Value integers exact; policy logits exact in the AVX2 summation order."""
        self.assertEqual(len(self.cases), 240)
        sizes = set()
        for i, c in enumerate(self.cases):
            n = c["board_size"]
            sizes.add(n)
            wld, pol = self.net.evaluate(board_from_moves(c["moves"], n))
            self.assertEqual(wld, c["value_wld_x16384"], f"position {i}")
            self.assertEqual(len(c["policy"]), int(np.isfinite(pol).sum()), f"position {i}")
            for x, y, h in c["policy"]:
                self.assertEqual(pol[y, x], np.float32(float.fromhex(h)), f"position {i} cell {x},{y}")
        self.assertGreater(len(sizes), 5)

    def test_pack10_round_trip(self):
        rng = np.random.default_rng(5)
        v = rng.integers(-512, 512, size=(32, 64))
        v[0, :4] = [-512, 511, -1, 0]
        packed = pack10(v)
        self.assertEqual(len(packed), 32 * 64 * 10 // 8)
        np.testing.assert_array_equal(unpack10(packed), v)
        # the first value occupies the low 10 bits of the stream
        self.assertEqual(packed[0], (-512) & 0xFF)
        self.assertEqual(packed[1] & 0x3, ((-512) & 0x3FF) >> 8)
        with self.assertRaises(ValueError):
            pack10(np.full((1, 64), 512))


if __name__ == "__main__":
    unittest.main()
