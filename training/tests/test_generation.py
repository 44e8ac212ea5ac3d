"""generation.py: a tiny generation (self-play shards, training, export) leaves a network file
that the engine loads and that equals the trainer's integer inference, and its record."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from common import TRAINING, engine_path
from mix9_int import Mix9File
from mix9_shapes import board_from_moves


class Generation(unittest.TestCase):
    def test_tiny_generation(self):
        exe = engine_path()
        if exe is None:
            self.skipTest("pbrain-moku not built (set MOKU_ENGINE)")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "gen")
            cmd = [sys.executable, os.path.join(TRAINING, "generation.py"), "--out", out, "--engine", exe,
                   "--size", "9", "--jobs", "2", "--games", "3", "--nodes", "200:400", "--steps", "6",
                   "--batch", "32", "--device", "cpu", "--phases", "selfplay,train,export"]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            with open(os.path.join(out, "generation.json")) as f:
                rec = json.load(f)
            self.assertEqual(rec["selfplay"]["result"]["shards"], 2)
            self.assertGreater(rec["selfplay"]["result"]["bytes"], 0)
            self.assertGreater(rec["train"]["result"]["any"]["train_positions"], 0)
            for i in (1, 2):
                self.assertTrue(os.path.exists(os.path.join(out, "data", f"shard-{i}.mksp.lz4")))
            net_path = os.path.join(out, "net.bin.lz4")
            net = Mix9File.load(net_path)
            self.assertTrue(net.supports("freestyle", 9))
            moves = [(4, 4), (5, 5), (3, 5)]
            e = subprocess.run([exe, "evaluate", "--network", net_path, "--simd", "scalar"],
                               input=json.dumps({"board_size": 9, "moves": [list(m) for m in moves]}) + "\n",
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(e.returncode, 0, e.stderr)
            wld, _ = net.evaluate(board_from_moves(moves, 9))
            self.assertEqual(json.loads(e.stdout)["value_wld_x16384"], wld)
            # a second run of the self-play phase finds the shards complete and leaves them
            before = [os.path.getsize(os.path.join(out, "data", f"shard-{i}.mksp.lz4")) for i in (1, 2)]
            cmd[cmd.index("selfplay,train,export")] = "selfplay"
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            after = [os.path.getsize(os.path.join(out, "data", f"shard-{i}.mksp.lz4")) for i in (1, 2)]
            self.assertEqual(before, after)

    def test_bad_arguments(self):
        exe = engine_path() or "/bin/true"
        gen = os.path.join(TRAINING, "generation.py")
        for extra, msg in ((["--phases", "selfplay,nothing"], "unknown phase"),
                           (["--match-games", "3", "--phases", "selfplay"], "even"),
                           (["--engine", "/nonexistent/pbrain-moku"], "engine not found")):
            args = ["--engine", exe] + extra if "--engine" not in extra else extra
            p = subprocess.run([sys.executable, gen, "--out", "/nonexistent/x"] + args, capture_output=True,
                               text=True, timeout=60)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn(msg, p.stderr)


if __name__ == "__main__":
    unittest.main()
