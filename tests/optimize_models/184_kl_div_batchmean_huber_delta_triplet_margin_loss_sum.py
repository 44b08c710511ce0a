"""Three losses summed into one scalar, as a training loop writes them:
nn.KLDivLoss(reduction='batchmean')(log_softmax(student), softmax(teacher)) over
(13, 29) logits (sum over all elements divided by the batch size 13);
nn.HuberLoss(delta=0.7) (mean) over (13, 17);
nn.TripletMarginLoss(margin=0.3, p=2) (mean) over (13, 23) anchor/positive/negative
(pairwise_distance adds eps=1e-6 to the difference before the norm; the hinge
max(d_ap - d_an + 0.3, 0) is active for a data-dependent subset of rows: most of them
with independent randn inputs).
Seven inputs; output a 0-dim tensor."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, K, D_REG, D_EMB = 13, 29, 17, 23


class Model(nn.Module):
    def __init__(self, delta, margin):
        super().__init__()
        self.kl = nn.KLDivLoss(reduction="batchmean")
        self.huber = nn.HuberLoss(delta=delta)
        self.triplet = nn.TripletMarginLoss(margin=margin, p=2)

    def forward(self, student, teacher, pred, target, anchor, positive, negative):
        kl = self.kl(F.log_softmax(student, dim=-1), F.softmax(teacher, dim=-1))
        hub = self.huber(pred, target)
        tri = self.triplet(anchor, positive, negative)
        return kl + hub + tri


def get_inputs():
    return [
        torch.randn(B, K),
        torch.randn(B, K),
        torch.randn(B, D_REG),
        torch.randn(B, D_REG),
        torch.randn(B, D_EMB),
        torch.randn(B, D_EMB),
        torch.randn(B, D_EMB),
    ]


def get_init_inputs():
    return [0.7, 0.3]
