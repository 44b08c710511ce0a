"""Conv2d (dilated) -> bias add -> global average pool (mean over H, W keepdim) ->
logsumexp over channels -> scale: a conv followed by stacked reductions."""

import torch
import torch.nn as nn

N, C_IN, C_OUT, H, W = 8, 7, 33, 25, 21


class Model(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=2, dilation=2)
        self.bias = nn.Parameter(torch.randn(c_out, 1, 1))

    def forward(self, x):
        y = self.conv(x) + self.bias
        y = y.mean(dim=(2, 3), keepdim=True)
        y = torch.logsumexp(y, dim=1)
        return y * 10.0


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT]
