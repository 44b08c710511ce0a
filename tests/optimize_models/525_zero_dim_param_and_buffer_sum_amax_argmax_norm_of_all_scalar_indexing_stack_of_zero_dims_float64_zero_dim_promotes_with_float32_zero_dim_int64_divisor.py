"""0-dim results from full reductions and indexing, and 0-dim type promotion.
forward(x, n, d64): x (9, 31) float32; n 0-dim int64 in [1, 9]; d64 0-dim float64.
p = 0-dim parameter 0.75; shift = 0-dim buffer -1.25.
tot = x.sum(), mx = x.amax(), am = x.argmax() (0-dim int64 flat index), nr = vector_norm(x),
e = x[2, 3] (0-dim by indexing); st = stack([tot, mx, nr, e, p, shift]) (6,);
avg = tot / n (0-dim float32 / 0-dim int64 -> float32);
prom = d64 + tot (all operands 0-dim: float64 + float32 -> float64);
cond = mx > nr * 0.5 (0-dim bool); sel = where(cond, p, shift) (0-dim);
hit = x.flatten()[am] == mx (0-dim bool, True);
y = (x - x.mean()) * sel + shift * avg (9, 31);
xs = x * d64 (a dimensioned float32 tensor times a 0-dim float64 stays float32);
e1 = e.unsqueeze(0) (1,).
Outputs: tot, am, st, avg, prom, cond, sel, hit, y, xs, e1."""

import torch
import torch.nn as nn

N, D = 9, 31


class Model(nn.Module):
    def __init__(self, p0, shift):
        super().__init__()
        self.p = nn.Parameter(torch.tensor(p0))
        self.register_buffer("shift", torch.tensor(shift))

    def forward(self, x, n, d64):
        tot = x.sum()
        mx = x.amax()
        am = x.argmax()
        nr = torch.linalg.vector_norm(x)
        e = x[2, 3]
        st = torch.stack([tot, mx, nr, e, self.p, self.shift])
        avg = tot / n
        prom = d64 + tot
        cond = mx > nr * 0.5
        sel = torch.where(cond, self.p, self.shift)
        hit = x.flatten()[am] == mx
        y = (x - x.mean()) * sel + self.shift * avg
        xs = x * d64
        e1 = e.unsqueeze(0)
        return tot, am, st, avg, prom, cond, sel, hit, y, xs, e1


def get_inputs():
    return [
        torch.randn(N, D),
        torch.randint(1, 10, ()),
        torch.randn((), dtype=torch.float64),
    ]


def get_init_inputs():
    return [0.75, -1.25]
