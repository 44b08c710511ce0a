"""Container modules and Python control flow fixed at construction time (never on data).
get_init_inputs() = [[19, 27, 27, 13, 13], True]: widths and a use_gate flag.
x (5, 9, 19).
self.layers = nn.ModuleList of 4 Blocks, Block i: Linear(w[i] -> w[i+1]); a LayerNorm only when
i is even (flag use_norm; None otherwise); activation chosen by a string flag per block
('gelu', 'silu', 'tanh', 'relu'); a residual add only when w[i] == w[i+1] (blocks 1 and 3).
So: block 0 19 -> 27 LN gelu; block 1 27 -> 27 silu + residual; block 2 27 -> 13 LN tanh;
block 3 13 -> 13 relu + residual.
The Python loop collects feats = [h.mean(-1, keepdim=True) for each block output] (5, 9, 1) each,
f = torch.cat(feats, dim=-1) (5, 9, 4).
self.heads = nn.ModuleDict({'mean': Linear(13, 5), 'gate': nn.Sequential(Linear(13, 5),
nn.Identity(), nn.Sigmoid())}); out = heads['mean'](h); since use_gate is True:
out = out * heads['gate'](h) (the else branch, out + 1, is never taken).
A second nn.Sequential(Linear(4, 6), nn.Identity(), nn.Softplus()) maps f to (5, 9, 6).
Outputs: out (5, 9, 5), sequential(f) (5, 9, 6)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

ACTS = {"gelu": F.gelu, "silu": F.silu, "tanh": torch.tanh, "relu": F.relu}


class Block(nn.Module):
    def __init__(self, din, dout, use_norm, act):
        super().__init__()
        self.lin = nn.Linear(din, dout)
        self.norm = nn.LayerNorm(dout) if use_norm else None
        self.act_name = act
        self.residual = din == dout

    def forward(self, x):
        h = self.lin(x)
        if self.norm is not None:
            h = self.norm(h)
        h = ACTS[self.act_name](h)
        if self.residual:
            h = h + x
        return h


class Model(nn.Module):
    def __init__(self, widths, use_gate):
        super().__init__()
        acts = ["gelu", "silu", "tanh", "relu"]
        self.layers = nn.ModuleList(
            [Block(widths[i], widths[i + 1], i % 2 == 0, acts[i]) for i in range(len(widths) - 1)]
        )
        d = widths[-1]
        self.heads = nn.ModuleDict(
            {
                "mean": nn.Linear(d, 5),
                "gate": nn.Sequential(nn.Linear(d, 5), nn.Identity(), nn.Sigmoid()),
            }
        )
        self.use_gate = use_gate
        self.feat_mlp = nn.Sequential(nn.Linear(len(widths) - 1, 6), nn.Identity(), nn.Softplus())

    def forward(self, x):
        h = x
        feats = []
        for layer in self.layers:
            h = layer(h)
            feats.append(h.mean(dim=-1, keepdim=True))
        f = torch.cat(feats, dim=-1)
        out = self.heads["mean"](h)
        if self.use_gate:
            out = out * self.heads["gate"](h)
        else:
            out = out + 1.0
        return out, self.feat_mlp(f)


def get_inputs():
    return [torch.randn(5, 9, 19)]


def get_init_inputs():
    return [[19, 27, 27, 13, 13], True]
