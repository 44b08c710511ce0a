"""GeGLU with a single projection (diffusers style): nn.Linear (63 -> 2 * 129, with bias) on
(5, 13, 63), output split with .chunk(2, dim=-1) into value and gate halves (column slices of
one GEMM output), value * F.gelu(gate) (erf), then nn.Linear (129 -> 61). Output (5, 13, 61)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D_IN, HID, D_OUT = 5, 13, 63, 129, 61


class Model(nn.Module):
    def __init__(self, d_in, hidden, d_out):
        super().__init__()
        self.proj = nn.Linear(d_in, 2 * hidden)
        self.out = nn.Linear(hidden, d_out)

    def forward(self, x):
        value, gate = self.proj(x).chunk(2, dim=-1)
        return self.out(value * F.gelu(gate))


def get_inputs():
    return [torch.randn(B, T, D_IN)]


def get_init_inputs():
    return [D_IN, HID, D_OUT]
