"""Scans along non-last dims of a permuted input: x = randn(11, 5, 9).permute(2, 0, 1)
(9, 11, 5) with strides (1, 45, 9) from get_inputs. cumsum over dim 1; exclusive cumsum
(cumsum - x); reverse cumsum over dim 0 via flip / cumsum / flip; cumprod over dim 0 of
1 + 0.1 * tanh(x) (stays near 1); cummax over dim 1 (values and int64 indices);
cummin over dim 0 (values, int64 indices); running mean cumsum / arange(1, 12) over dim 1.
Outputs: float (9, 11, 5) tensors, and the two int64 index tensors."""

import torch
import torch.nn as nn

A, B, C = 9, 11, 5


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = nn.Parameter(torch.tensor(0.1))

    def forward(self, x):
        cs = torch.cumsum(x, dim=1)
        excl = cs - x
        rev = torch.flip(torch.cumsum(torch.flip(x, dims=(0,)), dim=0), dims=(0,))
        cp = torch.cumprod(1.0 + self.gain * torch.tanh(x), dim=0)
        mx, imx = torch.cummax(x, dim=1)
        mn, imn = torch.cummin(x, dim=0)
        cnt = torch.arange(1, B + 1, device=x.device, dtype=x.dtype).view(1, B, 1)
        run_mean = cs / cnt
        out = excl * cp + rev - run_mean
        return out, mx - mn, cp, imx, imn


def get_inputs():
    return [torch.randn(B, C, A).permute(2, 0, 1)]


def get_init_inputs():
    return []
