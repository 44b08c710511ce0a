"""Asymmetric uint8 quantisation per row: mn = amin(min(x, 0)), mx = amax(max(x, 0)),
scale = (mx - mn) / 255 clamp_min, zero_point = clamp(round(-mn / scale), 0, 255) as int32;
q = clamp(round(x / scale) + zp, 0, 255).to(uint8); dequantise (q.to(int32) - zp).float() * scale.
Outputs: uint8 codes, int32 zero points, dequantised tensor, abs error."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        mn = torch.clamp(x.amin(dim=-1, keepdim=True), max=0.0)
        mx = torch.clamp(x.amax(dim=-1, keepdim=True), min=0.0)
        scale = ((mx - mn) / 255.0).clamp_min(1e-8)
        zp = torch.clamp(torch.round(-mn / scale), 0, 255).to(torch.int32)
        q = torch.clamp(torch.round(x / scale) + zp, 0, 255).to(torch.uint8)
        deq = (q.to(torch.int32) - zp).to(torch.float32) * scale
        return q, zp, deq, (deq - x).abs()


def get_inputs():
    x = torch.randn(3, 9, 37) * 2.0 + 0.5
    return [x]


def get_init_inputs():
    return []
