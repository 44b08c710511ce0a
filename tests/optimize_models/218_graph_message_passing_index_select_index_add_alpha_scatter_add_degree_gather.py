"""Graph message passing with int64 edge-index inputs: h.index_select(0, src) times a
sigmoid edge weight, index_add(0, dst, msg) into zeros (repeated destinations accumulate),
a second index_add with alpha=0.5 of the source node features, in-degree by
scatter_add(0, dst, ones), mean aggregation divided by degree.clamp_min(1), Linear on the
concatenated [h, agg], tanh; per-edge score by index_select(0, dst).gather(1, col) with an
int64 (E, 1) column index. h is a transposed view (randn(11, 17).t()). Inputs h (17, 11),
src (53,), dst (53,), ew (53,), col (53, 1); outputs (17, 11) and (53,)."""

import torch
import torch.nn as nn

NN, F_, E = 17, 11, 53


class Model(nn.Module):
    def __init__(self, feat):
        super().__init__()
        self.lin = nn.Linear(2 * feat, feat)

    def forward(self, h, src, dst, ew, col):
        msg = h.index_select(0, src) * torch.sigmoid(ew).unsqueeze(1)
        agg = h.new_zeros(h.shape).index_add(0, dst, msg)
        agg = torch.index_add(agg, 0, dst, h.index_select(0, src), alpha=0.5)
        deg = h.new_zeros(h.shape[0]).scatter_add(0, dst, torch.ones_like(ew))
        agg = agg / deg.clamp_min(1.0).unsqueeze(1)
        out = torch.tanh(self.lin(torch.cat([h, agg], dim=1)))
        edge_score = out.index_select(0, dst).gather(1, col).squeeze(1) * ew
        return out, edge_score


def get_inputs():
    h = torch.randn(F_, NN).t()
    src = torch.randint(0, NN, (E,))
    dst = torch.randint(0, NN, (E,))
    ew = torch.randn(E)
    col = torch.randint(0, F_, (E, 1))
    return [h, src, dst, ew, col]


def get_init_inputs():
    return [F_]
