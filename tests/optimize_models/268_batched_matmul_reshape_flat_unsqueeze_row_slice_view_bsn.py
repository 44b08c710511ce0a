"""torch.matmul of x (3, 7, 64) with W (64, 96) after flattening to (21, 64): z (21, 96) reshaped and sliced.
z.view(3, 7, 96) + per-seq column p (7, 1) and per-feature vector q (96,); softplus(z.reshape(-1) - 0.5);
z.unsqueeze(1) * r (1, 4, 1) broadcast to (21, 4, 96); abs(z[1:] - z[:-1]) row difference.
Outputs (3, 7, 96), (2016,), (21, 4, 96), (20, 96)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, S, K, N = 3, 7, 64, 96


class Model(nn.Module):
    def __init__(self, s, k, n):
        super().__init__()
        self.W = nn.Parameter(torch.randn(k, n) * 0.12)
        self.p = nn.Parameter(torch.randn(s, 1))
        self.q = nn.Parameter(torch.randn(n))
        self.register_buffer("r", torch.linspace(-1.0, 1.5, 4).view(1, 4, 1))

    def forward(self, x):
        b, s, k = x.shape
        z = torch.matmul(x.reshape(b * s, k), self.W)
        v = F.silu(z.view(b, s, -1) + self.p + self.q)
        f = F.softplus(z.reshape(-1) - 0.5)
        u = z.unsqueeze(1) * self.r
        d = torch.abs(z[1:] - z[:-1])
        return v, f, u, d


def get_inputs():
    return [torch.randn(B, S, K)]


def get_init_inputs():
    return [S, K, N]
