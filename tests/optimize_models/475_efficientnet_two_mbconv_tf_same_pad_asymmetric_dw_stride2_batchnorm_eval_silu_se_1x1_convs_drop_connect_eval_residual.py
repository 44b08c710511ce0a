"""Two EfficientNet MBConv blocks (TF-port style with 'same' padding computed in forward), eval mode.
x = randn(2, 16, 19, 18).
Block 1 (stride 2, no residual): 1x1 Conv2d 16 -> 64 (no bias) + BatchNorm2d (eval, random
running stats) + SiLU; depthwise 3x3 stride 2 conv with TF 'same' padding: pad = max((ceil(s / 2) - 1)
* 2 + 3 - s, 0) per dim, split as (pad // 2, pad - pad // 2) -> F.pad (0, 1, 1, 1): H = 19 pads 1
and 1, W = 18 pads only 0 left / 1 right (asymmetric); output (2, 64, 10, 9), BN, SiLU;
squeeze-excitation: F.adaptive_avg_pool2d(., 1) -> Conv2d 1x1 64 -> 4 (bias) -> SiLU -> Conv2d 1x1
4 -> 64 (bias) -> sigmoid -> multiply; 1x1 Conv2d 64 -> 24 (no bias) + BN (no activation).
Block 2 (stride 1, 24 -> 24, expand 4): 1x1 expand 24 -> 96 + BN + SiLU, depthwise 5x5 (same
padding 2) + BN + SiLU, SE 96 -> 6 -> 96, 1x1 project 96 -> 24 + BN, drop-connect (identity in
eval: `if not self.training`) and residual add.
Output: (2, 24, 10, 9) and the block-2 SE gate (2, 96, 1, 1)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N, CIN, H, W = 2, 16, 19, 18


def _bn(c):
    bn = nn.BatchNorm2d(c, eps=1e-3, momentum=0.01)
    with torch.no_grad():
        bn.weight.copy_(1.0 + 0.2 * torch.randn(c))
        bn.bias.copy_(0.1 * torch.randn(c))
        bn.running_mean.copy_(0.2 * torch.randn(c))
        bn.running_var.copy_(0.5 + torch.rand(c))
    return bn


class Conv2dSame(nn.Conv2d):
    def forward(self, x):
        ih, iw = x.shape[-2:]
        kh, kw = self.weight.shape[-2:]
        sh, sw = self.stride
        oh, ow = math.ceil(ih / sh), math.ceil(iw / sw)
        pad_h = max((oh - 1) * sh + (kh - 1) * self.dilation[0] + 1 - ih, 0)
        pad_w = max((ow - 1) * sw + (kw - 1) * self.dilation[1] + 1 - iw, 0)
        if pad_h > 0 or pad_w > 0:
            x = F.pad(x, [pad_w // 2, pad_w - pad_w // 2, pad_h // 2, pad_h - pad_h // 2])
        return F.conv2d(x, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)


class SqueezeExcite(nn.Module):
    def __init__(self, c, rd):
        super().__init__()
        self.conv_reduce = nn.Conv2d(c, rd, 1)
        self.conv_expand = nn.Conv2d(rd, c, 1)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        s = F.silu(self.conv_reduce(s))
        s = torch.sigmoid(self.conv_expand(s))
        return x * s, s


class MBConv(nn.Module):
    def __init__(self, cin, cout, expand, k, stride, drop_rate):
        super().__init__()
        mid = cin * expand
        self.expand = nn.Conv2d(cin, mid, 1, bias=False)
        self.bn0 = _bn(mid)
        self.dw = Conv2dSame(mid, mid, k, stride=stride, groups=mid, bias=False)
        self.bn1 = _bn(mid)
        self.se = SqueezeExcite(mid, max(1, cin // 4))
        self.project = nn.Conv2d(mid, cout, 1, bias=False)
        self.bn2 = _bn(cout)
        self.has_skip = stride == 1 and cin == cout
        self.drop_rate = drop_rate

    def drop_connect(self, x):
        if not self.training or self.drop_rate == 0.0:
            return x
        keep = 1.0 - self.drop_rate
        mask = torch.floor(keep + torch.rand(x.shape[0], 1, 1, 1, dtype=x.dtype, device=x.device))
        return x / keep * mask

    def forward(self, x):
        h = F.silu(self.bn0(self.expand(x)))
        h = F.silu(self.bn1(self.dw(h)))
        h, gate = self.se(h)
        h = self.bn2(self.project(h))
        if self.has_skip:
            h = self.drop_connect(h) + x
        return h, gate


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = MBConv(16, 24, 4, 3, 2, 0.0)
        self.block2 = MBConv(24, 24, 4, 5, 1, 0.2)

    def forward(self, x):
        h, _ = self.block1(x)
        h, gate = self.block2(h)
        return h, gate


def get_inputs():
    return [torch.randn(N, CIN, H, W)]


def get_init_inputs():
    return []
