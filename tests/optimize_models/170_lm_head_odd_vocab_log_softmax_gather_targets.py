"""Language-model head with an odd vocabulary: nn.Linear(48 -> 517, bias=False) on hidden
states (3, 7, 48), log_softmax over the vocab dim, then the log-probability of the given
int64 target ids gathered with .gather(-1, targets.unsqueeze(-1)).squeeze(-1).
Inputs: hidden (3, 7, 48) float, targets (3, 7) int64 in [0, 517). Output (3, 7), all <= 0.
Logits reach roughly +-2.5 (default Linear init); log-probabilities lie around -5 to -8
(log(517) = 6.25)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, V = 3, 7, 48, 517


class Model(nn.Module):
    def __init__(self, dim, vocab):
        super().__init__()
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, hidden, targets):
        logits = self.lm_head(hidden)
        logprobs = F.log_softmax(logits, dim=-1)
        return logprobs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)


def get_inputs():
    return [torch.randn(B, T, D), torch.randint(0, V, (B, T), dtype=torch.int64)]


def get_init_inputs():
    return [D, V]
