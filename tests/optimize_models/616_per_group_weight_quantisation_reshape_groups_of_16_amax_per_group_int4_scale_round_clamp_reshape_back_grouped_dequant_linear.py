"""Per-group symmetric weight quantisation (as in GPTQ / AWQ style int4 kernels): weight (out, in=48)
reshaped to (out, 3, 16), scale = amax|w| per group / 7, round, clamp [-8, 7], dequantise,
reshape back; x @ wq.t() + bias. Also int8 per-group (/127) for comparison.
Outputs: y4, y8, group scales (out, 3)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, din, dout, group):
        super().__init__()
        self.group = group
        self.weight = nn.Parameter(torch.randn(dout, din) * 0.2)
        self.bias = nn.Parameter(torch.randn(dout) * 0.05)

    def qgroup(self, qmax):
        o, i = self.weight.shape
        wg = self.weight.reshape(o, i // self.group, self.group)
        s = (wg.abs().amax(dim=-1, keepdim=True) / qmax).clamp_min(1e-8)
        wq = torch.clamp(torch.round(wg / s), -qmax - 1, qmax) * s
        return wq.reshape(o, i), s.squeeze(-1)

    def forward(self, x):
        w4, s4 = self.qgroup(7.0)
        w8, _ = self.qgroup(127.0)
        return F.linear(x, w4, self.bias), F.linear(x, w8, self.bias), s4


def get_inputs():
    return [torch.randn(3, 11, 48)]


def get_init_inputs():
    return [48, 21, 16]
