"""Message-passing GNN layer (GINE / MPNN style) on a batch of two graphs given by an int64
edge_index (2, 71) over 23 nodes (repeated destinations, some nodes without in-edges), node
features x (23, 20), edge features (71, 5) and an int64 node -> graph vector batch (23,) (12 nodes
of graph 0, 11 of graph 1). Source features x[edge_index[0]] by advanced indexing, target
features torch.gather(x, 0, dst[:, None].expand(71, 20)) (gather along dim 0); messages
relu(Linear 45 -> 20 of cat([x_i, x_j, e])) * sigmoid(Linear 5 -> 20 of e); sum aggregation
zeros(23, 20).index_put((dst,), m, accumulate=True), in-degree zeros(23).index_put((dst,),
ones(71), accumulate=True), mean = sum / deg.clamp_min(1); h = relu(Linear 60 -> 20 of
cat([x, sum, mean])) + x. Link scores (h.index_select(0, src) * h.index_select(0, dst)).sum(-1)
(71,); graph readout zeros(2, 20).index_put((batch,), h, accumulate=True) / node counts ->
Linear 20 -> 4. Outputs h (23, 20), link scores (71,), graph logits (2, 4)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

NNODE, NEDGE, D, DE, NGRAPH, NCLS = 23, 71, 20, 5, 2, 4


class Model(nn.Module):
    def __init__(self, dim, edge_dim, n_graphs, n_cls):
        super().__init__()
        self.n_graphs = n_graphs
        self.msg = nn.Linear(2 * dim + edge_dim, dim)
        self.gate = nn.Linear(edge_dim, dim)
        self.upd = nn.Linear(3 * dim, dim)
        self.readout = nn.Linear(dim, n_cls)

    def forward(self, x, edge_index, edge_attr, batch):
        n, d = x.shape
        src, dst = edge_index[0], edge_index[1]
        e = src.shape[0]
        x_j = x[src]
        x_i = torch.gather(x, 0, dst[:, None].expand(e, d))
        m = F.relu(self.msg(torch.cat([x_i, x_j, edge_attr], dim=-1)))
        m = m * torch.sigmoid(self.gate(edge_attr))
        agg = torch.zeros(n, d, dtype=x.dtype, device=x.device).index_put((dst,), m, accumulate=True)
        deg = torch.zeros(n, dtype=x.dtype, device=x.device).index_put(
            (dst,), torch.ones(e, dtype=x.dtype, device=x.device), accumulate=True)
        mean = agg / deg.clamp_min(1.0)[:, None]
        h = F.relu(self.upd(torch.cat([x, agg, mean], dim=-1))) + x
        link = (h.index_select(0, src) * h.index_select(0, dst)).sum(dim=-1)
        pooled = torch.zeros(self.n_graphs, d, dtype=x.dtype, device=x.device).index_put(
            (batch,), h, accumulate=True)
        counts = torch.zeros(self.n_graphs, dtype=x.dtype, device=x.device).index_put(
            (batch,), torch.ones(n, dtype=x.dtype, device=x.device), accumulate=True)
        return h, link, self.readout(pooled / counts[:, None])


def get_inputs():
    g = torch.Generator().manual_seed(0)
    # graph 0: nodes 0..11, graph 1: nodes 12..22; nodes 11, 19 and 20 never receive an edge
    s0 = torch.randint(0, 12, (38,), generator=g)
    d0 = torch.randint(0, 11, (38,), generator=g)
    s1 = torch.randint(12, 23, (33,), generator=g)
    d1 = torch.randint(12, 20, (33,), generator=g)
    d1 = torch.where(d1 == 19, torch.full_like(d1, 21), d1)
    d1[0] = 22
    edge_index = torch.stack([torch.cat([s0, s1]), torch.cat([d0, d1])])
    batch = torch.cat([torch.zeros(12, dtype=torch.int64), torch.ones(11, dtype=torch.int64)])
    return [torch.randn(NNODE, D), edge_index, torch.randn(NEDGE, DE), batch]


def get_init_inputs():
    return [D, DE, NGRAPH, NCLS]
