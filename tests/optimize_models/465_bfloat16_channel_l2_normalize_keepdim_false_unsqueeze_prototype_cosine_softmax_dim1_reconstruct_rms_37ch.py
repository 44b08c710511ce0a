"""Prototype (codebook) soft assignment on bfloat16 NCHW features, computed in float32:
x bfloat16 (2, 37, 15, 17). xf = x.float(); nrm = xf.pow(2).sum(dim=1).clamp_min(1e-12)
.sqrt() (2, 15, 17) (L2 over the 37 channels, keepdim=False); u = xf / nrm.unsqueeze(1);
protos (11, 37) parameter, L2-normalised by F.normalize(dim=1);
sim = einsum('nchw,kc->nkhw', u, protos) (2, 11, 15, 17); a = softmax(sim * 8, dim=1)
(11 prototypes, dim 1); recon = einsum('nkhw,kc->nchw', a, protos) * nrm.unsqueeze(1);
z = xf + alpha (37, 1, 1) * (recon - xf); RMS norm of z over dim 1 (keepdim=True) with a
(37, 1, 1) weight; result cast back to bfloat16.
Outputs: y bfloat16 (2, 37, 15, 17), a float32 (2, 11, 15, 17), nrm float32 (2, 15, 17)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 37, 15, 17
K = 11


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.protos = nn.Parameter(torch.randn(K, C))
        self.alpha = nn.Parameter(0.5 + 0.1 * torch.randn(C, 1, 1))
        self.rms_weight = nn.Parameter(1.0 + 0.1 * torch.randn(C, 1, 1))

    def forward(self, x):
        xf = x.float()
        nrm = xf.pow(2).sum(dim=1).clamp_min(1e-12).sqrt()
        u = xf / nrm.unsqueeze(1)
        p = F.normalize(self.protos, dim=1)
        sim = torch.einsum("nchw,kc->nkhw", u, p)
        a = torch.softmax(sim * 8.0, dim=1)
        recon = torch.einsum("nkhw,kc->nchw", a, p) * nrm.unsqueeze(1)
        z = xf + self.alpha * (recon - xf)
        z = z * torch.rsqrt(z.pow(2).mean(dim=1, keepdim=True) + 1e-6) * self.rms_weight
        return z.to(x.dtype), a, nrm


def get_inputs():
    return [torch.randn(N, C, H, W).to(torch.bfloat16)]


def get_init_inputs():
    return []
