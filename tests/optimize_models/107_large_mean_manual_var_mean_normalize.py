"""Mean and variance of the same tensor written as separate expressions
(x.mean(-1, keepdim=True) and ((x - m) ** 2).mean(-1, keepdim=True)) and also via
torch.var_mean (correction=0), on inputs with a large mean and a tiny spread
(randn * 0.01 + 500), each used to normalize the rows; a learned weight scales the
results. Shape (37, 1531)."""

import torch
import torch.nn as nn

R, D = 37, 1531


class Model(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(dim))
        self.eps = eps

    def forward(self, x):
        m = x.mean(dim=-1, keepdim=True)
        v = ((x - m) ** 2).mean(dim=-1, keepdim=True)
        y1 = (x - m) / torch.sqrt(v + self.eps) * self.weight
        v2, m2 = torch.var_mean(x, dim=-1, keepdim=True, correction=0)
        y2 = (x - m2) * torch.rsqrt(v2 + self.eps)
        return y1, y2, m.squeeze(-1)


def get_inputs():
    return [torch.randn(R, D) * 0.01 + 500.0]


def get_init_inputs():
    return [D, 1e-6]
