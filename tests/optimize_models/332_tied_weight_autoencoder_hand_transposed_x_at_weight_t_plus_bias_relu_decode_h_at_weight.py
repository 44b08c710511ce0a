"""Tied-weight autoencoder written by hand: one (65, 97) weight parameter used by two GEMMs,
encode h = relu(x @ self.weight.t() + self.bias) (transposed by hand, (45, 97) -> (45, 65)), decode
h @ self.weight (the same parameter untransposed) + a (97,) decoder bias, sigmoid. Returns the
reconstruction (45, 97) and the code h (45, 65)."""

import torch
import torch.nn as nn

N, D, H = 45, 97, 65


class Model(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(h, d) * d ** -0.5)
        self.bias = nn.Parameter(torch.randn(h) * 0.1)
        self.dec_bias = nn.Parameter(torch.randn(d) * 0.1)

    def forward(self, x):
        h = torch.relu(x @ self.weight.t() + self.bias)
        recon = torch.sigmoid(h @ self.weight + self.dec_bias)
        return recon, h


def get_inputs():
    return [torch.randn(N, D)]


def get_init_inputs():
    return [D, H]
