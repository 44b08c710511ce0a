"""Square nn.Linear (64 -> 64, no bias) on x (64, 64) -> z (64, 64), read as t = z.transpose(0, 1) and column-sliced.
a = t[:, :32] * y[:, :32] (full-size second input y (64, 64)) + w[None, :32];
b = where(t[:, 32:] > y[:, 32:], t[:, 32:], y[:, 32:]) - v[:, None]; z2 = z.clone(); z2.sub_(v[:, None]); z2.div_(2);
Outputs cat([a, b], 1) (64, 64), z2 (64, 64), and relu(z) (64, 64)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N = 64


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, n, bias=False)
        self.w = nn.Parameter(torch.randn(n))
        self.v = nn.Parameter(torch.randn(n))

    def forward(self, x, y):
        z = self.fc(x)
        h = z.shape[1] // 2
        t = z.transpose(0, 1)
        a = t[:, :h] * y[:, :h] + self.w[None, :h]
        b = torch.where(t[:, h:] > y[:, h:], t[:, h:], y[:, h:]) - self.v[:, None]
        z2 = z.clone()
        z2.sub_(self.v[:, None])
        z2.div_(2)
        return torch.cat([a, b], dim=1), z2, F.relu(z)


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return [N]
