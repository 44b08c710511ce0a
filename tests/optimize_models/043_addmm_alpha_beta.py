"""torch.addmm with beta/alpha scalars and a broadcast bias row, followed by ELU; plus a
baddbmm on batched inputs."""

import torch
import torch.nn as nn
import torch.nn.functional as F

M, K, N = 150, 77, 111
B = 3


class Model(nn.Module):
    def __init__(self, k, n):
        super().__init__()
        self.w = nn.Parameter(torch.randn(k, n) / k ** 0.5)
        self.bias = nn.Parameter(torch.randn(n))

    def forward(self, x, c, p, q):
        y = torch.addmm(self.bias, x, self.w, beta=0.5, alpha=2.0)
        y = F.elu(y)
        z = torch.baddbmm(c, p, q, beta=1.0, alpha=0.25)
        return y, z


def get_inputs():
    return [torch.randn(M, K), torch.randn(B, 17, 19), torch.randn(B, 17, 23),
            torch.randn(B, 23, 19)]


def get_init_inputs():
    return [K, N]
