"""Cross entropy over a (N, C, L) = (4, 29, 37) sequence with the class dim at 1 (Conv1d-style
output): F.cross_entropy(x, t, ignore_index=-100) (mean over non-ignored positions) and
reduction='sum', and the same by hand: F.log_softmax(x, dim=1).gather(1, t.clamp_min(0)
.unsqueeze(1)).squeeze(1) -> (4, 37), mask t != -100, -(picked * mask).sum() / mask.sum().
Int64 targets t (4, 37) in [0, 29) with about 20% set to -100 (and the last 3 positions).
Outputs three 0-dim losses and the (4, 37) masked per-position loss."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, L, IGNORE = 4, 29, 37, -100


class Model(nn.Module):
    def __init__(self, ignore_index):
        super().__init__()
        self.ignore_index = ignore_index

    def forward(self, x, t):
        ce_mean = F.cross_entropy(x, t, ignore_index=self.ignore_index)
        ce_sum = F.cross_entropy(x, t, ignore_index=self.ignore_index, reduction="sum")
        lp = F.log_softmax(x, dim=1)
        picked = lp.gather(1, t.clamp_min(0).unsqueeze(1)).squeeze(1)
        mask = (t != self.ignore_index).to(x.dtype)
        per_pos = -picked * mask
        by_hand = per_pos.sum() / mask.sum()
        return ce_mean, ce_sum, by_hand, per_pos


def get_inputs():
    t = torch.randint(0, C, (N, L), dtype=torch.int64)
    t[torch.rand(N, L) < 0.2] = IGNORE
    t[:, -3:] = IGNORE
    return [torch.randn(N, C, L) * 2.0, t]


def get_init_inputs():
    return [IGNORE]
