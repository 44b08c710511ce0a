"""nn.Linear (64 -> 37, no bias) on a (257, 64) batch, reduced over the BATCH dim (dim 0), not
over the output features: relu(z).sum(dim=0) * 0.01 giving (37,), and z - z.mean(dim=0,
keepdim=True) (column centring, (1, 37) broadcast back over the rows). A compiler must not
treat these as row reductions.
Input x: (257, 64); outputs (37,) and (257, 37) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 257, 64, 37


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features, bias=False)

    def forward(self, x):
        z = self.fc(x)
        s = torch.relu(z).sum(dim=0)
        m0 = z.mean(dim=0, keepdim=True)
        return s * 0.01, z - m0


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
