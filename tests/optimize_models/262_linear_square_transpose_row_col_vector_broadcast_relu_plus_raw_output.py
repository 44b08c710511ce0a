"""Square nn.Linear (64 -> 64) on x (64, 64), result z read transposed and broadcast against row and column vectors.
y1 = relu(z.t() * w[None, :] + v[:, None]) where w, v are both length 64 (row and column indistinguishable by shape);
y2 = z * w[None, :] - v[:, None] (same vectors, untransposed order); z also returned as is.
Outputs three (64, 64) tensors."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N = 64


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, n)
        self.w = nn.Parameter(torch.randn(n))
        self.v = nn.Parameter(torch.randn(n))

    def forward(self, x):
        z = self.fc(x)
        y1 = F.relu(z.t() * self.w[None, :] + self.v[:, None])
        y2 = z * self.w[None, :] - self.v[:, None]
        return y1, y2, z


def get_inputs():
    return [torch.randn(N, N)]


def get_init_inputs():
    return [N]
