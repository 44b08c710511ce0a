"""nnU-Net-style 3-D residual encoder stage with an anisotropic first stride, then max pooling.
x (2, 4, 9, 15, 13) (N, C, D, H, W).
Main path: Conv3d 4 -> 8 (k3, stride (1, 2, 2), padding 1, no bias) -> (2, 8, 9, 8, 7);
InstanceNorm3d(8, affine=True, eps 1e-5; instance statistics, no running stats) ->
LeakyReLU(0.01, inplace=True) -> Conv3d 8 -> 8 (k3, padding 1, no bias) -> InstanceNorm3d(affine).
Skip: Conv3d 4 -> 8 (k1, stride (1, 2, 2), no bias) -> InstanceNorm3d(affine) (the 1x1x1 stride-2
conv samples even H/W positions 0, 2, ..., 14 and 0, ..., 12).
out = LeakyReLU(0.01)(main + skip) (2, 8, 9, 8, 7);
pooled = MaxPool3d(kernel 2, stride 2, ceil_mode=True)(out) -> (2, 8, 5, 4, 4) (partial windows
on the odd D = 9 and W = 7).
Outputs: out and pooled."""

import torch
import torch.nn as nn

N, CIN, COUT, D, H, W = 2, 4, 8, 9, 15, 13


def _inorm(c):
    n = nn.InstanceNorm3d(c, eps=1e-5, affine=True)
    with torch.no_grad():
        n.weight.copy_(1.0 + 0.2 * torch.randn(c))
        n.bias.copy_(0.1 * torch.randn(c))
    return n


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv3d(CIN, COUT, 3, stride=(1, 2, 2), padding=1, bias=False)
        self.norm1 = _inorm(COUT)
        self.act1 = nn.LeakyReLU(0.01, inplace=True)
        self.conv2 = nn.Conv3d(COUT, COUT, 3, padding=1, bias=False)
        self.norm2 = _inorm(COUT)
        self.skip = nn.Sequential(
            nn.Conv3d(CIN, COUT, 1, stride=(1, 2, 2), bias=False),
            _inorm(COUT),
        )
        self.act = nn.LeakyReLU(0.01, inplace=True)
        self.pool = nn.MaxPool3d(kernel_size=2, stride=2, ceil_mode=True)

    def forward(self, x):
        h = self.act1(self.norm1(self.conv1(x)))
        h = self.norm2(self.conv2(h))
        out = self.act(h + self.skip(x))
        return out, self.pool(out)


def get_inputs():
    return [torch.randn(N, CIN, D, H, W)]


def get_init_inputs():
    return []
