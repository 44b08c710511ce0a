"""nn.Linear (72 -> 120, with bias) applied to a 3-D (3, 43, 72) input, silu, then
amin(dim=-1, keepdim=True) over the 120 output features (a multiple of 8, not of 128) giving
(3, 43, 1), broadcast against a second input of a different last size: y * 0.5 - mn.
Inputs x: (3, 43, 72), y: (3, 43, 17); output (3, 43, 17)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, S, D_IN, D_OUT, D_Y = 3, 43, 72, 120, 17


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x, y):
        h = F.silu(self.fc(x))
        mn = h.amin(dim=-1, keepdim=True)
        return y * 0.5 - mn


def get_inputs():
    return [torch.randn(B, S, D_IN), torch.randn(B, S, D_Y)]


def get_init_inputs():
    return [D_IN, D_OUT]
