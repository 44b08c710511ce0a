"""F.nll_loss with class weights and ignore_index, as a segmentation head writes it:
logits = x * temperature (0-dim parameter) + per-class bias (C, 1, 1) on x (3, 7, 9, 11),
log_softmax over dim 1 (the class dim of NCHW); int64 targets (3, 9, 11) in [-1, 7) with
ignore_index=-1 (about 1 in 8 ignored); class weights a (7,) buffer linspace(0.3, 1.7).
reduction 'none' (3, 9, 11) (weight[target] * -logp, 0 at ignored pixels), 'sum', and
'mean' (divides by the sum of weight[target] over non-ignored pixels, not the count).
A second 2-D F.nll_loss on (37, 7) row log-probs with ignore_index=3 (a valid class id:
rows whose target is 3 are dropped) and the same weights, 'mean'.
Outputs: the (3, 9, 11) map, a 0-dim combination of the reduced losses and the 2-D mean."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 3, 7, 9, 11
M = 37


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.temperature = nn.Parameter(torch.tensor(1.3))
        self.bias = nn.Parameter(torch.randn(C, 1, 1) * 0.2)
        self.register_buffer("weight", torch.linspace(0.3, 1.7, C))

    def forward(self, x, target, rows, row_target):
        logp = F.log_softmax(x * self.temperature + self.bias, dim=1)
        none = F.nll_loss(logp, target, weight=self.weight, ignore_index=-1, reduction="none")
        tot = F.nll_loss(logp, target, weight=self.weight, ignore_index=-1, reduction="sum")
        mean = F.nll_loss(logp, target, weight=self.weight, ignore_index=-1, reduction="mean")
        rl = F.log_softmax(rows, dim=-1)
        m2 = F.nll_loss(rl, row_target, weight=self.weight, ignore_index=3)
        return none, mean + 0.01 * tot, m2


def get_inputs():
    x = torch.randn(N, C, H, W)
    target = torch.randint(-1, C, (N, H, W), dtype=torch.int64)
    rows = torch.randn(M, C)
    row_target = torch.randint(0, C, (M,), dtype=torch.int64)
    return [x, target, rows, row_target]


def get_init_inputs():
    return []
