"""nn.LayerNorm over the last dim of a (B, T, D) activation with a residual add before it
and GELU after it."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D = 8, 39, 333


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ln = nn.LayerNorm(dim)

    def forward(self, x, res):
        return F.gelu(self.ln(x + res))


def get_inputs():
    return [torch.randn(B, T, D), torch.randn(B, T, D)]


def get_init_inputs():
    return [D]
