"""Tiny diffusion UNet predicting eps: sinusoidal embedding of int64 t -> MLP; conv_in;
ResBlock(8) with time add; strided-conv down (9x11 -> 5x6); ResBlock(8->12, 1x1 skip);
mid spatial self-attention (GroupNorm, hand softmax); nearest up x2 -> crop to 9x11 -> conv;
cat skip -> ResBlock(20->8); GroupNorm + silu + conv_out. x = randn(2, 3, 9, 11), t = randint.
Output eps (2, 3, 9, 11)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, cin, cout, tdim):
        super().__init__()
        self.n1 = nn.GroupNorm(4, cin)
        self.c1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.t = nn.Linear(tdim, cout)
        self.n2 = nn.GroupNorm(4, cout)
        self.c2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x, temb):
        h = self.c1(F.silu(self.n1(x))) + self.t(temb)[:, :, None, None]
        return self.skip(x) + self.c2(F.silu(self.n2(h)))


class Model(nn.Module):
    def __init__(self, c, base, tdim):
        super().__init__()
        self.tdim = tdim
        self.mlp = nn.Sequential(nn.Linear(tdim, tdim), nn.SiLU(), nn.Linear(tdim, tdim))
        self.conv_in = nn.Conv2d(c, base, 3, padding=1)
        self.rb1 = ResBlock(base, base, tdim)
        self.down = nn.Conv2d(base, base, 3, stride=2, padding=1)
        self.rb2 = ResBlock(base, base + 4, tdim)
        self.an = nn.GroupNorm(4, base + 4)
        self.qkv = nn.Linear(base + 4, 3 * (base + 4))
        self.up = nn.Conv2d(base + 4, base + 4, 3, padding=1)
        self.rb3 = ResBlock(2 * base + 4, base, tdim)
        self.nout = nn.GroupNorm(4, base)
        self.conv_out = nn.Conv2d(base, c, 3, padding=1)

    def forward(self, x, t):
        half = self.tdim // 2
        f = torch.exp(-math.log(10000.0) * torch.arange(half, device=x.device).float() / half)
        a = t.float()[:, None] * f[None]
        temb = F.silu(self.mlp(torch.cat([torch.sin(a), torch.cos(a)], dim=-1)))
        h0 = self.conv_in(x)
        h1 = self.rb1(h0, temb)
        h2 = self.rb2(self.down(h1), temb)
        n, c, hh, ww = h2.shape
        tok = self.an(h2).flatten(2).transpose(1, 2)
        q, k, v = self.qkv(tok).chunk(3, dim=-1)
        s = q @ k.transpose(1, 2) / math.sqrt(c)
        p = torch.exp(s - s.amax(-1, keepdim=True))
        p = p / p.sum(-1, keepdim=True)
        h2 = h2 + (p @ v).transpose(1, 2).reshape(n, c, hh, ww)
        u = F.interpolate(h2, scale_factor=2, mode="nearest")[:, :, : x.shape[2], : x.shape[3]]
        u = self.up(u)
        h3 = self.rb3(torch.cat([u, h1], dim=1), temb)
        return self.conv_out(F.silu(self.nout(h3)))


def get_inputs():
    return [torch.randn(2, 3, 9, 11), torch.randint(0, 1000, (2,))]


def get_init_inputs():
    return [3, 8, 16]
