"""softmax over a middle (channel) dim and log_softmax over another middle dim of a 4-D
tensor, i.e. strided reductions."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 3, 21, 15, 33


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        a = F.softmax(x, dim=1)
        b = F.log_softmax(x * 0.5, dim=2)
        return a * 10.0 + b


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return []
