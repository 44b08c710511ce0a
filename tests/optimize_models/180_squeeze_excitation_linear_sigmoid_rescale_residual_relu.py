"""Squeeze-and-excitation block: nn.AdaptiveAvgPool2d(1) + flatten (global average pool
to (N, C)), Linear(C -> C // 4) -> ReLU -> Linear(C // 4 -> C) -> sigmoid, channel-wise
rescale of the input by s.view(N, C, 1, 1), residual add of the input, ReLU.
Input (3, 21, 11, 13); output (3, 21, 11, 13)."""

import torch
import torch.nn as nn

N, C, H, W, REDUCTION = 3, 21, 11, 13, 4


class Model(nn.Module):
    def __init__(self, channels, reduction):
        super().__init__()
        hidden = channels // reduction
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Sequential(
            nn.Linear(channels, hidden),
            nn.ReLU(inplace=True),
            nn.Linear(hidden, channels),
            nn.Sigmoid(),
        )

    def forward(self, x):
        n, c, _, _ = x.shape
        s = self.pool(x).flatten(1)
        s = self.fc(s).view(n, c, 1, 1)
        out = x * s
        return torch.relu(out + x)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, REDUCTION]
