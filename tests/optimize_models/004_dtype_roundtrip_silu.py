"""Dtype casts inside a pointwise chain: float16 and bfloat16 round trips, .float() and
.to(torch.float32), with SiLU between casts."""

import torch
import torch.nn as nn
import torch.nn.functional as F

SHAPE = (7, 33, 65)


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        h = x.to(torch.float16)
        h = F.silu(h.float() * 1.5)
        b = (x * 0.5).to(torch.bfloat16)
        b = torch.tanh(b).to(torch.float32)
        return h.half().float() + b


def get_inputs():
    return [torch.randn(*SHAPE)]


def get_init_inputs():
    return []
