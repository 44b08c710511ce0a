"""Advanced-indexing corners on computed tensors. y = 2 * sin(x) + x of x (11, 17):
y[rows[:, None], cols[None, :]] with int64 rows (5,) and int32 cols (4,), both holding negative
indices -> (5, 4) grid. z = tanh(w) * 1.5 - 0.25 * w of w (3, 13, 9): z[:, mid] with int32 mid
(6,) holding negatives (whole rows of the last dim kept) -> (3, 6, 9); the same pick by
z.index_select(1, mid % 13) (int32 remainder of negatives is non-negative); z[:, mid2] with a
2-D int32 index (2, 3) -> (3, 2, 3, 9); z[bi[:, None], :, ci[None, :]] with int64 bi (4,) and
int32 ci (5,) separated by a slice (broadcast dims move first) -> (4, 5, 13); y[-3] and
y[:, -1] negative scalar picks. Seven outputs."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, w, rows, cols, mid, mid2, bi, ci):
        y = 2.0 * torch.sin(x) + x
        grid = y[rows[:, None], cols[None, :]]
        z = torch.tanh(w) * 1.5 - 0.25 * w
        mid_pick = z[:, mid]
        mid_sel = z.index_select(1, mid % z.shape[1])
        mid_2d = z[:, mid2]
        split = z[bi[:, None], :, ci[None, :]]
        return grid, mid_pick, mid_sel, mid_2d, split, y[-3], y[:, -1]


def get_inputs():
    rows = torch.tensor([0, -1, 4, -11, 7], dtype=torch.int64)
    cols = torch.tensor([-2, 3, -17, 16], dtype=torch.int32)
    mid = torch.tensor([-1, 0, 5, -13, 12, -6], dtype=torch.int32)
    mid2 = torch.tensor([[2, -4, 11], [0, -1, 7]], dtype=torch.int32)
    bi = torch.tensor([2, -1, 0, 1], dtype=torch.int64)
    ci = torch.tensor([8, -9, 3, -2, 0], dtype=torch.int32)
    return [torch.randn(11, 17) * 2.0, torch.randn(3, 13, 9) * 2.0, rows, cols, mid, mid2, bi, ci]


def get_init_inputs():
    return []
