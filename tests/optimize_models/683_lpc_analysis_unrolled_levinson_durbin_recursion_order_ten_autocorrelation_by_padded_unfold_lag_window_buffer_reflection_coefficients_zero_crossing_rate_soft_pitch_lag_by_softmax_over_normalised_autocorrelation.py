"""Linear-prediction speech analysis. Waveform (B, T) with pre-emphasis by slicing, framed by
unfold(81, 40) (F = 39 frames), Hamming window buffer. Autocorrelation for lags 0..40 by padding
each frame on the right (F.pad) and unfolding it again into lag-shifted copies, multiply, sum.
Lags 0..10 get a Gaussian lag-window buffer and white-noise correction r0 (1 + 1e-3) + 1e-6, then the
Levinson-Durbin recursion for order 10 is unrolled with coefficients held as a Python list of
(B, F) tensors: acc = r_i + sum_j a_j r_{i-j}, k = -acc / e, a_j += k a_{i-j}, e *= (1 - k^2).
Also: zero-crossing rate from (x[n] x[n - 1] < 0).float() averaged per frame, log frame energy, and
a soft pitch lag as the softmax-weighted mean of lags 8..40 of the normalised autocorrelation
(learned temperature). Outputs: LPC polynomial (B, F, 11) with a_0 = 1, reflection coefficients
(B, F, 10), log prediction error (B, F), frame features [log energy, zcr, soft lag] (B, F, 3)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, FRAME, HOP, ORDER, MAXLAG, MINLAG = 3, 1601, 81, 40, 10, 40, 8


class Model(nn.Module):
    def __init__(self, frame, hop, order, max_lag, min_lag):
        super().__init__()
        n = torch.arange(frame, dtype=torch.float64)
        self.register_buffer("win", (0.54 - 0.46 * torch.cos(2 * math.pi * n / (frame - 1))).float())
        k = torch.arange(order + 1, dtype=torch.float64)
        self.register_buffer("lag_win", torch.exp(-0.5 * (2 * math.pi * 60.0 / 8000.0 * k) ** 2).float())
        self.register_buffer("lags", torch.arange(min_lag, max_lag + 1, dtype=torch.float32))
        self.raw_temp = nn.Parameter(torch.tensor(-2.0))
        self.frame = frame
        self.hop = hop
        self.order = order
        self.max_lag = max_lag
        self.min_lag = min_lag

    def forward(self, x):
        x = torch.cat([x[:, :1], x[:, 1:] - 0.95 * x[:, :-1]], dim=1)
        frames = x.unfold(1, self.frame, self.hop)                       # (B, F, N)
        zcr = (frames[..., 1:] * frames[..., :-1] < 0).float().mean(dim=-1)
        fw = frames * self.win
        padded = F.pad(fw, (0, self.max_lag))
        shifted = padded.unfold(-1, self.frame, 1)                       # (B, F, max_lag + 1, N)
        ac = (shifted * fw.unsqueeze(-2)).sum(dim=-1)                    # (B, F, max_lag + 1)
        r = ac[..., : self.order + 1] * self.lag_win
        r0 = r[..., 0] * (1.0 + 1e-3) + 1e-6
        rs = [r0] + [r[..., i] for i in range(1, self.order + 1)]
        a = []
        refl = []
        e = r0
        for i in range(1, self.order + 1):
            acc = rs[i]
            for j in range(1, i):
                acc = acc + a[j - 1] * rs[i - j]
            k = -acc / e
            a = [a[j - 1] + k * a[i - j - 1] for j in range(1, i)] + [k]
            refl.append(k)
            e = e * (1.0 - k * k)
        lpc = torch.stack([torch.ones_like(r0)] + a, dim=-1)
        nac = ac[..., self.min_lag:] / r0.unsqueeze(-1)
        temp = F.softplus(self.raw_temp) + 0.01
        w = torch.softmax(nac / temp, dim=-1)
        soft_lag = (w * self.lags).sum(dim=-1)
        feats = torch.stack([torch.log(r0), zcr, soft_lag], dim=-1)
        return lpc, torch.stack(refl, dim=-1), torch.log(e), feats


def get_inputs():
    return [torch.randn(B, T)]


def get_init_inputs():
    return [FRAME, HOP, ORDER, MAXLAG, MINLAG]
