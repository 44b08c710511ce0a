"""TabNet-style encoder on (17, 19) tabular input, 3 decision steps. Input F.batch_norm in eval mode
on running-stat buffers. Feature transformer: two GLU blocks (Linear -> F.batch_norm eval -> F.glu)
with (h + glu) * sqrt(0.5) residual, output split into decision (8) and attention (8) parts.
Attentive transformer: Linear 8 -> 19 -> F.batch_norm eval -> times prior and a scale 4 -> sparsemax (steps 0 and
2) or entmax-1.5 (step 1), both written with sort(descending) / cumsum / support count / gather of
the threshold; prior = prior * (gamma - M); masked input M * x; relu(decision) accumulated; mask
entropy regulariser mean(sum(-M log(M + 1e-10))). Outputs: logits (17, 5), stacked masks (3, 17,
19), 0-dim regulariser."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D_IN, N_D, N_A, N_OUT, STEPS = 17, 19, 8, 8, 5, 3


def sparsemax(z, dim=-1):
    zs, _ = torch.sort(z, dim=dim, descending=True)
    k = torch.arange(1, z.shape[dim] + 1, device=z.device, dtype=z.dtype)
    cs = zs.cumsum(dim)
    support = (1 + k * zs) > cs
    k_z = support.sum(dim=dim, keepdim=True)
    tau = (cs.gather(dim, k_z - 1) - 1) / k_z.to(z.dtype)
    return torch.clamp(z - tau, min=0)


def entmax15(z, dim=-1):
    z = z / 2
    z = z - z.amax(dim=dim, keepdim=True)
    zs, _ = torch.sort(z, dim=dim, descending=True)
    rho = torch.arange(1, z.shape[dim] + 1, device=z.device, dtype=z.dtype)
    mean = zs.cumsum(dim) / rho
    mean_sq = (zs * zs).cumsum(dim) / rho
    ss = rho * (mean_sq - mean * mean)
    delta = (1 - ss) / rho
    tau = mean - torch.sqrt(torch.clamp(delta, min=0))
    support = (tau <= zs).sum(dim=dim, keepdim=True)
    tau_star = tau.gather(dim, support - 1)
    return torch.clamp(z - tau_star, min=0) ** 2


class BNEval(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(n))
        self.bias = nn.Parameter(0.1 * torch.randn(n))
        self.register_buffer("running_mean", 0.1 * torch.randn(n))
        self.register_buffer("running_var", 0.5 + torch.rand(n))

    def forward(self, x):
        return F.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                            training=False, momentum=0.02, eps=1e-5)


class GLUBlock(nn.Module):
    def __init__(self, din, dout):
        super().__init__()
        self.fc = nn.Linear(din, 2 * dout, bias=False)
        self.bn = BNEval(2 * dout)

    def forward(self, x):
        return F.glu(self.bn(self.fc(x)), dim=-1)


class Model(nn.Module):
    def __init__(self, d_in, n_d, n_a, n_out, steps, gamma, mask_scale):
        super().__init__()
        self.mask_scale = mask_scale
        self.in_bn = BNEval(d_in)
        h = n_d + n_a
        self.shared = GLUBlock(d_in, h)
        self.steps = nn.ModuleList([GLUBlock(h, h) for _ in range(steps + 1)])
        self.att_fc = nn.ModuleList([nn.Linear(n_a, d_in, bias=False) for _ in range(steps)])
        self.att_bn = nn.ModuleList([BNEval(d_in) for _ in range(steps)])
        self.out = nn.Linear(n_d, n_out)
        self.n_d = n_d
        self.gamma = gamma
        self.n_steps = steps

    def feat(self, x, i):
        h = self.shared(x)
        return (h + self.steps[i](h)) * math.sqrt(0.5)

    def forward(self, x):
        x = self.in_bn(x)
        prior = torch.ones_like(x)
        a = self.feat(x, 0)[:, self.n_d:]
        out = torch.zeros(x.shape[0], self.n_d, device=x.device, dtype=x.dtype)
        masks = []
        reg = x.new_zeros(())
        for s in range(self.n_steps):
            logits = self.att_bn[s](self.att_fc[s](a)) * prior * self.mask_scale
            m = entmax15(logits) if s % 2 == 1 else sparsemax(logits)
            reg = reg + (-m * torch.log(m + 1e-10)).sum(dim=1).mean() / self.n_steps
            prior = prior * (self.gamma - m)
            h = self.feat(m * x, s + 1)
            out = out + torch.relu(h[:, :self.n_d])
            a = h[:, self.n_d:]
            masks.append(m)
        return self.out(out), torch.stack(masks), reg


def get_inputs():
    return [torch.randn(B, D_IN) * 1.5]


def get_init_inputs():
    return [D_IN, N_D, N_A, N_OUT, STEPS, 1.3, 4.0]
