"""Reductions and a scan over dim 0 of a tall, narrow tensor (3001 rows of 7 columns):
per-column standardisation with x.mean(dim=0) (keepdim=False, broadcast back) and
x.std(dim=0, keepdim=True) (unbiased), softmax over dim 0 (each column sums to 1 over 3001
rows), torch.cummax along dim 0 (values only), amax - amin over dim 0, and a per-row
x / sqrt(x.var(dim=-1, keepdim=True, unbiased=False) + 1e-3) over the short last dim.
Input (3001, 7); outputs (3001, 7), (3001, 7), (7,) as a tuple."""

import torch
import torch.nn as nn

ROWS, COLS = 3001, 7


class Model(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.col_scale = nn.Parameter(torch.rand(cols) + 0.5)

    def forward(self, x):
        z = (x - x.mean(dim=0)) / x.std(dim=0, keepdim=True)
        p = torch.softmax(x * self.col_scale, dim=0)
        run_max = torch.cummax(x, dim=0).values
        row_var = x.var(dim=-1, keepdim=True, unbiased=False)
        r = x / torch.sqrt(row_var + 1e-3)
        out = z + 0.1 * run_max + r * p * ROWS
        spread = x.amax(dim=0) - x.amin(dim=0)
        return out, p, spread


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return [COLS]
