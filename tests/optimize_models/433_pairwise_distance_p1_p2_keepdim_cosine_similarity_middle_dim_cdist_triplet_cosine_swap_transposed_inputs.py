"""Distance functions on non-contiguous inputs from get_inputs: u = randn(23, 41).t()
(41, 23) with strides (1, 41), v (41, 23) contiguous, w = randn(41, 47)[:, 1::2] (41, 23)
with strides (47, 2).
F.pairwise_distance(u, v, p=2, keepdim=True) (41, 1) (eps=1e-6 is added to u - v before
the norm); F.pairwise_distance(u, w, p=1) (41,);
F.cosine_similarity(u, w, dim=1) (41,);
F.cosine_similarity over the middle dim of 3-D tensors: p (3, 7, 11) and q (3, 7, 11) from a
transposed (3, 11, 7) input, dim=1 -> (3, 11);
torch.cdist(pt, r, p=2) of the (3, 11, 7) input pt and r (3, 29, 7) (29 > 25 rows: the
matmul-based Euclidean path), (3, 11, 29), and torch.cdist(..., p=1) of the same;
F.triplet_margin_with_distance_loss(u, v, w, distance_function=1 - cosine_similarity,
margin=0.25, swap=True, reduction='none') (41,).
Outputs: six tensors ((41, 1), (41,), (3, 11), two (3, 11, 29), (41,))."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D = 41, 23
B, L, E, R = 3, 11, 7, 29


def _cos_dist(a, b):
    return 1.0 - F.cosine_similarity(a, b, dim=-1)


class Model(nn.Module):
    def __init__(self, margin):
        super().__init__()
        self.margin = margin

    def forward(self, u, v, w, pt, r):
        d2 = F.pairwise_distance(u, v, p=2.0, keepdim=True)
        d1 = F.pairwise_distance(u, w, p=1.0)
        cs = F.cosine_similarity(u, w, dim=1)
        p = pt.transpose(1, 2)                     # (B, E, L), non-contiguous
        q = torch.tanh(p) + 0.1 * p
        cmid = F.cosine_similarity(p, q, dim=1)    # (B, L)
        ce2 = torch.cdist(pt, r, p=2.0)            # (B, L, R)
        ce1 = torch.cdist(pt, r, p=1.0)
        tri = F.triplet_margin_with_distance_loss(
            u, v, w, distance_function=_cos_dist, margin=self.margin,
            swap=True, reduction="none")
        return d2 + d1.unsqueeze(1), cs, cmid, ce2, ce1 - ce2, tri


def get_inputs():
    u = torch.randn(D, N).t()
    v = torch.randn(N, D)
    w = torch.randn(N, 2 * D + 1)[:, 1::2]
    pt = torch.randn(B, L, E)
    r = torch.randn(B, R, E)
    return [u, v, w, pt, r]


def get_init_inputs():
    return [0.25]
