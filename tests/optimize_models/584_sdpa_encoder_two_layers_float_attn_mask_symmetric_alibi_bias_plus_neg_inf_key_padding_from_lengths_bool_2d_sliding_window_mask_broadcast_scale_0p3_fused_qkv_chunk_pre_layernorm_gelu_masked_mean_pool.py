"""Two-layer bidirectional encoder on F.scaled_dot_product_attention with a float mask and a bool mask.
x (3, 13, 48) token states, lengths int64 (3,) = [13, 10, 5] valid tokens (right padding).
Each layer (pre-LayerNorm): fused qkv Linear 48 -> 144 (bias), chunk(3, dim=-1), 4 heads of 12 via
view(B, T, 4, 12).transpose(1, 2); out proj 48 -> 48; residual; LayerNorm -> 48 -> 96 GELU -> 48; residual.
Layer 1: float attn_mask (3, 4, 13, 13) = symmetric ALiBi bias -slope_h * |i - j| (slopes buffer
2^(-8 (h + 1) / 4)) with padded keys (j >= lengths[b]) set by masked_fill(-inf); default scale.
Layer 2: bool attn_mask (13, 13) (2-D, broadcast over batch and heads) = |i - j| <= 2 (local window,
True = attend); scale=0.3 explicit.
Final LayerNorm, then mean over valid tokens (sum of x * valid / lengths).
Outputs: x (3, 13, 48), pooled (3, 48)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HEADS, FF, WINDOW = 3, 13, 48, 4, 96, 2


class Layer(nn.Module):
    def __init__(self, dim, heads, ff, scale):
        super().__init__()
        self.heads, self.hd, self.scale = heads, dim // heads, scale
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, ff)
        self.fc2 = nn.Linear(ff, dim)

    def forward(self, x, mask):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        q = q.view(b, t, self.heads, self.hd).transpose(1, 2)
        k = k.view(b, t, self.heads, self.hd).transpose(1, 2)
        v = v.view(b, t, self.heads, self.hd).transpose(1, 2)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=self.scale)
        x = x + self.proj(o.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class Model(nn.Module):
    def __init__(self, dim, heads, ff, window):
        super().__init__()
        self.window = window
        self.layer1 = Layer(dim, heads, ff, None)
        self.layer2 = Layer(dim, heads, ff, 0.3)
        self.ln_f = nn.LayerNorm(dim)
        slopes = 2.0 ** (-8.0 * torch.arange(1, heads + 1, dtype=torch.float32) / heads)
        self.register_buffer("slopes", slopes.view(1, heads, 1, 1))

    def forward(self, x, lengths):
        b, t, _ = x.shape
        pos = torch.arange(t, device=x.device)
        dist = (pos[None, :] - pos[:, None]).abs().to(x.dtype)
        key_pad = pos[None, :] >= lengths[:, None]
        float_mask = -self.slopes * dist[None, None]
        float_mask = float_mask.masked_fill(key_pad[:, None, None, :], float("-inf"))
        x = self.layer1(x, float_mask)
        bool_mask = (pos[None, :] - pos[:, None]).abs() <= self.window
        x = self.layer2(x, bool_mask)
        x = self.ln_f(x)
        valid = (pos[None, :] < lengths[:, None]).to(x.dtype)
        pooled = (x * valid[..., None]).sum(dim=1) / lengths[:, None].to(x.dtype)
        return x, pooled


def get_inputs():
    return [torch.randn(B, T, D), torch.tensor([13, 10, 5], dtype=torch.int64)]


def get_init_inputs():
    return [D, HEADS, FF, WINDOW]
