"""float16 and bfloat16 inputs cast to float32 for reductions and cast back.
h float16 (7, 129) of magnitude ~300 (squares overflow float16): float32 mean of squares, var over dim -1
with correction=0, std over all elements (default correction), normalised result and RMS cast back to
float16. g bfloat16 (5, 67): float32 logsumexp over dim 0 keepdim, softmax over dim -1, sum over (0, 1),
cast back to bfloat16. Outputs float16 (7, 129), (7, 1); float32 0-dim, (2,); bfloat16 (5, 67) x 2."""

import torch
import torch.nn as nn
import torch.nn.functional as F

R, L = 7, 129
P, Q = 5, 67


class Model(nn.Module):
    def __init__(self, length):
        super().__init__()
        self.w = nn.Parameter(torch.randn(length) * 0.2 + 1.0)

    def forward(self, h, g):
        hf = h.float()
        ms = (hf * hf).mean(dim=-1, keepdim=True)               # ~1e5, beyond float16 max
        mu = hf.mean(dim=-1, keepdim=True)
        v0 = hf.var(dim=-1, keepdim=True, correction=0)
        sd = hf.std()                                           # 0-dim, unbiased
        hn = ((hf - mu) * torch.rsqrt(v0 + 1e-3) * self.w).to(torch.float16)
        rms = torch.sqrt(ms).half()                             # ~300, fits float16
        gf = g.to(torch.float32) * 8.0
        lse = torch.logsumexp(gf, dim=0, keepdim=True)          # (1, 67)
        sm = torch.softmax(gf, dim=-1).to(torch.bfloat16)
        tot = gf.sum(dim=(0, 1))
        gout = (gf - lse).to(torch.bfloat16)
        return hn, rms, sd, torch.stack([tot, ms.amax()]), sm, gout


def get_inputs():
    h = (torch.randn(R, L) * 300.0).to(torch.float16)
    g = torch.randn(P, Q).to(torch.bfloat16)
    return [h, g]


def get_init_inputs():
    return [L]
