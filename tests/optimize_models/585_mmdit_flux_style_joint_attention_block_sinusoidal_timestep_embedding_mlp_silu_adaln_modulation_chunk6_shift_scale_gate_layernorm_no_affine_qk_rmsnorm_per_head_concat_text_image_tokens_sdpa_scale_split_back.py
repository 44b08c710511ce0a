"""MMDiT / Flux-style double-stream block: text and image tokens with separate weights attend jointly.
img (2, 25, 40) image patch tokens, txt (2, 7, 40) text tokens, timestep (2,) float in [0, 1000).
Timestep embedding: freqs = exp(-log(10000) * arange(16) / 16), args = t[:, None] * freqs[None],
cat(cos, sin) (2, 32) -> Linear(32, 40) -> SiLU -> Linear(40, 40) = vec.
Per stream: Linear(40, 240) on silu(vec), [:, None].chunk(6, dim=-1) -> shift1, scale1, gate1, shift2,
scale2, gate2; LayerNorm(40, elementwise_affine=False, eps=1e-6); modulated = (1 + scale) * norm(x) + shift.
qkv Linear 40 -> 120 (bias) -> view(B, L, 3, 2, 20).permute(2, 0, 3, 1, 4) (2 heads of 20);
QK-norm: hand-written RMSNorm over the head dim with per-stream learned scales (20,).
Joint attention: q / k / v = cat(txt, img, dim=2) (length 32); F.scaled_dot_product_attention(scale=0.2);
transpose back, split [:, :7] text / [:, 7:] image.
Per stream: x = x + gate1 * proj(attn); x = x + gate2 * MLP((1 + scale2) * norm(x) + shift2),
MLP 40 -> 80 GELU(tanh) -> 40.
Outputs: img (2, 25, 40), txt (2, 7, 40)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, L_IMG, L_TXT, D, HEADS, FF, T_DIM = 2, 25, 7, 40, 2, 80, 32


class QKRMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.scale = nn.Parameter(1.0 + 0.1 * torch.randn(dim))

    def forward(self, x):
        rrms = torch.rsqrt(torch.mean(x.float() ** 2, dim=-1, keepdim=True) + 1e-6)
        return (x.float() * rrms).to(x.dtype) * self.scale


class Stream(nn.Module):
    def __init__(self, dim, heads, ff):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.mod = nn.Linear(dim, 6 * dim)
        self.norm1 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.q_norm = QKRMSNorm(self.hd)
        self.k_norm = QKRMSNorm(self.hd)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.fc1 = nn.Linear(dim, ff)
        self.fc2 = nn.Linear(ff, dim)

    def modulation(self, vec):
        return self.mod(F.silu(vec))[:, None, :].chunk(6, dim=-1)

    def qkv_heads(self, x, shift, scale):
        b, l, _ = x.shape
        h = (1 + scale) * self.norm1(x) + shift
        qkv = self.qkv(h).view(b, l, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        return self.q_norm(q), self.k_norm(k), v

    def finish(self, x, attn, gate1, shift2, scale2, gate2):
        x = x + gate1 * self.proj(attn)
        h = (1 + scale2) * self.norm2(x) + shift2
        return x + gate2 * self.fc2(F.gelu(self.fc1(h), approximate="tanh"))


class Model(nn.Module):
    def __init__(self, dim, heads, ff, t_dim, scale):
        super().__init__()
        self.t_dim, self.scale = t_dim, scale
        self.time_in1 = nn.Linear(t_dim, dim)
        self.time_in2 = nn.Linear(dim, dim)
        self.img = Stream(dim, heads, ff)
        self.txt = Stream(dim, heads, ff)

    def timestep_embedding(self, t):
        half = self.t_dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
        args = t[:, None].float() * freqs[None]
        return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)

    def forward(self, img, txt, timestep):
        vec = self.time_in2(F.silu(self.time_in1(self.timestep_embedding(timestep))))
        i_sh1, i_sc1, i_g1, i_sh2, i_sc2, i_g2 = self.img.modulation(vec)
        t_sh1, t_sc1, t_g1, t_sh2, t_sc2, t_g2 = self.txt.modulation(vec)
        iq, ik, iv = self.img.qkv_heads(img, i_sh1, i_sc1)
        tq, tk, tv = self.txt.qkv_heads(txt, t_sh1, t_sc1)
        q = torch.cat((tq, iq), dim=2)
        k = torch.cat((tk, ik), dim=2)
        v = torch.cat((tv, iv), dim=2)
        attn = F.scaled_dot_product_attention(q, k, v, scale=self.scale)
        b, h, l, hd = attn.shape
        attn = attn.transpose(1, 2).reshape(b, l, h * hd)
        l_txt = txt.shape[1]
        txt_attn, img_attn = attn[:, :l_txt], attn[:, l_txt:]
        img = self.img.finish(img, img_attn, i_g1, i_sh2, i_sc2, i_g2)
        txt = self.txt.finish(txt, txt_attn, t_g1, t_sh2, t_sc2, t_g2)
        return img, txt


def get_inputs():
    return [torch.randn(B, L_IMG, D), torch.randn(B, L_TXT, D), torch.rand(B) * 1000.0]


def get_init_inputs():
    return [D, HEADS, FF, T_DIM, 0.2]
