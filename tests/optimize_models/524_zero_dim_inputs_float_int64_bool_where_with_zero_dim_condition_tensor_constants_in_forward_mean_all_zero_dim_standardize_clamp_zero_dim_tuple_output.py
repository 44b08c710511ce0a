"""0-dim tensor inputs, tensor constants built in forward, scalar arithmetic without .item().
forward(x, s, k, flag, alpha): x (7, 23) float32; s 0-dim float32 (randn); k 0-dim int64 in
[-3, 3]; flag 0-dim bool (random); alpha = 0.3 Python float. eps = 1e-5 from the constructor.
c = torch.tensor(2.5) and half = torch.tensor(0.5) built in forward;
y = x * s + k (float32: a 0-dim int64 does not change the dtype); z = where(flag, y, -y)
(0-dim bool condition broadcast);
m = z.mean() (0-dim); zc = z - m; v = (zc * zc).mean() (0-dim);
out = zc / sqrt(v + eps) * c + alpha (7, 23);
t = s * 3 - k / 2 (0-dim float32: int64 0-dim true division); tc = clamp(t, -1, 1) (0-dim);
g = maximum(s, half) ** 2 (0-dim); kk = k * 3 + 1 (0-dim int64);
kf = (kk % 5).to(float32) * half (0-dim; Python-style remainder of a negative int);
w = where(flag, s, half) (0-dim where of 0-dim tensors); q = out * w + g * kf (7, 23);
sd = v.sqrt() (0-dim).
Outputs (tuple mixing 0-dim and full tensors): m, out, tc, g, kk, q, sd."""

import torch
import torch.nn as nn

N, D = 7, 23


class Model(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.eps = eps

    def forward(self, x, s, k, flag, alpha):
        c = torch.tensor(2.5, dtype=x.dtype, device=x.device)
        half = torch.tensor(0.5, dtype=x.dtype, device=x.device)
        y = x * s + k
        z = torch.where(flag, y, -y)
        m = z.mean()
        zc = z - m
        v = (zc * zc).mean()
        out = zc / torch.sqrt(v + self.eps) * c + alpha
        t = s * 3.0 - k / 2
        tc = torch.clamp(t, min=-1.0, max=1.0)
        g = torch.maximum(s, half) ** 2
        kk = k * 3 + 1
        kf = (kk % 5).to(x.dtype) * half
        w = torch.where(flag, s, half)
        q = out * w + g * kf
        sd = v.sqrt()
        return m, out, tc, g, kk, q, sd


def get_inputs():
    return [
        torch.randn(N, D),
        torch.randn(()),
        torch.randint(-3, 4, ()),
        torch.rand(()) < 0.5,
        0.3,
    ]


def get_init_inputs():
    return [1e-5]
