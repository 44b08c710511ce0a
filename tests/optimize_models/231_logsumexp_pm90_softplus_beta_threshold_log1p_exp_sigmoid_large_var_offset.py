"""Numerically delicate float32 pointwise and reductions. a: (8, 31) rows with per-row
offsets of -100, -90, -80, 80, 90 (+/- a few): logsumexp over the last dim (naive
log(sum(exp)) overflows to inf at +90 and underflows to -inf at -100 / -90 with denormals);
sigmoid(a) saturates to exactly 0 / 1. b: (9, 23) randn * 6: F.softplus(b, beta=2.0,
threshold=5.0) and F.softplus(b, beta=0.5, threshold=3.0) (linear above threshold / beta),
plus F.softplus(b) - log1p(exp(b)) (about 0; the naive form is finite here since |b| < 40).
c: (7, 29) = 1e4 + randn * 0.1: var(dim=-1, unbiased=False) (a one-pass E[x^2] - E[x]^2
loses all digits; reference about 0.01) and std(dim=0).
Outputs (8,), (8, 31), (9, 23), (7,), (29,) as a tuple."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b, c):
        lse = torch.logsumexp(a, dim=-1)
        sig = torch.sigmoid(a) * 2.0 - 1.0 + torch.sigmoid(-a) * 0.5
        sp2 = F.softplus(b, beta=2.0, threshold=5.0)
        sp05 = F.softplus(b, beta=0.5, threshold=3.0)
        naive = torch.log1p(torch.exp(b))
        sp = sp2 - 0.5 * sp05 + 0.1 * naive + (F.softplus(b) - naive)
        v = c.var(dim=-1, unbiased=False)
        s = c.std(dim=0)
        return lse, sig, sp, v, s


def get_inputs():
    offs = torch.tensor([-100.0, -90.0, -80.0, -80.0, 80.0, 80.0, 90.0, 90.0]).view(8, 1)
    a = offs + torch.randn(8, 31) * 3.0
    b = torch.randn(9, 23) * 6.0
    c = 1e4 + torch.randn(7, 29) * 0.1
    return [a, b, c]


def get_init_inputs():
    return []
