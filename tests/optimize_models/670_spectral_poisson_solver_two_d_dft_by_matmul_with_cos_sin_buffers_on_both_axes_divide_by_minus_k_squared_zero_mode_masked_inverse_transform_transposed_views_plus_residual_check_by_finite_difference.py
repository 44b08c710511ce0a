"""Spectral Poisson solve lap(u) = f on a periodic (H, W) grid without torch.fft: forward 2-D DFT
as matmuls with fixed cos / sin buffers on the W axis (f @ C_w, f @ S_w) then on the H axis through
transposed views (C_h @ . with complex arithmetic by hand), divide by -(kx^2 + ky^2) from a
wavenumber buffer with the zero mode masked to 0 by torch.where (mean-zero solution), inverse DFT
by the conjugate buffers and 1 / (H W) scaling, keep the real part. The source is made mean-zero per
sample (keepdim mean over the last two dims) and scaled by a learned softplus conductivity.
Residual check: the 5-point finite difference Laplacian of u (torch.roll) vs. f on a spectrally
consistent scale. Outputs: u (B, H, W), gradient u_x via the spectral derivative i kx (B, H, W),
residual norm per sample (B,)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, H, W = 3, 27, 35


def dft_mats(n):
    k = torch.arange(n, dtype=torch.float64)
    ang = 2 * math.pi * k[:, None] * k[None, :] / n
    return torch.cos(ang).float(), torch.sin(ang).float()


def wavenumbers(n, length):
    k = torch.arange(n, dtype=torch.float64)
    k = torch.where(k <= n // 2, k, k - n)
    return (2 * math.pi / length * k).float()


class Model(nn.Module):
    def __init__(self, h, w, lx, ly):
        super().__init__()
        ch, sh = dft_mats(h)
        cw, sw = dft_mats(w)
        self.register_buffer("ch", ch)
        self.register_buffer("sh", sh)
        self.register_buffer("cw", cw)
        self.register_buffer("sw", sw)
        ky = wavenumbers(h, ly).view(h, 1)
        kx = wavenumbers(w, lx).view(1, w)
        self.register_buffer("kx", kx)
        self.register_buffer("k2", ky * ky + kx * kx)
        self.raw_c = nn.Parameter(torch.tensor(0.3))
        self.hx = lx / w
        self.hy = ly / h

    def forward(self, f):
        f = f - f.mean(dim=(-2, -1), keepdim=True)
        f = f / (F.softplus(self.raw_c) + 0.5)
        # forward DFT: F = C_h f C_w - S_h f S_w - i (S_h f C_w + C_h f S_w)
        a = f @ self.cw
        bb = f @ self.sw
        re = self.ch @ a - self.sh @ bb
        im = -(self.sh @ a + self.ch @ bb)
        zero = self.k2 == 0
        denom = torch.where(zero, torch.ones_like(self.k2), -self.k2)
        ure = torch.where(zero, torch.zeros_like(re), re / denom)
        uim = torch.where(zero, torch.zeros_like(im), im / denom)

        def inv(xr, xi):
            # inverse: (C_h + i S_h) X (C_w + i S_w), real part, via transposed view on H
            tr = (xr.transpose(-2, -1) @ self.ch.T - xi.transpose(-2, -1) @ self.sh.T).transpose(-2, -1)
            ti = (xr.transpose(-2, -1) @ self.sh.T + xi.transpose(-2, -1) @ self.ch.T).transpose(-2, -1)
            return (tr @ self.cw - ti @ self.sw) / (self.ch.shape[0] * self.cw.shape[0])

        u = inv(ure, uim)
        ux = inv(-self.kx * uim, self.kx * ure)
        lap = ((torch.roll(u, 1, -1) - 2 * u + torch.roll(u, -1, -1)) / (self.hx * self.hx)
               + (torch.roll(u, 1, -2) - 2 * u + torch.roll(u, -1, -2)) / (self.hy * self.hy))
        res = (lap - f).pow(2).mean(dim=(-2, -1)).sqrt()
        return u, ux, res


def get_inputs():
    return [torch.randn(B, H, W)]


def get_init_inputs():
    return [H, W, 2 * math.pi, 2 * math.pi]
