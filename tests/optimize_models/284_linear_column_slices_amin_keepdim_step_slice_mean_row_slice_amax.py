"""nn.Linear (48 -> 200, with bias) on a (130, 48) batch, reduced through slices of the result:
z[:, 3:120].amin(dim=-1, keepdim=True) over 117 columns, broadcast against z[:, :5];
z[:, 1::2].mean(dim=1) over the 100 odd columns; z[2:-1].amax(dim=-1) over all 200 columns of
127 rows.
Input x: (130, 48); outputs (130, 5), (130,), (127,) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 130, 48, 200


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        z = self.fc(x)
        a = z[:, 3:120].amin(dim=-1, keepdim=True)
        m = z[:, 1::2].mean(dim=1)
        r = z[2:-1].amax(dim=-1)
        return z[:, :5] - a, m, r


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
