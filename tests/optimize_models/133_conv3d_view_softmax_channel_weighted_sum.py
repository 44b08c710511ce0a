"""Conv3d with bias (3 -> 6, kernel 3) whose output (2, 6, 5, 7, 3) is reshaped to
(N, C, -1) = (2, 6, 105), softmax over the last dim, then a weighted sum over channels with
a learned (C, 1) parameter. Input x: (2, 3, 7, 9, 5); output (2, 105)."""

import torch
import torch.nn as nn

N, CIN, COUT, D, H, W = 2, 3, 6, 7, 9, 5


class Model(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv3d(cin, cout, kernel_size=3, bias=True)
        self.w = nn.Parameter(torch.randn(cout, 1))

    def forward(self, x):
        y = self.conv(x)
        y = y.reshape(y.shape[0], y.shape[1], -1)
        p = torch.softmax(y, dim=-1)
        return (p * self.w).sum(dim=1)


def get_inputs():
    return [torch.randn(N, CIN, D, H, W)]


def get_init_inputs():
    return [CIN, COUT]
