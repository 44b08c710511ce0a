"""The same set of losses applied to inputs with a leading batch dim of 1 and of 3.
a1, p1, n1 (1, 23) randn, y1 (1, 23) in {-1, +1} (float); a3, p3, n3 (3, 23) randn, y3 (3, 23) in {-1, +1}.
For each batch (a, p, n, y):
mse = F.mse_loss(a, p) (0-dim), msen = F.mse_loss(a, p, reduction='none').sum(-1) (B,),
sl1 = F.smooth_l1_loss(a, p, beta=0.5), hub = F.huber_loss(a, p, delta=1.5, reduction='sum'),
kl = F.kl_div(log_softmax(a, -1), softmax(p, -1), reduction='batchmean') (divides by B = 1 or 3),
hinge = clamp_min(1 - y * a, 0).mean() (hinge written by hand), sqh = hinge terms squared, summed
per row (B,),
cos = F.cosine_similarity(a, p, dim=1) (B,), cl = (1 - cos).mean(),
tm = F.triplet_margin_loss(a, p, n, margin=0.7) (0-dim), tmn = same with reduction='none' (B,).
Outputs: 11 results for batch 1 followed by 11 for batch 3."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _losses(a, p, n, y):
    mse = F.mse_loss(a, p)
    msen = F.mse_loss(a, p, reduction="none").sum(-1)
    sl1 = F.smooth_l1_loss(a, p, beta=0.5)
    hub = F.huber_loss(a, p, delta=1.5, reduction="sum")
    kl = F.kl_div(F.log_softmax(a, -1), F.softmax(p, -1), reduction="batchmean")
    h = torch.clamp_min(1.0 - y * a, 0.0)
    hinge = h.mean()
    sqh = (h * h).sum(-1)
    cos = F.cosine_similarity(a, p, dim=1)
    cl = (1.0 - cos).mean()
    tm = F.triplet_margin_loss(a, p, n, margin=0.7)
    tmn = F.triplet_margin_loss(a, p, n, margin=0.7, reduction="none")
    return [mse, msen, sl1, hub, kl, hinge, sqh, cos, cl, tm, tmn]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a1, p1, n1, y1, a3, p3, n3, y3):
        return tuple(_losses(a1, p1, n1, y1) + _losses(a3, p3, n3, y3))


def get_inputs():
    y1 = torch.randint(0, 2, (1, 23)).float() * 2.0 - 1.0
    y3 = torch.randint(0, 2, (3, 23)).float() * 2.0 - 1.0
    return [torch.randn(1, 23), torch.randn(1, 23), torch.randn(1, 23), y1,
            torch.randn(3, 23), torch.randn(3, 23), torch.randn(3, 23), y3]


def get_init_inputs():
    return []
