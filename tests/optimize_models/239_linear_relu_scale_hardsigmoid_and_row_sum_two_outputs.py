"""nn.Linear (200 -> 96, with bias) on a (129, 200) batch whose result z is used twice:
an elementwise chain relu(z) * 2 - 0.5 -> * 8 -> hardsigmoid (both saturations and the linear
part are hit) as the first output, and a non-elementwise row reduction z.sum(dim=1) as the second.
Input x: (129, 200); outputs (129, 96) and (129,) as a tuple."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D_IN, D_OUT = 129, 200, 96


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        z = self.fc(x)
        y = torch.relu(z) * 2.0 - 0.5
        y = F.hardsigmoid(y * 8.0)
        return y, z.sum(dim=1)


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
