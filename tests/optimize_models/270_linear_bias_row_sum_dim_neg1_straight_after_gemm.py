"""nn.Linear (200 -> 257, with bias) on a (130, 200) batch, reduced straight away with
z.sum(dim=-1) over the 257 output features (not a multiple of 8); no pointwise op in between.
Input x: (130, 200); output (130,)."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 130, 200, 257


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        z = self.fc(x)
        return z.sum(dim=-1)


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
