"""ConvNeXt-style block with a channels-first LayerNorm written by hand: x (2, 13, 23, 19).
h = depthwise Conv2d 13 -> 13 (k7, padding 3, groups 13) + bias;
u = h.mean(dim=1, keepdim=True); s = (h - u).pow(2).mean(dim=1, keepdim=True) (biased
variance over the 13 channels, dim 1 of NCHW); n = (h - u) / sqrt(s + 1e-6) then
n * weight[:, None, None] + bias[:, None, None] (per-channel (13,) affine);
1x1 Conv2d 13 -> 37 + bias, gelu (erf), 1x1 Conv2d 37 -> 13 + bias, times a (13, 1, 1)
layer-scale gamma, residual add of x. Also returns the per-pixel std sqrt(s + eps) with
keepdim removed, (2, 23, 19).
Outputs: y (2, 13, 23, 19), std (2, 23, 19)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 13, 23, 19
HID = 37
EPS = 1e-6


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.dw = nn.Conv2d(C, C, kernel_size=7, padding=3, groups=C)
        self.ln_weight = nn.Parameter(1.0 + 0.2 * torch.randn(C))
        self.ln_bias = nn.Parameter(0.1 * torch.randn(C))
        self.pw1 = nn.Conv2d(C, HID, kernel_size=1)
        self.pw2 = nn.Conv2d(HID, C, kernel_size=1)
        self.gamma = nn.Parameter(0.5 + 0.1 * torch.randn(C, 1, 1))

    def forward(self, x):
        h = self.dw(x)
        u = h.mean(dim=1, keepdim=True)
        d = h - u
        s = d.pow(2).mean(dim=1, keepdim=True)
        std = torch.sqrt(s + EPS)
        n = d / std
        n = n * self.ln_weight[:, None, None] + self.ln_bias[:, None, None]
        z = F.gelu(self.pw1(n))
        z = self.pw2(z)
        y = x + self.gamma * z
        return y, std.squeeze(1)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return []
