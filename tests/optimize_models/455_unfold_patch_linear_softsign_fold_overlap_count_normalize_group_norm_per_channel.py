"""Patch-wise mixing with overlap-add: x (2, 5, 19, 23). F.unfold(kernel (3, 4),
padding (1, 2), stride (2, 3)) (2, 60, 80); transpose; Linear 60 -> 60 on each patch;
F.softsign; transpose back; F.fold to (19, 23) with the same parameters (overlapping
windows summed); divide by the overlap count fold(unfold(ones)) clamped to >= 1;
F.group_norm(num_groups=5) without affine (per-channel stats) plus residual x;
F.hardtanh(min_val=-1.5, max_val=2.5).
Outputs: y (2, 5, 19, 23) and the overlap count map (1, 1, 19, 23)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 5, 19, 23
K = (3, 4)
PAD = (1, 2)
STRIDE = (2, 3)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.mix = nn.Linear(C * K[0] * K[1], C * K[0] * K[1])

    def forward(self, x):
        cols = F.unfold(x, kernel_size=K, padding=PAD, stride=STRIDE)
        h = F.softsign(self.mix(cols.transpose(1, 2))).transpose(1, 2)
        y = F.fold(h, output_size=(H, W), kernel_size=K, padding=PAD, stride=STRIDE)
        ones = torch.ones(1, 1, H, W, dtype=x.dtype, device=x.device)
        cnt = F.fold(F.unfold(ones, kernel_size=K, padding=PAD, stride=STRIDE),
                     output_size=(H, W), kernel_size=K, padding=PAD, stride=STRIDE)
        y = y / cnt.clamp(min=1.0)
        y = F.group_norm(y, num_groups=C) + x
        return F.hardtanh(y, min_val=-1.5, max_val=2.5), cnt


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return []
