"""Swin Transformer block with shifted windows on a 14x14 token grid (window 7, shift 3, 3 heads):
LayerNorm, torch.roll by (-3, -3), window partition view / permute(0, 1, 3, 2, 4, 5) / contiguous,
qkv Linear reshaped and permuted to (3, Bw, heads, 49, hd), scaled q @ k^T, relative position bias
gathered from a (169, heads) table with a registered int64 (49, 49) index buffer, shifted-window
attention mask buffer (nW, 49, 49) of 0 / -100 added via a view (B, nW, heads, 49, 49), softmax,
proj, window reverse, roll back by (3, 3), residual, then LayerNorm + GELU MLP residual."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, HH, WW, C = 2, 14, 14, 24
WS, SHIFT, HEADS = 7, 3, 3


def window_partition(x, ws):
    b, h, w, c = x.shape
    x = x.view(b, h // ws, ws, w // ws, ws, c)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws * ws, c)


def window_reverse(win, ws, h, w):
    c = win.shape[-1]
    b = win.shape[0] // ((h // ws) * (w // ws))
    x = win.view(b, h // ws, w // ws, ws, ws, c)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(b, h, w, c)


class Model(nn.Module):
    def __init__(self, h, w, dim, ws, shift, heads):
        super().__init__()
        self.h, self.w, self.ws, self.shift, self.heads = h, w, ws, shift, heads
        self.scale = (dim // heads) ** -0.5
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 2 * dim)
        self.fc2 = nn.Linear(2 * dim, dim)
        self.rel_table = nn.Parameter(torch.randn((2 * ws - 1) * (2 * ws - 1), heads) * 0.5)

        coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws), indexing="ij"))
        cf = coords.flatten(1)
        rel = (cf[:, :, None] - cf[:, None, :]).permute(1, 2, 0).contiguous()
        rel[:, :, 0] += ws - 1
        rel[:, :, 1] += ws - 1
        rel[:, :, 0] *= 2 * ws - 1
        self.register_buffer("rel_index", rel.sum(-1).to(torch.int64))

        img = torch.zeros(1, h, w, 1)
        cnt = 0
        for hs in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
            for wsl in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
                img[:, hs, wsl, :] = cnt
                cnt += 1
        mw = window_partition(img, ws).squeeze(-1)  # (nW, N)
        mask = mw.unsqueeze(1) - mw.unsqueeze(2)
        mask = mask.masked_fill(mask != 0, -100.0).masked_fill(mask == 0, 0.0)
        self.register_buffer("attn_mask", mask)

    def forward(self, x):
        b, L, c = x.shape
        h, w, ws, nh = self.h, self.w, self.ws, self.heads
        n = ws * ws
        shortcut = x
        y = self.norm1(x).view(b, h, w, c)
        y = torch.roll(y, shifts=(-self.shift, -self.shift), dims=(1, 2))
        win = window_partition(y, ws)
        bw = win.shape[0]
        qkv = self.qkv(win).reshape(bw, n, 3, nh, c // nh).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q * self.scale) @ k.transpose(-2, -1)
        bias = self.rel_table[self.rel_index.view(-1)].view(n, n, nh).permute(2, 0, 1).contiguous()
        attn = attn + bias.unsqueeze(0)
        nw = self.attn_mask.shape[0]
        attn = attn.view(bw // nw, nw, nh, n, n) + self.attn_mask.unsqueeze(1).unsqueeze(0)
        attn = attn.view(-1, nh, n, n).softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(bw, n, c)
        out = self.proj(out)
        y = window_reverse(out, ws, h, w)
        y = torch.roll(y, shifts=(self.shift, self.shift), dims=(1, 2))
        x = shortcut + y.reshape(b, h * w, c)
        x = x + self.fc2(F.gelu(self.fc1(self.norm2(x))))
        return x


def get_inputs():
    return [torch.randn(B, HH * WW, C)]


def get_init_inputs():
    return [HH, WW, C, WS, SHIFT, HEADS]
