"""Optimizer step as a pure function (Adam-like): torch.lerp(m, g, w1) with a (R, 1) tensor
weight from sigmoid of a parameter, torch.lerp(v, g * g, w2) with a (1, C) tensor weight
input in (0, 1) (both sides of 0.5), bias correction by Python floats, torch.addcdiv(p, m_hat,
sqrt(v_hat) + eps, value=-lr), a second addcdiv with a (C,) tensor1 and (R, 1) tensor2
(broadcast), then torch.clamp with a (R, 1) tensor min and a (1, C) tensor max where some
min > max (the result is max there). Inputs p, g, m (19, 27), v (19, 27) >= 0, w2 (1, 27);
outputs (19, 27) x 3 as a tuple."""

import torch
import torch.nn as nn

R, C = 19, 27


class Model(nn.Module):
    def __init__(self, lr, step):
        super().__init__()
        self.lr = lr
        self.step = step
        self.beta_logit = nn.Parameter(torch.randn(R, 1))
        self.lo = nn.Parameter(torch.randn(R, 1) * 0.5 - 0.3)
        self.hi = nn.Parameter(torch.randn(1, C) * 0.5 + 0.3)
        self.decay = nn.Parameter(torch.randn(C) * 0.1)

    def forward(self, p, g, m, v, w2):
        w1 = torch.sigmoid(self.beta_logit)
        m_new = torch.lerp(m, g, w1)
        v_new = torch.lerp(v, g * g, w2)
        m_hat = m_new / (1.0 - 0.9 ** self.step)
        v_hat = v_new / (1.0 - 0.999 ** self.step)
        upd = torch.addcdiv(p, m_hat, v_hat.sqrt() + 1e-3, value=-self.lr)
        upd = torch.addcdiv(upd, self.decay, 1.0 + w1, value=0.5)
        out = torch.clamp(upd, min=self.lo, max=self.hi)
        return out, m_new, v_new


def get_inputs():
    p = torch.randn(R, C)
    g = torch.randn(R, C)
    m = torch.randn(R, C) * 0.3
    v = torch.randn(R, C).abs() * 0.2
    w2 = torch.rand(1, C)
    return [p, g, m, v, w2]


def get_init_inputs():
    return [0.05, 3]
