"""Classification loss and metric: F.cross_entropy(logits, target, weight=class_weight,
label_smoothing=0.1) with a (37,) class-weight buffer in (0.5, 1.5) (mean reduction:
0.9 * sum_i w[t_i] * nll_i + 0.1 / 37 * sum_i sum_c w_c * (-log p_ic), both divided by
sum_i w[t_i]), plus the accuracy (logits.argmax(dim=1) == target).float().mean()
as a second output (about 1/37 with random logits; logits are inputs, so argmax
has no rounding ties). Inputs: logits (53, 37) float, target (53,) int64 in [0, 37);
outputs: two 0-dim float tensors."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, NUM_CLASSES = 53, 37


class Model(nn.Module):
    def __init__(self, num_classes, label_smoothing):
        super().__init__()
        self.register_buffer("class_weight", torch.rand(num_classes) + 0.5)
        self.label_smoothing = label_smoothing

    def forward(self, logits, target):
        loss = F.cross_entropy(
            logits, target, weight=self.class_weight, label_smoothing=self.label_smoothing
        )
        acc = (logits.argmax(dim=1) == target).float().mean()
        return loss, acc


def get_inputs():
    return [torch.randn(B, NUM_CLASSES) * 2.0, torch.randint(0, NUM_CLASSES, (B,))]


def get_init_inputs():
    return [NUM_CLASSES, 0.1]
