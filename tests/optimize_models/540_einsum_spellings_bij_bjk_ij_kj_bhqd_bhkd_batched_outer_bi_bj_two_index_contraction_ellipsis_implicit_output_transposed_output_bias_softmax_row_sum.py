"""einsum in several spellings, each followed by a short pointwise / reduction chain.
a (5, 13, 17), b (5, 17, 11): y1 = einsum('bij,bjk->bik') + bias1 (11,) -> gelu -> softmax(-1).
x (23, 19), W (29, 19) parameter: y2 = einsum('ij,kj->ik', x, W) (x @ W.T) -> relu -> row sum (23,).
q (2, 3, 7, 16), k (2, 3, 9, 16): s = einsum('bhqd,bhkd->bhqk') * 0.25 -> softmax(-1) (2, 3, 7, 9).
u (6, 13), v (6, 9): batched outer product einsum('bi,bj->bij') (6, 13, 9) -> tanh -> sum(dim=1)
(6, 9).
t (4, 5, 7, 9), w2 (7, 9, 11) parameter: contraction over two indices einsum('bcij,ijk->bck')
(4, 5, 11) + bias2 -> silu -> mean(-1) (4, 5).
Other spellings: einsum('...d,nd->...n', q, P) with ellipsis (P (12, 16) parameter) -> amax(-1)
(2, 3, 7); implicit output einsum('ij,jk', x, M) (M (19, 8) parameter; output 'ik') ->
log_softmax(-1); transposed output einsum('bij,bjk->bki', a, b) (5, 11, 13) -> sigmoid ->
sum(-1); operands given as a list: einsum('bi,bi->b', [u, u]) (row dot) -> sqrt.
Outputs: y1, y2, s, outer_sum, contr, ell, imp, trans, rowdot."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, k_dim, x_in, x_out, i_dim, j_dim, c_out, d_head, p_out, m_out):
        super().__init__()
        self.bias1 = nn.Parameter(0.1 * torch.randn(k_dim))
        self.W = nn.Parameter(torch.randn(x_out, x_in) / x_in ** 0.5)
        self.w2 = nn.Parameter(torch.randn(i_dim, j_dim, c_out) / (i_dim * j_dim) ** 0.5)
        self.bias2 = nn.Parameter(0.1 * torch.randn(c_out))
        self.P = nn.Parameter(torch.randn(p_out, d_head) / d_head ** 0.5)
        self.M = nn.Parameter(torch.randn(x_in, m_out) / x_in ** 0.5)

    def forward(self, a, b, x, q, k, u, v, t):
        y1 = torch.einsum("bij,bjk->bik", a, b) + self.bias1
        y1 = torch.softmax(F.gelu(y1), dim=-1)
        y2 = torch.relu(torch.einsum("ij,kj->ik", x, self.W)).sum(dim=1)
        s = torch.softmax(torch.einsum("bhqd,bhkd->bhqk", q, k) * 0.25, dim=-1)
        outer_sum = torch.tanh(torch.einsum("bi,bj->bij", u, v)).sum(dim=1)
        contr = torch.einsum("bcij,ijk->bck", t, self.w2) + self.bias2
        contr = F.silu(contr).mean(dim=-1)
        ell = torch.einsum("...d,nd->...n", q, self.P).amax(dim=-1)
        imp = torch.log_softmax(torch.einsum("ij,jk", x, self.M), dim=-1)
        trans = torch.sigmoid(torch.einsum("bij,bjk->bki", a, b)).sum(dim=-1)
        rowdot = torch.sqrt(torch.einsum("bi,bi->b", [u, u]))
        return y1, y2, s, outer_sum, contr, ell, imp, trans, rowdot


def get_inputs():
    return [
        torch.randn(5, 13, 17),
        torch.randn(5, 17, 11),
        torch.randn(23, 19),
        torch.randn(2, 3, 7, 16),
        torch.randn(2, 3, 9, 16),
        torch.randn(6, 13),
        torch.randn(6, 9),
        torch.randn(4, 5, 7, 9),
    ]


def get_init_inputs():
    return [11, 19, 29, 7, 9, 11, 16, 12, 8]
