"""Causal depthwise Conv1d over time on (B, T, D) tokens (transpose in and out, trim the
right pad) -> SiLU -> LayerNorm over D."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, K = 3, 97, 64, 4


class Model(nn.Module):
    def __init__(self, dim, k):
        super().__init__()
        self.conv = nn.Conv1d(dim, dim, k, padding=k - 1, groups=dim)
        self.ln = nn.LayerNorm(dim)

    def forward(self, x):
        t = x.shape[1]
        y = self.conv(x.transpose(1, 2))[..., :t]
        y = F.silu(y).transpose(1, 2)
        return self.ln(y)


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, K]
