"""Spectral-gating / Wiener-style denoiser with an STFT and inverse STFT built from matmuls.
Waveform (B, T): reflect pad 31, unfold(63, 21) framing, sqrt-Hann analysis window, real DFT by
matmul with cos / -sin buffers (63, 32). Power P; noise floor by minimum statistics: P smoothed over
time with avg_pool1d(5, stride 1, pad 2, count_include_pad=False), amin over frames, times a
softplus-learned per-bin factor. Wiener gain prior / (1 + prior), prior = clamp_min(P / noise - 1, 0);
spectral gate torch.where(P > thresh * noise, gain, floor) with thresh = 1 + softplus(raw) and
floor = sigmoid(raw_floor) * 0.2; the mask is smoothed over (time, frequency) by a 3x3 avg_pool2d
and applied to re / im. Inverse real DFT by matmul with weighted cos / sin buffers (32, 63),
synthesis window, overlap-add by F.fold(output (1, L), kernel (1, 63), stride (1, 21)), division by
the folded squared-window sum (clamp_min 1e-3), crop of the padding. Outputs: denoised waveform
(B, T), mask (B, 32, F), noise floor (B, 32) with F = 73 frames."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, N_FFT, HOP = 2, 1513, 63, 21


class Model(nn.Module):
    def __init__(self, n_fft, hop):
        super().__init__()
        n_bins = n_fft // 2 + 1
        n = torch.arange(n_fft, dtype=torch.float64)
        k = torch.arange(n_bins, dtype=torch.float64)
        win = torch.sqrt(0.5 - 0.5 * torch.cos(2 * math.pi * n / n_fft))
        ang = 2 * math.pi * n[:, None] * k[None, :] / n_fft
        self.register_buffer("win", win.float())
        self.register_buffer("cos_f", torch.cos(ang).float())
        self.register_buffer("sin_f", (-torch.sin(ang)).float())
        ck = torch.full((n_bins, 1), 2.0, dtype=torch.float64)
        ck[0] = 1.0
        self.register_buffer("cos_i", (ck * torch.cos(ang.T) / n_fft).float())
        self.register_buffer("sin_i", (ck * torch.sin(ang.T) / n_fft).float())
        self.raw_noise = nn.Parameter(torch.randn(n_bins) * 0.1 + 0.5)
        self.raw_thresh = nn.Parameter(torch.tensor(0.0))
        self.raw_floor = nn.Parameter(torch.tensor(-0.5))
        self.n_fft = n_fft
        self.hop = hop

    def forward(self, x):
        bsz, t = x.shape
        pad = self.n_fft // 2
        xp = F.pad(x.unsqueeze(1), (pad, pad), mode="reflect").squeeze(1)
        frames = xp.unfold(1, self.n_fft, self.hop) * self.win       # (B, F, n_fft)
        re = frames @ self.cos_f
        im = frames @ self.sin_f
        P = (re * re + im * im).transpose(1, 2)                       # (B, bins, F)
        Ps = F.avg_pool1d(P, 5, stride=1, padding=2, count_include_pad=False)
        noise = Ps.amin(dim=2) * F.softplus(self.raw_noise) + 1e-6   # (B, bins)
        ratio = P / noise.unsqueeze(2)
        prior = (ratio - 1.0).clamp_min(0.0)
        gain = prior / (1.0 + prior)
        thresh = 1.0 + F.softplus(self.raw_thresh)
        floor = torch.sigmoid(self.raw_floor) * 0.2
        mask = torch.where(ratio > thresh, gain, floor * torch.ones_like(gain))
        mask = F.avg_pool2d(mask.unsqueeze(1), 3, stride=1, padding=1,
                            count_include_pad=False).squeeze(1)
        mt = mask.transpose(1, 2)
        y = ((re * mt) @ self.cos_i - (im * mt) @ self.sin_i) * self.win   # (B, F, n_fft)
        n_frames = y.shape[1]
        out_len = (n_frames - 1) * self.hop + self.n_fft
        ola = F.fold(y.transpose(1, 2), output_size=(1, out_len), kernel_size=(1, self.n_fft),
                     stride=(1, self.hop))
        wsq = (self.win * self.win).view(1, -1, 1).expand(1, self.n_fft, n_frames)
        wsum = F.fold(wsq, output_size=(1, out_len), kernel_size=(1, self.n_fft),
                      stride=(1, self.hop))
        out = (ola / wsum.clamp_min(1e-3)).view(bsz, out_len)
        return out[:, pad:pad + t], mask, noise


def get_inputs():
    return [torch.randn(B, T)]


def get_init_inputs():
    return [N_FFT, HOP]
