"""Max pooling 1-D / 2-D / 3-D with kernel larger than stride (overlapping windows), padding equal to
half the kernel, ceil_mode, dilation, return_indices. Inputs shifted to all-negative values where
noted, so treating the padding as 0 instead of -inf would show.
x1 (3, 5, 37), x2 (2, 3, 13, 23), x3 (2, 3, 9, 11, 13), all randn.
m1 = max_pool1d(x1 - 4, 5, stride=2, padding=2, dilation=2, ceil_mode=True) (3, 5, 17);
m1b, i1 = max_pool1d(x1, 4, stride=1, padding=2, return_indices=True) (even kernel, output
longer than the input: 38; int64 indices into the unpadded row);
m2 = max_pool2d(x2 - 4, (4, 3), stride=(3, 2), padding=(2, 1), dilation=(1, 2), ceil_mode=True)
(2, 3, 5, 11);
m2b = nn.MaxPool2d(4, stride=3, padding=2, ceil_mode=True)(x2) (2, 3, 5, 9): along H (13) ceil_mode
would add a 6th window starting inside the padding, which is dropped; along W (23) it adds one;
m3 = max_pool3d(x3 - 4, 3, stride=2, padding=1, dilation=(1, 2, 1), ceil_mode=True) (2, 3, 5, 5, 7);
m3b, i3 = max_pool3d(x3, (2, 3, 3), stride=(1, 2, 2), padding=(1, 1, 1), return_indices=True)
(2, 3, 10, 6, 7).
Outputs: m1, m1b, i1, m2, m2b, m3, m3b, i3."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool2 = nn.MaxPool2d(4, stride=3, padding=2, ceil_mode=True)

    def forward(self, x1, x2, x3):
        m1 = F.max_pool1d(x1 - 4.0, 5, stride=2, padding=2, dilation=2, ceil_mode=True)
        m1b, i1 = F.max_pool1d(x1, 4, stride=1, padding=2, return_indices=True)
        m2 = F.max_pool2d(x2 - 4.0, (4, 3), stride=(3, 2), padding=(2, 1), dilation=(1, 2),
                          ceil_mode=True)
        m2b = self.pool2(x2)
        m3 = F.max_pool3d(x3 - 4.0, 3, stride=2, padding=1, dilation=(1, 2, 1), ceil_mode=True)
        m3b, i3 = F.max_pool3d(x3, (2, 3, 3), stride=(1, 2, 2), padding=(1, 1, 1),
                               return_indices=True)
        return m1, m1b, i1, m2, m2b, m3, m3b, i3


def get_inputs():
    return [torch.randn(3, 5, 37), torch.randn(2, 3, 13, 23), torch.randn(2, 3, 9, 11, 13)]


def get_init_inputs():
    return []
