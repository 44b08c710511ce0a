"""Shape plumbing: a long chain of view / copy ops, all data movement with light arithmetic.
x (2, 3, 35), m (2, 7, 7).
u = x.unflatten(-1, (5, 7)) (2, 3, 5, 7) -> permute(0, 2, 1, 3) (2, 5, 3, 7) -> flatten(1, 2)
(2, 15, 7) -> unsqueeze(1) (2, 1, 15, 7) -> squeeze(1) -> reshape(30, 7) (a copy: the permuted
tensor is not viewable) -> narrow(0, 3, 23) (23, 7) rows 3..25.
a, b, c = torch.split(n, [2, 3, 2], dim=-1) (uneven split of 7 columns);
ch = torch.chunk(n, 4, dim=0) -> rows 6, 6, 6, 5 (chunk with a remainder; 4 chunks);
r0, r1, r2 = (b * 2).unbind(dim=1) (each (23,));
s = torch.stack([a[:, 0], r1, c[:, 1] - r2, r0], dim=1) (23, 4);
k = torch.cat([ch[3], ch[0][:2].flip(0), ch[1][::3]], dim=0) (5 + 2 + 2 = 9, 7);
k = torch.roll(k, shifts=(2, -3), dims=(0, 1)).repeat(1, 2) (9, 14);
k = k.repeat_interleave(2, dim=0)[1:-1] (16, 14).
T = m.tril(diagonal=-1) + m.triu(diagonal=2) * 0.5 (the diagonal and the first super-diagonal
are zeroed); dg = torch.diagonal(m, offset=1, dim1=-2, dim2=-1) (2, 6);
D = torch.diag_embed(dg, offset=-1) (2, 7, 7) (placed on the first sub-diagonal);
o3 = T + D + m.transpose(1, 2).flip(-1) (2, 7, 7).
Outputs: s (23, 4), k (16, 14), o3 (2, 7, 7), dg * 3 (2, 6)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, m):
        u = x.unflatten(-1, (5, 7)).permute(0, 2, 1, 3).flatten(1, 2)
        u = u.unsqueeze(1).squeeze(1).reshape(30, 7)
        n = u.narrow(0, 3, 23)
        a, b, c = torch.split(n, [2, 3, 2], dim=-1)
        ch = torch.chunk(n, 4, dim=0)
        r0, r1, r2 = (b * 2.0).unbind(dim=1)
        s = torch.stack([a[:, 0], r1, c[:, 1] - r2, r0], dim=1)
        k = torch.cat([ch[3], ch[0][:2].flip(0), ch[1][::3]], dim=0)
        k = torch.roll(k, shifts=(2, -3), dims=(0, 1)).repeat(1, 2)
        k = k.repeat_interleave(2, dim=0)[1:-1]
        t = m.tril(diagonal=-1) + m.triu(diagonal=2) * 0.5
        dg = torch.diagonal(m, offset=1, dim1=-2, dim2=-1)
        d = torch.diag_embed(dg, offset=-1)
        o3 = t + d + m.transpose(1, 2).flip(-1)
        return s, k, o3, dg * 3.0


def get_inputs():
    return [torch.randn(2, 3, 35), torch.randn(2, 7, 7)]


def get_init_inputs():
    return []
