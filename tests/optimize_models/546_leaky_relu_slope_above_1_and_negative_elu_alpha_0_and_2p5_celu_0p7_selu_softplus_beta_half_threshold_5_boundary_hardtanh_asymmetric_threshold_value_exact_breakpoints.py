"""Activation parameter variants on x (3, 5, 17, 19) (randn * 3) with a row of exact breakpoint
values written into x[0, 0, 0, :13]: 0, -0.0, 0.25, -0.3, 2.0, 10, -10, 9.99, 10.01, 1, -1,
0.5, -2.5.
a1 = leaky_relu(x, 1.7) (slope > 1), a2 = leaky_relu(x, -0.4) (negative slope: negatives flip
sign), a3 = elu(x, alpha=0) (negative side 0), a4 = elu(x, alpha=2.5), a5 = celu(x, alpha=0.7),
a6 = selu(x), a7 = softplus(x, beta=0.5, threshold=5) (linear where beta * x > 5, i.e. x > 10;
x = 10 exactly still takes the log1p(exp) branch), a8 = hardtanh(x, -0.3, 2.0),
a9 = F.threshold(x, 0.25, -1.5) (x <= 0.25 -> -1.5, x = 0.25 exactly replaced),
comb = (a1 + a2 + a4 - a5).mean(dim=1) * a6.amax(dim=1) (3, 17, 19).
Outputs: a1 .. a9, comb."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        a1 = F.leaky_relu(x, 1.7)
        a2 = F.leaky_relu(x, negative_slope=-0.4)
        a3 = F.elu(x, alpha=0.0)
        a4 = F.elu(x, alpha=2.5)
        a5 = F.celu(x, alpha=0.7)
        a6 = F.selu(x)
        a7 = F.softplus(x, beta=0.5, threshold=5.0)
        a8 = F.hardtanh(x, -0.3, 2.0)
        a9 = F.threshold(x, 0.25, -1.5)
        comb = (a1 + a2 + a4 - a5).mean(dim=1) * a6.amax(dim=1)
        return a1, a2, a3, a4, a5, a6, a7, a8, a9, comb


def get_inputs():
    x = torch.randn(3, 5, 17, 19) * 3.0
    x[0, 0, 0, :13] = torch.tensor(
        [0.0, -0.0, 0.25, -0.3, 2.0, 10.0, -10.0, 9.99, 10.01, 1.0, -1.0, 0.5, -2.5]
    )
    return [x]


def get_init_inputs():
    return []
