"""Train-mode batch normalisation written with torch ops, statistics over dim 0:
x (37, 61), t (5, 29, 19).
MLP path: h = Linear 61 -> 19 (x); mu = h.mean(dim=0) (keepdim=False, (19,));
var = h.var(dim=0, unbiased=False); hn = (h - mu.unsqueeze(0)) / sqrt(var + 1e-5).unsqueeze(0)
* gamma + beta; relu; Linear 19 -> 13; the running-statistics update values
0.9 * running_mean + 0.1 * mu and 0.9 * running_var + 0.1 * h.var(dim=0) (unbiased,
correction=1) are returned (buffers are not mutated).
Token path (BatchNorm1d over (B, T, C) done by hand): mean and biased variance of t over
dims (0, 1) keepdim, normalise, per-channel (19,) affine, times a per-sample gate
sigmoid(h.mean(dim=1)) (a dim-1 reduction of h) of its first 5 rows, [:5, None, None].
Outputs: out (37, 13), new running mean (19,), new running var (19,), tn (5, 29, 19)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, IN, HID, OUT = 37, 61, 19, 13
TB, TT = 5, 29
EPS = 1e-5
MOM = 0.1


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(IN, HID)
        self.fc2 = nn.Linear(HID, OUT)
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.randn(HID))
        self.beta = nn.Parameter(0.1 * torch.randn(HID))
        self.register_buffer("running_mean", 0.1 * torch.randn(HID))
        self.register_buffer("running_var", 1.0 + 0.2 * torch.rand(HID))
        self.t_weight = nn.Parameter(1.0 + 0.2 * torch.randn(HID))
        self.t_bias = nn.Parameter(0.1 * torch.randn(HID))

    def forward(self, x, t):
        h = self.fc1(x)
        mu = h.mean(dim=0)
        var = h.var(dim=0, unbiased=False)
        hn = (h - mu.unsqueeze(0)) / torch.sqrt(var + EPS).unsqueeze(0)
        hn = hn * self.gamma + self.beta
        out = self.fc2(F.relu(hn))
        new_rm = (1.0 - MOM) * self.running_mean + MOM * mu
        new_rv = (1.0 - MOM) * self.running_var + MOM * h.var(dim=0, correction=1)

        tm = t.mean(dim=(0, 1), keepdim=True)
        tv = (t - tm).pow(2).mean(dim=(0, 1), keepdim=True)
        tn = (t - tm) * torch.rsqrt(tv + EPS) * self.t_weight + self.t_bias
        tn = tn * torch.sigmoid(h.mean(dim=1))[: t.shape[0], None, None]
        return out, new_rm, new_rv, tn


def get_inputs():
    return [torch.randn(B, IN), torch.randn(TB, TT, HID)]


def get_init_inputs():
    return []
