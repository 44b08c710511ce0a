"""Reductions over the channel dim (dim 1, not innermost) of an (N, C, H, W) tensor: a
pointwise prologue (per-channel scale, leaky_relu) feeds sum, mean and amax over dim 1;
the keepdim mean is broadcast back and subtracted, and the sum and amax get a pointwise
epilogue (sigmoid, tanh)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 3, 37, 29, 31


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(1, channels, 1, 1))

    def forward(self, x):
        y = F.leaky_relu(x * self.scale, 0.1)
        s = torch.sigmoid(y.sum(dim=1) * 0.05)
        m = y.mean(dim=1, keepdim=True)
        centred = y - m
        a = torch.tanh(y.amax(dim=1))
        return centred, s, a


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]
