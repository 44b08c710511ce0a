"""Normalisations in unusual forms on x (3, 12, 11, 13) and s (4, 10, 23).
g1 = nn.GroupNorm(1, 12) (one group: statistics over C, H, W per sample; affine) -> silu.
gc = nn.GroupNorm(12, 12) (one channel per group: instance-norm statistics; affine) -> * 0.5.
inorm = nn.InstanceNorm2d(12, affine=True, track_running_stats=True) put in eval mode in
__init__ (and kept there): normalises with its running_mean / running_var buffers (set to
non-trivial values), not the per-instance statistics -> relu.
ln_c: x.permute(0, 2, 3, 1) -> F.layer_norm over the last dim (C=12) with weight / bias ->
permute(0, 3, 1, 2) back (layer norm over dim 1 of NCHW; non-contiguous result) -> + x.
ln_h: x.movedim(2, -1) -> F.layer_norm over (H=11) without affine, eps=1e-3 -> movedim back
(normalise over a middle dim) -> tanh.
ln_s: s.transpose(1, 2) -> nn.LayerNorm(10) -> transpose back (4, 10, 23) -> row sum over dim 1.
Outputs: g1, gc, inorm, ln_c, ln_h, ln_s."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, channels, height, s_channels):
        super().__init__()
        self.g1 = nn.GroupNorm(1, channels)
        self.gc = nn.GroupNorm(channels, channels)
        self.inorm = nn.InstanceNorm2d(channels, affine=True, track_running_stats=True)
        self.ln_w = nn.Parameter(1.0 + 0.3 * torch.randn(channels))
        self.ln_b = nn.Parameter(0.2 * torch.randn(channels))
        self.ln_s = nn.LayerNorm(s_channels)
        with torch.no_grad():
            for m in (self.g1, self.gc, self.inorm, self.ln_s):
                m.weight.copy_(1.0 + 0.3 * torch.randn_like(m.weight))
                m.bias.copy_(0.2 * torch.randn_like(m.bias))
            self.inorm.running_mean.copy_(0.5 * torch.randn(channels))
            self.inorm.running_var.copy_(0.5 + torch.rand(channels))
        self.inorm.eval()
        self.height = height

    def train(self, mode=True):
        super().train(mode)
        self.inorm.eval()
        return self

    def forward(self, x, s):
        g1 = F.silu(self.g1(x))
        gc = self.gc(x) * 0.5
        inorm = torch.relu(self.inorm(x))
        ln_c = F.layer_norm(x.permute(0, 2, 3, 1), (x.shape[1],), self.ln_w, self.ln_b)
        ln_c = ln_c.permute(0, 3, 1, 2) + x
        ln_h = F.layer_norm(x.movedim(2, -1), (self.height,), eps=1e-3).movedim(-1, 2)
        ln_h = torch.tanh(ln_h)
        ln_s = self.ln_s(s.transpose(1, 2)).transpose(1, 2).sum(dim=1)
        return g1, gc, inorm, ln_c, ln_h, ln_s


def get_inputs():
    return [torch.randn(3, 12, 11, 13) * 1.5 + 0.3, torch.randn(4, 10, 23)]


def get_init_inputs():
    return [12, 11, 10]
