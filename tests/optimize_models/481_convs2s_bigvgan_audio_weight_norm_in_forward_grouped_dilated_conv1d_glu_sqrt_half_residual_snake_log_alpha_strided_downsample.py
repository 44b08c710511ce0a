"""1-D audio block mixing ConvS2S / BigVGAN patterns, with weight normalisation computed in forward.
x (2, 12, 61).
Layer 1: weight-normed grouped dilated conv: w1 = g1 * v1 / v1.norm(dim=(1, 2), keepdim=True)
(v1 (24, 4, 3), g1 (24, 1, 1)), F.conv1d(x, w1, b1, padding=3, dilation=3, groups=3) ->
(2, 24, 61); F.glu(dim=1) -> (2, 12, 61); h = (x + glu) * sqrt(0.5).
Snake activation (BigVGAN, logscale alpha): a = exp(log_alpha) (1, 12, 1);
s = h + 1 / (a + 1e-9) * sin(h * a) ** 2.
Layer 2: weight-normed conv, per-output-channel norm written as a sum of squares
(w2 = g2 * v2 / v2.pow(2).sum(dim=(1, 2), keepdim=True).sqrt(), v2 (12, 12, 5)),
F.conv1d(s, w2, b2, padding=10, dilation=5) -> (2, 12, 61); residual y = h + conv.
Downsample: Conv1d 12 -> 20 (k4, stride 2, padding 1) -> (2, 20, 30), then leaky_relu(0.1).
Outputs: y (2, 12, 61) and the downsampled (2, 20, 30)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, L = 2, 12, 61


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.v1 = nn.Parameter(0.3 * torch.randn(2 * C, C // 3, 3))
        self.g1 = nn.Parameter(0.8 + 0.2 * torch.rand(2 * C, 1, 1))
        self.b1 = nn.Parameter(0.1 * torch.randn(2 * C))
        self.log_alpha = nn.Parameter(0.3 * torch.randn(1, C, 1))
        self.v2 = nn.Parameter(0.3 * torch.randn(C, C, 5))
        self.g2 = nn.Parameter(0.8 + 0.2 * torch.rand(C, 1, 1))
        self.b2 = nn.Parameter(0.1 * torch.randn(C))
        self.down = nn.Conv1d(C, 20, kernel_size=4, stride=2, padding=1)

    def forward(self, x):
        w1 = self.g1 * self.v1 / self.v1.norm(dim=(1, 2), keepdim=True)
        h = F.conv1d(x, w1, self.b1, padding=3, dilation=3, groups=3)
        h = F.glu(h, dim=1)
        h = (x + h) * math.sqrt(0.5)
        a = torch.exp(self.log_alpha)
        s = h + (1.0 / (a + 1e-9)) * torch.sin(h * a).pow(2)
        w2 = self.g2 * self.v2 / self.v2.pow(2).sum(dim=(1, 2), keepdim=True).sqrt()
        y = h + F.conv1d(s, w2, self.b2, padding=10, dilation=5)
        d = F.leaky_relu(self.down(y), 0.1)
        return y, d


def get_inputs():
    return [torch.randn(N, C, L)]


def get_init_inputs():
    return []
