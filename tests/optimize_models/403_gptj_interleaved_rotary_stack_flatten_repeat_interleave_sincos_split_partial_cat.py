"""GPT-J attention with interleaved (rotate_every_two) partial rotary embedding, tables built in
forward. x (2, 11, 40), int64 position_ids (2, 11) (row 0 arange(3, 14), row 1 arange(0, 11)).
inv_freq = 1 / 10000 ** (arange(0, 6, 2) / 6); sinusoid = einsum('i,j->ij', arange(16).float(),
inv_freq); table = cat((sin, cos), dim=1) (16, 6); sincos = table[position_ids] (2, 11, 6),
torch.split into sin / cos (2, 11, 3), each repeat_interleave(2, dim=3) after [:, :, None, :].
q, k, v Linear 40 -> 40 without bias, view (2, 11, 4, 10); rotary on the first 6 of 10 head
dims: rotate_every_two = torch.stack((-x[..., 1::2], x[..., ::2]), dim=-1).flatten(-2),
x * cos + rotate_every_two(x) * sin, torch.cat((rot, pass), dim=-1), permute to (2, 4, 11, 10);
causal mask arange(11)[:, None] >= arange(11)[None, :] built in forward, torch.where(mask,
scores, finfo(float32).min), / sqrt(10), softmax, @ v, merge heads, out Linear with bias.
Outputs (2, 11, 40) and the rotated keys (2, 4, 11, 10)."""

import math

import torch
import torch.nn as nn

B, T, D, HEADS, ROT, MAXPOS = 2, 11, 40, 4, 6, 16


def rotate_every_two(x):
    x1 = x[:, :, :, ::2]
    x2 = x[:, :, :, 1::2]
    x = torch.stack((-x2, x1), dim=-1)
    return x.flatten(-2)


def apply_rotary_pos_emb(t, sin, cos):
    sin = torch.repeat_interleave(sin[:, :, None, :], 2, 3)
    cos = torch.repeat_interleave(cos[:, :, None, :], 2, 3)
    return t * cos + rotate_every_two(t) * sin


class Model(nn.Module):
    def __init__(self, dim, heads, rotary_dim, max_pos):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.rotary_dim = rotary_dim
        self.max_pos = max_pos
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, dim, bias=False)
        self.v_proj = nn.Linear(dim, dim, bias=False)
        self.out_proj = nn.Linear(dim, dim)

    def forward(self, x, position_ids):
        b, t, d = x.shape
        h, dh, rd = self.heads, self.head_dim, self.rotary_dim
        inv_freq = 1.0 / (10000 ** (torch.arange(0, rd, 2, dtype=torch.int64, device=x.device) / rd))
        pos = torch.arange(self.max_pos, dtype=torch.int64, device=x.device).float()
        sinusoid = torch.einsum("i , j -> i j", pos, inv_freq).float()
        table = torch.cat((torch.sin(sinusoid), torch.cos(sinusoid)), dim=1)
        sincos = table[position_ids]
        sin, cos = torch.split(sincos, sincos.shape[-1] // 2, dim=-1)

        q = self.q_proj(x).view(b, t, h, dh)
        k = self.k_proj(x).view(b, t, h, dh)
        v = self.v_proj(x).view(b, t, h, dh).permute(0, 2, 1, 3)
        q = torch.cat([apply_rotary_pos_emb(q[..., :rd], sin, cos), q[..., rd:]], dim=-1)
        k = torch.cat([apply_rotary_pos_emb(k[..., :rd], sin, cos), k[..., rd:]], dim=-1)
        q = q.permute(0, 2, 1, 3)
        k = k.permute(0, 2, 1, 3)

        i = torch.arange(t, device=x.device)
        causal = i[:, None] >= i[None, :]
        scores = torch.matmul(q, k.transpose(-1, -2))
        scores = torch.where(causal, scores, torch.tensor(torch.finfo(scores.dtype).min, device=x.device))
        scores = scores / math.sqrt(dh)
        attn = torch.softmax(scores, dim=-1)
        out = torch.matmul(attn, v).permute(0, 2, 1, 3).reshape(b, t, d)
        return self.out_proj(out), k


def get_inputs():
    pos = torch.stack([torch.arange(3, 3 + T), torch.arange(0, T)]).to(torch.int64)
    return [torch.randn(B, T, D), pos]


def get_init_inputs():
    return [D, HEADS, ROT, MAXPOS]
