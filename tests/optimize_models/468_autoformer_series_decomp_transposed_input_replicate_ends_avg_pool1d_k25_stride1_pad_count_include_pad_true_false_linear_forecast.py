"""Autoformer / DLinear series decomposition with stride-1 moving averages over a long-ish
sequence: x = randn(3, 157, 7) (B, L, C); xt = x.transpose(1, 2) (3, 7, 157), non-contiguous.
Trend by the Autoformer recipe: ends replicated by hand (xt[..., :1].repeat(1, 1, 12) and
xt[..., -1:].repeat(1, 1, 12)), torch.cat, F.avg_pool1d(k=25, stride=1, no padding)
-> (3, 7, 157); seasonal = xt - trend.
DLinear-style head: Linear 157 -> 31 on seasonal plus Linear 157 -> 31 on trend, transposed
back to (3, 31, 7), plus a (7,) bias.
Padded moving averages on the non-contiguous xt: nn.AvgPool1d(9, stride=1, padding=4)
(count_include_pad=True, edges shrink toward 0) and F.avg_pool1d(9, 1, 4,
count_include_pad=False) (edges are true means); edge = tanh(3 * (inc - exc)) is non-zero only
in the 4 edge positions at each end.
Outputs: forecast (3, 31, 7), seasonal (3, 7, 157), edge (3, 7, 157)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, L, C, P, K = 3, 157, 7, 31, 25


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin_s = nn.Linear(L, P)
        self.lin_t = nn.Linear(L, P)
        self.bias = nn.Parameter(0.1 * torch.randn(C))
        self.pool_inc = nn.AvgPool1d(9, stride=1, padding=4)

    def forward(self, x):
        xt = x.transpose(1, 2)
        pad = (K - 1) // 2
        front = xt[:, :, :1].repeat(1, 1, pad)
        end = xt[:, :, -1:].repeat(1, 1, pad)
        trend = F.avg_pool1d(torch.cat([front, xt, end], dim=2), K, stride=1)
        seasonal = xt - trend
        forecast = (self.lin_s(seasonal) + self.lin_t(trend)).transpose(1, 2) + self.bias
        inc = self.pool_inc(xt)
        exc = F.avg_pool1d(xt, 9, stride=1, padding=4, count_include_pad=False)
        edge = torch.tanh(3.0 * (inc - exc))
        return forecast, seasonal, edge


def get_inputs():
    return [torch.randn(B, L, C)]


def get_init_inputs():
    return []
