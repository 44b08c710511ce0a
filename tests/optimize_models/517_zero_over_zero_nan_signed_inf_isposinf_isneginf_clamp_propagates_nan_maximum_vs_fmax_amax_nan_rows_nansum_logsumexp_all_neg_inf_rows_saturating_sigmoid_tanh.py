"""Division producing 0/0 = NaN and +-k/0 = +-inf, and how ops treat them.
x, y (13, 29) integer-valued float32 in [-2, 2] (exact zeros in both, so z = x / y holds NaN,
+inf, -inf, -0.0 and finite values).
zc = where(isfinite(z), z, 0); codes = isposinf - isneginf + 2 * isnan (int64);
same = (z == z) (bool, False exactly at NaN);
cl = clamp(z, lo, hi) with lo = -1.5, hi = 1.5 (constructor): inf is clamped, NaN stays NaN;
rl = relu(z) (NaN stays NaN);
mx = maximum(z, 0) (propagates NaN) vs fm = fmax(z, 0) (ignores NaN: 0 where z is NaN);
rm = amax(z, dim=1) (NaN for rows with any NaN, else +inf or finite);
ns = nansum(where(isinf(z), nan, z), dim=1) (sum of the finite entries);
sg = sigmoid(z) (sigmoid(+inf) = 1, sigmoid(-inf) = 0, NaN stays); th = tanh(cl).
s (7, 19) randn with row 1 all -inf, s[4, 3] = +inf, s[5, 0] = -inf:
lse = logsumexp(s, dim=-1): row 1 gives -inf (not NaN), row 4 gives +inf;
ls = log_softmax(s, dim=-1): row 1 all NaN, row 4 NaN / -inf mix, row 5 has one -inf.
Outputs: zc, codes, same, cl, rl, mx, fm (13, 29); rm, ns (13,); sg, th (13, 29); lse (7,);
ls (7, 19)."""

import torch
import torch.nn as nn

N, D = 13, 29
R, L = 7, 19


class Model(nn.Module):
    def __init__(self, lo, hi):
        super().__init__()
        self.lo = lo
        self.hi = hi

    def forward(self, x, y, s):
        z = x / y
        zc = torch.where(torch.isfinite(z), z, torch.zeros_like(z))
        codes = (
            torch.isposinf(z).to(torch.int64)
            - torch.isneginf(z).to(torch.int64)
            + 2 * torch.isnan(z).to(torch.int64)
        )
        same = z == z
        cl = torch.clamp(z, self.lo, self.hi)
        rl = torch.relu(z)
        zero = torch.zeros_like(z)
        mx = torch.maximum(z, zero)
        fm = torch.fmax(z, zero)
        rm = torch.amax(z, dim=1)
        ns = torch.nansum(torch.where(torch.isinf(z), float("nan"), z), dim=1)
        sg = torch.sigmoid(z)
        th = torch.tanh(cl)
        lse = torch.logsumexp(s, dim=-1)
        ls = torch.log_softmax(s, dim=-1)
        return zc, codes, same, cl, rl, mx, fm, rm, ns, sg, th, lse, ls


def get_inputs():
    x = torch.randint(-2, 3, (N, D)).float()
    y = torch.randint(-2, 3, (N, D)).float()
    s = torch.randn(R, L)
    s[1] = float("-inf")
    s[4, 3] = float("inf")
    s[5, 0] = float("-inf")
    return [x, y, s]


def get_init_inputs():
    return [-1.5, 1.5]
