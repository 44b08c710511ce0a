"""Rounding modes used in quantisers, on a scaled tensor with exact .5 ties forced in:
floor, ceil, torch.round (half to even), trunc, half away from zero sign(v) * floor(|v| + 0.5),
half up floor(v + 0.5); each dequantised with step 0.25 and clamped to [-128, 127] codes.
Outputs: six dequantised tensors and the int64 count of places where round != half-away."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, step):
        super().__init__()
        self.step = step

    def forward(self, x):
        v = x / self.step
        modes = [
            torch.floor(v),
            torch.ceil(v),
            torch.round(v),
            torch.trunc(v),
            torch.sign(v) * torch.floor(v.abs() + 0.5),
            torch.floor(v + 0.5),
        ]
        outs = [torch.clamp(m, -128, 127) * self.step for m in modes]
        diff = (modes[2] != modes[4]).sum()
        return (*outs, diff)


def get_inputs():
    x = torch.randn(7, 33) * 4.0
    halves = (torch.randint(-40, 40, (7, 11)).float() + 0.5) * 0.25
    x[:, :11] = halves
    return [x]


def get_init_inputs():
    return [0.25]
