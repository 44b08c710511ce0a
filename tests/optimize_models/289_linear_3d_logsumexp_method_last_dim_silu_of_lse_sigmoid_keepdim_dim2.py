"""nn.Linear (40 -> 129, with bias) on a 3-D (3, 17, 40) input [B, T, F], reduced over the last
dim: lse = z.logsumexp(-1) of shape (3, 17), then a per-row value computed from the logsumexp
itself, lse * torch.sigmoid(lse); and torch.logsumexp(torch.sigmoid(z) * 4.0, dim=2,
keepdim=True) of shape (3, 17, 1).
Input x: (3, 17, 40); outputs (3, 17) and (3, 17, 1) as a tuple."""

import torch
import torch.nn as nn

B, T, D_IN, D_OUT = 3, 17, 40, 129


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        z = self.fc(x)
        lse = z.logsumexp(-1)
        s = torch.logsumexp(torch.sigmoid(z) * 4.0, dim=2, keepdim=True)
        return lse * torch.sigmoid(lse), s


def get_inputs():
    return [torch.randn(B, T, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
