"""The networks shipped in networks/: each is a well-formed mix9svq file for the rule and size
its README entry names, the engine loads it, and `pbrain-moku evaluate` gives exactly the
integers and policy of the trainer's own inference (mix9_int) on real positions."""

import glob
import json
import os
import subprocess
import unittest

import numpy as np

from common import ROOT, engine_path
from mix9_int import Mix9File
from mix9_shapes import board_from_moves

# file name -> (rule, board size) it must cover
SHIPPED = {"moku-fs15-v2.bin.lz4": ("freestyle", 15)}

# A few freestyle positions from the balanced openings and a longer game.
POSITIONS = [
    [],
    [(7, 7)],
    [(7, 9), (6, 10), (10, 6), (6, 9), (9, 10), (7, 6)],
    [(7, 7), (8, 8), (8, 6), (6, 8), (9, 5), (10, 4), (7, 6), (6, 5), (9, 7), (9, 6), (10, 8), (11, 9)],
]


class ShippedNetworks(unittest.TestCase):
    def test_every_file_is_listed(self):
        files = sorted(os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "networks", "*.bin.lz4")))
        self.assertEqual(files, sorted(SHIPPED))

    def test_engine_equals_mix9_int(self):
        exe = engine_path()
        if exe is None:
            self.skipTest("pbrain-moku not built (set MOKU_ENGINE)")
        for name, (rule, size) in SHIPPED.items():
            path = os.path.join(ROOT, "networks", name)
            net = Mix9File.load(path)
            self.assertTrue(net.supports(rule, size), name)
            lines = "".join(json.dumps({"board_size": size, "moves": [list(m) for m in mv]}) + "\n"
                            for mv in POSITIONS)
            p = subprocess.run([exe, "evaluate", "--network", path, "--simd", "scalar"], input=lines,
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            out = [json.loads(line) for line in p.stdout.splitlines()]
            self.assertEqual(len(out), len(POSITIONS))
            for i, (o, mv) in enumerate(zip(out, POSITIONS)):
                wld, pol = net.evaluate(board_from_moves(mv, size))
                self.assertEqual(o["value_wld_x16384"], wld, f"{name} position {i}")
                for x, y, h in o["policy"]:
                    self.assertEqual(np.float32(float.fromhex(h)), pol[y, x], f"{name} position {i} cell {x},{y}")


if __name__ == "__main__":
    unittest.main()
