"""Post-norm transformer block output on 3-D (batch, seq, features) tensors: nn.Linear (129 -> 47,
with bias) applied to the 3-D hidden h, residual add of the 3-D input x of the GEMM output's full
shape, then nn.LayerNorm(47) over the last dim (non-default affine weight and bias).
Inputs h (3, 17, 129) and x (3, 17, 47); output (3, 17, 47)."""

import torch
import torch.nn as nn

B, T, HID, D = 3, 17, 129, 47


class Model(nn.Module):
    def __init__(self, hidden, d):
        super().__init__()
        self.proj = nn.Linear(hidden, d)
        self.norm = nn.LayerNorm(d)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, h, x):
        return self.norm(x + self.proj(h))


def get_inputs():
    return [torch.randn(B, T, HID), torch.randn(B, T, D)]


def get_init_inputs():
    return [HID, D]
