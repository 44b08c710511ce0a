"""E(n)-equivariant GNN (EGNN) layers computed in bfloat16 internally: node features (B, N, F) and
coordinates (B, N, 3) cast to bfloat16 (weights cast per call with .to(bfloat16)); all-pairs edge
inputs cat(h_i, h_j, ||x_i - x_j||^2) built by expand over a 4-D (B, N, N, .) broadcast; edge MLP
with SiLU; attention-like sigmoid edge gate; diagonal excluded with a bool mask buffer through
masked_fill; coordinate update x_i += mean_j (x_i - x_j) phi_x(m_ij) with phi_x tanh-bounded;
node update h += MLP(cat(h, sum_j m_ij)). Two layers; then energy head on float32 (cast back).
Outputs: energy (B,) float32, updated coordinates (B, N, 3) float32, features (B, N, F) float32."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N, FD, HID = 3, 19, 16, 24


class EGNNLayer(nn.Module):
    def __init__(self, f, hidden):
        super().__init__()
        self.e1 = nn.Linear(2 * f + 1, hidden)
        self.e2 = nn.Linear(hidden, hidden)
        self.gate = nn.Linear(hidden, 1)
        self.x1 = nn.Linear(hidden, 1)
        self.n1 = nn.Linear(f + hidden, hidden)
        self.n2 = nn.Linear(hidden, f)

    @staticmethod
    def lin(layer, x):
        return F.linear(x, layer.weight.to(x.dtype), layer.bias.to(x.dtype))

    def forward(self, h, x, offdiag):
        n = h.shape[1]
        rel = x.unsqueeze(2) - x.unsqueeze(1)  # (B, N, N, 3)
        d2 = (rel * rel).sum(-1, keepdim=True)
        hi = h.unsqueeze(2).expand(-1, -1, n, -1)
        hj = h.unsqueeze(1).expand(-1, n, -1, -1)
        m = F.silu(self.lin(self.e1, torch.cat([hi, hj, d2], dim=-1)))
        m = F.silu(self.lin(self.e2, m))
        m = m * torch.sigmoid(self.lin(self.gate, m))
        m = m.masked_fill(~offdiag.unsqueeze(-1), 0.0)
        w = torch.tanh(self.lin(self.x1, m))
        x = x + (rel * w).sum(dim=2) / (n - 1)
        agg = m.sum(dim=2)
        h = h + self.lin(self.n2, F.silu(self.lin(self.n1, torch.cat([h, agg], dim=-1))))
        return h, x


class Model(nn.Module):
    def __init__(self, n, f, hidden):
        super().__init__()
        self.register_buffer("offdiag", ~torch.eye(n, dtype=torch.bool).unsqueeze(0))
        self.layers = nn.ModuleList([EGNNLayer(f, hidden), EGNNLayer(f, hidden)])
        self.head = nn.Linear(f, 1)

    def forward(self, h, x):
        hb = h.to(torch.bfloat16)
        xb = x.to(torch.bfloat16)
        for layer in self.layers:
            hb, xb = layer(hb, xb, self.offdiag)
        hf = hb.float()
        energy = self.head(hf).squeeze(-1).sum(dim=1)
        return energy, xb.float(), hf


def get_inputs():
    return [torch.randn(B, N, FD), torch.randn(B, N, 3)]


def get_init_inputs():
    return [N, FD, HID]
