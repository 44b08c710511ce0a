"""Self-attention with F.scaled_dot_product_attention using a boolean attn_mask
(True = attend) built in forward from an int64 per-sequence length input:
key_valid = arange(T) < lengths[:, None], viewed as (B, 1, 1, T) and broadcast over heads
and queries. Explicit scale=0.3 keyword (not 1/sqrt(head_dim) = 0.354). Separate q/k/v
nn.Linear (40 -> 40), 5 heads of 8, output nn.Linear, then padded query rows zeroed by
multiplying with the (B, T, 1) float validity mask.
Inputs: x (3, 17, 40) float, lengths (3,) int64 in [1, 17] (never 0, so no fully masked
row and no NaN from an all-False mask row). Output (3, 17, 40)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, H = 3, 17, 40, 5
SCALE = 0.3


class Model(nn.Module):
    def __init__(self, dim, heads, scale):
        super().__init__()
        self.heads = heads
        self.scale = scale
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.out_proj = nn.Linear(dim, dim)

    def forward(self, x, lengths):
        b, t, d = x.shape
        hd = d // self.heads
        q = self.q_proj(x).view(b, t, self.heads, hd).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.heads, hd).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.heads, hd).transpose(1, 2)
        pos = torch.arange(t, device=x.device)
        valid = pos[None, :] < lengths[:, None]  # (B, T) bool
        attn_mask = valid[:, None, None, :]  # (B, 1, 1, T)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, scale=self.scale)
        y = y.transpose(1, 2).reshape(b, t, d)
        y = self.out_proj(y)
        return y * valid.unsqueeze(-1).to(y.dtype)


def get_inputs():
    lengths = torch.randint(1, T + 1, (B,), dtype=torch.int64)
    return [torch.randn(B, T, D), lengths]


def get_init_inputs():
    return [D, H, SCALE]
