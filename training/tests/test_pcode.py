"""training/fit_pcode.py: the per-pcode fit recovers known values, and its TOML and header."""

import os
import re
import tempfile
import tomllib
import unittest

import numpy as np

import common  # noqa: F401  (puts training/ on the path)
import fit_pcode as fp


def synthetic(w, t, n, rng):
    """moku_pcode_features-like rows whose search winrate is the model's own prediction."""
    x = rng.integers(-3, 4, (n, len(w))).astype(np.int16)
    mask = rng.integers(0, 4, n)
    v = 0.5 * (x @ w) + t[mask]
    y = np.zeros((n, 4), dtype=np.float32)
    y[:, 0] = mask
    y[:, 1] = rng.random(n) < 1 / (1 + np.exp(-v / 200))  # a result drawn from the winrate
    y[:, 2] = 1 / (1 + np.exp(-v / 200))
    y[:, 3] = 20
    return x, y


class Fit(unittest.TestCase):
    def test_recovers_the_values_that_made_the_winrates(self):
        rng = np.random.default_rng(3)
        w = rng.normal(0, 60, 24)
        t = np.zeros(fp.MASK_NB)
        t[:4] = [0, 150, -120, 40]
        x, y = synthetic(w, t, 6000, rng)
        fw, ft = fp.fit(x, y, np.zeros(24), lam=0.0, reg=0.0, epochs=60, batch=1000, lr=5.0)
        # The values are identified up to nothing: every pcode and mask occurs.
        self.assertLess(np.max(np.abs(fw - w)), 15)
        self.assertLess(np.max(np.abs(ft[:4] - t[:4])), 15)
        # Masks that never occur keep 0, and the prior is where an unseen pcode stays.
        self.assertTrue(np.all(ft[4:] == 0))
        x[:, 5] = 0
        prior = np.full(24, 77.0)
        fw, _ = fp.fit(x, y, prior, lam=0.0, reg=0.0, epochs=2, batch=1000, lr=5.0)
        self.assertEqual(fw[5], 77.0)

    def test_a_table_per_colour_has_a_mask_table_per_colour(self):
        self.assertEqual(fp.mask_count(fp.PCODE_NB), fp.MASK_NB)
        self.assertEqual(fp.mask_count(2 * fp.PCODE_NB), 2 * fp.MASK_NB)
        rng = np.random.default_rng(4)
        x = rng.integers(-3, 4, (500, 2 * fp.PCODE_NB)).astype(np.int16)
        y = np.zeros((500, 4), dtype=np.float32)
        y[:, 0] = rng.integers(0, 2 * fp.MASK_NB, 500)  # white's masks lie in the second half
        y[:, 1:3] = 0.5
        w, t = fp.fit(x, y, np.zeros(2 * fp.PCODE_NB), epochs=1, batch=250)
        self.assertEqual((len(w), len(t)), (2 * fp.PCODE_NB, 2 * fp.MASK_NB))

    def test_tables_and_header(self):
        w = np.arange(3876) % 50 - 10.4
        t = np.zeros(fp.MASK_NB)
        t[7] = 123.6
        with tempfile.TemporaryDirectory() as d:
            out, header = os.path.join(d, "t.toml"), os.path.join(d, "t.h")
            fp.write_tables(w, t, "freestyle", out, header, "fit_pcode.py x --out t.toml")
            with open(out, "rb") as f:
                doc = tomllib.load(f)
            table = doc["classical"]["freestyle"]
            self.assertEqual(table["pcode_values"], list(np.rint(w).astype(int)))
            self.assertEqual(len(table["threat_mask_values"]), fp.MASK_NB)
            self.assertEqual(table["threat_mask_values"][7], 124)
            with open(header) as f:
                text = f.read()
            for name, values in (("PCODE_VALUE", table["pcode_values"]),
                                 ("THREAT_MASK_VALUE", table["threat_mask_values"])):
                body = re.search(r"FREESTYLE_" + name + r"\[\] = \{([^}]*)\};", text).group(1)
                self.assertEqual([int(v) for v in body.split(",")], values)
            self.assertIn("// clang-format off", text)
            self.assertTrue(all(len(line) <= 100 for line in text.splitlines()))


if __name__ == "__main__":
    unittest.main()
