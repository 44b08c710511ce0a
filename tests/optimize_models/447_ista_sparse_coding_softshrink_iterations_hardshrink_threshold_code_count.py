"""ISTA sparse coding (LISTA-style, unrolled): x (29, 37), dictionary D (37, 53) scaled by
1 / sqrt(74). z0 = F.softshrink(step * x @ D, lambd=0.2); three iterations
z = F.softshrink(z - step * ((z @ D.T - x) @ D), lambd=0.2) with step = 0.5;
code = F.hardshrink(z, lambd=0.3); F.threshold(code * gain, 0.02, -0.5) on a per-atom gain.
Outputs: code (29, 53), thresholded code (29, 53), reconstruction error per row (29,),
int64 count of non-zero code entries per row (29,)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D_IN, K = 29, 37, 53
STEP = 0.5
LAMBD = 0.2
ITERS = 3


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.D = nn.Parameter(torch.randn(D_IN, K) / math.sqrt(D_IN * 2.0))
        self.gain = nn.Parameter(1.0 + 0.3 * torch.randn(K))

    def forward(self, x):
        D = self.D
        z = F.softshrink(STEP * (x @ D), lambd=LAMBD)
        for _ in range(ITERS):
            resid = z @ D.t() - x
            z = F.softshrink(z - STEP * (resid @ D), lambd=LAMBD)
        code = F.hardshrink(z, lambd=0.3)
        gated = F.threshold(code * self.gain, 0.02, -0.5)
        err = ((code @ D.t() - x) ** 2).sum(dim=-1)
        nnz = (code != 0).sum(dim=-1)
        return code, gated, err, nnz


def get_inputs():
    return [torch.randn(N, D_IN)]


def get_init_inputs():
    return []
