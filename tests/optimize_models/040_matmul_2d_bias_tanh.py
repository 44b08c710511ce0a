"""2-D torch.matmul of two inputs, a per-column bias, tanh and a mean over rows."""

import torch
import torch.nn as nn

M, K, N = 200, 137, 99


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(n))

    def forward(self, a, b):
        y = torch.tanh(torch.matmul(a, b) * 0.1 + self.bias)
        return y, y.mean(dim=0)


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return [N]
