"""Reductions over dim 0 of a 4-D tensor and over the last two dims, each isolated on its own input.
a (7, 5, 9, 11) randn, p (5, 3, 7, 9) in [0.8, 1.2], b (3, 6, 13, 15) randn * 4, c (4, 5, 1, 17)
randn (size-1 dim among the last two).
Over dim 0 (the outermost, strided by 5*9*11):
s0 = a.sum(dim=0) (5, 9, 11), m0 = a.mean(dim=0, keepdim=True) (1, 5, 9, 11),
mx0 = a.amax(dim=0), mn0 = (a - 3).amin(dim=0) (all-negative values), v0 = a.var(dim=0) (correction 1
over 7), p0 = p.prod(dim=0) (5 factors near 1).
Over the last two dims:
s2 = b.sum(dim=(-2, -1)) (3, 6), m2 = b.mean(dim=(2, 3), keepdim=True) (3, 6, 1, 1),
x2 = b.amax(dim=(-1, -2)) (dims listed in reverse order), l2 = torch.logsumexp(b, dim=(-2, -1))
(values up to ~20, needs the max shift), sd2, mu2 = torch.std_mean(b, dim=(-2, -1), correction=0);
c over (-2, -1) where dim -2 has size 1: cs = c.sum(dim=(-2, -1)) (4, 5),
cf = torch.linalg.matrix_norm(c, ord='fro') (4, 5), cv = c.var(dim=(-2, -1), keepdim=True) (4, 5, 1, 1).
n = (b - m2) / (sd2[..., None, None] + 1e-3) (3, 6, 13, 15), d0 = a - m0 (7, 5, 9, 11).
Outputs: 16 tensors."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, p, b, c):
        s0 = a.sum(dim=0)
        m0 = a.mean(dim=0, keepdim=True)
        mx0 = a.amax(dim=0)
        mn0 = (a - 3.0).amin(dim=0)
        v0 = a.var(dim=0)
        p0 = p.prod(dim=0)
        s2 = b.sum(dim=(-2, -1))
        m2 = b.mean(dim=(2, 3), keepdim=True)
        x2 = b.amax(dim=(-1, -2))
        l2 = torch.logsumexp(b, dim=(-2, -1))
        sd2, mu2 = torch.std_mean(b, dim=(-2, -1), correction=0)
        cs = c.sum(dim=(-2, -1))
        cf = torch.linalg.matrix_norm(c, ord="fro")
        cv = c.var(dim=(-2, -1), keepdim=True)
        n = (b - m2) / (sd2[..., None, None] + 1e-3)
        d0 = a - m0
        return s0, m0, mx0, mn0, v0, p0, s2, x2, l2, sd2, mu2, cs, cf, cv, n, d0


def get_inputs():
    a = torch.randn(7, 5, 9, 11)
    p = torch.rand(5, 3, 7, 9) * 0.4 + 0.8
    b = torch.randn(3, 6, 13, 15) * 4.0
    c = torch.randn(4, 5, 1, 17)
    return [a, p, b, c]


def get_init_inputs():
    return []
