"""Self-attention with one fused qkv nn.Linear (35 -> 105) on (3, 13, 35), reshaped to
(B, T, 3, 5, 7) and permuted (2, 0, 3, 1, 4) then unbind(0) into q, k, v views; scores by
torch.einsum('bhqd,bhkd->bhqk') * 7 ** -0.5, a bool key-padding input (3, 13) (True = pad, key 0
never padded) broadcast as pad[:, None, None, :] into masked_fill(-inf), softmax(dim=-1),
torch.einsum('bhqk,bhkd->bhqd'), permute(0, 2, 1, 3).reshape, out nn.Linear, residual add of x.
Output (3, 13, 35)."""

import torch
import torch.nn as nn

B, T, C, H = 3, 13, 35, 5


class Model(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, pad):
        b, t, c = x.shape
        qkv = self.qkv(x).reshape(b, t, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        s = torch.einsum("bhqd,bhkd->bhqk", q, k) * self.scale
        s = s.masked_fill(pad[:, None, None, :], float("-inf"))
        p = s.softmax(dim=-1)
        o = torch.einsum("bhqk,bhkd->bhqd", p, v)
        o = o.permute(0, 2, 1, 3).reshape(b, t, c)
        return x + self.proj(o)


def get_inputs():
    lengths = torch.tensor([13, 9, 4])
    pad = torch.arange(T)[None, :] >= lengths[:, None]
    return [torch.randn(B, T, C), pad]


def get_init_inputs():
    return [C, H]
