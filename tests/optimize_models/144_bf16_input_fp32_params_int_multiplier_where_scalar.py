"""Mixed dtypes in one chain: a bfloat16 input x times a float32 (D,) parameter plus a float32
bias promotes to float32; an int64 input k in [-3, 4) is cast to float32 and used as a
multiplier; torch.where with a Python-scalar branch (where(h > 0, h, -0.5)) and a
scalar-first branch (where(k == 0, 1.25, ...)); tanh epilogue.
Inputs x: bfloat16 (13, 37), k: int64 (13, 37); output float32 (13, 37)."""

import torch
import torch.nn as nn

R, D = 13, 37


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim))
        self.bias = nn.Parameter(torch.randn(dim) * 0.1)

    def forward(self, x, k):
        h = x * self.weight + self.bias                  # bfloat16 * float32 -> float32
        kf = k.to(torch.float32)
        h = h * kf * 0.5 + x.float()
        g = torch.where(h > 0, h, -0.5)
        g = torch.where(k == 0, 1.25, g)
        return torch.tanh(g) * self.weight


def get_inputs():
    x = torch.randn(R, D).to(torch.bfloat16)
    k = torch.randint(-3, 4, (R, D), dtype=torch.int64)
    return [x, k]


def get_init_inputs():
    return [D]
