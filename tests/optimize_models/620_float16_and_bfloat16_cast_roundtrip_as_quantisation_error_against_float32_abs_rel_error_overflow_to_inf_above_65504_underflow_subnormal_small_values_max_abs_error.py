"""Low-precision casts as quantisation: x.half().float(), x.to(bfloat16).float(); errors against
float32 (abs, relative with clamp_min denominator), max abs error per row; large values
(> 65504 overflow to inf in float16, finite in bfloat16) and tiny values (float16 subnormals / zero)
forced in; isinf count. Linear in bfloat16 (weight and input cast) vs float32.
Outputs: h, b, abs errors, rel errors, row max errors, inf count, bf16 linear, its error."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, din, dout):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dout, din) * 0.2)

    def forward(self, x):
        h = x.half().float()
        b = x.to(torch.bfloat16).float()
        eh = (h - x).abs()
        eb = (b - x).abs()
        den = x.abs().clamp_min(1e-30)
        rh = torch.where(torch.isinf(h), torch.zeros_like(x), eh / den)
        rb = eb / den
        mh = torch.where(torch.isinf(eh), torch.zeros_like(eh), eh).amax(dim=-1)
        mb = eb.amax(dim=-1)
        ninf = torch.isinf(h).sum()
        xs = torch.nan_to_num(x, posinf=0.0).clamp(-10, 10)
        yb = F.linear(xs.to(torch.bfloat16), self.weight.to(torch.bfloat16)).float()
        yf = F.linear(xs, self.weight)
        return h, b, eh, eb, rh, rb, mh, mb, ninf, yb, yb - yf


def get_inputs():
    x = torch.randn(9, 31)
    x[0, :4] = torch.tensor([70000.0, -1.0e5, 65504.0, 3.0e38])
    x[1, :4] = torch.tensor([1.0e-6, -3.0e-8, 6.0e-5, 1.0e-9])
    return [x]


def get_init_inputs():
    return [31, 15]
