"""torch.bmm of two inputs with a transposed right operand, scaled, softplus, then a sum
over the last dim."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, M, K, N = 7, 41, 96, 53


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        y = torch.bmm(a, b.transpose(1, 2)) * (1.0 / K ** 0.5)   # (B, M, N)
        y = F.softplus(y)
        return y, y.sum(dim=-1)


def get_inputs():
    return [torch.randn(B, M, K), torch.randn(B, N, K)]


def get_init_inputs():
    return []
