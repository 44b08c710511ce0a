"""InstanceNorm1d (affine) on a (B, C, L) sequence that arrives non-contiguous (a (B, L, C)
tensor transposed in get_inputs), plus InstanceNorm3d (affine) on a (N, C, D, H, W) volume,
each followed by a residual add of its input. Inputs (3, 7, 101) and (2, 5, 7, 9, 11);
returns both results."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, c1, c3, eps):
        super().__init__()
        self.in1 = nn.InstanceNorm1d(c1, eps=eps, affine=True)
        self.in3 = nn.InstanceNorm3d(c3, eps=eps, affine=True)
        with torch.no_grad():
            self.in1.weight.copy_(1.0 + 0.5 * torch.randn(c1))
            self.in1.bias.copy_(0.3 * torch.randn(c1))
            self.in3.weight.copy_(1.0 + 0.5 * torch.randn(c3))
            self.in3.bias.copy_(0.3 * torch.randn(c3))

    def forward(self, seq, vol):
        a = seq + self.in1(seq)
        b = vol + 0.5 * self.in3(vol)
        return a, b


def get_inputs():
    seq = (torch.randn(3, 101, 7) * 1.5 + 0.3).transpose(1, 2)
    vol = torch.randn(2, 5, 7, 9, 11) * 0.8 - 0.2
    return [seq, vol]


def get_init_inputs():
    return [7, 5, 1e-5]
