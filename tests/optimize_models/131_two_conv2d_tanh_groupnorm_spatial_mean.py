"""Two Conv2d layers with bias in sequence (3 -> 6, kernel 3; 6 -> 9, kernel 3, padding 1)
with tanh between them, GroupNorm(3 groups, 9 channels, random affine) after the second,
then a mean over the spatial dims (2, 3).
Input x: (2, 3, 15, 21); conv outputs (2, 6, 13, 19) and (2, 9, 13, 19); output (2, 9)."""

import torch
import torch.nn as nn

N, CIN, CMID, COUT, H, W, G = 2, 3, 6, 9, 15, 21, 3


class Model(nn.Module):
    def __init__(self, cin, cmid, cout, groups):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cmid, kernel_size=3, bias=True)
        self.conv2 = nn.Conv2d(cmid, cout, kernel_size=3, padding=1, bias=True)
        self.gn = nn.GroupNorm(groups, cout)
        with torch.no_grad():
            self.gn.weight.copy_(torch.randn(cout))
            self.gn.bias.copy_(torch.randn(cout))

    def forward(self, x):
        y = torch.tanh(self.conv1(x))
        y = self.gn(self.conv2(y))
        return y.mean(dim=(2, 3))


def get_inputs():
    return [torch.randn(N, CIN, H, W)]


def get_init_inputs():
    return [CIN, CMID, COUT, G]
