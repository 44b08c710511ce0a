"""float16 end to end: nn.Linear (129 -> 65, with bias) made float16 with .half(), float16
inputs, residual x + self.proj(h) with x of the GEMM output's full shape, then silu, all in
float16. Inputs h (37, 129) and x (37, 65) float16; output float16 (37, 65)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D_IN, D_OUT = 37, 129, 65


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.proj = nn.Linear(d_in, d_out).half()

    def forward(self, h, x):
        return F.silu(x + self.proj(h))


def get_inputs():
    return [torch.randn(N, D_IN, dtype=torch.float16), torch.randn(N, D_OUT, dtype=torch.float16)]


def get_init_inputs():
    return [D_IN, D_OUT]
