"""ConvTranspose1d with stride equal to the kernel size and output_padding, followed by a
pointwise chain, an adaptive max pool and a channel mean.
x = randn(4, 8, 19).
h = ConvTranspose1d(8 -> 5, k3, stride 3, padding 1, output_padding 1)(x) (4, 5, 56) -> tanh
-> * scale (Python float 2.5) + (C, 1) bias; p = adaptive_max_pool1d(h, 7) (4, 5, 7) ->
softplus; out = p.mean(dim=1) (4, 7).
Outputs: out (4, 7)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, cout, scale):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(cin, cout, 3, stride=3, padding=1, output_padding=1)
        self.bias = nn.Parameter(0.5 * torch.randn(cout, 1))
        self.scale = scale

    def forward(self, x):
        h = torch.tanh(self.deconv(x)) * self.scale + self.bias
        p = F.softplus(F.adaptive_max_pool1d(h, 7))
        return p.mean(dim=1)


def get_inputs():
    return [torch.randn(4, 8, 19)]


def get_init_inputs():
    return [8, 5, 2.5]
