"""torch.norm / torch.linalg.vector_norm with ord 0, 1, 2, 3.5, inf and -inf over chosen dims.
x (7, 9, 13) float32 with exact zeros (about a third of entries zeroed by a rounded mask, and
x[0, 0, :] all zero), w (9, 1) parameter.
n0 = vector_norm(x, ord=0, dim=-1) (7, 9) (count of nonzeros as float);
n1 = vector_norm(x, ord=1, dim=(0, 2)) (9,) (non-adjacent dims);
n2 = vector_norm(x, ord=2, dim=1, keepdim=True) (7, 1, 13);
n35 = vector_norm(x, ord=3.5, dim=(-1, -3)) (9,); ninf = vector_norm(x, ord=inf, dim=-2)
(7, 13); nninf = vector_norm(x, ord=-inf, dim=2, keepdim=True) (7, 9, 1) (0 in the zero row
and where a row holds a zero); nall = vector_norm(x) (0-dim, ord 2 over everything);
tn2 = torch.norm(x, p=2, dim=-1), tn1 = torch.norm(x, p=1, dim=(0, 1)) (13,),
tfro = torch.norm(x, p='fro', dim=(1, 2)) (7,), tinf = torch.norm(x, p=float('inf'), dim=0),
tn35k = torch.norm(x, p=3.5, dim=1, keepdim=True);
y = (x * w) / (ninf.unsqueeze(1) + 1e-3) (normalise by inf norm over dim 1, broadcast back)
-> ratio = vector_norm(y, ord=2, dim=-1) / (n0 + 1) (7, 9).
Outputs: n0, n1, n2, n35, ninf, nninf, nall, tn2, tn1, tfro, tinf, tn35k, ratio."""

import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.w = nn.Parameter(torch.rand(m, 1) + 0.5)

    def forward(self, x):
        n0 = torch.linalg.vector_norm(x, ord=0, dim=-1)
        n1 = torch.linalg.vector_norm(x, ord=1, dim=(0, 2))
        n2 = torch.linalg.vector_norm(x, ord=2, dim=1, keepdim=True)
        n35 = torch.linalg.vector_norm(x, ord=3.5, dim=(-1, -3))
        ninf = torch.linalg.vector_norm(x, ord=math.inf, dim=-2)
        nninf = torch.linalg.vector_norm(x, ord=-math.inf, dim=2, keepdim=True)
        nall = torch.linalg.vector_norm(x)
        tn2 = torch.norm(x, p=2, dim=-1)
        tn1 = torch.norm(x, p=1, dim=(0, 1))
        tfro = torch.norm(x, p="fro", dim=(1, 2))
        tinf = torch.norm(x, p=float("inf"), dim=0)
        tn35k = torch.norm(x, p=3.5, dim=1, keepdim=True)
        y = (x * self.w) / (ninf.unsqueeze(1) + 1e-3)
        ratio = torch.linalg.vector_norm(y, ord=2, dim=-1) / (n0 + 1.0)
        return n0, n1, n2, n35, ninf, nninf, nall, tn2, tn1, tfro, tinf, tn35k, ratio


def get_inputs():
    x = torch.randn(7, 9, 13)
    x = x * (torch.rand(7, 9, 13) > 0.33).float()
    x[0, 0, :] = 0.0
    return [x]


def get_init_inputs():
    return [9]
