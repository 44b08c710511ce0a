"""Switch Transformer top-1 mixture of experts (Fedus et al. 2021) on tokens x (2, 9, 24)
flattened to (18, 24). Router Linear 24 -> 5 (no bias), probs = softmax(float32);
gate, idx = probs.max(dim=-1, keepdim=True) (18, 1) each (keepdim indices). Chosen expert
weights picked from parameters: W1 = w1[idx.squeeze(-1)] (advanced indexing of a (5, 24, 32)
parameter -> (18, 24, 32)), b1 = torch.gather(b1 (5, 32), 0, idx.expand(18, 32)) (gather along
dim 0 of a parameter), W2 = w2.index_select(0, idx.view(-1)) ((5, 32, 24) -> (18, 32, 24)),
b2 = b2 (5, 24)[idx.view(-1)]; per-token bmm: h = gelu(x[:, None] @ W1 + b1), y = (h[:, None]
@ W2 + b2) * gate; out = x + y. Load-balancing loss 5 * sum(one_hot(idx, 5).float().mean(0) *
probs.mean(0)) and router z-loss logsumexp(router logits, -1) ** 2 mean. Outputs out
(2, 9, 24), aux loss 0-dim, z-loss 0-dim and the int64 expert index per token (2, 9)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, H, E = 2, 9, 24, 32, 5


class Model(nn.Module):
    def __init__(self, dim, hidden, n_experts):
        super().__init__()
        self.n_experts = n_experts
        self.router = nn.Linear(dim, n_experts, bias=False)
        self.w1 = nn.Parameter(torch.randn(n_experts, dim, hidden) / dim ** 0.5)
        self.b1 = nn.Parameter(torch.randn(n_experts, hidden) * 0.1)
        self.w2 = nn.Parameter(torch.randn(n_experts, hidden, dim) / hidden ** 0.5)
        self.b2 = nn.Parameter(torch.randn(n_experts, dim) * 0.1)

    def forward(self, x):
        b, t, d = x.shape
        xf = x.reshape(b * t, d)
        logits = self.router(xf)
        probs = torch.softmax(logits, dim=-1, dtype=torch.float32)
        gate, idx = probs.max(dim=-1, keepdim=True)
        flat = idx.view(-1)
        w1 = self.w1[idx.squeeze(-1)]
        b1 = torch.gather(self.b1, 0, idx.expand(-1, self.b1.shape[1]))
        h = F.gelu(torch.bmm(xf[:, None, :], w1).squeeze(1) + b1)
        w2 = self.w2.index_select(0, flat)
        b2 = self.b2[flat]
        y = (torch.bmm(h[:, None, :], w2).squeeze(1) + b2) * gate
        out = (xf + y).view(b, t, d)
        frac = F.one_hot(flat, self.n_experts).float().mean(dim=0)
        aux = self.n_experts * (frac * probs.mean(dim=0)).sum()
        z_loss = torch.logsumexp(logits, dim=-1).pow(2).mean()
        return out, aux, z_loss, idx.view(b, t)


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, H, E]
