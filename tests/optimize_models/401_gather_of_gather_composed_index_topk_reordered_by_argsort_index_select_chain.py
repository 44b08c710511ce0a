"""Gathers of gathers. y = 2 * x - 0.1 * x ** 2 of x (31, 27): g1 = y.gather(1, i1 (31, 12)),
g2 = g1.gather(1, i2 (31, 5) in [0, 12)), and the same values by composing the indices first,
y.gather(1, i1.gather(1, i2)); topk(6, dim=1) of y, the top indices re-ordered by position
(order = top_i.argsort(1), top_i.gather(1, order), top_v.gather(1, order)) and
sigmoid(y).gather(1, sorted indices); an index_select chain on the rows,
torch.tanh(y).index_select(0, r1 (9,)).index_select(0, r2 (4,) in [0, 9)) and
y[r1][r2][:, -2]. Outputs g2, composed (31, 5), sorted int64 indices and values (31, 6),
sigmoid picks (31, 6), chain (4, 27) and (4,)."""

import torch
import torch.nn as nn

M, N, K1, K2, TOPK, R1, R2 = 31, 27, 12, 5, 6, 9, 4


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, i1, i2, r1, r2):
        y = 2.0 * x - 0.1 * x * x
        g1 = y.gather(1, i1)
        g2 = g1.gather(1, i2)
        composed = y.gather(1, i1.gather(1, i2))
        top_v, top_i = torch.topk(y, TOPK, dim=1)
        order = top_i.argsort(dim=1)
        idx_sorted = top_i.gather(1, order)
        val_sorted = top_v.gather(1, order)
        sig = torch.sigmoid(y).gather(1, idx_sorted)
        chain = torch.tanh(y).index_select(0, r1).index_select(0, r2)
        last = y[r1][r2][:, -2]
        return g2, composed, idx_sorted, val_sorted, sig, chain, last


def get_inputs():
    return [torch.randn(M, N) * 3.0,
            torch.randint(0, N, (M, K1), dtype=torch.int64),
            torch.randint(0, K1, (M, K2), dtype=torch.int64),
            torch.randint(0, M, (R1,), dtype=torch.int64),
            torch.randint(0, R1, (R2,), dtype=torch.int64)]


def get_init_inputs():
    return []
