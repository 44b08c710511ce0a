"""ConvTranspose3d with bias and groups=2 (4 -> 6 channels, kernel 3, stride 2), then
hardswish, a sum over dims (2, 3, 4) with keepdim=True, a small scalar scale, and sigmoid.
Input x: (2, 4, 3, 5, 4); the transposed conv gives (2, 6, 7, 11, 9); output (2, 6, 1, 1, 1)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, CIN, COUT, D, H, W = 2, 4, 6, 3, 5, 4


class Model(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(cin, cout, kernel_size=3, stride=2,
                                         groups=2, bias=True)
        with torch.no_grad():
            self.deconv.bias.copy_(torch.randn(cout) * 0.3)

    def forward(self, x):
        y = F.hardswish(self.deconv(x))
        s = y.sum(dim=(2, 3, 4), keepdim=True)
        return torch.sigmoid(s * 0.02)


def get_inputs():
    return [torch.randn(N, CIN, D, H, W)]


def get_init_inputs():
    return [CIN, COUT]
