"""nn.Linear (96 -> 200, with bias) on a (45, 96) batch in which rows 0, 7 and 44 are scaled
by 1e3 (results of several thousand, so a naive exp(z) overflows to inf), then a numerically
stable logsumexp written by hand over the 200 output features, two ways:
m = z.max(dim=-1, keepdim=True).values; m + torch.log(torch.exp(z - m).sum(-1, keepdim=True))
(keepdim result), and m2 = z.amax(dim=-1); (m2 + torch.log(torch.exp(z - m2.unsqueeze(-1))
.sum(-1))) (squeezed result), then relu of the squeezed one minus 1. All finite.
Input x: (45, 96); outputs (45, 1) and (45,) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 45, 96, 200


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        z = self.fc(x)
        m = z.max(dim=-1, keepdim=True).values
        lse_k = m + torch.log(torch.exp(z - m).sum(-1, keepdim=True))
        m2 = z.amax(dim=-1)
        lse = m2 + torch.log(torch.exp(z - m2.unsqueeze(-1)).sum(-1))
        return lse_k, torch.relu(lse - 1.0)


def get_inputs():
    x = torch.randn(B, D_IN)
    x[0] *= 1.0e3
    x[7] *= 1.0e3
    x[44] *= 1.0e3
    return [x]


def get_init_inputs():
    return [D_IN, D_OUT]
