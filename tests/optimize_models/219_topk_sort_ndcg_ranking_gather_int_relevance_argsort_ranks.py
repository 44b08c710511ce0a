"""Ranking score with topk and sort values/indices used in float math (NDCG@k): topk(k=7) of
the predicted scores, int64 relevance gathered at the top-k indices, gains 2 ** rel - 1,
discount 1 / log2(arange(k) + 2) built in forward; ideal DCG from torch.sort of the int64
relevance (descending, values only, ties harmless); rank features from sort(stable=True)
indices inverted by argsort, cast to float; topk(largest=False) over dim 0 (the batch dim)
as a per-column floor. Inputs scores (13, 31) float32, rel (13, 31) int64 in [0, 4);
outputs (13,) float32, (13, 31) float32, (13, 7) int64."""

import torch
import torch.nn as nn

B, N, K = 13, 31, 7


class Model(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, scores, rel):
        k = self.k
        vals, idx = torch.topk(scores, k, dim=1)
        rel_k = rel.gather(1, idx).float()
        disc = 1.0 / torch.log2(torch.arange(k, device=scores.device, dtype=scores.dtype) + 2.0)
        dcg = ((torch.pow(2.0, rel_k) - 1.0) * disc).sum(dim=1)
        rel_sorted, _ = torch.sort(rel, dim=1, descending=True)
        idcg = ((torch.pow(2.0, rel_sorted[:, :k].float()) - 1.0) * disc).sum(dim=1)
        ndcg = dcg / idcg.clamp_min(1e-6)
        _, order = torch.sort(scores, dim=1, stable=True)
        ranks = torch.argsort(order, dim=1).float() / (scores.shape[1] - 1)
        low, _ = torch.topk(scores, 3, dim=0, largest=False)
        floor = low.mean(dim=0, keepdim=True)
        feat = (scores - floor) * (1.0 - ranks) - 0.5 * vals.mean(dim=1, keepdim=True)
        return ndcg, feat, idx


def get_inputs():
    return [torch.randn(B, N), torch.randint(0, 4, (B, N))]


def get_init_inputs():
    return [K]
