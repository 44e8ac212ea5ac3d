"""training/fit_ordering.py: the SGF reader, the conditional-logit fit and its [classical] output."""

import tomllib
import unittest

import numpy as np

import common  # noqa: F401  (puts training/ on the path)
import fit_ordering as fo


def synthetic_rows(w, positions, cells, rng):
    """moku_move_features rows whose played move is drawn from the softmax of the weights w."""
    out = []
    for pos in range(positions):
        k = cells
        rows = np.zeros((k, 14), dtype=np.int32)
        rows[:, 0] = pos
        rows[:, 2] = rng.integers(2, 14, k)
        rows[:, 3] = rng.integers(2, 14, k)
        rows[:, 4:12] = rng.integers(0, 15, (k, 8))
        rows[:, 12:14] = rng.integers(1, 8, (k, 2))
        s = fo.score(w, fo.features(rows))
        p = np.exp(s - s.max())
        rows[rng.choice(k, p=p / p.sum()), 1] = 1
        out.append(rows)
    return np.concatenate(out)


class SgfGames(unittest.TestCase):
    def test_reads_rule_size_opening_and_moves(self):
        text = ("(;FF[4]GM[4]GN[1]RU[4]SZ[15]PB[a]PW[b]RE[B+1]\n"
                ";B[hh]C[opening move];W[ig]C[opening move];B[hi];W[jf]C[x])\n"
                "(;FF[4]GM[4]GN[2]RU[0]SZ[20]\n;B[aa];W[tt])\n"
                "(;FF[4]GM[4]GN[3]RU[2]SZ[15]\n;B[aa])\n"
                "(;FF[4]GM[4]GN[4]RU[0]\n;B[ss])\n")
        games = fo.sgf_games(text)
        # Caro (Gomocup rule 2) is not an engine rule of the format: left out.
        self.assertEqual(len(games), 3)
        self.assertEqual(games[0], (2, 15, 2, [7 * 15 + 7, 6 * 15 + 8, 8 * 15 + 7, 5 * 15 + 9]))
        self.assertEqual(games[1], (0, 20, 0, [0, 19 * 20 + 19]))
        # No SZ[]: SGF's default board, 19x19.
        self.assertEqual(games[2], (0, 19, 0, [18 * 19 + 18]))


class Fit(unittest.TestCase):
    def test_recovers_the_weights_that_made_the_moves(self):
        rng = np.random.default_rng(5)
        truth = rng.normal(0, 0.6, fo.NW)
        # Only features that occur are identified: here every Pattern4 but A and B, every line
        # pattern but F5, every distance.
        unused = [fo.O_P4US, fo.O_P4US + 1, fo.O_P4THEM, fo.O_P4THEM + 1, fo.O_PATUS + 15,
                  fo.O_PATTHEM + 15]
        truth[fo.FIXED + unused] = 0
        rows = synthetic_rows(truth, 2000, 20, rng)
        w = fo.fit_weights(rows, 1e-6, 1000)
        self.assertTrue(np.all(w[unused] == 0))
        self.assertLess(np.max(np.abs(w - truth)), 0.5)
        self.assertGreater(np.corrcoef(w, truth)[0, 1], 0.97)
        # The fitted score ranks the played move better than a score that knows nothing.
        starts = fo.group_bounds(rows[:, 0])
        s = fo.score(w, fo.features(rows))
        noise = rng.normal(0, 1, len(rows))
        self.assertLess(fo.ranks(s, rows[:, 1], starts).mean(),
                        fo.ranks(noise, rows[:, 1], starts).mean() - 3)

    def test_toml_keeps_five_and_open_four_entries(self):
        w = np.linspace(-1, 1, fo.NW)
        classical = {"move_own": [20000, 6000] + [0] * 12, "move_opponent": [12000, 3000] + [0] * 12}
        t = tomllib.loads(fo.ordering_toml(w, classical, 100))["classical"]
        self.assertEqual(t["move_own"][:2], [20000, 6000])
        self.assertEqual(t["move_opponent"][:2], [12000, 3000])
        self.assertEqual(t["move_own"][5], round(100 * w[fo.O_P4US + 5]))
        self.assertEqual(t["move_pattern_opponent"][3], round(100 * w[fo.O_PATTHEM + 3]))
        self.assertEqual(t["move_distance_own"], [round(100 * v) for v in w[fo.O_DOWN:fo.O_DOWN + 5]])
        self.assertEqual(t["move_cell_own_percent"], 0)
        self.assertEqual(len(t["move_pattern_own"]), 16)


if __name__ == "__main__":
    unittest.main()
