"""nn.Conv3d (kernel 3, no bias) -> nn.BatchNorm3d in training mode (momentum 0.2)
-> per-channel (C,1,1,1) multiply -> tanh. Forward updates the batch-norm buffers
(running_mean, running_var, num_batches_tracked): compare them as well as the output.
Input (2, 3, 7, 11, 9); output (2, 6, 5, 9, 7)."""

import torch
import torch.nn as nn

N, C_IN, C_OUT, D, H, W = 2, 3, 6, 7, 11, 9


class Model(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv3d(c_in, c_out, kernel_size=3, bias=False)
        self.bn = nn.BatchNorm3d(c_out, momentum=0.2)
        self.scale = nn.Parameter(torch.randn(c_out, 1, 1, 1))

    def forward(self, x):
        x = self.bn(self.conv(x))
        return torch.tanh(x * self.scale)


def get_inputs():
    return [torch.randn(N, C_IN, D, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT]
