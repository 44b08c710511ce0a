"""Tied-weight autoencoder with weight normalisation written by hand in forward:
w = g * v / v.norm(dim=1, keepdim=True) for an (H, D) = (23, 37) direction parameter v and
(H, 1) gain g; encode F.linear(x, w, b_enc) -> tanh; decode F.linear(h, w.t(), b_dec) (the
same weight transposed, (D, H), a non-contiguous view); returns the reconstruction and the
hidden code. Input (7, 37); outputs (7, 37) and (7, 23)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D, H = 7, 37, 23


class Model(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.v = nn.Parameter(torch.randn(hidden, dim) * 0.2)
        self.g = nn.Parameter(torch.rand(hidden, 1) + 0.5)
        self.b_enc = nn.Parameter(torch.randn(hidden) * 0.1)
        self.b_dec = nn.Parameter(torch.randn(dim) * 0.1)

    def forward(self, x):
        w = self.g * self.v / self.v.norm(dim=1, keepdim=True)
        h = torch.tanh(F.linear(x, w, self.b_enc))
        recon = F.linear(h, w.t(), self.b_dec)
        return recon, h


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return [D, H]
