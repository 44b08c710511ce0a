"""torch.logsumexp over dim 1 (129, not innermost) of a (4, 129, 65) tensor with -inf planted: a whole
row x[:, 5, :], part of column x[2, 10:20, 7], and all of x[0, :, 3] (that output is -inf on purpose);
also a guarded copy torch.where(isinf(lse), 0, lse) - 1. Outputs (4, 65) twice as a tuple."""

import torch
import torch.nn as nn

B, R, D = 4, 129, 65


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        lse = torch.logsumexp(x, dim=1)
        guarded = torch.where(torch.isinf(lse), torch.zeros_like(lse), lse) - 1.0
        return lse, guarded


def get_inputs():
    x = torch.randn(B, R, D) * 2.0
    x[:, 5, :] = float("-inf")
    x[2, 10:20, 7] = float("-inf")
    x[0, :, 3] = float("-inf")
    return [x]


def get_init_inputs():
    return []
