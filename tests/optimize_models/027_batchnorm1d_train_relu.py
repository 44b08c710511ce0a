"""nn.BatchNorm1d in default train mode on (N, C) features (batch statistics, running stats
updated), between a pointwise scale and ReLU."""

import torch
import torch.nn as nn

N, C = 157, 83


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.bn = nn.BatchNorm1d(features, momentum=0.2)

    def forward(self, x):
        y = self.bn(x * 1.5 + 0.25)
        return torch.relu(y)


def get_inputs():
    return [torch.randn(N, C)]


def get_init_inputs():
    return [C]
