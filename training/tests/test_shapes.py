"""mix9_shapes.shape_codes against a slow per-cell loop written from mix9svq.md step 2."""

import unittest

import numpy as np

from mix9_shapes import SHAPE_NB, shape_codes

DIRS = ((1, 0), (0, 1), (1, -1), (1, 1))


def slow_border(L, R):
    # mix9svq.md: border(L, R) with 11 cells, half 5
    if L == 5 and R == 5:
        return 0
    if R == 5 and L < 5:
        total = 2 * 3**11
        for i in range(1, (5 - L) - 1 + 1):
            total += 3 ** (11 - i)
        return total
    ld, rd = 5 - L, 5 - R
    rt = min(ld, rd)
    lt = min(ld, rd - 1)
    total = 3**11
    for i in range(0, rt):
        total += 2 * 3**i
    for i in range(0, lt):
        total += 2 * 3 ** (10 - i)
    i = rt
    while i <= rd - 2:
        total += 3**i
        i += 1
    i = lt
    while i <= ld - 2:
        total += 3 ** (10 - i)
        i += 1
    return total


def slow_code(board, x, y, d):
    n = len(board)
    dx, dy = DIRS[d]

    def on_board(px, py):
        return 0 <= px < n and 0 <= py < n

    left = 0
    while left < 5 and on_board(x - (left + 1) * dx, y - (left + 1) * dy):
        left += 1
    right = 0
    while right < 5 and on_board(x + (right + 1) * dx, y + (right + 1) * dy):
        right += 1
    code = slow_border(left, right)
    for k in range(-5, 6):
        px, py = x - k * dx, y - k * dy
        if on_board(px, py):
            code += int(board[py][px]) * 3 ** (k + 5)
    return code


class ShapeCodes(unittest.TestCase):
    def test_matches_slow_twin_on_random_boards(self):
        rng = np.random.default_rng(11)
        boards = 0
        for _ in range(2000):
            n = int(rng.choice([5, 6, 7, 8, 9, 10, 11]) if rng.random() < 0.85 else rng.choice([15, 20, 22]))
            fill = rng.random()
            b = rng.choice(3, size=(n, n), p=[1 - fill, fill / 2, fill / 2]).astype(np.uint8)
            fast = shape_codes(b)
            self.assertEqual(fast.shape, (4, n, n))
            for y in range(n):
                for x in range(n):
                    for d in range(4):
                        self.assertEqual(fast[d, y, x], slow_code(b, x, y, d), (n, x, y, d))
            boards += 1
        self.assertEqual(boards, 2000)

    def test_torch_path_matches_slow_twin(self):
        """The trainer's torch path (CPU here, and CUDA where there is one) on random batches:
        every code equals the slow per-cell loop."""
        import torch

        rng = np.random.default_rng(12)
        devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
        checked = 0
        for _ in range(60):
            n = int(rng.choice([5, 7, 9, 15, 20, 22]))
            fill = rng.random()
            b = rng.choice(3, size=(3, n, n), p=[1 - fill, fill / 2, fill / 2]).astype(np.uint8)
            for dev in devices:
                got = shape_codes(torch.from_numpy(b).to(dev))
                self.assertIsInstance(got, torch.Tensor)
                got = got.cpu().numpy()
                self.assertEqual(got.shape, (3, 4, n, n))
                for i in range(3):
                    for y in range(n):
                        for x in range(n):
                            for d in range(4):
                                self.assertEqual(got[i, d, y, x], slow_code(b[i], x, y, d), (dev, n, x, y, d))
                checked += 1
        self.assertEqual(checked, 60 * len(devices))

    def test_batched_equals_single(self):
        rng = np.random.default_rng(3)
        b = rng.integers(0, 3, size=(6, 15, 15)).astype(np.uint8)
        batched = shape_codes(b)
        for i in range(6):
            np.testing.assert_array_equal(batched[i], shape_codes(b[i]))

    def test_code_range_and_distinct_borders(self):
        borders = {slow_border(L, R) for L in range(6) for R in range(6)}
        self.assertEqual(len(borders), 36)  # every (left, right) pair has its own offset
        # "The largest code is 442,502": reached by a board full of opponent stones
        top = max(int(shape_codes(np.full((n, n), 2, dtype=np.uint8)).max()) for n in range(5, 23))
        self.assertEqual(top, SHAPE_NB - 1)
        self.assertEqual(SHAPE_NB, 442503)

if __name__ == "__main__":
    unittest.main()
