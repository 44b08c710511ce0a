"""Sampled-softmax loss (TF sampled_softmax_loss style) by hand: output embedding weight
(301, 40) and bias (301,) parameters, hidden h (23, 40), int64 true classes t (23,) and 17
int64 sampled class ids s (17,) (one sampled id equals t[0]: an accidental hit). True logit
(h * W[t]).sum(-1) + b[t] (advanced indexing), sampled logits h @ W.index_select(0, s).t() +
b[s]; each minus log(expected count) from a log-uniform proposal q(k) = log((k + 2) / (k + 1))
/ log(V + 1) buffer (301,) indexed by t and s; accidental hits (s[None, :] == t[:, None])
masked_fill with -inf; logits torch.cat([true[:, None], sampled], 1) (23, 18), F.cross_entropy
against torch.zeros(23, dtype=int64) built in forward. Outputs the 0-dim loss and the (23,)
corrected true logits."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D, V, S = 23, 40, 301, 17


class Model(nn.Module):
    def __init__(self, dim, vocab, num_sampled):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(vocab, dim) * 0.2)
        self.bias = nn.Parameter(torch.randn(vocab) * 0.1)
        k = torch.arange(vocab, dtype=torch.float32)
        q = torch.log((k + 2.0) / (k + 1.0)) / math.log(vocab + 1.0)
        self.register_buffer("log_expected", torch.log(q * num_sampled))

    def forward(self, h, t, s):
        n = h.shape[0]
        true_w = self.weight[t]
        true_logit = (h * true_w).sum(dim=-1) + self.bias[t] - self.log_expected[t]
        sampled_w = self.weight.index_select(0, s)
        sampled_logits = h @ sampled_w.t() + self.bias[s] - self.log_expected[s]
        hits = s[None, :] == t[:, None]
        sampled_logits = sampled_logits.masked_fill(hits, float("-inf"))
        logits = torch.cat([true_logit[:, None], sampled_logits], dim=1)
        labels = torch.zeros(n, dtype=torch.int64, device=h.device)
        loss = F.cross_entropy(logits, labels)
        return loss, true_logit


def get_inputs():
    t = torch.randint(0, V, (N,), dtype=torch.int64)
    s = torch.randint(0, V, (S,), dtype=torch.int64)
    s[3] = t[0]
    return [torch.randn(N, D), t, s]


def get_init_inputs():
    return [D, V, S]
