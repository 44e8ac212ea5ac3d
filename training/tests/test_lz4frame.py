"""lz4frame: the ctypes form over liblz4 behaves as python-lz4 does on the calls the trainer makes
(frames both ways, concatenated frames, a truncated frame, a corrupt one), and the reader's and
the integer inference's tests pass with it."""

import importlib.util
import os
import subprocess
import sys
import unittest

import numpy as np

import common

PATH = os.path.join(common.TRAINING, "lz4frame.py")


def load(backend):
    """A fresh copy of lz4frame with MOKU_LZ4 set to `backend` while it is imported."""
    old = os.environ.get("MOKU_LZ4")
    os.environ["MOKU_LZ4"] = backend
    try:
        spec = importlib.util.spec_from_file_location(f"lz4frame_{backend}", PATH)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        if old is None:
            del os.environ["MOKU_LZ4"]
        else:
            os.environ["MOKU_LZ4"] = old


class CtypesForm(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = load("ctypes")
        cls.p = load("python-lz4")
        if cls.p.BACKEND != "python-lz4":
            raise unittest.SkipTest("python-lz4 is not installed: nothing to compare the ctypes form with")
        rng = np.random.default_rng(4)
        # compressible and incompressible parts, more than the ctypes form's 1 MiB buffer
        cls.payloads = [b"", b"x", bytes(rng.integers(0, 4, 3_000_000, dtype=np.uint8)),
                        bytes(rng.integers(0, 256, 70_000, dtype=np.uint8))]

    def test_backend(self):
        self.assertEqual(self.c.BACKEND, "ctypes")

    def test_frames_both_ways(self):
        for data in self.payloads:
            for checksum in (False, True):
                self.assertEqual(self.p.decompress(self.c.compress(data, content_checksum=checksum)), data)
                self.assertEqual(self.c.decompress(self.p.compress(data, content_checksum=checksum)), data)

    def test_concatenated_frames_and_unused_data(self):
        a, b = self.payloads[2], self.payloads[3]
        stream = self.p.compress(a, content_checksum=True) + self.p.compress(b, content_checksum=True)
        for mod in (self.c, self.p):
            d = mod.FrameDecompressor()
            self.assertEqual(d.decompress(stream), a)
            self.assertTrue(d.eof)
            d2 = mod.FrameDecompressor()
            self.assertEqual(d2.decompress(d.unused_data), b)
            self.assertTrue(d2.eof)
            self.assertEqual(len(d2.unused_data or b""), 0)
        self.assertEqual(self.c.decompress(stream), a + b)

    def test_truncated_and_corrupt(self):
        frame = self.p.compress(self.payloads[2], content_checksum=True)
        cut = frame[: len(frame) // 2]
        d = self.c.FrameDecompressor()
        d.decompress(cut)
        self.assertFalse(d.eof)
        with self.assertRaises(RuntimeError):
            self.c.decompress(cut)
        bad = bytearray(frame)
        bad[len(bad) // 2] ^= 0xFF
        with self.assertRaises(RuntimeError):
            self.c.FrameDecompressor().decompress(bytes(bad))

    def test_reader_and_inference_suites_with_ctypes(self):
        env = dict(os.environ, MOKU_LZ4="ctypes")
        p = subprocess.run([sys.executable, "-m", "unittest", "test_data", "test_mix9_int"], cwd=common.HERE,
                           env=env, capture_output=True, text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stderr[-3000:])
        self.assertIn("OK", p.stderr)


if __name__ == "__main__":
    unittest.main()
