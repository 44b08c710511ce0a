"""nn.Bilinear (in1=23, in2=19, out=31, with bias) on two inputs, softsign, then a hand-written
row L2 normalisation x / x.norm(dim=1, keepdim=True).clamp_min(1e-6).
Inputs (17, 23) and (17, 19); output (17, 31)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, IN1, IN2, OUT = 17, 23, 19, 31


class Model(nn.Module):
    def __init__(self, in1, in2, out):
        super().__init__()
        self.bilinear = nn.Bilinear(in1, in2, out)

    def forward(self, a, b):
        x = self.bilinear(a, b)
        x = F.softsign(x)
        return x / x.norm(dim=1, keepdim=True).clamp_min(1e-6)


def get_inputs():
    return [torch.randn(B, IN1), torch.randn(B, IN2)]


def get_init_inputs():
    return [IN1, IN2, OUT]
