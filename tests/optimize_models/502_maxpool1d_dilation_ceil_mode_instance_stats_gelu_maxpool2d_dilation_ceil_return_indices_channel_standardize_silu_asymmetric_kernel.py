"""Max pooling as real nets use it (dilation, padding, ceil_mode, return_indices) followed by
normalisation / pointwise chains.
a = randn(3, 11, 54): F.max_pool1d(kernel 5, stride 3, padding 2, dilation 2, ceil_mode=True)
-> length ceil((54 + 4 - 8 - 1) / 3) + 1 = 18 (the last window starts at 51, inside the input,
and only partly overlaps it); then per-(n, c) standardisation over length by hand
(mean, var(unbiased=False), rsqrt(var + 1e-5)), gelu (erf), (C, 1) scale parameter.
b = randn(2, 7, 24, 20): nn.MaxPool2d(kernel 3, stride 2, padding 1, dilation 2, ceil_mode=True,
return_indices=True) -> values and int64 flat indices (2, 7, 12, 10) (ceil adds the last row and
column); values standardised over (H, W) per channel (keepdim mean / std(correction=0) + 1e-5),
(C, 1, 1) weight and bias, silu.
Asymmetric pool on b: F.max_pool2d(kernel (2, 3), stride (1, 2), dilation (1, 2), ceil_mode=True)
-> (2, 7, 23, 9); hardtanh(-1, 1) of it minus its amax over W (keepdim).
Outputs: y1 (3, 11, 18), y2 (2, 7, 12, 10), idx (2, 7, 12, 10) int64, y3 (2, 7, 23, 9)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        self.scale1 = nn.Parameter(1.0 + 0.2 * torch.randn(c1, 1))
        self.pool2 = nn.MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=2,
                                  ceil_mode=True, return_indices=True)
        self.w2 = nn.Parameter(1.0 + 0.2 * torch.randn(c2, 1, 1))
        self.b2 = nn.Parameter(0.1 * torch.randn(c2, 1, 1))

    def forward(self, a, b):
        p1 = F.max_pool1d(a, kernel_size=5, stride=3, padding=2, dilation=2, ceil_mode=True)
        m = p1.mean(dim=-1, keepdim=True)
        v = p1.var(dim=-1, unbiased=False, keepdim=True)
        y1 = F.gelu((p1 - m) * torch.rsqrt(v + 1e-5)) * self.scale1

        p2, idx = self.pool2(b)
        m2 = p2.mean(dim=(2, 3), keepdim=True)
        s2 = p2.std(dim=(2, 3), correction=0, keepdim=True)
        y2 = F.silu((p2 - m2) / (s2 + 1e-5) * self.w2 + self.b2)

        p3 = F.max_pool2d(b, kernel_size=(2, 3), stride=(1, 2), dilation=(1, 2), ceil_mode=True)
        h3 = F.hardtanh(p3, -1.0, 1.0)
        y3 = h3 - h3.amax(dim=-1, keepdim=True)
        return y1, y2, idx, y3


def get_inputs():
    return [torch.randn(3, 11, 54), torch.randn(2, 7, 24, 20)]


def get_init_inputs():
    return [11, 7]
