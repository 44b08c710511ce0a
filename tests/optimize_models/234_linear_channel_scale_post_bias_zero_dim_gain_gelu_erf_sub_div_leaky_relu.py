"""nn.Linear (257 -> 200, with bias) on a (129, 257) batch, then an elementwise chain with
per-output-feature parameters: * scale (200,), + post-bias (200,), * a learnable 0-dim gain,
GELU(approximate='none'), - 0.3, / 1.7, leaky_relu(negative_slope=0.05).
Input x: (129, 257); output (129, 200)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D_IN, D_OUT = 129, 257, 200


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        # scale has both signs (some features get flipped), bias shifts both ways
        self.scale = nn.Parameter(torch.randn(out_features) * 0.8 + 0.5)
        self.post_bias = nn.Parameter(torch.randn(out_features) * 0.1)
        self.gain = nn.Parameter(torch.tensor(1.3))

    def forward(self, x):
        z = self.fc(x)
        z = z * self.scale + self.post_bias
        z = z * self.gain
        z = F.gelu(z, approximate="none")
        z = z - 0.3
        z = z / 1.7
        return F.leaky_relu(z, negative_slope=0.05)


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
