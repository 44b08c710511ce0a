"""Selective-kernel style branch attention with a masked softmax over channels, float16 I/O:
x float16 (2, 19, 17, 21), mask bool (2, 7, 17, 21) with mask[:, 0] forced True (at least
one kept branch per pixel). Computed in float32: xf = x.float();
branches b_k = Conv2d 19 -> 7 * 5 (k3, padding 1) viewed as (2, 7, 5, 17, 21) (7 branches
of 5 channels); logits = 1x1 Conv2d 19 -> 7 + bias on xf, masked_fill(~mask, -inf);
p = softmax(logits, dim=1) (7 branches, dim 1 of NCHW); lp = log_softmax(logits, dim=1);
entropy = -(p * lp.masked_fill(~mask, 0)).sum(dim=1) (keepdim=False, masked terms 0);
fused = (p.unsqueeze(2) * b).sum(dim=1) (2, 5, 17, 21), then fused * sigmoid of
entropy.unsqueeze(1) (broadcast back), cast back to float16.
Outputs: fused float16 (2, 5, 17, 21), p float32 (2, 7, 17, 21), entropy float32 (2, 17, 21)."""

import torch
import torch.nn as nn

N, C, H, W = 2, 19, 17, 21
K, D = 7, 5


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.branches = nn.Conv2d(C, K * D, kernel_size=3, padding=1)
        self.gate = nn.Conv2d(C, K, kernel_size=1)

    def forward(self, x, mask):
        xf = x.float()
        b = self.branches(xf).view(xf.shape[0], K, D, xf.shape[2], xf.shape[3])
        logits = self.gate(xf).masked_fill(~mask, float("-inf"))
        p = torch.softmax(logits, dim=1)
        lp = torch.log_softmax(logits, dim=1)
        entropy = -(p * lp.masked_fill(~mask, 0.0)).sum(dim=1)
        fused = (p.unsqueeze(2) * b).sum(dim=1)
        fused = fused * torch.sigmoid(entropy).unsqueeze(1)
        return fused.to(x.dtype), p, entropy


def get_inputs():
    x = torch.randn(N, C, H, W).half()
    mask = torch.rand(N, K, H, W) > 0.4
    mask[:, 0] = True
    return [x, mask]


def get_init_inputs():
    return []
