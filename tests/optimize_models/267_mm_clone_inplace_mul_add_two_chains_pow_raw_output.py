"""torch.mm on x (48, 64) and W (64, 96), result z (48, 96) used by two elementwise chains and returned as is.
Chain 1: z2 = z.clone(); z2.mul_(2); z2.add_(1); z2.clamp_(min=-3); then z2 * s (0-dim).
Chain 2: sigmoid(z) * z.pow(3) / (1 + z.abs()) + cat([z[:, 48:], z[:, :48]], 1) (halves swapped).
Outputs chain1 (48, 96), chain2 (48, 96), z (48, 96) unchanged by the in-place ops on the clone."""

import torch
import torch.nn as nn
import torch.nn.functional as F

M, K, N = 48, 64, 96


class Model(nn.Module):
    def __init__(self, k, n):
        super().__init__()
        self.W = nn.Parameter(torch.randn(k, n) * 0.12)
        self.s = nn.Parameter(torch.tensor(-1.25))

    def forward(self, x):
        z = torch.mm(x, self.W)
        z2 = z.clone()
        z2.mul_(2)
        z2.add_(1)
        z2.clamp_(min=-3)
        c1 = z2 * self.s
        half = z.shape[1] // 2
        sw = torch.cat([z[:, half:], z[:, :half]], dim=1)
        c2 = torch.sigmoid(z) * z.pow(3) / (1 + z.abs()) + sw
        return c1, c2, z


def get_inputs():
    return [torch.randn(M, K)]


def get_init_inputs():
    return [K, N]
