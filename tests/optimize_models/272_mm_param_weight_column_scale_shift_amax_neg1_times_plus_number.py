"""torch.mm of a (7, 160) batch with a (160, 128) weight parameter (in x out layout), then a
per-output-column chain z * scale + shift with (128,) parameters (scale has both signs), a row
amax(dim=-1) over the 128 columns (keepdim=False), and * 0.5 + 2.0 on the reduced values.
Input x: (7, 160); output (7,)."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 7, 160, 128


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * 0.08)
        self.scale = nn.Parameter(torch.randn(out_features) * 0.8 + 0.2)
        self.shift = nn.Parameter(torch.randn(out_features) * 0.5)

    def forward(self, x):
        z = torch.mm(x, self.weight)
        z = z * self.scale + self.shift
        r = z.amax(dim=-1)
        return r * 0.5 + 2.0


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
