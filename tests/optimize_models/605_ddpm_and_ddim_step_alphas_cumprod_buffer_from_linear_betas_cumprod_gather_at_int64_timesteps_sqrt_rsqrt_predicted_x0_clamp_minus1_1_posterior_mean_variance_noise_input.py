"""DDPM and DDIM sampler steps on a given eps prediction. Buffers: betas = linspace(1e-4, 0.02, 50),
alphas_cumprod = cumprod(1 - betas), alphas_cumprod_prev = cat([1], ac[:-1]).
a_t = ac[t], a_prev = ac_prev[t] gathered at int64 t and viewed (N,1,1,1);
x0 = clamp((x - sqrt(1-a_t) * eps) * rsqrt(a_t), -1, 1);
DDPM: mean = coef1 * x0 + coef2 * x, var = beta_t (1-a_prev)/(1-a_t), out = mean + (t>0) * sqrt(var) * z;
DDIM (eta 0): x_prev = sqrt(a_prev) * x0 + sqrt(1 - a_prev) * eps_re with eps re-derived from x0.
x, eps, z = randn(4, 3, 9, 7), t includes 0. Outputs: ddpm, ddim, x0."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, num_steps):
        super().__init__()
        betas = torch.linspace(1e-4, 0.02, num_steps)
        ac = torch.cumprod(1.0 - betas, dim=0)
        self.register_buffer("betas", betas)
        self.register_buffer("alphas_cumprod", ac)
        self.register_buffer("alphas_cumprod_prev", torch.cat([torch.ones(1), ac[:-1]]))

    def forward(self, x, eps, z, t):
        shape = (-1, 1, 1, 1)
        a_t = self.alphas_cumprod[t].view(shape)
        a_prev = self.alphas_cumprod_prev.gather(0, t).view(shape)
        beta_t = self.betas[t].view(shape)
        x0 = ((x - torch.sqrt(1.0 - a_t) * eps) * torch.rsqrt(a_t)).clamp(-1.0, 1.0)
        coef1 = beta_t * torch.sqrt(a_prev) / (1.0 - a_t)
        coef2 = (1.0 - a_prev) * torch.sqrt(1.0 - beta_t) / (1.0 - a_t)
        mean = coef1 * x0 + coef2 * x
        var = beta_t * (1.0 - a_prev) / (1.0 - a_t)
        nonzero = (t > 0).float().view(shape)
        ddpm = mean + nonzero * torch.sqrt(var) * z
        eps_re = (x - torch.sqrt(a_t) * x0) / torch.sqrt(1.0 - a_t)
        ddim = torch.sqrt(a_prev) * x0 + torch.sqrt(1.0 - a_prev) * eps_re
        return ddpm, ddim, x0


def get_inputs():
    t = torch.randint(0, 50, (4,))
    t[0] = 0
    return [torch.randn(4, 3, 9, 7), torch.randn(4, 3, 9, 7), torch.randn(4, 3, 9, 7), t]


def get_init_inputs():
    return [50]
