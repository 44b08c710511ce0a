"""ConvTranspose1d (11 -> 7, k4, stride 3, padding 1, output_padding 2) + bias: length 17 ->
(17 - 1) * 3 - 2 * 1 + 4 + 2 = 52 (the input reaches positions 0..50 only; the last
position, 51, added by output_padding, holds just the bias). Then nn.GroupNorm(1, 7) (one
group: statistics over all of C x L per sample, random affine), GELU(approximate='tanh'),
per-channel (C, 1) scale, and the mean over the length dim subtracted (keepdim).
Input (3, 11, 17); output (3, 7, 52)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, C_OUT, L = 3, 11, 7, 17


class Model(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.up = nn.ConvTranspose1d(c_in, c_out, kernel_size=4, stride=3, padding=1,
                                     output_padding=2)
        self.norm = nn.GroupNorm(1, c_out)
        with torch.no_grad():
            self.norm.weight.copy_(torch.randn(c_out) * 0.3 + 1.0)
            self.norm.bias.copy_(torch.randn(c_out) * 0.2)
        self.scale = nn.Parameter(torch.randn(c_out, 1) * 0.5 + 1.0)

    def forward(self, x):
        y = self.up(x)
        y = self.norm(y)
        y = F.gelu(y, approximate="tanh") * self.scale
        return y - y.mean(dim=-1, keepdim=True)


def get_inputs():
    return [torch.randn(N, C_IN, L)]


def get_init_inputs():
    return [C_IN, C_OUT]
