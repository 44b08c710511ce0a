"""GEMMs on non-contiguous operands, each followed by bias, gelu (tanh approximation) and a residual
add of the same non-contiguous input: x = randn(65, 129).t() (129, 65) from get_inputs, x @ (65, 65)
parameter + (65,) bias; s = randn(129, 80)[:, 7:72] (row stride 80) through nn.Linear(65, 65);
z = randn(3, 65, 17) permuted in forward to (3, 17, 65) through the same nn.Linear. Three outputs
(129, 65), (129, 65), (3, 17, 65)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D, T = 129, 65, 17


class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(d, d) * d ** -0.5)
        self.bias = nn.Parameter(torch.randn(d) * 0.1)
        self.fc = nn.Linear(d, d)

    def forward(self, x, s, z):
        y1 = x + F.gelu(x @ self.weight + self.bias, approximate="tanh")
        y2 = s + F.gelu(self.fc(s), approximate="tanh")
        zp = z.permute(0, 2, 1)
        y3 = zp + F.gelu(self.fc(zp), approximate="tanh")
        return y1, y2, y3


def get_inputs():
    x = torch.randn(D, N).t()
    s = torch.randn(N, 80)[:, 7:7 + D]
    z = torch.randn(3, D, T)
    return [x, s, z]


def get_init_inputs():
    return [D]
