"""GPT-J / GPT-NeoX-parallel style block written by hand: attention and MLP both read the same
LayerNorm output and are added to the residual together (x + attn(ln(x)) + mlp(ln(x))).
x (2, 7, 80) hidden states, position_ids int64 (2, 7) = arange(7) + [[0], [5]] (different
offsets per batch row).
Attention: q_proj 80 -> 80 (4 heads of 20), k_proj / v_proj 80 -> 40 (2 KV heads of 20), no biases.
Partial interleaved rotary on the first 8 of the 20 head dims: sin / cos buffers (64, 4) gathered
by position_ids -> (B, 1, T, 4); x_rot.view(..., 4, 2).unbind(-1) -> (x0, x1);
stack((x0 * cos - x1 * sin, x1 * cos + x0 * sin), -1).flatten(-2); cat with the 12 pass-through dims.
GQA: k[:, :, None].expand(B, 2, 2, T, 20).reshape(B, 4, T, 20) (same for v).
Causal mask from arange comparisons: key_pos[None, :] > query_pos[:, None] -> masked_fill(-inf);
scores scaled by 1 / sqrt(20), softmax, @ v, out_proj.
MLP: fc_in 80 -> 136 (bias), gelu tanh approximation, fc_out 136 -> 80 (bias).
Outputs: x (2, 7, 80)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HEADS, KV_HEADS, ROT, FF, MAX_POS = 2, 7, 80, 4, 2, 8, 136, 64


def apply_rotary_interleaved(x, sin, cos, rot):
    x_rot, x_pass = x[..., :rot], x[..., rot:]
    x0, x1 = x_rot.reshape(*x_rot.shape[:-1], rot // 2, 2).unbind(-1)
    out = torch.stack((x0 * cos - x1 * sin, x1 * cos + x0 * sin), dim=-1).flatten(-2)
    return torch.cat((out, x_pass), dim=-1)


class Model(nn.Module):
    def __init__(self, dim, heads, kv_heads, rot, ff, max_pos):
        super().__init__()
        self.heads, self.kv_heads, self.hd, self.rot = heads, kv_heads, dim // heads, rot
        self.ln_1 = nn.LayerNorm(dim)
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.out_proj = nn.Linear(dim, dim, bias=False)
        self.fc_in = nn.Linear(dim, ff)
        self.fc_out = nn.Linear(ff, dim)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, rot, 2, dtype=torch.float32) / rot))
        sinusoid = torch.einsum("i,j->ij", torch.arange(max_pos, dtype=torch.float32), inv_freq)
        self.register_buffer("sin_table", torch.sin(sinusoid))
        self.register_buffer("cos_table", torch.cos(sinusoid))

    def forward(self, x, position_ids):
        b, t, d = x.shape
        h = self.ln_1(x)
        q = self.q_proj(h).view(b, t, self.heads, self.hd).transpose(1, 2)
        k = self.k_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        v = self.v_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        sin = self.sin_table[position_ids].unsqueeze(1)
        cos = self.cos_table[position_ids].unsqueeze(1)
        q = apply_rotary_interleaved(q, sin, cos, self.rot)
        k = apply_rotary_interleaved(k, sin, cos, self.rot)
        g = self.heads // self.kv_heads
        k = k[:, :, None].expand(b, self.kv_heads, g, t, self.hd).reshape(b, self.heads, t, self.hd)
        v = v[:, :, None].expand(b, self.kv_heads, g, t, self.hd).reshape(b, self.heads, t, self.hd)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.hd)
        pos = torch.arange(t, device=x.device)
        causal = pos[None, :] > pos[:, None]
        scores = scores.masked_fill(causal, float("-inf"))
        probs = torch.softmax(scores, dim=-1)
        attn = torch.matmul(probs, v).transpose(1, 2).reshape(b, t, d)
        attn = self.out_proj(attn)
        mlp = self.fc_out(F.gelu(self.fc_in(h), approximate="tanh"))
        return x + attn + mlp


def get_inputs():
    position_ids = torch.arange(T, dtype=torch.int64)[None, :] + torch.tensor([[0], [5]], dtype=torch.int64)
    return [torch.randn(B, T, D), position_ids]


def get_init_inputs():
    return [D, HEADS, KV_HEADS, ROT, FF, MAX_POS]
