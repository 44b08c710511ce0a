"""Log-mel / MFCC front end without torch.fft. Waveform (B, T): pre-emphasis by slicing
cat(x[:, :1], x[:, 1:] - 0.97 x[:, :-1]), reflect padding by n_fft // 2 (F.pad on a (B, 1, T) view),
framing with Tensor.unfold(size=63, step=16), Hann-windowed real DFT as two matmuls against fixed
cos / sin buffers (63, 32) (the window folded into the buffers), power re^2 + im^2, a triangular
mel filterbank buffer (32 bins -> 17 mels, built in __init__ on the mel scale for 8 kHz), log10 of
clamp_min(mel, 1e-5) with a learned per-mel gain, cepstral mean normalisation (subtract the mean over
frames), an orthonormal DCT-II buffer (17 -> 13) for MFCCs, and first-order deltas
(x[t + 1] - x[t - 1]) / 2 by slicing after edge replication by cat. Outputs: normalised log-mel
(B, 17, F), MFCC (B, 13, F), MFCC deltas (B, 13, F) with F = 251 frames."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T = 2, 4001
N_FFT, HOP, N_MELS, N_MFCC, SR = 63, 16, 17, 13, 8000


def mel_filterbank(n_bins, n_fft, n_mels, sr):
    def hz_to_mel(f):
        return 2595.0 * math.log10(1.0 + f / 700.0)

    def mel_to_hz(m):
        return 700.0 * (10 ** (m / 2595.0) - 1.0)

    freqs = torch.arange(n_bins, dtype=torch.float64) * sr / n_fft
    mpts = torch.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2), n_mels + 2, dtype=torch.float64)
    hz = torch.tensor([mel_to_hz(m.item()) for m in mpts], dtype=torch.float64)
    fb = torch.zeros(n_bins, n_mels, dtype=torch.float64)
    for m in range(n_mels):
        lo, c, hi = hz[m], hz[m + 1], hz[m + 2]
        up = (freqs - lo) / (c - lo)
        down = (hi - freqs) / (hi - c)
        fb[:, m] = torch.clamp(torch.minimum(up, down), min=0.0)
    fb = fb + 1e-3  # keep every mel band non-empty
    return fb.float()


class Model(nn.Module):
    def __init__(self, n_fft, hop, n_mels, n_mfcc, sr):
        super().__init__()
        n_bins = n_fft // 2 + 1
        n = torch.arange(n_fft, dtype=torch.float64)
        k = torch.arange(n_bins, dtype=torch.float64)
        win = 0.5 - 0.5 * torch.cos(2 * math.pi * n / n_fft)
        ang = 2 * math.pi * n[:, None] * k[None, :] / n_fft
        self.register_buffer("cos_w", (win[:, None] * torch.cos(ang)).float())
        self.register_buffer("sin_w", (-win[:, None] * torch.sin(ang)).float())
        self.register_buffer("mel_fb", mel_filterbank(n_bins, n_fft, n_mels, sr))
        i = torch.arange(n_mels, dtype=torch.float64)
        j = torch.arange(n_mfcc, dtype=torch.float64)
        dct = torch.cos(math.pi / n_mels * (i[:, None] + 0.5) * j[None, :]) * math.sqrt(2.0 / n_mels)
        dct[:, 0] = dct[:, 0] / math.sqrt(2.0)
        self.register_buffer("dct", dct.float())
        self.log_gain = nn.Parameter(torch.randn(n_mels) * 0.1)
        self.n_fft = n_fft
        self.hop = hop

    def forward(self, x):
        x = torch.cat([x[:, :1], x[:, 1:] - 0.97 * x[:, :-1]], dim=1)
        pad = self.n_fft // 2
        x = F.pad(x.unsqueeze(1), (pad, pad), mode="reflect").squeeze(1)
        frames = x.unfold(1, self.n_fft, self.hop)          # (B, F, n_fft)
        re = frames @ self.cos_w
        im = frames @ self.sin_w
        power = re * re + im * im                            # (B, F, n_bins)
        mel = power @ self.mel_fb                            # (B, F, n_mels)
        logmel = torch.log10(mel.clamp_min(1e-5)) + self.log_gain
        logmel = logmel - logmel.mean(dim=1, keepdim=True)
        mfcc = logmel @ self.dct                             # (B, F, n_mfcc)
        mp = torch.cat([mfcc[:, :1], mfcc, mfcc[:, -1:]], dim=1)
        delta = 0.5 * (mp[:, 2:] - mp[:, :-2])
        return logmel.transpose(1, 2), mfcc.transpose(1, 2), delta.transpose(1, 2)


def get_inputs():
    return [torch.randn(B, T) * 0.3]


def get_init_inputs():
    return [N_FFT, HOP, N_MELS, N_MFCC, SR]
