"""Average pooling 1-D / 2-D / 3-D with kernel larger than stride, padding equal to half the kernel,
ceil_mode (last window running past the padded end), count_include_pad True / False,
divisor_override; adaptive average pooling to sizes that do not divide the input, to None in one
dim, and to sizes larger than the input (overlapping windows).
x1 (3, 4, 29), x2 (2, 3, 13, 17), x3 (1, 2, 7, 9, 11), s (2, 3, 3, 4), all randn.
a1 = avg_pool1d(x1, 5, stride=3, padding=2, ceil_mode=True) (count_include_pad True, 11 outputs; the
last window starts at 28, holds 1 real + 2 pad positions before the padded end and is divided by 3);
a2 = avg_pool2d(x2, (4, 3), stride=(3, 2), padding=(2, 1), ceil_mode=True, count_include_pad=False)
(2, 3, 5, 9);
a2d = avg_pool2d(x2, 5, stride=3, padding=2, ceil_mode=True, divisor_override=7) (2, 3, 5, 7);
a3 = avg_pool3d(x3, (2, 3, 4), stride=(1, 2, 3), padding=(1, 1, 2), ceil_mode=True) (1, 2, 8, 5, 5);
a3n = avg_pool3d(x3, 3, stride=2, padding=1, count_include_pad=False) (1, 2, 4, 5, 6);
p1 = adaptive_avg_pool1d(x1, 5) (29 -> 5), p2 = adaptive_avg_pool2d(x2, (4, 6)),
p2n = adaptive_avg_pool2d(x2, (None, 5)) (H kept), p3 = adaptive_avg_pool3d(x3, (2, 3, 4)),
pu = adaptive_avg_pool2d(s, (7, 5)) (3x4 -> 7x5, upsampling with overlapping windows).
Outputs: a1, a2, a2d, a3, a3n, p1, p2, p2n, p3, pu."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x1, x2, x3, s):
        a1 = F.avg_pool1d(x1, 5, stride=3, padding=2, ceil_mode=True)
        a2 = F.avg_pool2d(x2, (4, 3), stride=(3, 2), padding=(2, 1), ceil_mode=True,
                          count_include_pad=False)
        a2d = F.avg_pool2d(x2, 5, stride=3, padding=2, ceil_mode=True, divisor_override=7)
        a3 = F.avg_pool3d(x3, (2, 3, 4), stride=(1, 2, 3), padding=(1, 1, 2), ceil_mode=True)
        a3n = F.avg_pool3d(x3, 3, stride=2, padding=1, count_include_pad=False)
        p1 = F.adaptive_avg_pool1d(x1, 5)
        p2 = F.adaptive_avg_pool2d(x2, (4, 6))
        p2n = F.adaptive_avg_pool2d(x2, (None, 5))
        p3 = F.adaptive_avg_pool3d(x3, (2, 3, 4))
        pu = F.adaptive_avg_pool2d(s, (7, 5))
        return a1, a2, a2d, a3, a3n, p1, p2, p2n, p3, pu


def get_inputs():
    return [torch.randn(3, 4, 29), torch.randn(2, 3, 13, 17), torch.randn(1, 2, 7, 9, 11),
            torch.randn(2, 3, 3, 4)]


def get_init_inputs():
    return []
