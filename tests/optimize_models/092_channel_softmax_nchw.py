"""Softmax over the channel dim (dim 1) of an NCHW activation, as in a segmentation head
or a channel-attention gate: a per-channel bias and temperature before the softmax, and
the probabilities used to weight the input and summed back over channels afterwards."""

import torch
import torch.nn as nn

N, C, H, W = 2, 19, 33, 41


class Model(nn.Module):
    def __init__(self, channels, temperature):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(1, channels, 1, 1))
        self.temperature = temperature

    def forward(self, x):
        p = torch.softmax((x + self.bias) / self.temperature, dim=1)
        pooled = (p * x).sum(dim=1, keepdim=True)
        return p, pooled


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, 0.7]
