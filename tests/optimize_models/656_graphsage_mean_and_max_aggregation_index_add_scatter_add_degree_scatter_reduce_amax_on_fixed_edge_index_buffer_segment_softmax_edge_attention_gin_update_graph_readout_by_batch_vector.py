"""Sparse message passing on a fixed int64 edge_index buffer (2, 157) over 41 nodes in two graphs
(nodes 0..18 and 19..40, edges within a graph, a few nodes without in-edges). GraphSAGE layer: mean
aggregation zeros.index_add_(0, dst, x[src]) / in-degree (scatter_add_ of ones, clamp_min 1) and
max aggregation scatter_reduce('amax', include_self=False) on zeros (nodes without in-edges keep 0),
lin_l(mean) + lin_m(max) + lin_r(x), F.normalize, relu. Edge attention: logits (h[src] * h[dst]).sum
/ sqrt(d), segment softmax over incoming edges by hand (per-dst amax via scatter_reduce, exp,
scatter_add denominator, gathered back by dst). GIN update: MLP((1 + eps) h + sum of alpha-weighted
messages) via index_add. Graph readout: sum and mean by index_add over a batch-vector buffer,
Linear -> 3. Outputs: node features (41, 31), graph logits (2, 3), edge attention (157,)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N, E, DIN, DH = 41, 157, 27, 31


def make_edges(n_nodes, n_edges, split):
    g = torch.Generator().manual_seed(5)
    src = torch.randint(0, n_nodes, (n_edges,), generator=g)
    off = torch.randint(1, 6, (n_edges,), generator=g)
    in_first = src < split
    dst = torch.where(in_first, (src + off) % split, split + (src - split + off) % (n_nodes - split))
    # two nodes of each graph receive no edges
    dst = torch.where((dst == 3) | (dst == 11), (dst + 1) % split, dst)
    dst = torch.where((dst == 25) | (dst == 33), dst + 1, dst)
    return torch.stack([src, dst])


class Model(nn.Module):
    def __init__(self, n, e, din, dh, split, n_out):
        super().__init__()
        self.register_buffer("edge_index", make_edges(n, e, split))
        self.register_buffer("batch", (torch.arange(n) >= split).long())
        self.lin_l = nn.Linear(din, dh)
        self.lin_m = nn.Linear(din, dh, bias=False)
        self.lin_r = nn.Linear(din, dh, bias=False)
        self.eps = nn.Parameter(torch.tensor(0.1))
        self.gin = nn.Sequential(nn.Linear(dh, dh), nn.ReLU(), nn.Linear(dh, dh))
        self.head = nn.Linear(2 * dh, n_out)

    def forward(self, x):
        src, dst = self.edge_index[0], self.edge_index[1]
        n, d = x.shape
        msg = x.index_select(0, src)
        agg = torch.zeros(n, d, device=x.device, dtype=x.dtype).index_add_(0, dst, msg)
        deg = torch.zeros(n, device=x.device, dtype=x.dtype).scatter_add_(
            0, dst, torch.ones_like(dst, dtype=x.dtype))
        mean = agg / deg.clamp_min(1.0).unsqueeze(1)
        mx = torch.zeros(n, d, device=x.device, dtype=x.dtype).scatter_reduce(
            0, dst.unsqueeze(1).expand(-1, d), msg, reduce="amax", include_self=False)
        h = self.lin_l(mean) + self.lin_m(mx) + self.lin_r(x)
        h = torch.relu(F.normalize(h, dim=-1))
        hd = h.shape[1]
        logit = (h[src] * h[dst]).sum(-1) / math.sqrt(hd)
        seg_max = torch.full((n,), float("-inf"), device=x.device, dtype=x.dtype).scatter_reduce(
            0, dst, logit, reduce="amax", include_self=True)
        ex = torch.exp(logit - seg_max[dst])
        denom = torch.zeros(n, device=x.device, dtype=x.dtype).scatter_add(0, dst, ex)
        alpha = ex / denom[dst]
        agg2 = torch.zeros_like(h).index_add(0, dst, h[src] * alpha.unsqueeze(1))
        h = self.gin((1 + self.eps) * h + agg2) + h
        counts = torch.zeros(2, device=x.device, dtype=x.dtype).index_add_(
            0, self.batch, torch.ones(n, device=x.device, dtype=x.dtype))
        gsum = torch.zeros(2, hd, device=x.device, dtype=x.dtype).index_add_(0, self.batch, h)
        gmean = gsum / counts.unsqueeze(1)
        out = self.head(torch.cat([gsum, gmean], dim=1))
        return h, out, alpha


def get_inputs():
    return [torch.randn(N, DIN)]


def get_init_inputs():
    return [N, E, DIN, DH, 19, 3]
