"""Classifier-free guidance: x duplicated (cat [x, x]) with cond / null embeddings cat'ed,
eps = net(x2, c2) (conv + added projected conditioning); uncond, cond = eps.chunk(2);
g = uncond + s[:, None, None, None] * (cond - uncond) with per-sample scale s (input);
guidance rescale: g_r = g * (std(cond) / std(g)) over (C,H,W), out = 0.7 * g_r + 0.3 * g.
x = randn(3, 4, 9, 11), c = randn(3, 10), s = rand(3) * 7. Outputs: out, g (3, 4, 9, 11)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, c, cdim, hidden):
        super().__init__()
        self.conv_in = nn.Conv2d(c, hidden, 3, padding=1)
        self.cproj = nn.Linear(cdim, hidden)
        self.conv_out = nn.Conv2d(hidden, c, 3, padding=1)
        self.null_emb = nn.Parameter(torch.randn(cdim))

    def forward(self, x, cond, s):
        n = x.shape[0]
        x2 = torch.cat([x, x], dim=0)
        c2 = torch.cat([self.null_emb.expand(n, -1), cond], dim=0)
        h = self.conv_in(x2) + self.cproj(c2)[:, :, None, None]
        eps = self.conv_out(F.silu(h))
        uncond, cnd = eps.chunk(2)
        g = uncond + s[:, None, None, None] * (cnd - uncond)
        std_c = cnd.std(dim=(1, 2, 3), keepdim=True)
        std_g = g.std(dim=(1, 2, 3), keepdim=True)
        g_r = g * (std_c / std_g)
        return 0.7 * g_r + 0.3 * g, g


def get_inputs():
    return [torch.randn(3, 4, 9, 11), torch.randn(3, 10), torch.rand(3) * 7.0]


def get_init_inputs():
    return [4, 10, 8]
