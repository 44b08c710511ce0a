"""fairseq's label_smoothed_nll_loss written by hand on decoder output: hidden (51, 28) ->
nn.Linear(28 -> 45) -> log_softmax(dim=-1) lprobs; target (51,) int64 with padding index 1
(ignore_index); nll = -lprobs.gather(dim=-1, index=target.unsqueeze(-1)), smooth =
-lprobs.sum(dim=-1, keepdim=True), both masked_fill(target.eq(1), 0.0), summed;
eps_i = 0.1 / (45 - 1), loss = (1 - 0.1 - eps_i) * nll + eps_i * smooth. Outputs the 0-dim
loss, the 0-dim nll sum and the number of non-pad tokens (int64 0-dim)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D, V, EPS, PAD = 51, 28, 45, 0.1, 1


class Model(nn.Module):
    def __init__(self, dim, vocab, epsilon, ignore_index):
        super().__init__()
        self.proj = nn.Linear(dim, vocab)
        self.epsilon = epsilon
        self.ignore_index = ignore_index

    def forward(self, h, target):
        lprobs = F.log_softmax(self.proj(h), dim=-1)
        target = target.unsqueeze(-1)
        nll_loss = -lprobs.gather(dim=-1, index=target)
        smooth_loss = -lprobs.sum(dim=-1, keepdim=True)
        pad_mask = target.eq(self.ignore_index)
        nll_loss = nll_loss.masked_fill(pad_mask, 0.0)
        smooth_loss = smooth_loss.masked_fill(pad_mask, 0.0)
        nll_loss = nll_loss.sum()
        smooth_loss = smooth_loss.sum()
        eps_i = self.epsilon / (lprobs.size(-1) - 1)
        loss = (1.0 - self.epsilon - eps_i) * nll_loss + eps_i * smooth_loss
        ntokens = target.ne(self.ignore_index).sum()
        return loss, nll_loss, ntokens


def get_inputs():
    target = torch.randint(2, V, (N,), dtype=torch.int64)
    target[torch.rand(N) < 0.2] = PAD
    target[-4:] = PAD
    return [torch.randn(N, D), target]


def get_init_inputs():
    return [D, V, EPS, PAD]
