"""Four losses on odd shapes summed into one 0-dim output: F.smooth_l1_loss(beta=0.5,
reduction='sum') on (7, 13, 3); F.soft_margin_loss (mean) with +/-1 float targets on (11, 29);
F.multilabel_soft_margin_loss with a (17,) weight parameter and 0/1 float targets on (9, 17);
F.poisson_nll_loss(log_input=True) with non-negative float targets on (5, 23).
Inputs: pred (7, 13, 3), target (7, 13, 3), margin logits (11, 29), signs (11, 29),
multilabel logits (9, 17), labels (9, 17), log rates (5, 23), counts (5, 23)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_LABELS = 17


class Model(nn.Module):
    def __init__(self, num_labels):
        super().__init__()
        self.label_weight = nn.Parameter(torch.rand(num_labels) + 0.5)

    def forward(self, pred, target, m_logits, signs, ml_logits, labels, log_rate, counts):
        l1 = F.smooth_l1_loss(pred, target, beta=0.5, reduction="sum")
        l2 = F.soft_margin_loss(m_logits, signs)
        l3 = F.multilabel_soft_margin_loss(ml_logits, labels, weight=self.label_weight)
        l4 = F.poisson_nll_loss(log_rate, counts, log_input=True)
        return l1 + l2 + l3 + l4


def get_inputs():
    pred = torch.randn(7, 13, 3)
    target = torch.randn(7, 13, 3)
    m_logits = torch.randn(11, 29)
    signs = (torch.rand(11, 29) > 0.5).float() * 2.0 - 1.0
    ml_logits = torch.randn(9, NUM_LABELS)
    labels = (torch.rand(9, NUM_LABELS) > 0.6).float()
    log_rate = torch.randn(5, 23) * 0.5
    counts = torch.floor(torch.rand(5, 23) * 6.0)
    return [pred, target, m_logits, signs, ml_logits, labels, log_rate, counts]


def get_init_inputs():
    return [NUM_LABELS]
