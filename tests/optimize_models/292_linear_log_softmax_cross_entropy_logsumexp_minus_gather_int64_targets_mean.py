"""nn.Linear (72 -> 37, with bias) on a (130, 72) batch (row 9 scaled by 1e3: large logits),
then F.log_softmax(z, dim=-1), and a cross-entropy written by hand with int64 class targets:
torch.logsumexp(z, dim=-1) - z.gather(1, t.unsqueeze(1)).squeeze(1) per row, and its mean over
the batch (compare F.cross_entropy(z, t)).
Inputs x: (130, 72), t: int64 (130,) in [0, 37); outputs (130, 37), (130,), 0-dim as a tuple."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D_IN, D_OUT = 130, 72, 37


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x, t):
        z = self.fc(x)
        ls = F.log_softmax(z, dim=-1)
        ce = torch.logsumexp(z, dim=-1) - z.gather(1, t.unsqueeze(1)).squeeze(1)
        return ls, ce, ce.mean()


def get_inputs():
    x = torch.randn(B, D_IN)
    x[9] *= 1.0e3
    return [x, torch.randint(0, D_OUT, (B,), dtype=torch.int64)]


def get_init_inputs():
    return [D_IN, D_OUT]
