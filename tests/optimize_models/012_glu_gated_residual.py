"""Gating via chunk: a * sigmoid(b) and F.glu on the same input, added back to half the
input as a residual."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D = 6, 41, 2 * 75


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        a, b = x.chunk(2, dim=-1)
        gated = a * torch.sigmoid(b)
        g2 = F.glu(x, dim=-1)
        return gated + 0.5 * g2 + a


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return []
