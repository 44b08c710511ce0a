"""mean over the MIDDLE dim (dim=1) of three non-contiguous views made in forward from a contiguous
(9, 37, 65) input: x.permute(0, 2, 1) * w ((65, 1) parameter) -> mean(dim=1) reduces the original
innermost dim 65; x.permute(1, 0, 2).mean(dim=1) reduces the original batch dim 9 (outermost);
x.transpose(0, 2).mean(dim=1) reduces the original 37 dim; epilogues exp(-m^2), sigmoid, tanh.
Input x: (9, 37, 65); outputs (9, 37), (37, 65), (65, 9) as a tuple."""

import torch
import torch.nn as nn

B, L, D = 9, 37, 65


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.w = nn.Parameter(torch.randn(features, 1))

    def forward(self, x):
        m1 = (x.permute(0, 2, 1) * self.w).mean(dim=1)     # (9, 65, 37) -> (9, 37)
        m2 = x.permute(1, 0, 2).mean(dim=1)                 # (37, 9, 65) -> (37, 65)
        m3 = x.transpose(0, 2).mean(dim=1)                  # (65, 37, 9) -> (65, 9)
        return torch.exp(-m1 * m1), torch.sigmoid(m2 * 3.0), torch.tanh(m3 * 4.0 - 0.5)


def get_inputs():
    return [torch.randn(B, L, D)]


def get_init_inputs():
    return [D]
