"""nn.Linear (80 -> 200, with bias) on a (45, 80) batch, reduced through a transpose of the
result zt = z.t() (200, 45): zt.sum(dim=0) is the row sum of z over its 200 output features
(45,); z.transpose(0, 1).amax(dim=-1) is a max over the BATCH (200,), not a row reduction;
zt.mean(dim=0, keepdim=True) (1, 45) row means broadcast back against zt.
Input x: (45, 80); outputs (45,), (200,), (200, 45) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 45, 80, 200


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        z = self.fc(x)
        zt = z.t()
        s = zt.sum(dim=0)
        c = z.transpose(0, 1).amax(dim=-1)
        m = zt.mean(dim=0, keepdim=True)
        return s * 0.5, c, zt - m


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
