"""A tiny training run on synthetic records: the loss goes down, a checkpoint and a learning
curve PNG are written, --resume continues, and export.py turns the checkpoint into a file."""

import contextlib
import io
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import torch

from common import TRAINING
import train
from moku_data import PositionSet, write_shard
from mix9_int import Mix9File
from mix9_model import Mix9Model
from synth_data import synthetic_games


class TinyRun(unittest.TestCase):
    def test_train_resume_export(self):
        torch.set_num_threads(1)  # a shared 2-core machine: one thread is faster than two fighting
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "synth.mksp.lz4")
            games = synthetic_games(12, size=9, seed=2)
            write_shard(data, games)
            records = [r for g in games for r in g]
            self.assertGreater(len(records), 200)
            run = os.path.join(tmp, "run")
            args = ["--data", data, "--size", "9", "--batch", "64", "--lr", "3e-3", "--lr-tables", "3e-2",
                    "--val-every", "20", "--val-frac", "0.1", "--out", run, "--seed", "3"]
            log = io.StringIO()
            with contextlib.redirect_stdout(log):
                train.main(args + ["--steps", "40"])
            text = log.getvalue()
            self.assertIn("positions/s", text)
            self.assertIn("validation", text)
            for f in ("checkpoint.pt", "curve.png", "log.jsonl"):
                self.assertTrue(os.path.getsize(os.path.join(run, f)) > 0, f)
            with open(os.path.join(run, "curve.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

            # the loss on the training positions, before (same seed) and after
            ck = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
            self.assertEqual(ck["step"], 40)
            ps = PositionSet(records, 9)
            tr, _ = ps.split(0.1, seed=3)
            boards, vt, pt = ps.batch(tr)
            with torch.no_grad():
                before = [x.item() for x in train.losses(Mix9Model(seed=3), boards, vt, pt, "cpu")[:2]]
                after = [x.item() for x in train.losses(train.load_model(ck), boards, vt, pt, "cpu")[:2]]
            self.assertLess(after[1], before[1] - 0.3, (before, after))  # policy
            self.assertLess(after[0] + after[1], before[0] + before[1] - 0.3, (before, after))
            self.assertGreater(ck["counts"].sum(), 0)

            with contextlib.redirect_stdout(io.StringIO()):
                train.main(args + ["--steps", "45", "--resume"])
            ck2 = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
            self.assertEqual(ck2["step"], 45)
            self.assertEqual(len(ck2["history"]), len(ck["history"]) + 1)
            self.assertGreater(ck2["counts"].sum(), ck["counts"].sum())

            net = os.path.join(tmp, "net.bin.lz4")
            p = subprocess.run([sys.executable, os.path.join(TRAINING, "export.py"), os.path.join(run, "checkpoint.pt"),
                                "--out", net], capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("exact", p.stdout)
            f = Mix9File.load(net)
            self.assertTrue(f.supports("freestyle", 9))
            self.assertFalse(f.supports("freestyle", 15))
            self.assertIn("step 45", f.header["description"])
            # the exported file plays like the trained model on a training position
            model = train.load_model(ck2)
            b = boards[:1]
            from mix9_shapes import shape_codes

            with torch.no_grad():
                v, _ = model(torch.from_numpy(shape_codes(b)))
            wld, _ = f.evaluate(b[0])
            np.testing.assert_allclose(np.array(wld) / 16384, v[0].numpy(), atol=2 / 16384)


if __name__ == "__main__":
    unittest.main()
