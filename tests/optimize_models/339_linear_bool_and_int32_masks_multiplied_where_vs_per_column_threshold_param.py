"""Masks after a GEMM: z = nn.Linear (101, 48) -> 65; z * (z > 0) (bool mask multiplied in) +
0.1 * z * (z <= 0).to(torch.int32) (int32 mask, type promotion to float), then torch.where(h >
(65,) per-column threshold parameter, thr + 0.25 * (h - thr), h) (soft per-column cap); and the
per-row count of positive outputs (z > 0).sum(-1) (int64). Outputs (101, 65) float32 and (101,) int64."""

import torch
import torch.nn as nn

N, D_IN, D_OUT = 101, 48, 65


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)
        self.thr = nn.Parameter(torch.rand(d_out) * 0.8 + 0.1)

    def forward(self, x):
        z = self.fc(x)
        h = z * (z > 0) + 0.1 * z * (z <= 0).to(torch.int32)
        out = torch.where(h > self.thr, self.thr + 0.25 * (h - self.thr), h)
        return out, (z > 0).sum(-1)


def get_inputs():
    return [torch.randn(N, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
