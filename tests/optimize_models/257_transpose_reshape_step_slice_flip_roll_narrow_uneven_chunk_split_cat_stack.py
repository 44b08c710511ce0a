"""Layout ops on non-contiguous views: step slices, flip, roll, narrow, uneven chunk / split, cat, stack.
x (5, 18, 13): x[:, ::2] and x[:, 1::2] (5, 9, 13), flip over (1, -1), roll (2, -3) over (1, 2); chunk(4, dim=1)
gives 5, 5, 5, 3 rows, split([4, 9, 5], dim=1) and split(7, dim=2) (7 + 6); narrow(2, 3, 7); computed pieces
joined by cat and stack; x[:, ::2].transpose(0, 2).reshape(13, -1) and x.transpose(1, 2).reshape(65, 18) then
roll without dims. Outputs (5, 19, 13), (2, 5, 18, 6), (13, 45), (65, 18)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, L, C = 5, 18, 13


class Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.w = nn.Parameter(torch.randn(1, 1, c))
        self.v = nn.Parameter(torch.randn(c, 1))

    def forward(self, x):
        ev = x[:, ::2]                                    # (5, 9, 13)
        od = x[:, 1::2]                                   # (5, 9, 13)
        f = torch.flip(od, dims=(1, -1))
        ro = torch.roll(ev, shifts=(2, -3), dims=(1, 2))
        p1 = ev * f + ro - od * self.w                    # (5, 9, 13)
        ch = torch.chunk(x, 4, dim=1)                     # 5, 5, 5, 3
        sp = torch.split(x, [4, 9, 5], dim=1)
        pieces = [ch[0].sum(dim=1, keepdim=True), ch[3] * 2.0,
                  sp[1].amax(dim=1, keepdim=True), torch.relu(sp[2])]
        joined = torch.cat([p1, torch.cat(pieces, dim=1)], dim=1)      # (5, 9 + 1 + 3 + 1 + 5, 13)
        a, b = torch.split(x, 7, dim=2)                   # (5, 18, 7), (5, 18, 6)
        nar = x.narrow(2, 3, 7)                           # (5, 18, 7)
        st = torch.stack([a[..., :6] * b, nar[..., 1:] - nar[..., :-1]], dim=0)  # (2, 5, 18, 6)
        tr = x[:, ::2].transpose(0, 2).reshape(C, -1)     # (13, 45) from a non-contiguous view
        tr = torch.softmax(tr * self.v, dim=-1)
        r = x.transpose(1, 2).reshape(N * C, L)           # (65, 18)
        r = torch.roll(r, 5) - torch.flip(r, dims=(0,))
        return joined, st, tr, r


def get_inputs():
    return [torch.randn(N, L, C)]


def get_init_inputs():
    return [C]
