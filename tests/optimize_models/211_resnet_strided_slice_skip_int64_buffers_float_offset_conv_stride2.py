"""Residual downsampling block whose skip connection is a strided slice x[:, :, ::2, ::2]
(15 x 13 -> 8 x 7, non-contiguous view) scaled by a 0-dim parameter, main path Conv2d 3x3
stride 2 padding 1 + bias -> relu -> Conv2d 3x3 padding 1 + bias. Two int64 buffers are used
as float offsets: a per-channel int64 (C,) table (arange(C) % 3) times 0.1 (int64 tensor *
Python float gives float32) and a 0-dim int64 step counter (7) used as 1.0 / (step + 1).
Input (2, 8, 15, 13); output (2, 8, 8, 7)."""

import torch
import torch.nn as nn

N, C, H, W = 2, 8, 15, 13


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.skip_scale = nn.Parameter(torch.tensor(0.8))
        self.register_buffer("channel_offset", torch.arange(channels) % 3)
        self.register_buffer("step", torch.tensor(7, dtype=torch.int64))

    def forward(self, x):
        y = self.conv2(torch.relu(self.conv1(x)))
        y = y + x[:, :, ::2, ::2] * self.skip_scale
        y = y + (self.channel_offset * 0.1).view(1, -1, 1, 1)
        y = y * (1.0 / (self.step + 1))
        return torch.relu(y)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]
