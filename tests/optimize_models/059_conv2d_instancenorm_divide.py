"""Conv2d (valid padding, 5x5) -> InstanceNorm2d -> divide by a Python constant ->
mish."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, C_OUT, H, W = 5, 4, 12, 37, 29


class Model(nn.Module):
    def __init__(self, c_in, c_out, divisor):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 5)
        self.norm = nn.InstanceNorm2d(c_out)
        self.divisor = divisor

    def forward(self, x):
        return F.mish(self.norm(self.conv(x)) / self.divisor)


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT, 2.0]
