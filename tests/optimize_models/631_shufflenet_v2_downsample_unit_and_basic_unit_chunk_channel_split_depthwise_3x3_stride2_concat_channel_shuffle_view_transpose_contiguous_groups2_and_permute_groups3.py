"""ShuffleNet V2 units on an odd 13x13 input with 24 channels. Downsample unit: branch 1 = depthwise 3x3
stride 2 + affine (folded BN) then 1x1 + affine + ReLU; branch 2 = 1x1 + ReLU, depthwise 3x3 stride 2,
1x1 + ReLU; cat on channels -> 48 channels at 7x7; channel shuffle (groups 2) by
view(B, 2, C/2, H, W).transpose(1, 2).contiguous().view. Basic unit: x.chunk(2, dim=1) channel split,
branch on the second half (1x1, depthwise 3x3, 1x1), cat with the untouched half, shuffle again.
Also a ShuffleNet V1 style shuffle with 3 groups via reshape / permute(0, 2, 1, 3, 4) / reshape.
Outputs: unit output and its groups-3 shuffle (tuple)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, H, W = 2, 24, 13, 13


def channel_shuffle(x, groups):
    b, c, h, w = x.shape
    return x.view(b, groups, c // groups, h, w).transpose(1, 2).contiguous().view(b, c, h, w)


class ConvAff(nn.Module):
    """conv (no bias) followed by per-channel scale / shift (folded eval batch norm)."""

    def __init__(self, cin, cout, k, stride=1, groups=1):
        super().__init__()
        self.stride, self.groups, self.pad = stride, groups, k // 2
        self.weight = nn.Parameter(torch.randn(cout, cin // groups, k, k) * (cin // groups * k * k) ** -0.5)
        self.scale = nn.Parameter(torch.rand(cout) + 0.5)
        self.shift = nn.Parameter(torch.randn(cout) * 0.1)

    def forward(self, x):
        y = F.conv2d(x, self.weight, None, self.stride, self.pad, 1, self.groups)
        return y * self.scale.view(1, -1, 1, 1) + self.shift.view(1, -1, 1, 1)


class Model(nn.Module):
    def __init__(self, cin):
        super().__init__()
        cout = 2 * cin
        half = cout // 2
        # downsample unit
        self.b1_dw = ConvAff(cin, cin, 3, 2, cin)
        self.b1_pw = ConvAff(cin, half, 1)
        self.b2_pw1 = ConvAff(cin, half, 1)
        self.b2_dw = ConvAff(half, half, 3, 2, half)
        self.b2_pw2 = ConvAff(half, half, 1)
        # basic unit
        self.u_pw1 = ConvAff(half, half, 1)
        self.u_dw = ConvAff(half, half, 3, 1, half)
        self.u_pw2 = ConvAff(half, half, 1)

    def forward(self, x):
        b1 = F.relu(self.b1_pw(self.b1_dw(x)))
        b2 = F.relu(self.b2_pw2(self.b2_dw(F.relu(self.b2_pw1(x)))))
        y = channel_shuffle(torch.cat([b1, b2], dim=1), 2)
        y1, y2 = y.chunk(2, dim=1)
        y2 = F.relu(self.u_pw2(self.u_dw(F.relu(self.u_pw1(y2)))))
        out = channel_shuffle(torch.cat([y1, y2], dim=1), 2)
        b, c, h, w = out.shape
        out3 = out.reshape(b, 3, c // 3, h, w).permute(0, 2, 1, 3, 4).reshape(b, c, h, w)
        return out, out3


def get_inputs():
    return [torch.randn(B, C, H, W)]


def get_init_inputs():
    return [C]
