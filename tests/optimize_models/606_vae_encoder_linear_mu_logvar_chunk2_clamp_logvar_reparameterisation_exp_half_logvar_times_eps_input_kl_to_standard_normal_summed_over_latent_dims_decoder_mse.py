"""VAE reparameterisation: h = silu(Linear(x)); mu, logvar = Linear(h).chunk(2, -1);
logvar clamped to [-30, 20]; z = mu + exp(0.5 * logvar) * eps (eps is an input);
kl = -0.5 * sum(1 + logvar - mu^2 - exp(logvar), dim=-1) per sample;
recon = Linear(silu(Linear(z))); loss = mse(recon, x, 'none').sum(-1) + kl, mean.
x = randn(6, 37), eps = randn(6, 11). Outputs: loss (0-dim), kl (6,), z (6, 11), recon (6, 37)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, d, hidden, latent):
        super().__init__()
        self.enc1 = nn.Linear(d, hidden)
        self.enc2 = nn.Linear(hidden, 2 * latent)
        self.dec1 = nn.Linear(latent, hidden)
        self.dec2 = nn.Linear(hidden, d)

    def forward(self, x, eps):
        mu, logvar = self.enc2(F.silu(self.enc1(x))).chunk(2, dim=-1)
        logvar = logvar.clamp(-30.0, 20.0)
        z = mu + torch.exp(0.5 * logvar) * eps
        kl = -0.5 * torch.sum(1.0 + logvar - mu.pow(2) - logvar.exp(), dim=-1)
        recon = self.dec2(F.silu(self.dec1(z)))
        rec = F.mse_loss(recon, x, reduction="none").sum(-1)
        loss = (rec + kl).mean()
        return loss, kl, z, recon


def get_inputs():
    return [torch.randn(6, 37), torch.randn(6, 11)]


def get_init_inputs():
    return [37, 29, 11]
