"""MobileViT block in float16 (input and parameters float16) on a 10x14 map: local representation
(3x3 conv + SiLU, 1x1 conv to d=24), unfold into 2x2 patches by reshape (B, d, 5, 2, 7, 2) /
permute(0, 3, 5, 2, 4, 1) / reshape to (B*4, 35, d) sequences, one pre-norm transformer layer
(LayerNorm, 2-head attention with softmax over 35 tokens, SiLU MLP, residuals), fold back with the
inverse reshape / permute(0, 5, 3, 1, 4, 2), 1x1 conv to C, concat with the block input, 3x3 fusion
conv. Output: float16 tensor (B, C, 10, 14)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, H, W = 2, 16, 10, 14
D, HEADS, PATCH = 24, 2, 2
DT = torch.float16


def p(*shape, scale=1.0):
    return nn.Parameter((torch.randn(*shape) * scale).to(DT))


class Model(nn.Module):
    def __init__(self, ch, dim, heads, patch):
        super().__init__()
        self.dim, self.heads, self.patch = dim, heads, patch
        self.conv_local = p(ch, ch, 3, 3, scale=(ch * 9) ** -0.5)
        self.conv_in = p(dim, ch, 1, 1, scale=ch ** -0.5)
        self.ln1_w = nn.Parameter(torch.ones(dim, dtype=DT))
        self.ln1_b = nn.Parameter(torch.zeros(dim, dtype=DT))
        self.w_qkv = p(3 * dim, dim, scale=dim ** -0.5)
        self.b_qkv = p(3 * dim, scale=0.1)
        self.w_o = p(dim, dim, scale=dim ** -0.5)
        self.ln2_w = nn.Parameter(torch.ones(dim, dtype=DT))
        self.ln2_b = nn.Parameter(torch.zeros(dim, dtype=DT))
        self.w1 = p(2 * dim, dim, scale=dim ** -0.5)
        self.w2 = p(dim, 2 * dim, scale=(2 * dim) ** -0.5)
        self.conv_out = p(ch, dim, 1, 1, scale=dim ** -0.5)
        self.conv_fuse = p(ch, 2 * ch, 3, 3, scale=(2 * ch * 9) ** -0.5)
        self.b_fuse = p(ch, scale=0.1)

    def forward(self, x):
        b, c, h, w = x.shape
        d, nh, ps = self.dim, self.heads, self.patch
        y = F.silu(F.conv2d(x, self.conv_local, padding=1))
        y = F.conv2d(y, self.conv_in)
        gh, gw = h // ps, w // ps
        n = gh * gw
        t = y.reshape(b, d, gh, ps, gw, ps).permute(0, 3, 5, 2, 4, 1).reshape(b * ps * ps, n, d)
        hn = F.layer_norm(t, (d,), self.ln1_w, self.ln1_b)
        qkv = F.linear(hn, self.w_qkv, self.b_qkv).reshape(-1, n, 3, nh, d // nh).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        a = ((q @ k.transpose(-2, -1)) * (d // nh) ** -0.5).softmax(dim=-1)
        t = t + F.linear((a @ v).transpose(1, 2).reshape(-1, n, d), self.w_o)
        hn = F.layer_norm(t, (d,), self.ln2_w, self.ln2_b)
        t = t + F.linear(F.silu(F.linear(hn, self.w1)), self.w2)
        y = t.reshape(b, ps, ps, gh, gw, d).permute(0, 5, 3, 1, 4, 2).reshape(b, d, h, w)
        y = F.conv2d(y, self.conv_out)
        return F.conv2d(torch.cat([x, y], dim=1), self.conv_fuse, self.b_fuse, padding=1)


def get_inputs():
    return [torch.randn(B, C, H, W).to(DT)]


def get_init_inputs():
    return [C, D, HEADS, PATCH]
