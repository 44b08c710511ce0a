"""Dtype conversion chains and float16 reductions over long rows.
k (5, 37) int64 in [-3000, 3000], x (5, 37) float32, h (3, 4099) float16 in about [0, 1]
(long row, positive so the sum grows to about 2000 where half spacing is 1 or 2),
hn (6, 4099) float16 randn.
c1 = k.to(float32).to(float16).to(float32) (ints above 2048 round to even multiples of 2 in
half), c2 = (x * 1000).to(int32).to(float32) / 1000 (truncation toward zero), c3 =
x.half().float() - x (half rounding error), c4 = k.to(torch.int32).to(torch.float16) * 0.5
(float16), c5 = (x.double() * 3).float() (float64 round trip), c6 = (k > 0).to(float16) +
x.to(float16) (float16), c7 = k.float().half().to(int64) - k (rounding error of ints);
hs = h.sum(dim=-1) (float16 result, accumulated in float inside PyTorch), hsf = h.float()
.sum(dim=-1).half() (same number), hm = hn.mean(dim=1) (float16), hs0 = hn.sum(dim=0) (float16,
6 terms), hsd = h.sum(dim=1, dtype=torch.float32) (float32), hmax = hn.amax(dim=-1) (float16).
Outputs: c1, c2, c3, c4, c5, c6, c7, hs, hsf, hm, hs0, hsd, hmax."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, k, x, h, hn):
        c1 = k.to(torch.float32).to(torch.float16).to(torch.float32)
        c2 = (x * 1000.0).to(torch.int32).to(torch.float32) / 1000.0
        c3 = x.half().float() - x
        c4 = k.to(torch.int32).to(torch.float16) * 0.5
        c5 = (x.double() * 3.0).float()
        c6 = (k > 0).to(torch.float16) + x.to(torch.float16)
        c7 = k.float().half().to(torch.int64) - k
        hs = h.sum(dim=-1)
        hsf = h.float().sum(dim=-1).half()
        hm = hn.mean(dim=1)
        hs0 = hn.sum(dim=0)
        hsd = h.sum(dim=1, dtype=torch.float32)
        hmax = hn.amax(dim=-1)
        return c1, c2, c3, c4, c5, c6, c7, hs, hsf, hm, hs0, hsd, hmax


def get_inputs():
    k = torch.randint(-3000, 3001, (5, 37))
    x = torch.randn(5, 37) * 4.0
    h = torch.rand(3, 4099).half()
    hn = torch.randn(6, 4099).half()
    return [k, x, h, hn]


def get_init_inputs():
    return []
