"""torch.matmul of a 3-D input (4, 37, 200) with a (200, 96) weight parameter plus a (96,) bias,
then torch.where(z > threshold, z, z * 0.2) with a learnable 0-dim threshold, F.hardtanh with
float bounds (-0.6, 2.0), mish, and * 1.25. Output stays 3-D.
Input x: (4, 37, 200); output (4, 37, 96)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D_IN, D_OUT = 4, 37, 200, 96


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        # z has std about 1.4 so both where branches and both hardtanh bounds are hit
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * 0.1)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.1)
        self.threshold = nn.Parameter(torch.tensor(-0.25))

    def forward(self, x):
        z = torch.matmul(x, self.weight) + self.bias
        z = torch.where(z > self.threshold, z, z * 0.2)
        z = F.hardtanh(z, min_val=-0.6, max_val=2.0)
        return F.mish(z) * 1.25


def get_inputs():
    return [torch.randn(B, T, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
