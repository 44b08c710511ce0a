"""ConvTranspose2d upsampling followed by an activation, a norm, a non-divisible adaptive pool
and a channel log-softmax.
x = randn(2, 6, 9, 13).
h = ConvTranspose2d(6 -> 9, k4, stride 2, padding 1)(x) (2, 9, 18, 26) -> mish ->
GroupNorm(3, 9) (random affine) -> * (C, 1, 1) scale;
p = adaptive_avg_pool2d(h, (5, 7)) (2, 9, 5, 7) (overlapping, uneven windows);
q = log_softmax(p, dim=1); out = q.amax(dim=(2, 3)) (2, 9).
Outputs: out (2, 9), q (2, 9, 5, 7)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, cout, groups):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(cin, cout, 4, stride=2, padding=1)
        self.gn = nn.GroupNorm(groups, cout)
        with torch.no_grad():
            self.gn.weight.copy_(1.0 + 0.2 * torch.randn(cout))
            self.gn.bias.copy_(0.1 * torch.randn(cout))
        self.scale = nn.Parameter(1.0 + 0.5 * torch.randn(cout, 1, 1))

    def forward(self, x):
        h = self.gn(F.mish(self.deconv(x))) * self.scale
        p = F.adaptive_avg_pool2d(h, (5, 7))
        q = F.log_softmax(p, dim=1)
        return q.amax(dim=(2, 3)), q


def get_inputs():
    return [torch.randn(2, 6, 9, 13)]


def get_init_inputs():
    return [6, 9, 3]
