"""ConvNeXt-V2 stage entry as the official code writes it: downsampling layer + one block.
x = randn(2, 12, 17, 15).
Downsample: channels-first LayerNorm via permute(0, 2, 3, 1) -> F.layer_norm over the last dim
(12, eps 1e-6, affine) -> permute(0, 3, 1, 2); Conv2d 12 -> 20 (kernel 2, stride 2) on the odd
17 x 15 map -> (2, 20, 8, 7) (the last row and column are dropped by the stride).
Block on h (2, 20, 8, 7): depthwise Conv2d k7 padding 3 (groups=20); permute to NHWC;
nn.LayerNorm(20, eps=1e-6); nn.Linear 20 -> 80; nn.GELU (erf); GRN (global response norm):
Gx = torch.norm(y, p=2, dim=(1, 2), keepdim=True) (N, 1, 1, 80) (L2 over H and W),
Nx = Gx / (Gx.mean(dim=-1, keepdim=True) + 1e-6), y = gamma * (y * Nx) + beta + y with
(1, 1, 1, 80) gamma/beta (random, not the zero init); nn.Linear 80 -> 20; layer scale (20,)
multiplied in NHWC; permute back to NCHW; DropPath(0.1) which is the identity in eval mode;
residual out = h + block(h).
Outputs: out (2, 20, 8, 7) and Nx squeezed to (2, 80)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, CIN, C, H, W = 2, 12, 20, 17, 15


class DropPath(nn.Module):
    def __init__(self, drop_prob=0.0):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        if self.drop_prob == 0.0 or not self.training:
            return x
        keep = 1 - self.drop_prob
        mask = x.new_empty((x.shape[0],) + (1,) * (x.ndim - 1)).bernoulli_(keep)
        return x * mask / keep


class GRN(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gamma = nn.Parameter(0.5 * torch.randn(1, 1, 1, dim))
        self.beta = nn.Parameter(0.1 * torch.randn(1, 1, 1, dim))

    def forward(self, x):
        gx = torch.norm(x, p=2, dim=(1, 2), keepdim=True)
        nx = gx / (gx.mean(dim=-1, keepdim=True) + 1e-6)
        return self.gamma * (x * nx) + self.beta + x, nx


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.ds_weight = nn.Parameter(1.0 + 0.1 * torch.randn(CIN))
        self.ds_bias = nn.Parameter(0.1 * torch.randn(CIN))
        self.ds_conv = nn.Conv2d(CIN, C, kernel_size=2, stride=2)
        self.dwconv = nn.Conv2d(C, C, kernel_size=7, padding=3, groups=C)
        self.norm = nn.LayerNorm(C, eps=1e-6)
        self.pwconv1 = nn.Linear(C, 4 * C)
        self.act = nn.GELU()
        self.grn = GRN(4 * C)
        self.pwconv2 = nn.Linear(4 * C, C)
        self.layer_scale = nn.Parameter(0.5 + 0.1 * torch.randn(C))
        self.drop_path = DropPath(0.1)

    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, (CIN,), self.ds_weight, self.ds_bias, 1e-6)
        x = x.permute(0, 3, 1, 2)
        h = self.ds_conv(x)
        y = self.dwconv(h)
        y = y.permute(0, 2, 3, 1)
        y = self.norm(y)
        y = self.pwconv1(y)
        y = self.act(y)
        y, nx = self.grn(y)
        y = self.pwconv2(y)
        y = self.layer_scale * y
        y = y.permute(0, 3, 1, 2)
        out = h + self.drop_path(y)
        return out, nx.reshape(N, 4 * C)


def get_inputs():
    return [torch.randn(N, CIN, H, W)]


def get_init_inputs():
    return []
