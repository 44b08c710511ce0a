"""Hand-written norm on numerically delicate inputs: x = randn * 1e-3 + 50.0 (large offset,
tiny spread), y = (x - x.mean(-1, keepdim=True)) / sqrt(x.var(-1, keepdim=True,
unbiased=False) + 1e-5), then y * sigmoid(y). Input x: (11, 509); output (11, 509).
Precision: float32 loses precision here. The float32 spacing near 50 is about 3.8e-6 (0.4% of
the 1e-3 spread), the row sums are about 2.5e4, and the centred values come from cancelling
two numbers near 50. With torch.manual_seed(0) inputs, PyTorch's float32 result differs from
float64 (same float32 inputs) by about 1.3e-3 absolute (outputs up to about 0.94), and a
float32 version with sequentially ordered sums differs from PyTorch's by about 1.1e-3.
Computing the variance as E[x^2] - E[x]^2 in float32 is far worse (the difference can fall
below -eps and give NaN), so a fused kernel must centre before squaring (two-pass or Welford)."""

import torch
import torch.nn as nn

R, D = 11, 509


class Model(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        mu = x.mean(-1, keepdim=True)
        var = x.var(-1, keepdim=True, unbiased=False)
        y = (x - mu) / torch.sqrt(var + self.eps)
        return y * torch.sigmoid(y)


def get_inputs():
    return [torch.randn(R, D) * 1e-3 + 50.0]


def get_init_inputs():
    return [1e-5]
