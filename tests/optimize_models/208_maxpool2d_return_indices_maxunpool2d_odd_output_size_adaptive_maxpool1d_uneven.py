"""nn.MaxPool2d(2, stride=2, return_indices=True) on an odd (15, 13) map -> (7, 6) values and
int64 flat indices (last row / column dropped); values go through a per-channel (C,1,1)
scale + bias and relu, then nn.MaxUnpool2d(2, stride=2) with output_size=(15, 13) (the
default would be 14 x 12) scatters them back to the argmax positions, zeros elsewhere;
residual add of the input. Also nn.AdaptiveMaxPool1d(5) on x.mean(dim=2) of length 13
(5 does not divide 13: windows [0,3) [2,6) [5,8) [7,11) [10,13) overlap).
Input (2, 6, 15, 13); outputs (2, 6, 15, 13) float, (2, 6, 7, 6) int64 indices, (2, 6, 5)."""

import torch
import torch.nn as nn

N, C, H, W = 2, 6, 15, 13


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.pool = nn.MaxPool2d(2, stride=2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2, stride=2)
        self.scale = nn.Parameter(torch.rand(channels, 1, 1) + 0.5)
        self.shift = nn.Parameter(torch.randn(channels, 1, 1) * 0.3)
        self.apool = nn.AdaptiveMaxPool1d(5)

    def forward(self, x):
        y, idx = self.pool(x)
        y = torch.relu(y * self.scale + self.shift)
        up = self.unpool(y, idx, output_size=x.shape[-2:])
        p = self.apool(x.mean(dim=2))
        return x + up, idx, p


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]
