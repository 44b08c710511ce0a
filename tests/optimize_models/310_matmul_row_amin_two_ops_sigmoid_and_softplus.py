"""torch.matmul (33, 96) x (96, 200) parameter + bias, amin over the last dim, then two different
pointwise chains of the same reduced rows: sigmoid(mn + 2) and softplus(-mn) * 0.5 - 1. Tuple (33,), (33,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D_IN, D_OUT = 33, 96, 200


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * 0.1)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.1)

    def forward(self, x):
        z = torch.matmul(x, self.weight) + self.bias
        mn = torch.amin(z, dim=-1)
        return torch.sigmoid(mn + 2.0), F.softplus(-mn) * 0.5 - 1.0


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
