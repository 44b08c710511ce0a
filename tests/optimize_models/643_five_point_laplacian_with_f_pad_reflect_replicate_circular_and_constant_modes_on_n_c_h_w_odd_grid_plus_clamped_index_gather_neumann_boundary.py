"""5-point Laplacian on an (N, C, H, W) grid with odd sizes after F.pad by 1 in reflect,
replicate, circular and constant (value 0.5) modes, stencil written with slicing of the padded
tensor; plus a clamp-based boundary: neighbour indices arange +- 1 clamped to [0, size-1] and
index_select along H and W (equal to replicate padding). Per-channel diffusivity buffer (C, 1, 1)
broadcast. Outputs: the four Laplacians stacked (4, N, C, H, W), max |replicate - clamp| (0-dim),
per-channel mean square of the reflect Laplacian (C,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 3, 29, 31


def lap5(p):
    c = p[:, :, 1:-1, 1:-1]
    return p[:, :, :-2, 1:-1] + p[:, :, 2:, 1:-1] + p[:, :, 1:-1, :-2] + p[:, :, 1:-1, 2:] - 4 * c


class Model(nn.Module):
    def __init__(self, channels, h, w):
        super().__init__()
        self.register_buffer("kappa", torch.linspace(0.5, 1.5, channels).view(channels, 1, 1))
        ih = torch.arange(h)
        iw = torch.arange(w)
        self.register_buffer("up", (ih - 1).clamp(0, h - 1))
        self.register_buffer("down", (ih + 1).clamp(0, h - 1))
        self.register_buffer("left", (iw - 1).clamp(0, w - 1))
        self.register_buffer("right", (iw + 1).clamp(0, w - 1))

    def forward(self, u):
        l_ref = lap5(F.pad(u, (1, 1, 1, 1), mode="reflect")) * self.kappa
        l_rep = lap5(F.pad(u, (1, 1, 1, 1), mode="replicate")) * self.kappa
        l_cir = lap5(F.pad(u, (1, 1, 1, 1), mode="circular")) * self.kappa
        l_con = lap5(F.pad(u, (1, 1, 1, 1), mode="constant", value=0.5)) * self.kappa
        l_clamp = (u.index_select(2, self.up) + u.index_select(2, self.down)
                   + u.index_select(3, self.left) + u.index_select(3, self.right) - 4 * u) * self.kappa
        err = (l_rep - l_clamp).abs().amax()
        ms = l_ref.pow(2).mean(dim=(0, 2, 3))
        return torch.stack([l_ref, l_rep, l_cir, l_con]), err, ms


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, H, W]
