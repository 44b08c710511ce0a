"""F.cross_entropy with label smoothing, class weights and ignore_index together, on
(N, C, L) logits (class dim 1, sequence last): logits = x + bias (11, 1) on x (3, 11, 17),
int64 targets (3, 17) in [0, 11), ignore_index=4 (a valid class id: positions whose target
is 4 are dropped), weight (11,) buffer, label_smoothing=0.15; reduction 'none' (3, 17),
'sum' and 'mean' (with weights: the nll part divides by the sum of weight[target] over
kept positions, and the smoothing part is weighted per class).
Soft (probability) targets: F.cross_entropy(logits, softmax(t, dim=1)) with t (3, 11, 17),
weight and label_smoothing=0.1, 'mean' (divides by N * L) and 'none' (3, 17).
Outputs: two (3, 17) maps and a (3,) vector of the reduced losses."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, L = 3, 11, 17


class Model(nn.Module):
    def __init__(self, ignore_index, smoothing):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(C, 1) * 0.3)
        self.register_buffer("weight", torch.rand(C) + 0.25)
        self.ignore_index = ignore_index
        self.smoothing = smoothing

    def forward(self, x, target, t):
        logits = x + self.bias
        kw = dict(weight=self.weight, ignore_index=self.ignore_index,
                  label_smoothing=self.smoothing)
        none = F.cross_entropy(logits, target, reduction="none", **kw)
        tot = F.cross_entropy(logits, target, reduction="sum", **kw)
        mean = F.cross_entropy(logits, target, reduction="mean", **kw)
        probs = F.softmax(t, dim=1)
        soft_none = F.cross_entropy(logits, probs, weight=self.weight, label_smoothing=0.1,
                                    reduction="none")
        soft_mean = F.cross_entropy(logits, probs, weight=self.weight, label_smoothing=0.1)
        return none, soft_none, torch.stack([tot, mean, soft_mean])


def get_inputs():
    return [
        torch.randn(N, C, L),
        torch.randint(0, C, (N, L), dtype=torch.int64),
        torch.randn(N, C, L),
    ]


def get_init_inputs():
    return [4, 0.15]
