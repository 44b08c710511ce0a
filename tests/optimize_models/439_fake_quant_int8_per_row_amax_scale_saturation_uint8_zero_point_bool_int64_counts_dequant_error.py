"""Per-row fake quantisation with integer outputs next to float ones: x (23, 37) randn.
Symmetric int8: scale = amax(|x|, dim=1, keepdim) * shrink / 127 (shrink = 0.8 so the
largest entries saturate), q = round(x / scale), sat = (q > 127) | (q < -128) (bool),
qi = q.clamp(-128, 127).to(torch.int8), deq = qi.float() * scale.
Asymmetric uint8: mn, mx = aminmax(dim=1), scale_a = (mx - mn) / 255,
zp = round(-mn / scale_a).clamp(0, 255), qu = (round(x / scale_a) + zp).clamp(0, 255)
.to(torch.uint8), dequantised (qu.float() - zp) * scale_a.
Outputs: int8 (23, 37), uint8 (23, 37), float32 deq (23, 37), bool sat (23, 37),
int64 saturation counts sat.sum(1) (23,), int64 qi.sum(1) (int8 sum promotes to int64),
float32 per-row max errors (23, 2)."""

import torch
import torch.nn as nn

R, C = 23, 37


class Model(nn.Module):
    def __init__(self, shrink):
        super().__init__()
        self.shrink = shrink

    def forward(self, x):
        scale = x.abs().amax(dim=1, keepdim=True).clamp_min(1e-8) * self.shrink / 127.0
        q = torch.round(x / scale)
        sat = (q > 127) | (q < -128)
        qi = q.clamp(-128, 127).to(torch.int8)
        deq = qi.float() * scale
        mn, mx = torch.aminmax(x, dim=1, keepdim=True)
        scale_a = (mx - mn).clamp_min(1e-8) / 255.0
        zp = torch.round(-mn / scale_a).clamp(0, 255)
        qu = (torch.round(x / scale_a) + zp).clamp(0, 255).to(torch.uint8)
        deq_a = (qu.float() - zp) * scale_a
        err = torch.stack([(deq - x).abs().amax(dim=1), (deq_a - x).abs().amax(dim=1)], dim=1)
        return qi, qu, deq, sat, sat.sum(dim=1), qi.sum(dim=1), err


def get_inputs():
    return [torch.randn(R, C)]


def get_init_inputs():
    return [0.8]
