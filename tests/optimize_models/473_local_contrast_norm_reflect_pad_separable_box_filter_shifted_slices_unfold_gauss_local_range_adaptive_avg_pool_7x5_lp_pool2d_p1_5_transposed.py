"""Hand-written windowed image filters (local contrast normalisation) on x = randn(2, 3, 45, 37):
box filter by hand: xp = F.pad(x, (2, 2, 2, 2), mode='reflect'), vertical sum of 5 shifted
row slices then horizontal sum of 5 shifted column slices, / 25 -> mean (2, 3, 45, 37); the
same on x * x -> var = (box(x * x) - mean ** 2).clamp_min(0);
lcn = (x - mean) * rsqrt(var + 1e-2) * gain (3,1,1) parameter.
F.unfold(lcn, 3, padding=1) viewed (2, 3, 9, 45, 37): smooth = sum over the 9 taps times
softmax of a (9,) parameter (learned blur); rng = amax - amin over the taps (zero padding
counts as a tap at the border).
pooled = F.adaptive_avg_pool2d(smooth, (7, 5)) (45 / 7 and 37 / 5 non-divisible, overlapping
windows); lp = F.lp_pool2d(softplus(lcn).transpose(2, 3), 1.5, (3, 2), stride=2)
(non-contiguous (2, 3, 37, 45) input, p = 1.5) -> (2, 3, 18, 22).
Outputs: lcn (2, 3, 45, 37), rng * smooth (2, 3, 45, 37), pooled (2, 3, 7, 5), lp (2, 3, 18, 22)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W, R = 2, 3, 45, 37, 2


def box(x):
    k = 2 * R + 1
    xp = F.pad(x, (R, R, R, R), mode="reflect")
    rows = xp[:, :, 0:H, :]
    for i in range(1, k):
        rows = rows + xp[:, :, i:i + H, :]
    out = rows[:, :, :, 0:W]
    for j in range(1, k):
        out = out + rows[:, :, :, j:j + W]
    return out / (k * k)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = nn.Parameter(1.0 + 0.2 * torch.randn(C, 1, 1))
        self.taps = nn.Parameter(0.5 * torch.randn(9))

    def forward(self, x):
        mean = box(x)
        var = (box(x * x) - mean * mean).clamp_min(0.0)
        lcn = (x - mean) * torch.rsqrt(var + 1e-2) * self.gain
        patches = F.unfold(lcn, 3, padding=1).view(N, C, 9, H, W)
        wts = torch.softmax(self.taps, dim=0).view(1, 1, 9, 1, 1)
        smooth = (patches * wts).sum(dim=2)
        rng = patches.amax(dim=2) - patches.amin(dim=2)
        pooled = F.adaptive_avg_pool2d(smooth, (7, 5))
        lp = F.lp_pool2d(F.softplus(lcn).transpose(2, 3), 1.5, (3, 2), stride=2)
        return lcn, rng * smooth, pooled, lp


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return []
