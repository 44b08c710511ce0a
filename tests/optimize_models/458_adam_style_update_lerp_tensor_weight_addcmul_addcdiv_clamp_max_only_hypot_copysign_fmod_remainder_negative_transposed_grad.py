"""Optimizer-step block on float32 state: p (37, 53), g = randn(53, 37).T (37, 53)
transposed (g_raw), m (37, 53), v = rand (37, 53) (non-negative).
Global-norm gradient clip: g = g_raw * (30 / norm(g_raw)).clamp(max=1.0) (clamp with max only);
m1 = torch.lerp(m, g, w) with a tensor weight w = sigmoid of a (53,) parameter;
v1 = torch.addcmul(0.99 * v, g, g, value=0.01); step = torch.addcdiv(p, m1, sqrt(v1) + 1e-3,
value=-0.05); mag = torch.hypot(m1, g); p2 = torch.copysign(step.abs(), g) * 0.5 + step * 0.5;
on the raw (transposed) input g_raw, so wrap points are exact: torch.fmod(g_raw, -0.7),
torch.remainder(g_raw, -0.7), torch.remainder(-g_raw, 0.45), torch.trunc(4 g_raw),
torch.frac(4 g_raw) * torch.sign(g_raw).
Outputs: p2, m1, v1, mag, wrapped-gradient mix (all (37, 53))."""

import torch
import torch.nn as nn

R, C = 37, 53


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w_logit = nn.Parameter(torch.randn(C) - 2.0)

    def forward(self, p, g_raw, m, v):
        gn = torch.linalg.vector_norm(g_raw)
        g = g_raw * (30.0 / gn).clamp(max=1.0)
        w = torch.sigmoid(self.w_logit)
        m1 = torch.lerp(m, g, w)
        v1 = torch.addcmul(0.99 * v, g, g, value=0.01)
        step = torch.addcdiv(p, m1, v1.sqrt() + 1e-3, value=-0.05)
        mag = torch.hypot(m1, g)
        p2 = torch.copysign(step.abs(), g) * 0.5 + step * 0.5
        g4 = g_raw * 4.0
        wrapped = (torch.fmod(g_raw, -0.7) + torch.remainder(g_raw, -0.7)
                   + torch.remainder(-g_raw, 0.45) + 0.1 * torch.trunc(g4)
                   + torch.frac(g4) * torch.sign(g_raw))
        return p2, m1, v1, mag, wrapped


def get_inputs():
    p = torch.randn(R, C)
    g = torch.randn(C, R).t()
    m = 0.1 * torch.randn(R, C)
    v = torch.rand(R, C) * 0.05
    return [p, g, m, v]


def get_init_inputs():
    return []
