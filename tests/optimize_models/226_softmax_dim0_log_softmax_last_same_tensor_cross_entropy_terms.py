"""Softmax over dim 0 and log_softmax over dim -1 of the same 3-D tensor, combined:
z = x * (D,) temperature; p0 = softmax(z, dim=0) (over the 3 batch entries), lq = log_softmax(z,
dim=-1); mix = p0 * lq + exp(lq) - p0. Then a per-row cross term (p0 * lq).sum(dim=-1)
(-> (B, T)) and a per-column max of lq over dims (0, 1) (-> (D,)).
Input x: (3, 17, 29) randn * 2; outputs (3, 17, 29), (3, 17), (29,) as a tuple."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D = 3, 17, 29


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.temp = nn.Parameter(torch.rand(dim) * 0.8 + 0.6)

    def forward(self, x):
        z = x * self.temp
        p0 = torch.softmax(z, dim=0)
        lq = F.log_softmax(z, dim=-1)
        mix = p0 * lq + torch.exp(lq) - p0
        cross = (p0 * lq).sum(dim=-1)
        col = lq.amax(dim=(0, 1))
        return mix, cross, col


def get_inputs():
    return [torch.randn(B, T, D) * 2.0]


def get_init_inputs():
    return [D]
