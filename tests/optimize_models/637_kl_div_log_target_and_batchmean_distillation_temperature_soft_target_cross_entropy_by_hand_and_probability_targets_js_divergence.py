"""Distillation-style divergences between student and teacher logits (B, K) with temperature:
kl_div with log_target=True (batchmean) and with probability target (sum), soft-target cross
entropy written by hand -(p * log_softmax).sum(-1).mean(), F.cross_entropy with probability
targets and label_smoothing, Jensen-Shannon divergence via the mixture log. Teacher logits are
a transposed (non-contiguous) view. Outputs: 0-dim loss and per-row JS divergence (B,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, K = 29, 37


class Model(nn.Module):
    def __init__(self, temperature):
        super().__init__()
        self.t = temperature

    def forward(self, student, teacher_t):
        teacher = teacher_t.t()  # (B, K) non-contiguous
        T = self.t
        ls = F.log_softmax(student / T, dim=-1)
        lt = F.log_softmax(teacher / T, dim=-1)
        pt = lt.exp()
        kl_log = F.kl_div(ls, lt, reduction="batchmean", log_target=True) * (T * T)
        kl_prob = F.kl_div(ls, pt, reduction="sum") / student.shape[0]
        soft_ce = -(pt * ls).sum(dim=-1).mean()
        ce_prob = F.cross_entropy(student, pt, label_smoothing=0.1)
        ps = ls.exp()
        m_log = torch.log(0.5 * (ps + pt))
        js = 0.5 * (F.kl_div(m_log, ls, reduction="none", log_target=True).sum(-1)
                    + F.kl_div(m_log, lt, reduction="none", log_target=True).sum(-1))
        loss = kl_log + kl_prob + soft_ce + 0.5 * ce_prob + js.mean()
        return loss, js


def get_inputs():
    return [torch.randn(B, K) * 2.0, torch.randn(K, B) * 2.0]


def get_init_inputs():
    return [2.5]
