"""nn.Linear without bias (96 -> 257) on a (300, 96) batch, divided by a per-row value computed
from the input first (s = x.norm(dim=1, keepdim=True), z = linear(x) / (s + 1e-5)), times a
learnable shape-[1] scalar, plus a (257,) bias; then the pre-activation residual
y = z * sigmoid(z) (SiLU by hand) + 0.5 * F.silu(z) - 0.1 * z.
Input x: (300, 96); output (300, 257)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D_IN, D_OUT = 300, 96, 257


class Model(nn.Module):
    def __init__(self, in_features, out_features, eps):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features, bias=False)
        # ||x|| ~ sqrt(96) ~ 10, so the scalar brings z back to O(1)
        self.alpha = nn.Parameter(torch.full((1,), 12.0))
        self.bias = nn.Parameter(torch.randn(out_features) * 0.1)
        self.eps = eps

    def forward(self, x):
        s = x.norm(dim=1, keepdim=True)
        z = self.fc(x) / (s + self.eps)
        z = z * self.alpha + self.bias
        return z * torch.sigmoid(z) + 0.5 * F.silu(z) - 0.1 * z


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT, 1e-5]
