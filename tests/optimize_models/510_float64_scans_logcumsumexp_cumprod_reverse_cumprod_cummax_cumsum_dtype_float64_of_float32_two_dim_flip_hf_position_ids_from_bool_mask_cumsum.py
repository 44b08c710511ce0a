"""Scans in float64 and mixed float32 / float64 / int64.
x64 = randn(5, 29) float64, (29,) float64 parameter w64.
a = logcumsumexp(4 * x64 * w64, dim=0) (float64, values up to about 40);
cp = cumprod(1 + 0.02 * x64, dim=1); rcp = flip(cumprod(flip(1 + 0.02 * x64, [1]), dim=1), [1])
(reverse cumprod); p = cp * rcp / (1 + 0.02 * x64) (every column's factor is in both
scans, so dividing it out once gives the full row product in every column);
cm, ci = cummax(x64, dim=1); d = cm - x64 (float64, >= 0), ci int64.
y32 = randn(3, 11, 13) float32: c = torch.cumsum(y32, dim=1, dtype=torch.float64) (float32 input
accumulated in float64); r = flip(cumsum(flip(y32, [0, 2]), dim=2), [0, 2]) (flip over two dims,
scan over one: suffix sum over dim 2, batch order restored) float32;
mix = (c * 0.5).float() + r (float32).
Hugging Face position ids from a left-padded bool attention mask (4, 19):
pos = mask.long().cumsum(-1) - 1; pos = pos.masked_fill(~mask, 1) (int64).
Outputs: a (5, 29) f64, p (5, 29) f64, d (5, 29) f64, ci (5, 29) int64, mix (3, 11, 13) f32,
pos (4, 19) int64."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.w64 = nn.Parameter(torch.randn(width, dtype=torch.float64))

    def forward(self, x64, y32, mask):
        a = torch.logcumsumexp(4.0 * x64 * self.w64, dim=0)
        f = 1.0 + 0.02 * x64
        cp = torch.cumprod(f, dim=1)
        rcp = torch.flip(torch.cumprod(torch.flip(f, [1]), dim=1), [1])
        p = cp * rcp / f
        cm, ci = torch.cummax(x64, dim=1)
        d = cm - x64

        c = torch.cumsum(y32, dim=1, dtype=torch.float64)
        r = torch.flip(torch.cumsum(torch.flip(y32, [0, 2]), dim=2), [0, 2])
        mix = (c * 0.5).float() + r

        pos = mask.long().cumsum(-1) - 1
        pos = pos.masked_fill(~mask, 1)
        return a, p, d, ci, mix, pos


def get_inputs():
    x64 = torch.randn(5, 29, dtype=torch.float64)
    y32 = torch.randn(3, 11, 13)
    lengths = torch.tensor([19, 12, 5, 1])
    mask = torch.arange(19)[None, :] >= (19 - lengths)[:, None]
    return [x64, y32, mask]


def get_init_inputs():
    return [29]
