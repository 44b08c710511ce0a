"""A channels_last 4-D input through pointwise ops and per-channel reductions, then
torch.flatten(start_dim=1) after a permute.
x (3, 13, 9, 11) float32 in channels_last memory format (strides (1287, 1, 143, 13)),
g, b (13, 1, 1) parameters, lw (7, 13) and lb (7,) for a small head.
p = silu(x * g + b) (stays channels_last under PyTorch's pointwise rules);
mu = p.mean(dim=(0, 2, 3), keepdim=True) (1, 13, 1, 1); var = p.var(dim=(0, -2, -1),
keepdim=True, correction=0); amx = p.amax(dim=(0, 2, 3)) (13,);
z = (p - mu) * rsqrt(var + 1e-5) (4-D, per-channel standardisation);
cs = z.sum(dim=1) (3, 9, 11) (reduction over the channel dim, the innermost in memory);
f = torch.flatten(z.permute(0, 2, 3, 1), start_dim=1) (3, 9 * 11 * 13) (NHWC order: a copy of
a channels_last tensor viewed as NHWC); f2 = torch.flatten(x.permute(0, 3, 1, 2), start_dim=1)
(3, 11 * 13 * 9);
head = z.permute(0, 2, 3, 1) @ lw.t() + lb (3, 9, 11, 7) -> mean over (1, 2) (3, 7).
Outputs: z, mu, var, amx, cs, f, f2, head."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, c, k):
        super().__init__()
        self.g = nn.Parameter(torch.rand(c, 1, 1) + 0.5)
        self.b = nn.Parameter(torch.randn(c, 1, 1) * 0.2)
        self.lw = nn.Parameter(torch.randn(k, c) * 0.3)
        self.lb = nn.Parameter(torch.randn(k) * 0.1)

    def forward(self, x):
        p = F.silu(x * self.g + self.b)
        mu = p.mean(dim=(0, 2, 3), keepdim=True)
        var = p.var(dim=(0, -2, -1), keepdim=True, correction=0)
        amx = p.amax(dim=(0, 2, 3))
        z = (p - mu) * torch.rsqrt(var + 1e-5)
        cs = z.sum(dim=1)
        f = torch.flatten(z.permute(0, 2, 3, 1), start_dim=1)
        f2 = torch.flatten(x.permute(0, 3, 1, 2), start_dim=1)
        head = (z.permute(0, 2, 3, 1) @ self.lw.t() + self.lb).mean(dim=(1, 2))
        return z, mu, var, amx, cs, f, f2, head


def get_inputs():
    x = torch.randn(3, 13, 9, 11).contiguous(memory_format=torch.channels_last)
    return [x]


def get_init_inputs():
    return [13, 7]
