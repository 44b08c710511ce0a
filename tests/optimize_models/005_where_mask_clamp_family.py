"""torch.where with comparison masks, clamp with both bounds, clamp_min, clamp_max and
hardtanh in one chain."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D = 61, 301


class Model(nn.Module):
    def __init__(self, threshold):
        super().__init__()
        self.threshold = threshold

    def forward(self, x, y):
        m = torch.where(x > self.threshold, x, y * 0.1)
        m = torch.where(y < -0.5, torch.zeros_like(m), m)
        a = torch.clamp(m, min=-0.75, max=1.25)
        b = torch.clamp_min(x, -0.2) + torch.clamp_max(y, 0.3)
        c = F.hardtanh(x + y, min_val=-0.6, max_val=0.9)
        return a + b * c


def get_inputs():
    return [torch.randn(B, D), torch.randn(B, D)]


def get_init_inputs():
    return [0.1]
