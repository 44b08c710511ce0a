"""Hand-written GroupNorm on a channels_last input, statistics over a middle dim first:
x (3, 24, 11, 13) with channels_last strides (from get_inputs), G = 6 groups of 4.
g = x.reshape(3, 6, 4, 143); m1 = g.mean(dim=2) (3, 6, 143) (reduce the 4 channels in a
group, a middle dim, keepdim=False), mean = m1.mean(dim=2) (3, 6);
var = (g - mean[:, :, None, None]).pow(2).mean(dim=(2, 3)) (biased, keepdim=False,
broadcast back with unsqueeze); n = (g - mean) * rsqrt(var + 1e-5) viewed back to
(3, 24, 11, 13), per-channel (24,) weight and bias via [:, None, None], silu, 1x1 Conv2d
24 -> 24 + bias, residual add of x, then a second pass: channel RMS over dim 1
(mean of squares keepdim) rescales the sum.
Outputs: y (3, 24, 11, 13), mean (3, 6), var (3, 6)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 3, 24, 11, 13
G = 6
EPS = 1e-5


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.2 * torch.randn(C))
        self.bias = nn.Parameter(0.1 * torch.randn(C))
        self.proj = nn.Conv2d(C, C, kernel_size=1)
        self.rms_weight = nn.Parameter(1.0 + 0.1 * torch.randn(C, 1, 1))

    def forward(self, x):
        n_, c_, h_, w_ = x.shape
        g = x.reshape(n_, G, c_ // G, h_ * w_)
        m1 = g.mean(dim=2)
        mean = m1.mean(dim=2)
        d = g - mean.unsqueeze(-1).unsqueeze(-1)
        var = d.pow(2).mean(dim=(2, 3))
        n = d * torch.rsqrt(var + EPS).unsqueeze(-1).unsqueeze(-1)
        n = n.view(n_, c_, h_, w_) * self.weight[:, None, None] + self.bias[:, None, None]
        z = self.proj(F.silu(n)) + x
        r = torch.rsqrt(z.pow(2).mean(dim=1, keepdim=True) + EPS)
        y = z * r * self.rms_weight
        return y, mean, var


def get_inputs():
    return [torch.randn(N, C, H, W).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return []
