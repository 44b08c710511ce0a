"""QAT forward with moving-average min/max observers (updates buffers in forward). Two Linear layers
(53 -> 37 -> 19) on (7, 11, 53) activations. For each layer input, per-tensor running_min /
running_max buffers are updated in place under torch.no_grad(): running = running + 0.1 * (batch
stat - running) via mul_/add_ for the min (batch min clamped to <= 0) and lerp_ for the max
(batch max clamped to >= 0); an int64 0-dim counter add_(1). Activations are fake-quantised
asymmetric uint8 from the updated buffers: scale = (max - min) / 255, zero_point = clamp(round(-min
/ scale), 0, 255), q = (clamp(round(x / s) + zp, 0, 255) - zp) * s, with straight-through
x + (q - x).detach(). Weights: symmetric per-output-channel int8 (amax over dim 1 keepdim / 127,
clamp [-127, 127]) with the same STE. Outputs: y (7, 11, 19), both activation scales stacked (2,),
zero points as int64 (2,), and the first running_max buffer (0-dim)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def fq_asym(x, mn, mx):
    scale = ((mx - mn) / 255.0).clamp_min(1e-8)
    zp = torch.clamp(torch.round(-mn / scale), 0, 255)
    q = (torch.clamp(torch.round(x / scale) + zp, 0, 255) - zp) * scale
    return x + (q - x).detach(), scale, zp


def fq_w(w):
    s = (w.abs().amax(dim=1, keepdim=True) / 127.0).clamp_min(1e-8)
    q = torch.clamp(torch.round(w / s), -127, 127) * s
    return w + (q - w).detach()


class Model(nn.Module):
    def __init__(self, d0, d1, d2, momentum):
        super().__init__()
        self.fc1 = nn.Linear(d0, d1)
        self.fc2 = nn.Linear(d1, d2)
        self.register_buffer("min1", torch.tensor(-2.0))
        self.register_buffer("max1", torch.tensor(2.5))
        self.register_buffer("min2", torch.tensor(-1.0))
        self.register_buffer("max2", torch.tensor(1.0))
        self.register_buffer("num_batches", torch.tensor(0, dtype=torch.int64))
        self.momentum = momentum

    def observe(self, x, mn, mx):
        with torch.no_grad():
            bmin = x.detach().amin().clamp_max(0.0)
            bmax = x.detach().amax().clamp_min(0.0)
            mn.mul_(1 - self.momentum).add_(bmin, alpha=self.momentum)
            mx.lerp_(bmax, self.momentum)

    def forward(self, x):
        with torch.no_grad():
            self.num_batches.add_(1)
        self.observe(x, self.min1, self.max1)
        xq, s1, z1 = fq_asym(x, self.min1, self.max1)
        h = F.linear(xq, fq_w(self.fc1.weight), self.fc1.bias)
        h = F.gelu(h)
        self.observe(h, self.min2, self.max2)
        hq, s2, z2 = fq_asym(h, self.min2, self.max2)
        y = F.linear(hq, fq_w(self.fc2.weight), self.fc2.bias)
        return y, torch.stack([s1, s2]), torch.stack([z1, z2]).to(torch.int64), self.max1


def get_inputs():
    return [torch.randn(7, 11, 53) * 1.3]


def get_init_inputs():
    return [53, 37, 19, 0.1]
