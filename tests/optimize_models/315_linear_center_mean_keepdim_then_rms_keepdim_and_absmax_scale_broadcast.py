"""nn.Linear (130, 72) -> 257 followed by keepdim row reductions broadcast back against the GEMM
output: c = y - y.mean(-1, keepdim=True), then a SECOND row reduction of c (mean of c * c,
keepdim) -> c * rsqrt(. + 1e-5) (LayerNorm by hand without affine, two dependent reductions);
and y / (y.abs().amax(-1, keepdim=True) + 1e-6) (abs-max row scaling).
Input x: (130, 72); outputs (130, 257) and (130, 257) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 130, 72, 257


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = self.fc(x)
        c = y - y.mean(dim=-1, keepdim=True)
        normed = c * torch.rsqrt((c * c).mean(dim=-1, keepdim=True) + 1e-5)
        scaled = y / (y.abs().amax(dim=-1, keepdim=True) + 1e-6)
        return normed, scaled


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]
