"""Losses with reduction 'none', 'sum' and 'mean' each.
kl_div: inp = log_softmax(s (7, 19), -1); target as log-probabilities log_softmax(u, -1) with
log_target=True, and as probabilities softmax(u, -1) with a few exact zeros (log_target=False,
0 * log 0 terms give 0): 'none', 'sum', 'mean' and also 'batchmean' for each.
nll_loss on (N, C, d) = (6, 5, 11) input log_softmax(h, dim=1), int64 targets k (6, 11) in
[0, 5) with about a third set to ignore_index=2 (a valid class index), class weights cw (5,)
buffer > 0: 'none' (6, 11) (0 at ignored positions), 'sum', 'mean' (divided by the sum of
the weights of non-ignored targets).
cross_entropy with class-probability targets: logits q (6, 5, 11), target probs
softmax(pt, dim=1) (6, 5, 11), weight=cw: 'none' (6, 11), 'sum', 'mean'; and on (9, 5) logits
with probability targets, label_smoothing=0.1, no weight: 'none', 'sum', 'mean'.
Outputs (20): kl_div log_target=True none/sum/mean/batchmean, log_target=False
none/sum/mean/batchmean, nll none/sum/mean, ce (N,C,d) none/sum/mean, ce (N,C) none/sum/mean.
kl_div reduction='mean' emits PyTorch's UserWarning (it divides by all elements, unlike
'batchmean'); that is the intended pattern."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, classes, ignore_index):
        super().__init__()
        self.register_buffer("cw", 0.3 + torch.rand(classes))
        self.ignore_index = ignore_index

    def forward(self, s, u, zero_mask, h, k, q, pt, q2, pt2):
        inp = torch.log_softmax(s, dim=-1)
        outs = []
        lt = torch.log_softmax(u, dim=-1)
        for red in ("none", "sum", "mean", "batchmean"):
            outs.append(F.kl_div(inp, lt, reduction=red, log_target=True))
        pr = torch.softmax(u, dim=-1) * zero_mask
        for red in ("none", "sum", "mean", "batchmean"):
            outs.append(F.kl_div(inp, pr, reduction=red, log_target=False))
        lp = torch.log_softmax(h, dim=1)
        for red in ("none", "sum", "mean"):
            outs.append(
                F.nll_loss(lp, k, weight=self.cw, ignore_index=self.ignore_index, reduction=red)
            )
        tp = torch.softmax(pt, dim=1)
        for red in ("none", "sum", "mean"):
            outs.append(F.cross_entropy(q, tp, weight=self.cw, reduction=red))
        tp2 = torch.softmax(pt2, dim=1)
        for red in ("none", "sum", "mean"):
            outs.append(F.cross_entropy(q2, tp2, label_smoothing=0.1, reduction=red))
        return tuple(outs)


def get_inputs():
    k = torch.randint(0, 5, (6, 11))
    k[torch.rand(6, 11) < 0.33] = 2
    zero_mask = (torch.rand(7, 19) > 0.2).float()
    return [
        torch.randn(7, 19),
        torch.randn(7, 19),
        zero_mask,
        torch.randn(6, 5, 11),
        k,
        torch.randn(6, 5, 11),
        torch.randn(6, 5, 11),
        torch.randn(9, 5),
        torch.randn(9, 5),
    ]


def get_init_inputs():
    return [5, 2]
