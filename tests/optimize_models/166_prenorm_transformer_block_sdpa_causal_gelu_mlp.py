"""Pre-norm transformer block as written in GPT-style code: x + attn(LayerNorm(x)) then
x + mlp(LayerNorm(x)). Attention: fused QKV nn.Linear (48 -> 144), split into 4 heads of
12, F.scaled_dot_product_attention(is_causal=True), heads merged, output nn.Linear. MLP:
nn.Linear(48 -> 192) -> nn.GELU() (erf) -> nn.Linear(192 -> 48).
Input (2, 19, 48); output (2, 19, 48). Causal: query row 0 attends only to key 0."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, H, HIDDEN = 2, 19, 48, 4, 192


class Model(nn.Module):
    def __init__(self, dim, heads, hidden):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(
            nn.Linear(dim, hidden),
            nn.GELU(),
            nn.Linear(hidden, dim),
        )

    def attn(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q = q.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(b, t, d)
        return self.proj(y)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        x = x + self.mlp(self.ln2(x))
        return x


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, H, HIDDEN]
