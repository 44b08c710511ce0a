"""nn.Linear (50 -> 37, with bias) on a (33, 50) batch whose rows 2 and 20 are scaled by 1e3
(naive exp overflows), then masked_fill(mask, -inf) with a bool mask input: row 5 fully masked,
other rows partly masked (about a quarter of the entries). A hand-written logsumexp that guards
infinities like torch does: m = y.amax(dim=-1, keepdim=True);
m = torch.where(torch.isinf(m), torch.zeros_like(m), m); m + log(exp(y - m).sum(-1, keepdim=True)),
squeezed; also torch.logsumexp(y, dim=-1) and sigmoid(lse - 5). Row 5 gives -inf in both
logsumexps (intentional; the guard avoids the NaN of -inf - -inf) and 0 in the sigmoid.
Inputs x: (33, 50), mask: bool (33, 37); outputs (33,), (33,), (33,) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 33, 50, 37


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x, mask):
        y = self.fc(x).masked_fill(mask, float("-inf"))
        m = y.amax(dim=-1, keepdim=True)
        m = torch.where(torch.isinf(m), torch.zeros_like(m), m)
        lse = (m + torch.log(torch.exp(y - m).sum(-1, keepdim=True))).squeeze(-1)
        ref = torch.logsumexp(y, dim=-1)
        return lse, ref, torch.sigmoid(lse - 5.0)


def get_inputs():
    x = torch.randn(B, D_IN)
    x[2] *= 1.0e3
    x[20] *= 1.0e3
    mask = torch.rand(B, D_OUT) < 0.25
    mask[:, 0] = False
    mask[5] = True
    return [x, mask]


def get_init_inputs():
    return [D_IN, D_OUT]
