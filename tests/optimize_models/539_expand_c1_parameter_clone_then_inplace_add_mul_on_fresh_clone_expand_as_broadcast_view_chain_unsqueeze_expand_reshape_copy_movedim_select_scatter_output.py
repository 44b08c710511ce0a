"""Expanded parameters made writable by clone, in-place ops on fresh tensors, and view chains.
x (9, 23) float32, y (4, 9, 5) float32, p (9, 1) parameter, q (1, 23) parameter.
e = p.expand(9, 23) (stride-0 view of a parameter); c = e.clone() (a fresh contiguous tensor,
the parameter untouched); c.add_(x) then c.mul_(q) in place -> out1 = c (9, 23);
c2 = q.expand_as(x).clone(); c2[:, ::2] += p (strided in-place add of a (9, 1) into every other
column) -> out2;
t = x.unsqueeze(0).expand(4, 9, 23) (stride-0 leading dim) -> reshape(36, 23) (a copy) ->
t.sub_(t.mean(dim=1, keepdim=True)) (in place on the copy) -> out3 (36, 23);
m = y.movedim(1, -1) (4, 5, 9) * p.squeeze(1) -> sum(dim=1) (4, 9) -> out4;
z = torch.zeros(4, 9, 23) built in forward; z[:, :, 0] = out4 (select write), z[1] += x
(in-place slice add), z.clamp_(min=-1.0) -> out5; out6 = p.expand(9, 23) + 0.0 (a fresh tensor
of the expanded parameter).
Outputs: out1, out2, out3, out4, out5, out6."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, r, c):
        super().__init__()
        self.p = nn.Parameter(torch.randn(r, 1))
        self.q = nn.Parameter(torch.randn(1, c))

    def forward(self, x, y):
        e = self.p.expand(9, 23)
        c = e.clone()
        c.add_(x)
        c.mul_(self.q)
        c2 = self.q.expand_as(x).clone()
        c2[:, ::2] += self.p
        t = x.unsqueeze(0).expand(4, 9, 23).reshape(36, 23)
        t.sub_(t.mean(dim=1, keepdim=True))
        m = (y.movedim(1, -1) * self.p.squeeze(1)).sum(dim=1)
        z = torch.zeros(4, 9, 23, dtype=x.dtype, device=x.device)
        z[:, :, 0] = m
        z[1] += x
        z.clamp_(min=-1.0)
        out6 = self.p.expand(9, 23) + 0.0
        return c, c2, t, m, z, out6


def get_inputs():
    return [torch.randn(9, 23), torch.randn(4, 9, 5)]


def get_init_inputs():
    return [9, 23]
