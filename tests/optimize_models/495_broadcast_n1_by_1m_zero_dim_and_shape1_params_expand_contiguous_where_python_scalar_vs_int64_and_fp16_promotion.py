"""Broadcasting and type-promotion corner cases.
a (17, 1), b (1, 23), i int64 (17, 23) in [-3, 3], h float16 (17, 1);
parameters p0 0-dim, p1 shape (1,), row (23,).
o = a * b + p0 (17, 23) ((N,1) x (1,M) outer broadcast);
e = a.expand(17, 23).contiguous() * b.expand(17, -1) (expand of size-1 dims then contiguous);
w = torch.where(o > 0, 0.5, i) -> float32 (Python float on one side, int64 tensor on the other:
promotes to the default float dtype); wi = torch.where(o > 0, i, -1) -> int64 (Python int keeps
int64); wh = torch.where(a > 0, h, b) -> float32 (17, 23) (float16 (17,1) vs float32 (1,23)
promotes and broadcasts).
o1 = o * e + w * p1 + row + wh (17, 23) float32;
sc = p0 * p1 + a.mean() (shape (1,), NOT 0-dim: a (1,) operand keeps one dim);
o3 = (i * p1).sum(dim=0) (23,) float32 (int64 tensor times float (1,) parameter).
Outputs: o1 (17, 23) float32, wi (17, 23) int64, sc (1,) float32, o3 (23,) float32."""

import torch
import torch.nn as nn

N, M = 17, 23


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.p0 = nn.Parameter(torch.tensor(0.35))
        self.p1 = nn.Parameter(torch.tensor([-0.8]))
        self.row = nn.Parameter(torch.randn(M) * 0.2)

    def forward(self, a, b, i, h):
        o = a * b + self.p0
        e = a.expand(N, M).contiguous() * b.expand(N, -1)
        w = torch.where(o > 0, 0.5, i)
        wi = torch.where(o > 0, i, -1)
        wh = torch.where(a > 0, h, b)
        o1 = o * e + w * self.p1 + self.row + wh
        sc = self.p0 * self.p1 + a.mean()
        o3 = (i * self.p1).sum(dim=0)
        return o1, wi, sc, o3


def get_inputs():
    return [
        torch.randn(N, 1),
        torch.randn(1, M),
        torch.randint(-3, 4, (N, M), dtype=torch.int64),
        torch.randn(N, 1).half(),
    ]


def get_init_inputs():
    return []
