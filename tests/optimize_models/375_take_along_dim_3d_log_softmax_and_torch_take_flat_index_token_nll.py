"""Token log-likelihoods picked two ways from a (5, 23, 41) log_softmax: torch.take_along_dim(
lp, t.unsqueeze(-1), dim=-1).squeeze(-1) -> (5, 23), and torch.take(lp, flat) with the flat
index (arange(5 * 23) * 41 + t.flatten()) built in forward -> (115,) (same values); logits are
x - 0.5 * x.mean(-1, keepdim=True) first. Int64 targets t (5, 23) in [0, 41). Outputs the
(5, 23) log-probs, the per-sequence sum (5,) of -log p, and the (115,) torch.take values."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, V = 5, 23, 41


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, t):
        z = x - 0.5 * x.mean(dim=-1, keepdim=True)
        lp = F.log_softmax(z, dim=-1)
        tok = torch.take_along_dim(lp, t.unsqueeze(-1), dim=-1).squeeze(-1)
        b, s, v = lp.shape
        flat = torch.arange(b * s, device=x.device) * v + t.flatten()
        taken = torch.take(lp, flat)
        return tok, -tok.sum(dim=1), taken


def get_inputs():
    return [torch.randn(B, T, V) * 1.5, torch.randint(0, V, (B, T), dtype=torch.int64)]


def get_init_inputs():
    return []
