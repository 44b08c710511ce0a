"""Cross entropy on (N, C, L) logits with int64 targets where some positions are ignore_index
(-100 and a custom 3): label_smoothing with and without class weights, reduction mean / sum /
'none'; nll_loss on log_softmax with class weights (mean is a weighted mean) and 'none' reduced
over the sequence dim by hand. Outputs: 0-dim total loss, per-sample losses (N,), per-position
weighted nll (N, L)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, L = 7, 13, 37


class Model(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        w = torch.linspace(0.5, 2.0, num_classes)
        self.register_buffer("class_weight", w)
        self.scale = nn.Parameter(torch.tensor(1.3))

    def forward(self, logits, target, target_b):
        z = logits * self.scale
        a = F.cross_entropy(z, target, ignore_index=-100, label_smoothing=0.1)
        b = F.cross_entropy(z, target, weight=self.class_weight, ignore_index=-100,
                            label_smoothing=0.05)
        c = F.cross_entropy(z, target, ignore_index=-100, reduction="sum") / (target != -100).sum()
        logp = F.log_softmax(z, dim=1)
        d = F.nll_loss(logp, target_b, weight=self.class_weight, ignore_index=3)
        e = F.nll_loss(logp, target_b, weight=self.class_weight, reduction="none")  # (N, L)
        per_sample = F.cross_entropy(z, target, ignore_index=-100, label_smoothing=0.2,
                                     reduction="none").mean(dim=1)
        total = a + b + c + d + 0.01 * e.sum()
        return total, per_sample, e


def get_inputs():
    logits = torch.randn(N, C, L)
    target = torch.randint(0, C, (N, L), dtype=torch.int64)
    drop = torch.randint(0, 5, (N, L)) == 0
    target = torch.where(drop, torch.full_like(target, -100), target)
    target_b = torch.randint(0, C, (N, L), dtype=torch.int64)
    return [logits, target, target_b]


def get_init_inputs():
    return [C]
