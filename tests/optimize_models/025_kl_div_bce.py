"""kl_div between log_softmax and softmax (batchmean, and log_target), plus
binary_cross_entropy on sigmoid'ed inputs and binary_cross_entropy_with_logits."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, K = 77, 131


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y, t):
        logp = F.log_softmax(x, dim=-1)
        q = F.softmax(y, dim=-1)
        kl = F.kl_div(logp, q, reduction="batchmean")
        kl2 = F.kl_div(logp, F.log_softmax(y, dim=-1), reduction="sum", log_target=True)
        bce = F.binary_cross_entropy(torch.sigmoid(x), t)
        bcel = F.binary_cross_entropy_with_logits(y, t, reduction="mean")
        return kl + kl2 / B + bce + bcel


def get_inputs():
    return [torch.randn(B, K), torch.randn(B, K), torch.rand(B, K)]


def get_init_inputs():
    return []
