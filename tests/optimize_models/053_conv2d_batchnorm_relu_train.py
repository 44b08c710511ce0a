"""Conv2d (no bias) -> BatchNorm2d in train mode -> ReLU: the classic conv block as seen
in a training forward."""

import torch
import torch.nn as nn

N, C_IN, C_OUT, H, W = 6, 3, 20, 33, 33


class Model(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, stride=2, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(c_out)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT]
