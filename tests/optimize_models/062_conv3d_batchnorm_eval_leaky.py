"""Conv3d -> F.batch_norm(training=False) on registered running stats -> leaky ReLU ->
clamp_min -> mean over all spatial dims."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, C_OUT, D, H, W = 2, 4, 8, 7, 13, 11


class Model(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv3d(c_in, c_out, 3, padding=1)
        self.register_buffer("rm", torch.randn(c_out) * 0.1)
        self.register_buffer("rv", torch.rand(c_out) + 0.5)
        self.weight = nn.Parameter(torch.rand(c_out) + 0.5)
        self.bias = nn.Parameter(torch.randn(c_out) * 0.1)

    def forward(self, x):
        y = self.conv(x)
        y = F.batch_norm(y, self.rm, self.rv, self.weight, self.bias, training=False)
        y = torch.clamp_min(F.leaky_relu(y, 0.2), -0.1)
        return y, y.mean(dim=(2, 3, 4))


def get_inputs():
    return [torch.randn(N, C_IN, D, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT]
