"""Swin-V2-style shifted-window attention block, written by hand.
x (2, 196, 36) tokens of a 14 x 14 map; window 7 (49 tokens, 4 windows per image), shift 3,
3 heads of 12.
torch.roll(x, (-3, -3), dims=(1, 2)); window partition view(B, 2, 7, 2, 7, C).permute(0, 1, 3, 2, 4, 5)
-> (8, 49, 36). qkv = F.linear(x, W (108, 36), cat(q_bias, zeros_like(v_bias), v_bias)) (no key bias),
reshape(Bw, 49, 3, 3, 12).permute(2, 0, 3, 1, 4).
Cosine attention: F.normalize(q, dim=-1) @ F.normalize(k, dim=-1)^T * exp(clamp(logit_scale,
max=log(100))) with logit_scale (3, 1, 1) = log([10, 150, 3]) (the 150 head hits the clamp).
Continuous position bias: a log-spaced relative coordinates table buffer (1, 13, 13, 2)
(sign(c) * log2(|c| * 8 / 6 + 1) / 3) -> MLP Linear(2, 32) + ReLU + Linear(32, 3, no bias) ->
view(-1, 3), gathered by an int64 relative_position_index buffer (49 * 49) -> (3, 49, 49),
16 * sigmoid, added to the scores. Shifted-window mask buffer (4, 49, 49) of 0 / -100 added via
view(B, 4, 3, 49, 49) + mask[None, :, None]. softmax, @ v, proj 36 -> 36 (bias).
Window reverse, roll back by (3, 3). Residual post-norm: x = x + norm1(attn); x = x + norm2(mlp(x)),
MLP 36 -> 72 GELU -> 36.
Outputs: x (2, 196, 36)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, RES, C, HEADS, WS, SHIFT, FF = 2, 14, 36, 3, 7, 3, 72


def relative_coords_table(ws):
    h = torch.arange(-(ws - 1), ws, dtype=torch.float32)
    w = torch.arange(-(ws - 1), ws, dtype=torch.float32)
    table = torch.stack(torch.meshgrid(h, w, indexing="ij")).permute(1, 2, 0).contiguous()[None]
    table = table / (ws - 1) * 8
    return torch.sign(table) * torch.log2(torch.abs(table) + 1.0) / math.log2(8)


def relative_position_index(ws):
    coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws), indexing="ij")).flatten(1)
    rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0).contiguous()
    rel[:, :, 0] += ws - 1
    rel[:, :, 1] += ws - 1
    rel[:, :, 0] *= 2 * ws - 1
    return rel.sum(-1).view(-1)


def shift_attn_mask(res, ws, shift):
    img = torch.zeros(1, res, res, 1)
    cnt = 0
    for hs in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
        for wsl in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
            img[:, hs, wsl, :] = cnt
            cnt += 1
    win = img.view(1, res // ws, ws, res // ws, ws, 1).permute(0, 1, 3, 2, 4, 5).reshape(-1, ws * ws)
    mask = win[:, None, :] - win[:, :, None]
    return mask.masked_fill(mask != 0, -100.0).masked_fill(mask == 0, 0.0)


class Model(nn.Module):
    def __init__(self, res, dim, heads, ws, shift, ff):
        super().__init__()
        self.res, self.dim, self.heads, self.ws, self.shift = res, dim, heads, ws, shift
        self.qkv_weight = nn.Parameter(torch.randn(3 * dim, dim) / math.sqrt(dim))
        self.q_bias = nn.Parameter(0.1 * torch.randn(dim))
        self.v_bias = nn.Parameter(0.1 * torch.randn(dim))
        self.logit_scale = nn.Parameter(torch.log(torch.tensor([10.0, 150.0, 3.0])).view(heads, 1, 1))
        self.cpb_mlp = nn.Sequential(nn.Linear(2, 32), nn.ReLU(inplace=True), nn.Linear(32, heads, bias=False))
        self.proj = nn.Linear(dim, dim)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, ff)
        self.fc2 = nn.Linear(ff, dim)
        self.register_buffer("relative_coords_table", relative_coords_table(ws))
        self.register_buffer("relative_position_index", relative_position_index(ws))
        self.register_buffer("attn_mask", shift_attn_mask(res, ws, shift))

    def forward(self, x):
        b, l, c = x.shape
        r, ws, h = self.res, self.ws, self.heads
        n = ws * ws
        shortcut = x
        x = x.view(b, r, r, c)
        x = torch.roll(x, shifts=(-self.shift, -self.shift), dims=(1, 2))
        x = x.view(b, r // ws, ws, r // ws, ws, c).permute(0, 1, 3, 2, 4, 5).reshape(-1, n, c)
        bw = x.shape[0]
        qkv_bias = torch.cat((self.q_bias, torch.zeros_like(self.v_bias), self.v_bias))
        qkv = F.linear(x, self.qkv_weight, qkv_bias).reshape(bw, n, 3, h, c // h).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        logit_scale = torch.clamp(self.logit_scale, max=math.log(1.0 / 0.01)).exp()
        attn = attn * logit_scale
        table = self.cpb_mlp(self.relative_coords_table).view(-1, h)
        rpb = table[self.relative_position_index].view(n, n, h).permute(2, 0, 1).contiguous()
        attn = attn + 16 * torch.sigmoid(rpb)[None]
        nw = self.attn_mask.shape[0]
        attn = attn.view(bw // nw, nw, h, n, n) + self.attn_mask[None, :, None]
        attn = torch.softmax(attn.view(-1, h, n, n), dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(bw, n, c)
        x = self.proj(x)
        x = x.view(b, r // ws, r // ws, ws, ws, c).permute(0, 1, 3, 2, 4, 5).reshape(b, r, r, c)
        x = torch.roll(x, shifts=(self.shift, self.shift), dims=(1, 2)).reshape(b, l, c)
        x = shortcut + self.norm1(x)
        x = x + self.norm2(self.fc2(F.gelu(self.fc1(x))))
        return x


def get_inputs():
    return [torch.randn(B, RES * RES, C)]


def get_init_inputs():
    return [RES, C, HEADS, WS, SHIFT, FF]
