"""nn.ConvTranspose3d (stride 2) -> scale by a 0-dim parameter -> sum over channels with
keepdim -> sigmoid."""

import torch
import torch.nn as nn

N, C_IN, C_OUT, D, H, W = 2, 6, 5, 5, 7, 9


class Model(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(c_in, c_out, kernel_size=3, stride=2, padding=1)
        self.scale = nn.Parameter(torch.tensor(0.3))

    def forward(self, x):
        y = self.deconv(x) * self.scale
        return torch.sigmoid(y.sum(dim=1, keepdim=True))


def get_inputs():
    return [torch.randn(N, C_IN, D, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT]
