"""Short-time framing of a signal with Tensor.unfold and per-frame features.
x = randn(2, 3, 101). frames = x.unfold(-1, 16, 5) (2, 3, 18, 16) (overlapping strided view).
Buffers built in __init__ from arange and cos: periodic Hann 0.5 - 0.5 cos(2 pi n / 16),
symmetric Hamming 0.54 - 0.46 cos(2 pi n / 15), and a real DFT basis cos / sin(2 pi n f / 16)
for f = 0..8 (16, 9) each.
log_energy = log(sum((frames * hann)^2, -1) + 1e-6) (2, 3, 18);
rms = sqrt(mean((frames * hamming)^2, -1)) (2, 3, 18);
zero crossings: s = sign(frames); zc = (s[..., 1:] != s[..., :-1]).sum(-1) (int64) and
zcr = (frames[..., 1:] * frames[..., :-1] < 0).float().mean(-1);
power spectrum of the Hann-windowed frames: (w @ cos)^2 + (w @ sin)^2 (2, 3, 18, 9), then
log1p of it.
Outputs: log_energy, rms, zc (int64), zcr, log1p power spectrum."""

import math

import torch
import torch.nn as nn

B, C, L, FRAME, HOP = 2, 3, 101, 16, 5


class Model(nn.Module):
    def __init__(self, frame, hop):
        super().__init__()
        self.frame = frame
        self.hop = hop
        n = torch.arange(frame, dtype=torch.float32)
        self.register_buffer("hann", 0.5 - 0.5 * torch.cos(2 * math.pi * n / frame))
        self.register_buffer("hamming", 0.54 - 0.46 * torch.cos(2 * math.pi * n / (frame - 1)))
        f = torch.arange(frame // 2 + 1, dtype=torch.float32)
        ang = 2 * math.pi * n[:, None] * f[None, :] / frame
        self.register_buffer("dft_cos", torch.cos(ang))
        self.register_buffer("dft_sin", torch.sin(ang))

    def forward(self, x):
        frames = x.unfold(-1, self.frame, self.hop)
        w = frames * self.hann
        log_energy = torch.log(w.pow(2).sum(dim=-1) + 1e-6)
        rms = torch.sqrt((frames * self.hamming).pow(2).mean(dim=-1))
        s = torch.sign(frames)
        zc = (s[..., 1:] != s[..., :-1]).sum(dim=-1)
        zcr = (frames[..., 1:] * frames[..., :-1] < 0).float().mean(dim=-1)
        power = (w @ self.dft_cos).pow(2) + (w @ self.dft_sin).pow(2)
        return log_energy, rms, zc, zcr, torch.log1p(power)


def get_inputs():
    return [torch.randn(B, C, L)]


def get_init_inputs():
    return [FRAME, HOP]
