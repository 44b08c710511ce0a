"""BEiT-style ViT block on 37 tokens (cls + 6x6 grid), 4 heads: pre-LayerNorm, qkv via F.linear with
bias cat(q_bias, zeros_like(v_bias), v_bias), reshape / permute to heads, softmax over 37 keys with a
relative position bias gathered from a (11*11 + 3, heads) table by a registered int64 (37, 37) index
buffer (special indices for cls->token, token->cls, cls->cls), layer scale gamma_1 / gamma_2
(per-channel), stochastic depth in eval mode (identity), GELU-tanh MLP. Outputs: all tokens, the cls
token, and the mean over patch tokens x[:, 1:] (tuple)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, G, D, HEADS = 2, 6, 32, 4


def drop_path(x, p, training):
    # stochastic depth in eval mode is the identity (training is always False here)
    if training and p > 0.0:
        raise RuntimeError("train-mode drop path is not used in this test")
    return x


def beit_relative_index(g):
    coords = torch.stack(torch.meshgrid(torch.arange(g), torch.arange(g), indexing="ij")).flatten(1)
    rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0).contiguous()
    rel[:, :, 0] += g - 1
    rel[:, :, 1] += g - 1
    rel[:, :, 0] *= 2 * g - 1
    nrd = (2 * g - 1) * (2 * g - 1) + 3
    idx = torch.zeros(g * g + 1, g * g + 1, dtype=torch.int64)
    idx[1:, 1:] = rel.sum(-1)
    idx[0, 0:] = nrd - 3
    idx[0:, 0] = nrd - 2
    idx[0, 0] = nrd - 1
    return idx, nrd


class Model(nn.Module):
    def __init__(self, grid, dim, heads, drop_prob):
        super().__init__()
        self.heads = heads
        self.drop_prob = drop_prob
        self.scale = (dim // heads) ** -0.5
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.qkv_weight = nn.Parameter(torch.randn(3 * dim, dim) * dim ** -0.5)
        self.q_bias = nn.Parameter(torch.randn(dim) * 0.1)
        self.v_bias = nn.Parameter(torch.randn(dim) * 0.1)
        self.proj = nn.Linear(dim, dim)
        idx, nrd = beit_relative_index(grid)
        self.register_buffer("rel_index", idx)
        self.rel_table = nn.Parameter(torch.randn(nrd, heads) * 0.5)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.fc1 = nn.Linear(dim, 3 * dim)
        self.fc2 = nn.Linear(3 * dim, dim)
        self.gamma_1 = nn.Parameter(torch.rand(dim) * 0.5 + 0.1)
        self.gamma_2 = nn.Parameter(torch.rand(dim) * 0.5 + 0.1)

    def attn(self, x):
        b, n, c = x.shape
        nh = self.heads
        bias = torch.cat([self.q_bias, torch.zeros_like(self.v_bias), self.v_bias])
        qkv = F.linear(x, self.qkv_weight, bias).reshape(b, n, 3, nh, c // nh).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        a = (q * self.scale) @ k.transpose(-2, -1)
        rb = self.rel_table[self.rel_index.view(-1)].view(n, n, nh).permute(2, 0, 1)
        a = (a + rb.unsqueeze(0)).softmax(dim=-1)
        return self.proj((a @ v).transpose(1, 2).reshape(b, n, c))

    def forward(self, x):
        x = x + drop_path(self.gamma_1 * self.attn(self.norm1(x)), self.drop_prob, False)
        h = self.fc2(F.gelu(self.fc1(self.norm2(x)), approximate="tanh"))
        x = x + drop_path(self.gamma_2 * h, self.drop_prob, False)
        return x, x[:, 0], x[:, 1:].mean(dim=1)


def get_inputs():
    return [torch.randn(B, G * G + 1, D)]


def get_init_inputs():
    return [G, D, HEADS, 0.1]
