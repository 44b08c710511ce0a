"""ConvNeXt-style channels-last MLP on a 4-D (B, H, W, C) = (2, 9, 11, 37) input: nn.Linear
(37 -> 129) on the 4-D tensor, .half().float() round-trip of the GEMM output, gelu, nn.Linear
(129 -> 37), per-channel (37,) layer-scale parameter, residual add. Output (2, 9, 11, 37)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, H, W, C, HID = 2, 9, 11, 37, 129


class Model(nn.Module):
    def __init__(self, c, hidden):
        super().__init__()
        self.pw1 = nn.Linear(c, hidden)
        self.pw2 = nn.Linear(hidden, c)
        self.gamma = nn.Parameter(torch.rand(c) * 0.5 + 0.25)

    def forward(self, x):
        h = self.pw1(x).half().float()
        h = self.pw2(F.gelu(h))
        return x + self.gamma * h


def get_inputs():
    return [torch.randn(B, H, W, C)]


def get_init_inputs():
    return [C, HID]
