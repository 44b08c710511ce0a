"""LSQ (learned step size) quantisation: step sizes are nn.Parameters, clamp_min(1e-5);
gradient-scale trick s_eff = s * g + (s - s * g).detach() with g = 1 / sqrt(numel * qmax);
round via STE v + (round(v) - v).detach(); activations unsigned [0, 255], weights signed per
output channel [-128, 127]; linear then relu. Outputs: quantised activation, linear output."""

import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def lsq(x, s, qmin, qmax):
    g = 1.0 / math.sqrt(x.numel() * qmax)
    s = s.clamp_min(1e-5)
    s = s * g + (s - s * g).detach()
    v = torch.clamp(x / s, qmin, qmax)
    v = v + (torch.round(v) - v).detach()
    return v * s


class Model(nn.Module):
    def __init__(self, din, dout):
        super().__init__()
        self.lin = nn.Linear(din, dout)
        self.s_act = nn.Parameter(torch.tensor(0.02))
        self.s_w = nn.Parameter(torch.full((dout, 1), 0.004))

    def forward(self, x):
        xa = lsq(torch.relu(x), self.s_act, 0, 255)
        wq = lsq(self.lin.weight, self.s_w, -128, 127)
        return xa, torch.relu(F.linear(xa, wq, self.lin.bias))


def get_inputs():
    return [torch.randn(6, 9, 27)]


def get_init_inputs():
    return [27, 17]
