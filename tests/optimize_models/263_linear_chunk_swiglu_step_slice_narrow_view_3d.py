"""SwiGLU-style gating on a 3-D nn.Linear result plus strided and narrowed slices of the same result.
x (3, 7, 48) -> Linear 48 -> 192 gives z (3, 7, 192); a, b = z.chunk(2, dim=-1); g = a * silu(b) (3, 7, 96);
e = z[..., ::2] (even columns, 96) * sigmoid(z[..., 1::2]); n = z.narrow(-1, 37, 48) tanh;
z.view(21, 192)[1:] * 0.5; outputs g, e + g, n, and the (20, 192) row slice."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, S, D, H = 3, 7, 48, 96


class Model(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.fc = nn.Linear(d, 2 * h)

    def forward(self, x):
        z = self.fc(x)
        a, b = z.chunk(2, dim=-1)
        g = a * F.silu(b)
        e = z[..., ::2] * torch.sigmoid(z[..., 1::2])
        n = torch.tanh(z.narrow(-1, 37, 48))
        r = z.view(-1, z.shape[-1])[1:] * 0.5
        return g, e + g, n, r


def get_inputs():
    return [torch.randn(B, S, D)]


def get_init_inputs():
    return [D, H]
