"""Depth attention over a middle dim of a Conv3d output, softmax written by hand:
x (2, 4, 7, 13, 11) (N, C, D, H, W), lengths int64 (2,) valid depth per sample (>= 1).
logits = Conv3d 4 -> 3 (k3, padding 1) + bias (2, 3, 7, 13, 11); v = Conv3d 4 -> 3 (k1);
valid = arange(7) < lengths[:, None] -> (2, 1, 7, 1, 1) bool; logits masked to -inf;
m = logits.amax(dim=2, keepdim=True); e = exp(logits - m); s = e.sum(dim=2, keepdim=True);
p = e / s (softmax over the 7 depth slices, dim 2); logp = logits - m - log(s) with masked
entries replaced by 0; ctx = (p * v).sum(dim=2) (2, 3, 13, 11); depth statistics of v:
vm = v.mean(dim=2, keepdim=True), vs = v.std(dim=2, keepdim=True) (unbiased);
vn = (v - vm) / (vs + 1e-3) + ctx.unsqueeze(2) (broadcast back over depth), tanh.
Outputs: vn (2, 3, 7, 13, 11), p (2, 3, 7, 13, 11), logp (same), ctx (2, 3, 13, 11)."""

import torch
import torch.nn as nn

N, C, D, H, W = 2, 4, 7, 13, 11
CO = 3


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.score = nn.Conv3d(C, CO, kernel_size=3, padding=1)
        self.value = nn.Conv3d(C, CO, kernel_size=1)

    def forward(self, x, lengths):
        logits = self.score(x)
        v = self.value(x)
        depth = torch.arange(x.shape[2], device=x.device)
        valid = (depth.unsqueeze(0) < lengths.unsqueeze(1))[:, None, :, None, None]
        logits = logits.masked_fill(~valid, float("-inf"))
        m = logits.amax(dim=2, keepdim=True)
        e = torch.exp(logits - m)
        s = e.sum(dim=2, keepdim=True)
        p = e / s
        logp = torch.where(valid, logits - m - torch.log(s), torch.zeros_like(logits))
        ctx = (p * v).sum(dim=2)
        vm = v.mean(dim=2, keepdim=True)
        vs = v.std(dim=2, keepdim=True)
        vn = torch.tanh((v - vm) / (vs + 1e-3) + ctx.unsqueeze(2))
        return vn, p, logp, ctx


def get_inputs():
    x = torch.randn(N, C, D, H, W)
    lengths = torch.tensor([7, 4], dtype=torch.int64)
    return [x, lengths]


def get_init_inputs():
    return []
