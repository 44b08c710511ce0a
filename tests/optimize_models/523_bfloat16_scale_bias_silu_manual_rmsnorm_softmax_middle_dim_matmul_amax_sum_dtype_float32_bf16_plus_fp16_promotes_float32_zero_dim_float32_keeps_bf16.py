"""bfloat16 model: bf16 parameters and input, ops in bf16 as PyTorch does, promotion edges.
x (5, 19, 33) bfloat16, h (5, 19, 33) float16; w, b, rms_w (33,) bf16 parameters;
proj (33, 21) bf16 parameter; temp = 0-dim float32 buffer 0.7.
y = silu(x * w + b) (bf16); r = y * rsqrt(y.pow(2).mean(-1, keepdim=True) + 1e-6) * rms_w
(hand-written RMSNorm, every op rounded to bf16);
sm = softmax(r / temp, dim=1) (a 0-dim float32 tensor does not promote a bf16 tensor: stays
bf16; softmax over the middle dim of 19);
o = matmul(sm, proj) (5, 19, 21) bf16; mx = o.amax(-1) (bf16); s32 = o.sum(-1,
dtype=torch.float32) (float32);
mixed = r + h (bf16 + float16 promotes to float32); mn = mixed.mean(dim=(0, 2)) (19,) float32;
down = (s32 * 0.5).to(torch.bfloat16).
Outputs: r, sm, o, mx, down bf16; s32, mixed, mn float32."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, S, D, E = 5, 19, 33, 21


class Model(nn.Module):
    def __init__(self, d, e, temp):
        super().__init__()
        self.w = nn.Parameter(torch.randn(d).bfloat16())
        self.b = nn.Parameter((0.5 * torch.randn(d)).bfloat16())
        self.rms_w = nn.Parameter((1.0 + 0.2 * torch.randn(d)).bfloat16())
        self.proj = nn.Parameter((torch.randn(d, e) / d ** 0.5).bfloat16())
        self.register_buffer("temp", torch.tensor(temp))

    def forward(self, x, h):
        y = F.silu(x * self.w + self.b)
        r = y * torch.rsqrt(y.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_w
        sm = torch.softmax(r / self.temp, dim=1)
        o = torch.matmul(sm, self.proj)
        mx = o.amax(dim=-1)
        s32 = o.sum(dim=-1, dtype=torch.float32)
        mixed = r + h
        mn = mixed.mean(dim=(0, 2))
        down = (s32 * 0.5).to(torch.bfloat16)
        return r, sm, o, mx, s32, mixed, mn, down


def get_inputs():
    return [torch.randn(B, S, D).bfloat16(), torch.randn(B, S, D).half()]


def get_init_inputs():
    return [D, E, 0.7]
