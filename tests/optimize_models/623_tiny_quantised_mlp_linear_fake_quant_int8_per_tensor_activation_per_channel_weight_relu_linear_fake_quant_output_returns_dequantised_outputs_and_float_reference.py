"""Small quantised MLP (QAT-style forward): fake-quant input (per tensor, int8), Linear with
per-output-channel fake-quant weight, fake-quant activation, ReLU, Linear (per-channel fake-quant
weight), fake-quant output; returns the dequantised outputs and the float32 reference network output."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def fq_t(x):
    s = (x.abs().amax() / 127.0).clamp_min(1e-8)
    return torch.clamp(torch.round(x / s), -128, 127) * s


def fq_w(w):
    s = (w.abs().amax(dim=1, keepdim=True) / 127.0).clamp_min(1e-8)
    return torch.clamp(torch.round(w / s), -128, 127) * s


class Model(nn.Module):
    def __init__(self, din, dh, dout):
        super().__init__()
        self.fc1 = nn.Linear(din, dh)
        self.fc2 = nn.Linear(dh, dout)

    def forward(self, x):
        h = F.linear(fq_t(x), fq_w(self.fc1.weight), self.fc1.bias)
        h = torch.relu(fq_t(h))
        y = fq_t(F.linear(h, fq_w(self.fc2.weight), self.fc2.bias))
        ref = self.fc2(torch.relu(self.fc1(x)))
        return y, ref


def get_inputs():
    return [torch.randn(7, 5, 35)]


def get_init_inputs():
    return [35, 41, 13]
