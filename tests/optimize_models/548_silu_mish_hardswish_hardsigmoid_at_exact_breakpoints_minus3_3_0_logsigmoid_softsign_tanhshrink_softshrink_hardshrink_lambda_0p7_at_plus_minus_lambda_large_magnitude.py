"""Smooth and shrink activations on x (5, 7, 31) (randn * 3) whose row x[0, 0, :] is set to
exact breakpoint and edge values: -3, 3, 0, -0.0, 6, -6, 0.7, -0.7 (float32 0.7), 0.7 +- 1 ulp,
-20, 20, 40, -40, 1e-8, -1e-8, 2.5, -2.5, then randn * 3 for the rest of the row.
s1 = silu, s2 = mish, s3 = hardswish (0 at -3, x at 3), s4 = hardsigmoid, s5 = logsigmoid
(large negative -> x, large positive -> ~0), s6 = softsign, s7 = tanhshrink (x - tanh x),
s8 = softshrink(lambd=0.7), s9 = hardshrink(lambd=0.7) (|x| = 0.7 exactly maps to 0 in both),
nn.Softshrink(0.7) / nn.Hardshrink(0.7) modules on -x -> s10, s11,
comb = (s1 * s4 + s2 - s3).sum(dim=-1) + logsumexp(s5, dim=-1) (5, 7).
Outputs: s1 .. s11, comb."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, lambd):
        super().__init__()
        self.lambd = lambd
        self.softshrink = nn.Softshrink(lambd)
        self.hardshrink = nn.Hardshrink(lambd)

    def forward(self, x):
        s1 = F.silu(x)
        s2 = F.mish(x)
        s3 = F.hardswish(x)
        s4 = F.hardsigmoid(x)
        s5 = F.logsigmoid(x)
        s6 = F.softsign(x)
        s7 = F.tanhshrink(x)
        s8 = F.softshrink(x, self.lambd)
        s9 = F.hardshrink(x, self.lambd)
        s10 = self.softshrink(-x)
        s11 = self.hardshrink(-x)
        comb = (s1 * s4 + s2 - s3).sum(dim=-1) + torch.logsumexp(s5, dim=-1)
        return s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, comb


def get_inputs():
    x = torch.randn(5, 7, 31) * 3.0
    l = torch.tensor(0.7)
    special = torch.tensor(
        [-3.0, 3.0, 0.0, -0.0, 6.0, -6.0, 0.7, -0.7,
         torch.nextafter(l, torch.tensor(1.0)).item(),
         torch.nextafter(l, torch.tensor(0.0)).item(),
         -20.0, 20.0, 40.0, -40.0, 1e-8, -1e-8, 2.5, -2.5]
    )
    x[0, 0, : special.numel()] = special
    x[1, 3, :3] = torch.tensor([-3.0, 3.0, 0.0])
    return [x]


def get_init_inputs():
    return [0.7]
