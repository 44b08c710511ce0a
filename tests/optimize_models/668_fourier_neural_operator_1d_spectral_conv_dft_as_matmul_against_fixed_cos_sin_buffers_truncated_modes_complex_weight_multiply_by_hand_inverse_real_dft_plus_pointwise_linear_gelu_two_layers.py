"""1-D Fourier Neural Operator without torch.fft: input a(x) (B, C_in, L) with a grid channel,
lifted by a pointwise Linear over channels (permute to (B, L, C) and back). Each spectral layer
computes the truncated real DFT as matmuls of the (B, C, L) signal with fixed cos / sin buffers
(L, M) for the first M modes, multiplies by complex weights (C, C, M) written as real / imaginary
parts via einsum ("bim,iom->bom"), and inverts with the real-DFT synthesis buffers (M, L) including
the 1 / L and factor-2 weights for non-DC modes; plus a 1x1 conv (Conv1d) skip and GELU.
Two layers, projection to 1 channel. Output (B, L)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, CIN, L, WID, MODES = 4, 2, 127, 20, 12


class SpectralConv1d(nn.Module):
    def __init__(self, c, modes, length):
        super().__init__()
        scale = 1.0 / (c * c)
        self.wr = nn.Parameter(scale * torch.randn(c, c, modes))
        self.wi = nn.Parameter(scale * torch.randn(c, c, modes))
        n = torch.arange(length, dtype=torch.float64)
        k = torch.arange(modes, dtype=torch.float64)
        ang = 2 * math.pi * n[:, None] * k[None, :] / length  # (L, M)
        self.register_buffer("fcos", torch.cos(ang).float())
        self.register_buffer("fsin", (-torch.sin(ang)).float())
        w = torch.full((modes,), 2.0 / length, dtype=torch.float64)
        w[0] = 1.0 / length
        self.register_buffer("icos", (torch.cos(ang) * w).T.contiguous().float())  # (M, L)
        self.register_buffer("isin", (-torch.sin(ang) * w).T.contiguous().float())

    def forward(self, x):
        xr = x @ self.fcos  # (B, C, M)
        xi = x @ self.fsin
        yr = torch.einsum("bim,iom->bom", xr, self.wr) - torch.einsum("bim,iom->bom", xi, self.wi)
        yi = torch.einsum("bim,iom->bom", xr, self.wi) + torch.einsum("bim,iom->bom", xi, self.wr)
        return yr @ self.icos + yi @ self.isin


class Model(nn.Module):
    def __init__(self, c_in, width, modes, length):
        super().__init__()
        self.register_buffer("grid", torch.linspace(0, 1, length).view(1, 1, length))
        self.lift = nn.Linear(c_in + 1, width)
        self.spec = nn.ModuleList([SpectralConv1d(width, modes, length) for _ in range(2)])
        self.skip = nn.ModuleList([nn.Conv1d(width, width, 1) for _ in range(2)])
        self.proj1 = nn.Linear(width, 2 * width)
        self.proj2 = nn.Linear(2 * width, 1)

    def forward(self, a):
        b = a.shape[0]
        x = torch.cat([a, self.grid.expand(b, -1, -1)], dim=1)
        x = self.lift(x.permute(0, 2, 1)).permute(0, 2, 1)  # (B, W, L)
        for i, (sp, sk) in enumerate(zip(self.spec, self.skip)):
            x = sp(x) + sk(x)
            if i == 0:
                x = F.gelu(x)
        y = self.proj2(F.gelu(self.proj1(x.transpose(1, 2))))
        return y.squeeze(-1)


def get_inputs():
    return [torch.randn(B, CIN, L)]


def get_init_inputs():
    return [CIN, WID, MODES, L]
