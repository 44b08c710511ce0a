"""bfloat16 gathers on non-contiguous inputs from get_inputs: a = torch.randn(41, 27).t()
(27, 41) with strides (1, 27) and s = torch.randn(19, 100)[:, 1::3] (19, 33) with strides
(100, 3), both bfloat16. a.gather(1, ia) with ia (27, 9) in [0, 41); s.gather(0, is_) with
is_ (5, 33) in [0, 19); (a * 2 - 1).t().gather(1, ib) of the transposed computed tensor
(41, 27) with ib (41, 6) in [0, 27); index_select(1, cols) of the sliced input with cols (7,)
in [0, 33), then exp. Four bfloat16 outputs."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, s, ia, is_, ib, cols):
        ga = a.gather(1, ia)
        gs = s.gather(0, is_)
        gt = (a * 2.0 - 1.0).t().gather(1, ib)
        sel = torch.exp(s.index_select(1, cols))
        return ga, gs, gt, sel


def get_inputs():
    a = torch.randn(41, 27, dtype=torch.bfloat16).t()
    s = torch.randn(19, 100, dtype=torch.bfloat16)[:, 1::3]
    return [a, s,
            torch.randint(0, 41, (27, 9), dtype=torch.int64),
            torch.randint(0, 19, (5, 33), dtype=torch.int64),
            torch.randint(0, 27, (41, 6), dtype=torch.int64),
            torch.randint(0, 33, (7,), dtype=torch.int64)]


def get_init_inputs():
    return []
