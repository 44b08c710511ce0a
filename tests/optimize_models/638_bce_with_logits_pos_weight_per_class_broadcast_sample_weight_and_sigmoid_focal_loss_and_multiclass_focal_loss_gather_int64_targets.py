"""Binary / multi-label and multi-class focal-style losses. binary_cross_entropy_with_logits with
a per-class pos_weight buffer (broadcast over batch) and a per-sample weight (B, 1); sigmoid focal
loss by hand (alpha, gamma=2, pt from targets cast to float); multi-class focal loss with
log_softmax, gather at int64 targets, (1 - pt) ** gamma. Outputs a tuple: 0-dim total, per-class
mean BCE (C,), per-sample multi-class focal (B,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C = 31, 13


class Model(nn.Module):
    def __init__(self, num_classes, alpha, gamma):
        super().__init__()
        self.register_buffer("pos_weight", torch.linspace(0.5, 3.0, num_classes))
        self.alpha = alpha
        self.gamma = gamma

    def forward(self, logits, multilabel, sample_w, cls_target):
        y = multilabel.float()
        bce = F.binary_cross_entropy_with_logits(logits, y, weight=sample_w,
                                                 pos_weight=self.pos_weight)
        bce_none = F.binary_cross_entropy_with_logits(logits, y, pos_weight=self.pos_weight,
                                                      reduction="none")
        per_class = bce_none.mean(dim=0)
        p = torch.sigmoid(logits)
        ce = F.binary_cross_entropy_with_logits(logits, y, reduction="none")
        p_t = p * y + (1 - p) * (1 - y)
        alpha_t = self.alpha * y + (1 - self.alpha) * (1 - y)
        focal = (alpha_t * (1 - p_t) ** self.gamma * ce).sum() / y.sum().clamp_min(1.0)
        logp = F.log_softmax(logits, dim=-1)
        logpt = logp.gather(1, cls_target.unsqueeze(1)).squeeze(1)
        mc_focal = -((1 - logpt.exp()).pow(self.gamma) * logpt)
        total = bce + focal + mc_focal.mean()
        return total, per_class, mc_focal


def get_inputs():
    logits = torch.randn(B, C) * 1.5
    multilabel = torch.randint(0, 2, (B, C), dtype=torch.int64)
    sample_w = torch.rand(B, 1) + 0.5
    cls_target = torch.randint(0, C, (B,), dtype=torch.int64)
    return [logits, multilabel, sample_w, cls_target]


def get_init_inputs():
    return [C, 0.25, 2.0]
