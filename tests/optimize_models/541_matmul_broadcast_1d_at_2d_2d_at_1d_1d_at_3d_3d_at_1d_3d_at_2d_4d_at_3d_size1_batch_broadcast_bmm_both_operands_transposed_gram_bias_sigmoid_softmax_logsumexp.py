"""torch.matmul broadcasting rules and bmm of transposed operands, each with a short epilogue.
v (17,) @ M1 (17, 23) parameter -> (23,) + b1 -> sigmoid           (1-D @ 2-D)
M2 (19, 17) parameter @ v (17,) -> (19,) -> softmax(0)              (2-D @ 1-D)
v (17,) @ X (4, 17, 13) -> (4, 13) -> relu                          (1-D @ 3-D, batched)
X3 (4, 11, 17) @ v (17,) -> (4, 11) -> tanh                         (3-D @ 1-D)
X3 (4, 11, 17) @ W3 (17, 13) parameter -> + b3 (13,) -> relu -> row sum (4, 11)   (3-D @ 2-D)
A4 (2, 3, 7, 9) @ B3 (3, 9, 5) -> (2, 3, 7, 5) -> softmax(-1)      (4-D @ 3-D, batch broadcast)
C4 (4, 1, 7, 9) @ D3 (5, 9, 6) -> (4, 5, 7, 6) -> sum(dim=-2)      (size-1 batch dim broadcast)
bmm(P.transpose(1, 2), Q.transpose(1, 2)): P (5, 17, 13), Q (5, 11, 17) -> (5, 13, 11) + bias
(11,) -> tanh -> logsumexp(-1) (5, 13); Gram bmm(P.transpose(1, 2), P) (5, 13, 13) -> diagonal
mean (5,).
Outputs: o1 .. o9."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, k, n1, n2, n3, nb):
        super().__init__()
        self.M1 = nn.Parameter(torch.randn(k, n1) / k ** 0.5)
        self.b1 = nn.Parameter(0.1 * torch.randn(n1))
        self.M2 = nn.Parameter(torch.randn(n2, k) / k ** 0.5)
        self.W3 = nn.Parameter(torch.randn(k, n3) / k ** 0.5)
        self.b3 = nn.Parameter(0.1 * torch.randn(n3))
        self.bb = nn.Parameter(0.1 * torch.randn(nb))

    def forward(self, v, X, X3, A4, B3, C4, D3, P, Q):
        o1 = torch.sigmoid(torch.matmul(v, self.M1) + self.b1)
        o2 = torch.softmax(torch.matmul(self.M2, v), dim=0)
        o3 = torch.relu(torch.matmul(v, X))
        o4 = torch.tanh(X3 @ v)
        o5 = torch.relu(X3 @ self.W3 + self.b3).sum(dim=-1)
        o6 = torch.softmax(torch.matmul(A4, B3), dim=-1)
        o7 = torch.matmul(C4, D3).sum(dim=-2)
        h = torch.bmm(P.transpose(1, 2), Q.transpose(1, 2)) + self.bb
        o8 = torch.logsumexp(torch.tanh(h), dim=-1)
        g = torch.bmm(P.transpose(1, 2), P)
        o9 = torch.diagonal(g, dim1=1, dim2=2).mean(dim=-1)
        return o1, o2, o3, o4, o5, o6, o7, o8, o9


def get_inputs():
    return [
        torch.randn(17),
        torch.randn(4, 17, 13),
        torch.randn(4, 11, 17),
        torch.randn(2, 3, 7, 9),
        torch.randn(3, 9, 5),
        torch.randn(4, 1, 7, 9),
        torch.randn(5, 9, 6),
        torch.randn(5, 17, 13),
        torch.randn(5, 11, 17),
    ]


def get_init_inputs():
    return [17, 23, 19, 13, 11]
