"""nn.Linear (40 -> 129, with bias) on a (130, 40) batch; the GEMM result z is returned as is
and also reduced twice over its 129 output features (odd count): mu = z.mean(dim=-1) and
mx = z.amax(dim=-1); returns z, mx - mu and mu * 2.
Input x: (130, 40); outputs (130, 129), (130,), (130,) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 130, 40, 129


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        z = self.fc(x)
        mu = z.mean(dim=-1)
        mx = z.amax(dim=-1)
        return z, mx - mu, mu * 2.0


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
