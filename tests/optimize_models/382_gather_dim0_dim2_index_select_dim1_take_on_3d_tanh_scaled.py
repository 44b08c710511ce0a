"""Picking along dims other than the last from a computed 3-D tensor y = 2 * tanh(x) + 0.1 * x
with x (7, 13, 11): torch.gather(y, 0, i0) with i0 (3, 13, 11) in [0, 7) -> (3, 13, 11);
y.index_select(1, i1) with i1 (5,) (repeated index) -> (7, 5, 11); torch.gather(y, 2, i2) with
i2 (7, 13, 4) -> (7, 13, 4); torch.gather on the middle dim with i_mid (7, 2, 11) -> (7, 2, 11);
torch.take(y, flat) with flat (25,) in [0, 1001). All index inputs int64; five outputs."""

import torch
import torch.nn as nn

A, Bd, Cd = 7, 13, 11


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, i0, i1, i2, i_mid, flat):
        y = 2.0 * torch.tanh(x) + 0.1 * x
        g0 = torch.gather(y, 0, i0)
        s1 = y.index_select(1, i1)
        g2 = torch.gather(y, 2, i2)
        g1 = torch.gather(y, 1, i_mid)
        tk = torch.take(y, flat)
        return g0, s1, g2, g1, tk


def get_inputs():
    i1 = torch.randint(0, Bd, (5,), dtype=torch.int64)
    i1[4] = i1[1]
    return [torch.randn(A, Bd, Cd) * 2.0,
            torch.randint(0, A, (3, Bd, Cd), dtype=torch.int64),
            i1,
            torch.randint(0, Cd, (A, Bd, 4), dtype=torch.int64),
            torch.randint(0, Bd, (A, 2, Cd), dtype=torch.int64),
            torch.randint(0, A * Bd * Cd, (25,), dtype=torch.int64)]


def get_init_inputs():
    return []
