"""flip, roll and F.pad with mode='reflect' / 'replicate' followed by pointwise ops: image
gradients by central differences on F.pad(x, (1, 1, 1, 1), mode='replicate'), gradient
magnitude sqrt(gx^2 + gy^2 + 1e-6); asymmetric F.pad(x, (2, 1, 1, 3), mode='reflect') averaged
over two shifted windows; torch.flip(dims=(2, 3)), torch.roll(shifts=(2, -3), dims=(2, 3)),
torch.roll(x, 5) without dims (flattened); 1-D signal with F.pad reflect (3, 4) and
replicate (2, 0), moving difference, relu. Inputs x (2, 3, 13, 17), z (3, 5, 23); outputs
(2, 3, 13, 17) and (3, 5, 23)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(channels, 1, 1) * 0.3 + 1.0)

    def forward(self, x, z):
        p = F.pad(x, (1, 1, 1, 1), mode='replicate')
        gx = p[..., 1:-1, 2:] - p[..., 1:-1, :-2]
        gy = p[..., 2:, 1:-1] - p[..., :-2, 1:-1]
        mag = torch.sqrt(gx * gx + gy * gy + 1e-6)
        r = F.pad(x, (2, 1, 1, 3), mode='reflect')             # (2, 3, 17, 20)
        blur = 0.5 * (r[..., 0:13, 0:17] + r[..., 4:17, 3:20])
        fl = torch.flip(x, dims=(2, 3))
        ro = torch.roll(x, shifts=(2, -3), dims=(2, 3))
        ro2 = torch.roll(x, 5)
        out = mag * torch.sigmoid(fl - ro) * self.scale + 0.3 * blur + 0.1 * ro2
        zr = F.pad(z, (3, 4), mode='reflect')                  # (3, 5, 30)
        zp = F.pad(z, (2, 0), mode='replicate')                # (3, 5, 25)
        d = zr[..., 7:] - zr[..., :-7] + zp[..., :-2] - zp[..., 2:]
        return out, torch.relu(d) - 0.1 * torch.flip(z, dims=(-1,))


def get_inputs():
    return [torch.randn(2, 3, 13, 17), torch.randn(3, 5, 23)]


def get_init_inputs():
    return [3]
