"""Conv2d with bias whose output is returned directly AND also feeds a pointwise chain
(per-channel shift, gelu, scalar scale, tanh); returns both as a tuple.
Input x: (2, 3, 19, 23); Conv2d(3 -> 7, kernel 3, padding 1) gives (2, 7, 19, 23)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, CIN, COUT, H, W = 2, 3, 7, 19, 23


class Model(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, kernel_size=3, padding=1, bias=True)
        self.shift = nn.Parameter(torch.randn(cout, 1, 1) * 0.5)

    def forward(self, x):
        y = self.conv(x)                      # returned as-is (bias included)
        z = F.gelu(y + self.shift) * 1.3
        z = torch.tanh(z - y * 0.5)
        return y, z


def get_inputs():
    return [torch.randn(N, CIN, H, W)]


def get_init_inputs():
    return [CIN, COUT]
