"""Gathers after pointwise ops whose operands broadcast unusually. (a) logits x (37, 29),
per-row temperature temp (37, 1) input in [0.5, 2), per-column bias parameter (29,) and a
0-dim scale parameter: z = x / temp + bias * scale, F.log_softmax(z, 1).gather(1, t[:, None])
(37, 1) with int64 t (37,). (b) outer 3-D broadcast u (11, 1, 23) * v (1, 9, 23) + w (9, 1)
-> (11, 9, 23), relu, gathered along dim 1 with an int64 index (11, 4, 23) in [0, 9) ->
(11, 4, 23). (c) a (37, 1) + (1, 29) outer sum (temp + bias[None]) gathered along dim 0 with
an index (3, 29). Three outputs."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C = 37, 29
P, Q, R, K = 11, 9, 23, 4


class Model(nn.Module):
    def __init__(self, num_cols):
        super().__init__()
        self.col_bias = nn.Parameter(torch.randn(num_cols))
        self.scale = nn.Parameter(torch.tensor(0.7))

    def forward(self, x, temp, t, u, v, w, idx, rows):
        z = x / temp + self.col_bias * self.scale
        picked = F.log_softmax(z, dim=1).gather(1, t[:, None])
        y = torch.relu(u * v + w)
        g = y.gather(1, idx)
        outer = temp + self.col_bias[None, :]
        g0 = outer.gather(0, rows)
        return picked, g, g0


def get_inputs():
    return [torch.randn(N, C) * 2.0,
            torch.rand(N, 1) * 1.5 + 0.5,
            torch.randint(0, C, (N,), dtype=torch.int64),
            torch.randn(P, 1, R),
            torch.randn(1, Q, R),
            torch.randn(Q, 1),
            torch.randint(0, Q, (P, K, R), dtype=torch.int64),
            torch.randint(0, N, (3, C), dtype=torch.int64)]


def get_init_inputs():
    return [C]
