"""sum and mean over dim 1 (not innermost) of a contiguous (5, 200, 129) tensor, keepdim True and
False: x.sum(dim=1, keepdim=True) * 0.1, x.mean(dim=1), torch.sum(x, 1) and centring x - mean(keepdim).
Outputs (5, 1, 129), (5, 129), (5, 129), (5, 200, 129) as a tuple."""

import torch
import torch.nn as nn

B, R, D = 5, 200, 129


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        s_k = x.sum(dim=1, keepdim=True) * 0.1
        m = x.mean(dim=1)
        s = torch.sum(x, 1) - 2.0 * m
        centred = x - x.mean(dim=1, keepdim=True)
        return s_k, m, s, centred


def get_inputs():
    return [torch.randn(B, R, D) * 1.5 + 0.25]


def get_init_inputs():
    return []
