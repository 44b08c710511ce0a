"""Conv followed by channel-wise affine and activation: x (2, 6, 17, 23); Conv2d 6 -> 9,
kernel 3, padding='same', dilation 2, groups 3, no bias; per-channel affine
y = conv * gamma.view(1, 9, 1, 1) + beta.view(1, 9, 1, 1); nn.PReLU(9) with per-channel
slopes (set to rand(9) in init, some above 0.5); hardswish of a second branch
y * s (0-dim) + shortcut (1x1 Conv2d 6 -> 9 with bias).
Outputs: conv output (2, 9, 17, 23), activated (2, 9, 17, 23), per-channel spatial mean
(2, 9)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, C_OUT, H, W = 2, 6, 9, 17, 23


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(C_IN, C_OUT, 3, padding="same", dilation=2, groups=3, bias=False)
        self.gamma = nn.Parameter(torch.rand(C_OUT) + 0.5)
        self.beta = nn.Parameter(torch.randn(C_OUT) * 0.2)
        self.prelu = nn.PReLU(C_OUT)
        with torch.no_grad():
            self.prelu.weight.copy_(torch.rand(C_OUT))
        self.short = nn.Conv2d(C_IN, C_OUT, 1)
        self.s = nn.Parameter(torch.tensor(0.7))

    def forward(self, x):
        c = self.conv(x)
        y = c * self.gamma.view(1, -1, 1, 1) + self.beta.view(1, -1, 1, 1)
        p = self.prelu(y)
        z = F.hardswish(y * self.s + self.short(x)) + p
        return c, z, z.mean(dim=(2, 3))


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return []
