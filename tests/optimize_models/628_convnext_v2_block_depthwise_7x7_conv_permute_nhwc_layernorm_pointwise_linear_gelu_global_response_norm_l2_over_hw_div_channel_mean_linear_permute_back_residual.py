"""ConvNeXt V2 block on an odd 13x11 map: depthwise 7x7 conv (groups = C, padding 3), permute to NHWC,
LayerNorm over channels (eps 1e-6), pointwise Linear C -> 4C, GELU, global response normalisation
(GRN: Gx = L2 norm over (H, W) keepdim, Nx = Gx / (mean of Gx over channels + 1e-6),
gamma * (x * Nx) + beta + x), Linear 4C -> C, permute back to NCHW, stochastic depth in eval
(identity), residual add."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, H, W = 2, 20, 13, 11


class GRN(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gamma = nn.Parameter(torch.randn(1, 1, 1, dim) * 0.5)
        self.beta = nn.Parameter(torch.randn(1, 1, 1, dim) * 0.1)

    def forward(self, x):
        gx = torch.norm(x, p=2, dim=(1, 2), keepdim=True)
        nx = gx / (gx.mean(dim=-1, keepdim=True) + 1e-6)
        return self.gamma * (x * nx) + self.beta + x


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.grn = GRN(4 * dim)
        self.pwconv2 = nn.Linear(4 * dim, dim)

    def forward(self, x):
        inp = x
        x = self.dwconv(x)
        x = x.permute(0, 2, 3, 1)  # (N, H, W, C), non-contiguous
        x = self.norm(x)
        x = F.gelu(self.pwconv1(x))
        x = self.grn(x)
        x = self.pwconv2(x)
        x = x.permute(0, 3, 1, 2)
        return inp + x


def get_inputs():
    return [torch.randn(B, C, H, W)]


def get_init_inputs():
    return [C]
