"""bfloat16 normalisation block: bfloat16 x (3, 13, 7, 11) and bfloat16 parameters.
a = F.rms_norm(x, (7, 11), weight (7, 11), eps=1e-5) (normalised over the last two dims);
b = F.rms_norm(x * 0.5 + 0.25, (11,), eps=None) (no weight, default eps);
c = F.layer_norm(a + b, (7, 11)) (no affine, two dims); y = F.softsign(c) * 1.5
+ F.hardtanh(b, min_val=-0.7, max_val=1.3).
Outputs: bfloat16 y (3, 13, 7, 11) and float32 mean over the last two dims (3, 13)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, H, W = 3, 13, 7, 11


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter((1.0 + 0.2 * torch.randn(H, W)).bfloat16())

    def forward(self, x):
        a = F.rms_norm(x, (H, W), weight=self.weight, eps=1e-5)
        b = F.rms_norm(x * 0.5 + 0.25, (W,), eps=None)
        c = F.layer_norm(a + b, (H, W))
        y = F.softsign(c) * 1.5 + F.hardtanh(b, min_val=-0.7, max_val=1.3)
        return y, y.float().mean(dim=(-2, -1))


def get_inputs():
    return [torch.randn(B, T, H, W).bfloat16()]


def get_init_inputs():
    return []
