"""Relation Network (Santoro et al. 2017) over all ordered object pairs. objects = randn(3, 12,
7).transpose(1, 2) (3, 7, 12) non-contiguous, question q (3, 10). Object tags: each object gets a
coordinate arange(7) / 6 * 2 - 1 built in forward, torch.cat as a 13th feature. Pairs: o_i =
objects.repeat_interleave(7, dim=1).view(3, 7, 7, 13), o_j = torch.tile(objects, (1, 7,
1)).view(3, 7, 7, 13), question q[:, None, None, :].repeat(1, 7, 7, 1); torch.cat([o_i, o_j,
qq], dim=-1) (3, 7, 7, 36) -> g MLP Linear 36 -> 32, relu, Linear 32 -> 32, relu; relation map
g.sum(-1) (3, 7, 7); aggregated g.sum(dim=(1, 2)) -> f MLP Linear 32 -> 32, relu, Linear 32 -> 5.
Outputs logits (3, 5) and relation map (3, 7, 7)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, NOBJ, DOBJ, DQ, HID, NCLS = 3, 7, 12, 10, 32, 5


class Model(nn.Module):
    def __init__(self, d_obj, d_q, hid, n_cls):
        super().__init__()
        self.g1 = nn.Linear(2 * (d_obj + 1) + d_q, hid)
        self.g2 = nn.Linear(hid, hid)
        self.f1 = nn.Linear(hid, hid)
        self.f2 = nn.Linear(hid, n_cls)

    def forward(self, objects, q):
        b, n, _ = objects.shape
        coord = torch.arange(n, device=objects.device, dtype=objects.dtype) / (n - 1) * 2.0 - 1.0
        objects = torch.cat([objects, coord[None, :, None].expand(b, n, 1)], dim=-1)
        d = objects.shape[-1]
        o_i = objects.repeat_interleave(n, dim=1).view(b, n, n, d)
        o_j = torch.tile(objects, (1, n, 1)).view(b, n, n, d)
        qq = q[:, None, None, :].repeat(1, n, n, 1)
        pairs = torch.cat([o_i, o_j, qq], dim=-1)
        g = F.relu(self.g2(F.relu(self.g1(pairs))))
        rel_map = g.sum(dim=-1)
        agg = g.sum(dim=(1, 2))
        return self.f2(F.relu(self.f1(agg))), rel_map


def get_inputs():
    return [torch.randn(B, DOBJ, NOBJ).transpose(1, 2), torch.randn(B, DQ)]


def get_init_inputs():
    return [DOBJ, DQ, HID, NCLS]
