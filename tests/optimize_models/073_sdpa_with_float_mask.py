"""F.scaled_dot_product_attention with a float additive attention mask (ALiBi-style
linear bias), non-causal, then a residual and a LayerNorm."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, H, T, HD = 2, 3, 45, 32


class Model(nn.Module):
    def __init__(self, heads, seq):
        super().__init__()
        pos = torch.arange(seq, dtype=torch.float32)
        slopes = torch.tensor([2.0 ** -(i + 1) for i in range(heads)]).view(heads, 1, 1)
        self.register_buffer("bias", -slopes * (pos.view(1, -1) - pos.view(-1, 1)).abs())
        self.ln = nn.LayerNorm(HD)

    def forward(self, q, k, v):
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=self.bias)
        return self.ln(o + q)


def get_inputs():
    return [torch.randn(B, H, T, HD), torch.randn(B, H, T, HD), torch.randn(B, H, T, HD)]


def get_init_inputs():
    return [H, T]
