"""VQ-VAE quantiser: z (N, C, H, W) -> 1x1 conv -> tokens (N*H*W, D);
d = sum(z^2, 1, keepdim) - 2 z @ E^T + sum(E^2, 1)[None]; idx = argmin(d, 1) (int64);
q = F.embedding(idx, E) reshaped back to (N, D, H, W);
loss = mse(q, z.detach()) + 0.25 * mse(q.detach(), z); straight-through q_st = z + (q - z).detach().
x = randn(2, 5, 7, 9), codebook 23 x 6. Outputs: q_st (2, 6, 7, 9), loss (0-dim), idx (2, 7, 9)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, dim, num_codes, beta):
        super().__init__()
        self.proj = nn.Conv2d(cin, dim, 1)
        self.codebook = nn.Parameter(torch.randn(num_codes, dim))
        self.beta = beta

    def forward(self, x):
        z = self.proj(x)
        n, d, h, w = z.shape
        flat = z.permute(0, 2, 3, 1).reshape(-1, d)
        e = self.codebook
        dist = flat.pow(2).sum(1, keepdim=True) - 2.0 * flat @ e.t() + e.pow(2).sum(1)[None, :]
        idx = dist.argmin(dim=1)
        q = F.embedding(idx, e).view(n, h, w, d).permute(0, 3, 1, 2)
        loss = F.mse_loss(q, z.detach()) + self.beta * F.mse_loss(q.detach(), z)
        q_st = z + (q - z).detach()
        return q_st, loss, idx.view(n, h, w)


def get_inputs():
    return [torch.randn(2, 5, 7, 9)]


def get_init_inputs():
    return [5, 6, 23, 0.25]
