"""ConvNeXt block as in the official implementation: depthwise Conv2d 7x7 (padding 3,
groups=dim) + bias, x.permute(0, 2, 3, 1) to channels-last, nn.LayerNorm(dim, eps=1e-6),
nn.Linear(dim -> 4 * dim), nn.GELU() (erf), nn.Linear(4 * dim -> dim), layer scale
self.gamma * x with gamma = layer_scale_init_value * torch.ones(dim) (init value 0.5, a
(dim,) parameter), x.permute(0, 3, 1, 2) back, residual input + x (drop path is Identity).
Input (2, 24, 15, 17); output (2, 24, 15, 17)."""

import torch
import torch.nn as nn

N, DIM, H, W, LAYER_SCALE = 2, 24, 15, 17, 0.5


class Model(nn.Module):
    def __init__(self, dim, layer_scale_init_value):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(layer_scale_init_value * torch.ones((dim)), requires_grad=True)
        self.drop_path = nn.Identity()

    def forward(self, x):
        input = x
        x = self.dwconv(x)
        x = x.permute(0, 2, 3, 1)  # (N, C, H, W) -> (N, H, W, C)
        x = self.norm(x)
        x = self.pwconv1(x)
        x = self.act(x)
        x = self.pwconv2(x)
        x = self.gamma * x
        x = x.permute(0, 3, 1, 2)  # (N, H, W, C) -> (N, C, H, W)
        x = input + self.drop_path(x)
        return x


def get_inputs():
    return [torch.randn(N, DIM, H, W)]


def get_init_inputs():
    return [DIM, LAYER_SCALE]
