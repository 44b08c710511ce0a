"""forward(x, temperature, k, g, n, bias0) takes Python scalars and 0-dim tensors.
x (7, 29) float32; temperature = 0.7 (Python float); k = 12 (Python int, used for slicing, a
size and a roll shift); g = 0-dim float64 tensor 1.25; n = 0-dim int64 tensor -3;
bias0 = 0-dim float32 tensor 0.4.
Type promotion edge cases: x * g stays float32 (a 0-dim float64 tensor does not promote a
float32 dimensioned tensor); x * n is float32 (int 0-dim times float tensor).
z = x / temperature; top = z[:, :k] (7, 12), rest = z[:, k:] (7, 17);
p = softmax(top, dim=-1) * bias0; lse = logsumexp(rest, dim=-1, keepdim=True) (7, 1);
a = p + lse (7, 12);
w = torch.full((k,), temperature) built in forward (12,); a = a * w + torch.arange(k) / k;
r = torch.roll(x * g, shifts=k, dims=1) + x * n * 0.1 (7, 29);
q = (r[:, -k:] * temperature).sum(dim=1) (7,) (negative-start slice from an int).
torch.export specialises temperature and k as constants (exports fine).
Outputs: a (7, 12), r (7, 29) float32, q (7,)."""

import torch
import torch.nn as nn

N, D = 7, 29


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, temperature, k, g, n, bias0):
        z = x / temperature
        top = z[:, :k]
        rest = z[:, k:]
        p = torch.softmax(top, dim=-1) * bias0
        lse = torch.logsumexp(rest, dim=-1, keepdim=True)
        a = p + lse
        w = torch.full((k,), temperature, dtype=x.dtype, device=x.device)
        a = a * w + torch.arange(k, dtype=x.dtype, device=x.device) / k
        r = torch.roll(x * g, shifts=k, dims=1) + x * n * 0.1
        q = (r[:, -k:] * temperature).sum(dim=1)
        return a, r, q


def get_inputs():
    return [
        torch.randn(N, D),
        0.7,
        12,
        torch.tensor(1.25, dtype=torch.float64),
        torch.tensor(-3, dtype=torch.int64),
        torch.tensor(0.4),
    ]


def get_init_inputs():
    return []
