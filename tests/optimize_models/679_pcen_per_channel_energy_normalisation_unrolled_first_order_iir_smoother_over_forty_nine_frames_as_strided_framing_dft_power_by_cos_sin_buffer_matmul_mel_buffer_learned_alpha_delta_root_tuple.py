"""Per-channel energy normalisation (PCEN) front end. Waveform (B, T) framed without padding by
as_strided((B, F, 49), (T, 24, 1)) on a contiguous copy (F = 49 frames), Hamming-windowed real DFT
by matmul against fixed cos / sin buffers (49, 25), power, triangular mel buffer (25 -> 15) built
in __init__. The PCEN smoother M_t = (1 - s) M_{t-1} + s E_t (M_0 = E_0, per-channel
s = sigmoid(raw_s)) is an IIR filter unrolled frame by frame over all 49 frames (slice, two
multiplies, add, stack), run forward and, for a second output, also backward in time.
PCEN = (E * exp(-alpha log(eps + M)) + delta)^r - delta^r with per-channel alpha = sigmoid,
delta = exp, r = sigmoid of learned raw values. Outputs: PCEN (B, 15, F), bidirectional PCEN
(average of the forward- and backward-smoothed versions) (B, 15, F), forward smoother (B, 15, F)."""

import math

import torch
import torch.nn as nn

B, T = 3, 1201
N_FFT, HOP, N_MELS = 49, 24, 15


class Model(nn.Module):
    def __init__(self, n_fft, hop, n_mels):
        super().__init__()
        n_bins = n_fft // 2 + 1
        n = torch.arange(n_fft, dtype=torch.float64)
        k = torch.arange(n_bins, dtype=torch.float64)
        win = 0.54 - 0.46 * torch.cos(2 * math.pi * n / (n_fft - 1))
        ang = 2 * math.pi * n[:, None] * k[None, :] / n_fft
        self.register_buffer("cos_w", (win[:, None] * torch.cos(ang)).float())
        self.register_buffer("sin_w", (win[:, None] * torch.sin(ang)).float())
        centres = torch.linspace(0, n_bins - 1, n_mels + 2, dtype=torch.float64) ** 1.3
        centres = centres / centres[-1] * (n_bins - 1)
        bins = torch.arange(n_bins, dtype=torch.float64)
        fb = torch.zeros(n_bins, n_mels, dtype=torch.float64)
        for m in range(n_mels):
            lo, c, hi = centres[m], centres[m + 1], centres[m + 2]
            fb[:, m] = torch.clamp(torch.minimum((bins - lo) / (c - lo), (hi - bins) / (hi - c)), min=0.0)
        self.register_buffer("mel_fb", (fb + 1e-3).float())
        self.raw_s = nn.Parameter(torch.full((n_mels, 1), -2.5) + 0.1 * torch.randn(n_mels, 1))
        self.raw_alpha = nn.Parameter(torch.full((n_mels, 1), 1.5))
        self.log_delta = nn.Parameter(torch.full((n_mels, 1), math.log(2.0)))
        self.raw_r = nn.Parameter(torch.full((n_mels, 1), -0.7))
        self.n_fft = n_fft
        self.hop = hop

    def pcen(self, E, M, alpha, delta, r):
        agc = E * torch.exp(-alpha * torch.log(1e-6 + M))
        return (agc + delta).pow(r) - delta.pow(r)

    def forward(self, x):
        x = x.contiguous()
        bsz, t = x.shape
        nf = (t - self.n_fft) // self.hop + 1
        frames = x.as_strided((bsz, nf, self.n_fft), (t, self.hop, 1))
        re = frames @ self.cos_w
        im = frames @ self.sin_w
        E = ((re * re + im * im) @ self.mel_fb).transpose(1, 2)   # (B, mels, F)
        s = torch.sigmoid(self.raw_s)
        m = E[:, :, 0]
        fwd = [m]
        for i in range(1, nf):
            m = (1 - s[:, 0]) * m + s[:, 0] * E[:, :, i]
            fwd.append(m)
        Mf = torch.stack(fwd, dim=2)
        m = E[:, :, nf - 1]
        bwd = [m]
        for i in range(nf - 2, -1, -1):
            m = (1 - s[:, 0]) * m + s[:, 0] * E[:, :, i]
            bwd.append(m)
        Mb = torch.stack(bwd[::-1], dim=2)
        alpha = torch.sigmoid(self.raw_alpha)
        delta = torch.exp(self.log_delta)
        r = torch.sigmoid(self.raw_r)
        pf = self.pcen(E, Mf, alpha, delta, r)
        pb = self.pcen(E, Mb, alpha, delta, r)
        return pf, 0.5 * (pf + pb), Mf


def get_inputs():
    return [torch.randn(B, T)]


def get_init_inputs():
    return [N_FFT, HOP, N_MELS]
