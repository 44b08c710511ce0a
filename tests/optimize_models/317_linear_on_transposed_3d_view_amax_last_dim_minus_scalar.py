"""nn.Linear applied to a NON-CONTIGUOUS 3-D view made in forward: x (17, 5, 48) is
x.transpose(0, 1) -> (5, 17, 48) (strides (48, 240, 1)), Linear -> 129, amax over the last dim,
then * 0.5 - 1.0 on the reduced values.
Input x: (17, 5, 48); output (5, 17)."""

import torch
import torch.nn as nn

T, B, D_IN, D_OUT = 17, 5, 48, 129


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        xt = x.transpose(0, 1)
        z = self.fc(xt)
        return z.amax(dim=-1) * 0.5 - 1.0


def get_inputs():
    return [torch.randn(T, B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
