"""Gathers whose source is also read in full elsewhere, so the pointwise result is needed whole
anyway: (1) p = softmax(Linear 24 -> 41 of x (29, 24)), entropy -(p * log_softmax).sum(-1) reads
all of p, and p.gather(1, t[:, None]) picks the int64 target probability; (2) z = gelu(u * 1.3 +
bias (45,)) of u (37, 45) is returned whole, and z.gather(1, j (37, 8)) is returned as well;
(3) e = exp(v) of v (4, 9, 15): e.gather(2, k (4, 9, 3)) / e.sum(-1, keepdim=True) (a picked
softmax ratio) and e.amax(-1). Outputs p (29, 41), entropy (29,), picked prob (29,), z
(37, 45), z picks (37, 8), ratios (4, 9, 3) and maxima (4, 9)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N1, DI, C = 29, 24, 41
N2, C2, J = 37, 45, 8
A, Bd, L, KK = 4, 9, 15, 3


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(DI, C)
        self.bias = nn.Parameter(torch.randn(C2) * 0.5)

    def forward(self, x, t, u, j, v, k):
        logits = self.fc(x)
        p = torch.softmax(logits, dim=-1)
        lp = F.log_softmax(logits, dim=-1)
        entropy = -(p * lp).sum(dim=-1)
        picked = p.gather(1, t[:, None]).squeeze(1)
        z = F.gelu(u * 1.3 + self.bias)
        z_pick = z.gather(1, j)
        e = torch.exp(v)
        ratio = e.gather(2, k) / e.sum(dim=-1, keepdim=True)
        return p, entropy, picked, z, z_pick, ratio, e.amax(dim=-1)


def get_inputs():
    return [torch.randn(N1, DI),
            torch.randint(0, C, (N1,), dtype=torch.int64),
            torch.randn(N2, C2) * 2.0,
            torch.randint(0, C2, (N2, J), dtype=torch.int64),
            torch.randn(A, Bd, L),
            torch.randint(0, L, (A, Bd, KK), dtype=torch.int64)]


def get_init_inputs():
    return []
