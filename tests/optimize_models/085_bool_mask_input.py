"""A bool mask passed as an input: masked mean over time (sum / count), masked_fill and
torch.where driven by the mask, logical ops on masks."""

import torch
import torch.nn as nn

B, T, D = 7, 83, 45


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, mask):
        m = mask.unsqueeze(-1)                                         # (B, T, 1)
        count = m.sum(dim=1).clamp_min(1).to(x.dtype)                  # (B, 1)
        mean = (x * m).sum(dim=1) / count                              # (B, D)
        keep = torch.logical_and(m, x > -1.0)
        y = torch.where(keep, x, x * 0.01)
        return mean, y.masked_fill(~m, -2.0)


def get_inputs():
    return [torch.randn(B, T, D), torch.randn(B, T) > -0.3]


def get_init_inputs():
    return []
