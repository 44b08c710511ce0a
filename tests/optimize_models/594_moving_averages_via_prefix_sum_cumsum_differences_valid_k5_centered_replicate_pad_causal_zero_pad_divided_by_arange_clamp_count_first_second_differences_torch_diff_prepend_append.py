"""Moving averages from prefix sums, and first / second differences with torch.diff.
x = randn(3, 5, 101), window k = 5.
Prefix sums cs(v) = cat([zeros(..., 1), cumsum(v, -1)], -1); window sums are
cs[..., k:] - cs[..., :-k].
valid = window sums of x / 5 (3, 5, 97);
centered = same on F.pad(x, (2, 2), mode='replicate') / 5 (3, 5, 101);
causal = same on F.pad(x, (4, 0)) divided by the count of real samples
clamp(arange(1, 102), max=5) (3, 5, 101).
d1 = torch.diff(x, dim=-1, prepend=x[..., :1]) (3, 5, 101);
d2 = torch.diff(x, n=2, dim=-1, prepend=x[..., :1], append=x[..., -1:]) (3, 5, 101);
dc = torch.diff(x, dim=1) (3, 4, 101) (channel direction, no prepend).
Outputs: valid, centered, causal, d1, d2, dc, and x - centered (detrended).
Window sums by prefix-sum differences cancel: expect ~1e-6 absolute rounding differences."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, L = 3, 5, 101


class Model(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def window_sums(self, v):
        cs = torch.cumsum(v, dim=-1)
        cs = torch.cat([torch.zeros_like(cs[..., :1]), cs], dim=-1)
        return cs[..., self.k:] - cs[..., :-self.k]

    def forward(self, x):
        k = self.k
        valid = self.window_sums(x) / k
        centered = self.window_sums(F.pad(x, (k // 2, k // 2), mode="replicate")) / k
        count = torch.arange(1, x.shape[-1] + 1, device=x.device).clamp(max=k).to(x.dtype)
        causal = self.window_sums(F.pad(x, (k - 1, 0))) / count
        d1 = torch.diff(x, dim=-1, prepend=x[..., :1])
        d2 = torch.diff(x, n=2, dim=-1, prepend=x[..., :1], append=x[..., -1:])
        dc = torch.diff(x, dim=1)
        return valid, centered, causal, d1, d2, dc, x - centered


def get_inputs():
    return [torch.randn(B, C, L)]


def get_init_inputs():
    return [5]
