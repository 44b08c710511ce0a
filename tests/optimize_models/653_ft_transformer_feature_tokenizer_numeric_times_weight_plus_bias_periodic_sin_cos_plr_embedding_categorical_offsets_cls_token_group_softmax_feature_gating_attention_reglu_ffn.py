"""FT-Transformer on tabular input: 7 numeric features (13, 7) and 3 categorical (int64 (13, 3)).
Feature tokenizer: x[:, :, None] * W (7, 24) + b (7, 24) plus a periodic (PLR) embedding
Linear(cat(sin, cos)(2 pi c x)) relu with per-feature frequencies c (7, 5); categorical tokens from one
table with an offset buffer + per-feature bias; cls token prepended (13, 11, 24). Feature-group
gating: the 24 channels viewed as 3 groups x 8, softmax over the 3 groups of a Linear on the
per-group mean (softmax over a middle dim), tokens rescaled by 3 * gate. One pre-norm transformer
layer: 4-head attention by hand (softmax over 11 tokens), ReGLU FFN (chunk, relu(a) * b). Readout:
LayerNorm -> relu -> Linear on the cls token. Outputs: logits (13, 3), gates (13, 11, 3)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, NNUM, NCAT, D, G, H = 13, 7, 3, 24, 3, 4
CARDS = [5, 11, 23]


class Model(nn.Module):
    def __init__(self, n_num, cards, d, groups, heads, n_out):
        super().__init__()
        self.w_num = nn.Parameter(torch.randn(n_num, d) / math.sqrt(d))
        self.b_num = nn.Parameter(torch.randn(n_num, d) * 0.1)
        self.freq = nn.Parameter(torch.randn(n_num, 5) * 0.5)
        self.plr = nn.Linear(10, d)
        self.cat_emb = nn.Embedding(sum(cards), d)
        self.cat_bias = nn.Parameter(torch.randn(len(cards), d) * 0.1)
        self.register_buffer("cat_offsets", torch.tensor([0] + cards[:-1]).cumsum(0))
        self.cls = nn.Parameter(torch.randn(1, 1, d) * 0.2)
        self.groups = groups
        self.gate = nn.Linear(groups, groups)
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.ff1 = nn.Linear(d, 2 * 2 * d)
        self.ff2 = nn.Linear(2 * d, d)
        self.ln_out = nn.LayerNorm(d)
        self.head = nn.Linear(d, n_out)
        self.heads = heads

    def forward(self, x_num, x_cat):
        b = x_num.shape[0]
        t_num = x_num.unsqueeze(-1) * self.w_num + self.b_num
        v = 2 * math.pi * self.freq * x_num.unsqueeze(-1)  # (B, n_num, 5)
        t_num = t_num + torch.relu(self.plr(torch.cat([torch.sin(v), torch.cos(v)], dim=-1)))
        t_cat = self.cat_emb(x_cat + self.cat_offsets) + self.cat_bias
        t = torch.cat([self.cls.expand(b, -1, -1), t_num, t_cat], dim=1)
        n, d = t.shape[1], t.shape[2]
        tg = t.view(b, n, self.groups, d // self.groups)
        gates = torch.softmax(self.gate(tg.mean(dim=-1)), dim=-1)  # (B, n, G)
        t = (tg * (self.groups * gates).unsqueeze(-1)).reshape(b, n, d)
        q, k, vv = self.qkv(self.ln1(t)).chunk(3, dim=-1)
        hd = d // self.heads
        q = q.view(b, n, self.heads, hd).transpose(1, 2)
        k = k.view(b, n, self.heads, hd).transpose(1, 2)
        vv = vv.view(b, n, self.heads, hd).transpose(1, 2)
        att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(hd), dim=-1)
        o = (att @ vv).transpose(1, 2).reshape(b, n, d)
        t = t + self.proj(o)
        a, g = self.ff1(self.ln2(t)).chunk(2, dim=-1)
        t = t + self.ff2(torch.relu(a) * g)
        out = self.head(torch.relu(self.ln_out(t[:, 0])))
        return out, gates


def get_inputs():
    x_num = torch.randn(B, NNUM)
    x_cat = torch.stack([torch.randint(0, c, (B,), dtype=torch.int64) for c in CARDS], dim=1)
    return [x_num, x_cat]


def get_init_inputs():
    return [NNUM, CARDS, D, G, H, 3]
