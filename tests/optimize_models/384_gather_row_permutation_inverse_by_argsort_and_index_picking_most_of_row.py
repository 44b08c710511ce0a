"""Gathers whose index covers most or all of the row: y = 1.5 * x - 0.2 with x (31, 83);
yp = y.gather(1, perm) with perm (31, 83) a per-row permutation (argsort of torch.rand);
cumsum(1) of yp (order matters); the inverse permutation inv = perm.argsort(dim=1) computed in
forward and yp.gather(1, inv) (recovers y); and y.gather(1, idx) with idx (31, 60) in [0, 83)
(60 of 83 columns, repeats allowed) multiplied by a (60,) weight parameter and summed over
dim 1. Outputs (31, 83), (31, 83), (31,)."""

import torch
import torch.nn as nn

N, D, K = 31, 83, 60


class Model(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.w = nn.Parameter(torch.randn(k))

    def forward(self, x, perm, idx):
        y = 1.5 * x - 0.2
        yp = y.gather(1, perm)
        inv = perm.argsort(dim=1)
        back = yp.gather(1, inv)
        picked = (y.gather(1, idx) * self.w).sum(dim=1)
        return yp.cumsum(dim=1), back, picked


def get_inputs():
    perm = torch.argsort(torch.rand(N, D), dim=1)
    return [torch.randn(N, D), perm, torch.randint(0, D, (N, K), dtype=torch.int64)]


def get_init_inputs():
    return [K]
