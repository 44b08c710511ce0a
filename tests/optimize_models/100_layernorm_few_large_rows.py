"""Layer norm over the last three dims (and, without affine, over the last two) when there
are only a few rows: an input of shape (3, 7, 53, 59) gives 3 rows of 21889 elements for
nn.LayerNorm((7, 53, 59)) and 21 rows of 3127 for F.layer_norm over (53, 59); the two are
combined with a pointwise gate."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 3, 7, 53, 59


class Model(nn.Module):
    def __init__(self, c, h, w):
        super().__init__()
        self.ln = nn.LayerNorm((c, h, w), eps=1e-5)
        with torch.no_grad():
            self.ln.weight.copy_(torch.randn(c, h, w))
            self.ln.bias.copy_(torch.randn(c, h, w))

    def forward(self, x):
        a = self.ln(x)
        b = F.layer_norm(x, (x.shape[-2], x.shape[-1]), eps=1e-6)
        return a * torch.sigmoid(b)


def get_inputs():
    return [torch.randn(N, C, H, W) * 3.0 + 1.0]


def get_init_inputs():
    return [C, H, W]
