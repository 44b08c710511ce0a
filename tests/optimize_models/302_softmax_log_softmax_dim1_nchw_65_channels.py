"""softmax and log_softmax over dim 1 (65 channels, not innermost) of an NCHW (2, 65, 23, 29) tensor,
with a scaled input (x * 2.5) for the softmax and a per-channel (C, 1, 1) bias for the log_softmax.
Outputs (2, 65, 23, 29) twice as a tuple."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 65, 23, 29


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(channels, 1, 1) * 0.5)

    def forward(self, x):
        p = torch.softmax(x * 2.5, dim=1)
        lp = F.log_softmax(x + self.bias, dim=1)
        return p, lp


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]
