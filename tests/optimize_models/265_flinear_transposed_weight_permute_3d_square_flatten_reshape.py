"""F.linear with a non-contiguous weight (transposed (48, 48) parameter .t()) on x (3, 48, 48), square per batch.
z (3, 48, 48) read as z.permute(0, 2, 1) and z.permute(2, 0, 1) plus a per-feature vector u (48,) [None, None, :];
softsign(z.flatten() * 2 - 1) of length 3*48*48; leaky_relu(z.reshape(3, -1), 0.1).
Outputs (3, 48, 48), (48, 3, 48), (6912,), (3, 2304)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N = 3, 48


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.Wt = nn.Parameter(torch.randn(n, n) * 0.15)   # stored as (in, out), used as .t()
        self.b = nn.Parameter(torch.randn(n))
        self.u = nn.Parameter(torch.randn(n))

    def forward(self, x):
        z = F.linear(x, self.Wt.t(), self.b)
        p1 = torch.tanh(z.permute(0, 2, 1) + self.u[None, None, :])
        p2 = z.permute(2, 0, 1) * self.u[:, None, None]
        f = F.softsign(z.flatten() * 2 - 1)
        r = F.leaky_relu(z.reshape(z.shape[0], -1), 0.1)
        return p1, p2, f, r


def get_inputs():
    return [torch.randn(B, N, N)]


def get_init_inputs():
    return [N]
