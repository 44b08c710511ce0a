"""Multi-class focal loss (gamma 2) from gathered probabilities: logits (97, 11),
logpt = F.log_softmax(x, dim=1).gather(1, t.view(-1, 1)).view(-1), pt = logpt.exp(),
at = alpha.gather(0, t) with a per-class alpha buffer (11,) in [0.25, 1), loss =
-at * (1 - pt) ** gamma * logpt; int64 targets t (97,) in [0, 11). Outputs the per-sample
loss (97,), its mean (0-dim) and pt (97,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, GAMMA = 97, 11, 2.0


class Model(nn.Module):
    def __init__(self, num_classes, gamma):
        super().__init__()
        self.gamma = gamma
        self.register_buffer("alpha", torch.rand(num_classes) * 0.75 + 0.25)

    def forward(self, x, t):
        logpt = F.log_softmax(x, dim=1)
        logpt = logpt.gather(1, t.view(-1, 1)).view(-1)
        pt = logpt.exp()
        at = self.alpha.gather(0, t)
        loss = -1.0 * at * (1.0 - pt) ** self.gamma * logpt
        return loss, loss.mean(), pt


def get_inputs():
    return [torch.randn(N, C) * 2.0, torch.randint(0, C, (N,), dtype=torch.int64)]


def get_init_inputs():
    return [C, GAMMA]
