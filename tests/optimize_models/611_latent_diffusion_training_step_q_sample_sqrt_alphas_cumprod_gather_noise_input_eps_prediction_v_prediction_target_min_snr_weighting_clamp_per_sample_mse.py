"""Diffusion training loss: buffers sqrt_ac, sqrt_1m_ac from a cosine schedule (cos^2 of arange,
clamped betas, cumprod). x_t = sqrt_ac[t] * x0 + sqrt_1m_ac[t] * noise (noise is an input);
model = conv net with time-scale input; targets: eps and v = sqrt_ac * noise - sqrt_1m_ac * x0;
snr = ac / (1 - ac); min-SNR weight = clamp(snr, max=5) / snr; per-sample mse(pred, v) over (C,H,W).
x0, noise = randn(4, 4, 7, 9), t = randint(0, 40, (4,)). Outputs: loss (0-dim), per-sample (4,), x_t."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, c, hidden, num_steps):
        super().__init__()
        s = 0.008
        steps = torch.arange(num_steps + 1, dtype=torch.float64) / num_steps
        f = torch.cos((steps + s) / (1 + s) * math.pi / 2) ** 2
        betas = (1 - f[1:] / f[:-1]).clamp(0.0, 0.999)
        ac = torch.cumprod(1 - betas, dim=0).float()
        self.register_buffer("alphas_cumprod", ac)
        self.register_buffer("sqrt_ac", ac.sqrt())
        self.register_buffer("sqrt_1m_ac", (1 - ac).sqrt())
        self.num_steps = num_steps
        self.conv1 = nn.Conv2d(c + 1, hidden, 3, padding=1)
        self.conv2 = nn.Conv2d(hidden, c, 3, padding=1)

    def forward(self, x0, noise, t):
        sa = self.sqrt_ac[t][:, None, None, None]
        s1 = self.sqrt_1m_ac[t][:, None, None, None]
        x_t = sa * x0 + s1 * noise
        tmap = (t.float() / self.num_steps)[:, None, None, None].expand(-1, 1, x0.shape[2], x0.shape[3])
        pred = self.conv2(F.silu(self.conv1(torch.cat([x_t, tmap], dim=1))))
        v = sa * noise - s1 * x0
        ac = self.alphas_cumprod[t]
        snr = ac / (1 - ac)
        w = snr.clamp(max=5.0) / snr
        per = F.mse_loss(pred, v, reduction="none").mean(dim=(1, 2, 3))
        return (w * per).mean(), per, x_t


def get_inputs():
    return [torch.randn(4, 4, 7, 9), torch.randn(4, 4, 7, 9), torch.randint(0, 40, (4,))]


def get_init_inputs():
    return [4, 10, 40]
