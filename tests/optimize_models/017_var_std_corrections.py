"""Variance and standard deviation with unbiased=True/False and correction=0/1/2 over
different dims, combined pointwise."""

import torch
import torch.nn as nn

B, C, L = 7, 25, 143


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        v1 = torch.var(x, dim=-1, unbiased=False)              # (B, C)
        v2 = x.var(dim=-1)                                     # unbiased default
        s1 = torch.std(x, dim=-1, correction=0)
        s2 = x.std(dim=-1, correction=2)
        s3 = torch.std(x, dim=1, keepdim=True)                 # (B, 1, L)
        a = v1 - v2 + torch.sqrt(s1 * s2)
        b = x / (s3 + 1e-3)
        return a, b


def get_inputs():
    return [torch.randn(B, C, L)]


def get_init_inputs():
    return []
