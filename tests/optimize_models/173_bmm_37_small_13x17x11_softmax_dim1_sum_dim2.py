"""torch.bmm of many small matrices: batch 37 of (13 x 17) @ (17 x 11) -> (37, 13, 11),
softmax over dim 1 (the 13 rows, not the last dim), then sum over dim 2.
Inputs a (37, 13, 17), b (37, 17, 11); output (37, 13), each entry in (0, 11)."""

import torch
import torch.nn as nn

BATCH, M, K, N = 37, 13, 17, 11


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        c = torch.bmm(a, b)
        c = torch.softmax(c, dim=1)
        return c.sum(dim=2)


def get_inputs():
    return [torch.randn(BATCH, M, K), torch.randn(BATCH, K, N)]


def get_init_inputs():
    return []
