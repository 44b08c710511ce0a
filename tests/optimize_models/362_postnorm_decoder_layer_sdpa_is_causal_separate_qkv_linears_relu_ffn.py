"""Post-norm (original Transformer / nn.TransformerEncoderLayer(norm_first=False) style)
causal self-attention layer: x = norm1(x + self_attn(x)); x = norm2(x + ffn(x)).
The attention module uses separate q / k / v nn.Linear(36 -> 36) projections, view(B, T, 3,
12).transpose(1, 2) into 3 heads of 12, F.scaled_dot_product_attention(q, k, v,
is_causal=True), transpose(1, 2).contiguous().view(B, T, 36), out nn.Linear. FFN:
nn.Linear(36 -> 99) -> ReLU -> nn.Linear(99 -> 36). LayerNorms have random affine.
Input (3, 13, 36); output (3, 13, 36)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HEADS, FF = 3, 13, 36, 3, 99


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        b, t, d = x.size()
        hd = d // self.n_heads
        q = self.q_proj(x).view(b, t, self.n_heads, hd).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.n_heads, hd).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.n_heads, hd).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(b, t, d)
        return self.out_proj(y)


class Model(nn.Module):
    def __init__(self, d_model, n_heads, dim_feedforward):
        super().__init__()
        self.self_attn = CausalSelfAttention(d_model, n_heads)
        self.linear1 = nn.Linear(d_model, dim_feedforward)
        self.linear2 = nn.Linear(dim_feedforward, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        with torch.no_grad():
            for norm in (self.norm1, self.norm2):
                norm.weight.copy_(torch.randn(d_model) * 0.2 + 1.0)
                norm.bias.copy_(torch.randn(d_model) * 0.1)

    def _ff_block(self, x):
        return self.linear2(F.relu(self.linear1(x)))

    def forward(self, src):
        x = src
        x = self.norm1(x + self.self_attn(x))
        x = self.norm2(x + self._ff_block(x))
        return x


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, HEADS, FF]
