"""Matrix-vector and vector-vector products followed by an activation, a diagonal matrix multiply
written as a broadcast product, and triu / tril masking with diagonal offsets.
a (13, 29), v (29,), r (13,), u (31,), w (31,), p (11,), q (17,), b (9, 14), d (14,), dl (9,),
t (3, 7, 5), s (7, 7), all randn; bias (13,) parameter.
mv = relu(torch.mv(a, v) + bias) (13,), mvt = silu(torch.mv(a.t(), r)) (29,) (transposed matrix);
dt = tanh(torch.dot(u, w) * 0.2) (0-dim), ou = gelu(torch.outer(p, q)) (11, 17);
bd = b * d[None, :] (= b @ diag(d)), db = dl[:, None] * b (= diag(dl) @ b),
bdm = b @ torch.diag(d) (the same product as a matmul);
tu1 = triu(b, diagonal=1), tl2 = tril(b, diagonal=-2), tum1 = triu(b, diagonal=-1) on the
non-square (9, 14); tl20 = tril(b, diagonal=20) (everything kept), tu14 = triu(b, diagonal=14)
(all zero); tt = tril(t, diagonal=2), tut = triu(t, diagonal=-3) (batched (3, 7, 5));
cm = softmax(s.masked_fill(triu(ones(7, 7), 1).bool(), -inf), -1) (causal mask).
Outputs: mv, mvt, dt, ou, bd, db, bdm, tu1, tl2, tum1, tl20, tu14, tt, tut, cm."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, rows):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(rows) * 0.1)

    def forward(self, a, v, r, u, w, p, q, b, d, dl, t, s):
        mv = torch.relu(torch.mv(a, v) + self.bias)
        mvt = F.silu(torch.mv(a.t(), r))
        dt = torch.tanh(torch.dot(u, w) * 0.2)
        ou = F.gelu(torch.outer(p, q))
        bd = b * d[None, :]
        db = dl[:, None] * b
        bdm = b @ torch.diag(d)
        tu1 = torch.triu(b, diagonal=1)
        tl2 = torch.tril(b, diagonal=-2)
        tum1 = torch.triu(b, diagonal=-1)
        tl20 = torch.tril(b, diagonal=20)
        tu14 = torch.triu(b, diagonal=14)
        tt = torch.tril(t, diagonal=2)
        tut = torch.triu(t, diagonal=-3)
        mask = torch.triu(torch.ones(s.shape[0], s.shape[1], device=s.device), 1).bool()
        cm = torch.softmax(s.masked_fill(mask, float("-inf")), -1)
        return mv, mvt, dt, ou, bd, db, bdm, tu1, tl2, tum1, tl20, tu14, tt, tut, cm


def get_inputs():
    return [torch.randn(13, 29), torch.randn(29), torch.randn(13), torch.randn(31),
            torch.randn(31), torch.randn(11), torch.randn(17), torch.randn(9, 14),
            torch.randn(14), torch.randn(9), torch.randn(3, 7, 5), torch.randn(7, 7)]


def get_init_inputs():
    return [13]
