"""nn.RMSNorm over the last dim inside a pre-norm residual block: x + silu(rmsnorm(x)) * g."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D = 4, 51, 384


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.RMSNorm(dim, eps=1e-6)
        self.gate = nn.Parameter(torch.randn(dim) * 0.1)

    def forward(self, x):
        return x + F.silu(self.norm(x)) * self.gate


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D]
