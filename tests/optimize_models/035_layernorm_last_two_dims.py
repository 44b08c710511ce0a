"""LayerNorm over the last two dims (normalized_shape=(H, W)) with elementwise affine, and
F.layer_norm without weights over the last dim; combined with sigmoid."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 3, 9, 22, 35


class Model(nn.Module):
    def __init__(self, h, w):
        super().__init__()
        self.ln = nn.LayerNorm((h, w), eps=1e-6)

    def forward(self, x):
        a = self.ln(x)
        b = F.layer_norm(x, (x.shape[-1],))
        return torch.sigmoid(a) * b


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [H, W]
