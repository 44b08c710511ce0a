"""torch.matmul of a (33, 24) batch with a (24, 520) weight parameter plus a (520,) bias
(520 = a multiple of 8, not of 128), then a softmax written by hand over the output features:
mx = z.max(dim=-1, keepdim=True).values, e = exp(z - mx), s = e.sum(dim=-1, keepdim=True),
e / s; also the row logsumexp (mx + log(s)).squeeze(-1).
Input x: (33, 24); outputs (33, 520) and (33,) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 33, 24, 520


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * 0.3)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.5)

    def forward(self, x):
        z = torch.matmul(x, self.weight) + self.bias
        mx = z.max(dim=-1, keepdim=True).values
        e = torch.exp(z - mx)
        s = e.sum(dim=-1, keepdim=True)
        return e / s, (mx + torch.log(s)).squeeze(-1)


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
