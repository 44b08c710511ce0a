"""Overlapping patch ops on an odd 13x17 map: T2T-style soft split F.unfold(k=3, s=2, p=1) -> 7x9 = 63
tokens of 54 dims, transpose(1, 2), per-token MLP (Linear, GELU, Linear) with a residual, transpose back
and F.fold to (13, 17) with the same kernel / stride / padding, divided by the overlap count
F.fold(F.unfold(ones)); also the exact reconstruction fold(unfold(x)) / count. YOLO "Focus"
space-to-depth: F.pad to 14x18, cat of x[..., ::2, ::2], x[..., 1::2, ::2], x[..., ::2, 1::2],
x[..., 1::2, 1::2] (step slices) then a 1x1 conv. Outputs: folded map, overlap count, max
reconstruction error, focus output (tuple)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, H, W = 2, 6, 13, 17
K, S, P = 3, 2, 1


class Model(nn.Module):
    def __init__(self, ch, k, s, p):
        super().__init__()
        self.k, self.s, self.p = k, s, p
        d = ch * k * k
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)
        self.focus = nn.Conv2d(4 * ch, 16, 1)

    def forward(self, x):
        h, w = x.shape[2], x.shape[3]
        kw = dict(kernel_size=self.k, stride=self.s, padding=self.p)
        cols = F.unfold(x, **kw)  # (B, C*k*k, L)
        t = cols.transpose(1, 2)
        t = t + self.fc2(F.gelu(self.fc1(t)))
        count = F.fold(F.unfold(torch.ones_like(x), **kw), output_size=(h, w), **kw)
        y = F.fold(t.transpose(1, 2), output_size=(h, w), **kw) / count
        recon = F.fold(cols, output_size=(h, w), **kw) / count
        err = (recon - x).abs().amax()
        xp = F.pad(x, (0, 1, 0, 1))
        f = torch.cat(
            [xp[..., ::2, ::2], xp[..., 1::2, ::2], xp[..., ::2, 1::2], xp[..., 1::2, 1::2]], dim=1
        )
        return y, count, err, self.focus(f)


def get_inputs():
    return [torch.randn(B, C, H, W)]


def get_init_inputs():
    return [C, K, S, P]
