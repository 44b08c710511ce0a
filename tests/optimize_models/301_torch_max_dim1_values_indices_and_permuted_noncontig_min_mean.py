"""torch.max(x, dim=1) values and int64 indices over 129 rows of a (7, 129, 33) tensor (values * 0.5 + 1),
then middle-dim reductions of non-contiguous views made in forward: torch.min over dim 1 of
x.permute(2, 1, 0) and mean over dim 1 of x.transpose(0, 1). Tuple of five outputs."""

import torch
import torch.nn as nn

B, R, D = 7, 129, 33


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        v, i = torch.max(x, dim=1)
        p = x.permute(2, 1, 0)
        mn = torch.min(p, dim=1)
        t = x.transpose(0, 1)
        m = torch.tanh(t.mean(dim=1) * 2.0)
        return v * 0.5 + 1.0, i, mn.values, mn.indices, m


def get_inputs():
    return [torch.randn(B, R, D)]


def get_init_inputs():
    return []
