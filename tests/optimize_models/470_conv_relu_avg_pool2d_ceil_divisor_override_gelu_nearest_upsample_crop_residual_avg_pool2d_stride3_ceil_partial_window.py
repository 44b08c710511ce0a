"""Low-resolution context branch with pooling edge cases, added back by nearest upsampling:
x = randn(2, 6, 31, 45); h = relu(Conv2d 6 -> 9 (k3, padding 1)(x)) (2, 9, 31, 45).
p = F.avg_pool2d(h, 2, stride=2, ceil_mode=True, divisor_override=3) (2, 9, 16, 23): every
window sum is divided by 3, including the partial windows of the last row and column;
q = gelu(Conv2d 9 -> 9 (1x1)(p)); up = F.interpolate(q, scale_factor=2, mode='nearest')
(2, 9, 32, 46) cropped to [:, :, :31, :45]; y = h + up * g (9,1,1) parameter.
d = nn.AvgPool2d(3, stride=3, padding=1, ceil_mode=True)(y) (2, 9, 11, 16)
(count_include_pad=True; the extra ceil column starts at padded index 45 and its divisor counts
only the in-bounds-plus-padding part of the window);
e = F.avg_pool2d(y, (2, 3), stride=(2, 3), ceil_mode=True, divisor_override=5) (2, 9, 16, 15)
(the last row of windows has one input row).
Outputs: y (2, 9, 31, 45), d (2, 9, 11, 16), tanh(e) (2, 9, 16, 15)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, CI, C, H, W = 2, 6, 9, 31, 45


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(CI, C, kernel_size=3, padding=1)
        self.ctx = nn.Conv2d(C, C, kernel_size=1)
        self.g = nn.Parameter(torch.randn(C, 1, 1))
        self.pool = nn.AvgPool2d(3, stride=3, padding=1, ceil_mode=True)

    def forward(self, x):
        h = F.relu(self.conv(x))
        p = F.avg_pool2d(h, 2, stride=2, ceil_mode=True, divisor_override=3)
        q = F.gelu(self.ctx(p))
        up = F.interpolate(q, scale_factor=2, mode="nearest")[:, :, :H, :W]
        y = h + up * self.g
        d = self.pool(y)
        e = F.avg_pool2d(y, (2, 3), stride=(2, 3), ceil_mode=True, divisor_override=5)
        return y, d, torch.tanh(e)


def get_inputs():
    return [torch.randn(N, CI, H, W)]


def get_init_inputs():
    return []
