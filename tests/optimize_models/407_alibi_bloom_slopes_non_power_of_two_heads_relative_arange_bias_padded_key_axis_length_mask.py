"""ALiBi attention with BLOOM slopes for a non-power-of-two head count and a key axis padded to a
multiple of 8. x (2, 19, 40), int64 lengths (2,) = [19, 14]. Slopes built in forward: closest
power of two 4 -> base ** arange(1, 5) (base 0.25), then torch.cat with extra_base **
arange(1, 3, 2) (extra_base 0.5) for the fifth head -> (5,). q, k, v Linear 40 -> 40, 5 heads of
8; k and v padded along the sequence dim with F.pad(k, (0, 0, 0, 5)) -> (2, 5, 24, 8). Relative
positions arange(24)[None, :] - arange(19)[:, None] (float, <= 0 on allowed keys); bias = slopes
[:, None, None] * rel (5, 19, 24). Mask: causal arange(24)[None, :] <= arange(19)[:, None] and
key validity arange(24)[None, :] < lengths[:, None] -> (2, 1, 19, 24) bool; scores q @ k^T /
sqrt(8) + bias, masked_fill(~mask, -inf), softmax over the padded key axis, @ padded v, merge
heads, out Linear. Output (2, 19, 40)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HEADS, MULT = 2, 19, 40, 5, 8


def alibi_slopes(n, device):
    cp = 2 ** math.floor(math.log2(n))
    base = 2.0 ** (-(2.0 ** -(math.log2(cp) - 3)))
    powers = torch.arange(1, 1 + cp, device=device, dtype=torch.float32)
    slopes = torch.pow(base, powers)
    if cp != n:
        extra_base = 2.0 ** (-(2.0 ** -(math.log2(2 * cp) - 3)))
        remaining = min(cp, n - cp)
        extra_powers = torch.arange(1, 1 + 2 * remaining, 2, device=device, dtype=torch.float32)
        slopes = torch.cat([slopes, torch.pow(extra_base, extra_powers)], dim=0)
    return slopes


class Model(nn.Module):
    def __init__(self, dim, heads, mult):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.mult = mult
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x, lengths):
        b, t, d = x.shape
        h, dh = self.heads, self.head_dim
        tp = (t + self.mult - 1) // self.mult * self.mult
        q = self.q(x).view(b, t, h, dh).transpose(1, 2)
        k = F.pad(self.k(x).view(b, t, h, dh).transpose(1, 2), (0, 0, 0, tp - t))
        v = F.pad(self.v(x).view(b, t, h, dh).transpose(1, 2), (0, 0, 0, tp - t))
        slopes = alibi_slopes(h, x.device)
        kj = torch.arange(tp, device=x.device)
        qi = torch.arange(t, device=x.device)
        rel = (kj[None, :] - qi[:, None]).to(x.dtype)
        bias = slopes[:, None, None] * rel[None]
        causal = kj[None, :] <= qi[:, None]
        valid = kj[None, :] < lengths[:, None]
        mask = causal[None, None] & valid[:, None, None, :]
        scores = q @ k.transpose(-1, -2) / math.sqrt(dh) + bias
        scores = scores.masked_fill(~mask, float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(b, t, d)
        return self.o(out)


def get_inputs():
    return [torch.randn(B, T, D), torch.tensor([T, 14], dtype=torch.int64)]


def get_init_inputs():
    return [D, HEADS, MULT]
