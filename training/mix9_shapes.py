"""Line-shape codes of the mix9svq network (docs: mix9svq.md, inference step 2), vectorised.

A board is an array [..., N, N] indexed [y, x] of digits for the side to move: 1 own stone,
2 opponent stone, 0 empty. `shape_codes(boards)` returns int64 codes [..., 4, N, N] (direction
d, then y, x), each in 0..SHAPE_NB-1. Directions: D0 = (1, 0) along x, D1 = (0, 1),
D2 = (1, -1), D3 = (1, 1), as (dx, dy).
"""

import functools

import numpy as np

SHAPE_NB = 442503
DIRS = ((1, 0), (0, 1), (1, -1), (1, 1))
POW3 = [3**i for i in range(12)]


def border_code(left, right):
    """border(L, R) of step 2: the code offset for a line with L (R) on-board cells towards -d
    (+d), each capped at 5."""
    if left == 5 and right == 5:
        return 0
    if right == 5:  # left < 5
        return 2 * POW3[11] + sum(POW3[11 - i] for i in range(1, (5 - left) - 1 + 1))
    ld, rd = 5 - left, 5 - right
    rt, lt = min(ld, rd), min(ld, rd - 1)
    code = POW3[11]
    code += sum(2 * POW3[i] for i in range(rt))
    code += sum(2 * POW3[10 - i] for i in range(lt))
    code += sum(POW3[i] for i in range(rt, rd - 2 + 1))
    code += sum(POW3[10 - i] for i in range(lt, ld - 2 + 1))
    return code


@functools.lru_cache(maxsize=None)
def border_codes(n):
    """int64 [4, n, n]: border(left, right) of every cell and direction on an n x n board."""
    out = np.zeros((4, n, n), dtype=np.int64)
    for d, (dx, dy) in enumerate(DIRS):
        for y in range(n):
            for x in range(n):

                def on(k):  # the cell c - k*d
                    px, py = x - k * dx, y - k * dy
                    return 0 <= px < n and 0 <= py < n

                left = 0
                while left < 5 and on(left + 1):
                    left += 1
                right = 0
                while right < 5 and on(-(right + 1)):
                    right += 1
                out[d, y, x] = border_code(left, right)
    out.setflags(write=False)
    return out


def shape_codes(boards):
    """Codes [..., 4, N, N] (int64) of digit boards [..., N, N]. A torch tensor is coded with
    torch on its own device (the trainer's GPU path) and gives a torch tensor; anything else
    gives a numpy array."""
    is_torch = type(boards).__module__.startswith("torch")
    if not is_torch:
        boards = np.asarray(boards)
    n = boards.shape[-1]
    assert boards.shape[-2] == n, "square boards only"
    lead = tuple(boards.shape[:-2])
    border = border_codes(n)
    if is_torch:
        import torch

        flat = boards.reshape((-1, n, n)).to(torch.int64)
        pad = torch.zeros((flat.shape[0], n + 10, n + 10), dtype=torch.int64, device=boards.device)
        out = torch.empty((flat.shape[0], 4, n, n), dtype=torch.int64, device=boards.device)
        border = torch.from_numpy(np.array(border)).to(boards.device)
    else:
        flat = boards.reshape((-1, n, n)).astype(np.int64)
        pad = np.zeros((flat.shape[0], n + 10, n + 10), dtype=np.int64)
        out = np.empty((flat.shape[0], 4, n, n), dtype=np.int64)
    pad[:, 5 : 5 + n, 5 : 5 + n] = flat  # off-board cells read as 0: they add nothing
    for d, (dx, dy) in enumerate(DIRS):
        out[:, d] = border[d]
        for k in range(-5, 6):
            # p = c - k*d: rows y - k*dy, columns x - k*dx
            oy, ox = 5 - k * dy, 5 - k * dx
            out[:, d] += pad[:, oy : oy + n, ox : ox + n] * POW3[k + 5]
    return out.reshape(lead + (4, n, n))


def board_from_moves(moves, n, side_to_move=None):
    """Digit board [n, n] (uint8) for the side to move from moves [(x, y), ...] (black first).
    side_to_move defaults to len(moves) % 2 (0 black, 1 white)."""
    if side_to_move is None:
        side_to_move = len(moves) % 2
    b = np.zeros((n, n), dtype=np.uint8)
    for i, (x, y) in enumerate(moves):
        b[y, x] = 1 if (i % 2) == side_to_move else 2
    return b
