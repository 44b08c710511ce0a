"""Picks out of type-promoting ops and torch.where with broadcasting masks. int64 a (7, 19) in
[-50, 50), float32 b (7, 19), int32 c (19,): s = a + b (float32) gathered with idx (7, 5) and
picked by s[rows, cols] (int64 (6,) each); a + c (int64 + int32 -> int64) gathered with idx
-> int64; a * 0.5 (int64 times Python float -> float32) index_select(1, sel (4,));
torch.where(row_mask (7, 1) bool, b, 1 - 2 * b).gather(1, idx); torch.where(col_mask (19,) bool,
a, b) (int64 / float32 -> float32) index_select(1, sel); torch.where(b > 0, b, 0.0)[rows, cols]
with a scalar other. Seven outputs, one int64."""

import torch
import torch.nn as nn

M, N, K, R, S = 7, 19, 5, 6, 4


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b, c, idx, rows, cols, sel, row_mask, col_mask):
        s = a + b
        s_g = s.gather(1, idx)
        s_rc = s[rows, cols]
        ai = a + c
        ai_g = ai.gather(1, idx)
        half = (a * 0.5).index_select(1, sel)
        w1 = torch.where(row_mask, b, 1.0 - 2.0 * b).gather(1, idx)
        w2 = torch.where(col_mask, a, b).index_select(1, sel)
        w3 = torch.where(b > 0, b, 0.0)[rows, cols]
        return s_g, s_rc, ai_g, half, w1, w2, w3


def get_inputs():
    col_mask = torch.rand(N) > 0.5
    col_mask[0] = True
    col_mask[1] = False
    row_mask = torch.rand(M, 1) > 0.5
    row_mask[0, 0] = True
    row_mask[1, 0] = False
    return [torch.randint(-50, 50, (M, N), dtype=torch.int64),
            torch.randn(M, N),
            torch.randint(-1000, 1000, (N,), dtype=torch.int32),
            torch.randint(0, N, (M, K), dtype=torch.int64),
            torch.randint(0, M, (R,), dtype=torch.int64),
            torch.randint(0, N, (R,), dtype=torch.int64),
            torch.tensor([0, 1, 18, 1], dtype=torch.int64),
            row_mask,
            col_mask]


def get_init_inputs():
    return []
