"""Mixed dtypes: a float32 input (13, 29) and a float64 input (13, 29) combined
(x * y + sin(x), promotes to float64) plus a float32 (29,) parameter, float64 std over the
last dim (unbiased) used to standardise, then a cast back to float32.
Inputs (13, 29) float32 and (13, 29) float64; output (13, 29) float32."""

import torch
import torch.nn as nn

R, D = 13, 29


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.shift = nn.Parameter(torch.randn(dim))

    def forward(self, x, y):
        z = x * y + torch.sin(x) + self.shift          # float64
        s = z.std(dim=-1, keepdim=True)                  # float64 reduction
        out = (z - z.mean(dim=-1, keepdim=True)) / s
        return out.to(torch.float32)


def get_inputs():
    return [torch.randn(R, D), torch.randn(R, D, dtype=torch.float64)]


def get_init_inputs():
    return [D]
