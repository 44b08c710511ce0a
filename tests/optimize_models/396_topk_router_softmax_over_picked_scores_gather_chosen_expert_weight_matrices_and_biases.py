"""Top-k routing that picks the chosen experts' weights out of stacked parameters: tokens
x (2, 13, 16) -> (26, 16); router Linear 16 -> 7 scores, torch.topk(k=3, dim=-1), softmax over
the three picked scores (Mixtral-style), full softmax probabilities gathered at the chosen
experts (probs.gather(-1, top_i)); expert weights (7, 16, 16) picked by self.w[top_i] -> (26, 3,
16, 16), expert biases (7, 16) by index_select(0, top_i.flatten()).view(26, 3, 16);
einsum('nd,nkde->nke'), GELU, weighted sum over the k picks, residual. Outputs (2, 13, 16),
int64 top_i (26, 3) and the gathered router probabilities (26, 3)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, E, K = 2, 13, 16, 7, 3


class Model(nn.Module):
    def __init__(self, dim, experts, top_k):
        super().__init__()
        self.top_k = top_k
        self.router = nn.Linear(dim, experts)
        self.w = nn.Parameter(torch.randn(experts, dim, dim) / dim ** 0.5)
        self.b = nn.Parameter(torch.randn(experts, dim) * 0.1)

    def forward(self, x):
        b, t, d = x.shape
        tok = x.reshape(-1, d)
        n = tok.shape[0]
        scores = self.router(tok)
        top_v, top_i = torch.topk(scores, self.top_k, dim=-1)
        gate = torch.softmax(top_v, dim=-1)
        probs = torch.softmax(scores, dim=-1)
        picked_p = probs.gather(-1, top_i)
        w_sel = self.w[top_i]
        b_sel = self.b.index_select(0, top_i.flatten()).view(n, self.top_k, d)
        h = F.gelu(torch.einsum("nd,nkde->nke", tok, w_sel) + b_sel)
        y = (gate[..., None] * h).sum(dim=1) + tok
        return y.view(b, t, d), top_i, picked_p


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, E, K]
