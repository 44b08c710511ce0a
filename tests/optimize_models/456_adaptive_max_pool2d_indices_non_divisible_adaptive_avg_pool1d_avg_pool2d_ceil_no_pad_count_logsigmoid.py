"""Multi-scale pooling head: x (3, 6, 17, 23).
mx, ind = F.adaptive_max_pool2d(x, (5, 7), return_indices=True) (overlapping, non-divisible
windows; int64 flat indices); av = F.adaptive_avg_pool2d(x, (4, 6));
ap = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
(3, 6, 9, 12); row profile r = x.mean(2) (3, 6, 23) -> F.adaptive_avg_pool1d(r, 10) and
F.adaptive_max_pool1d(r, 4); features cat of the flattened pools -> Linear 438 -> 13,
F.logsigmoid.
Outputs: logits (3, 13), mx (3, 6, 5, 7), ind int64 (3, 6, 5, 7), ap (3, 6, 9, 12)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 3, 6, 17, 23
FEAT = C * (5 * 7 + 4 * 6 + 10 + 4)
OUT = 13


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(FEAT, OUT)

    def forward(self, x):
        mx, ind = F.adaptive_max_pool2d(x, (5, 7), return_indices=True)
        av = F.adaptive_avg_pool2d(x, (4, 6))
        ap = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
        r = x.mean(dim=2)
        r1 = F.adaptive_avg_pool1d(r, 10)
        r2 = F.adaptive_max_pool1d(r, 4)
        feat = torch.cat([mx.flatten(1), av.flatten(1), r1.flatten(1), r2.flatten(1)], dim=1)
        logits = F.logsigmoid(self.head(feat))
        return logits, mx, ind, ap


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return []
