"""Small VAE forward: encoder Linear 60 -> 40 + ReLU -> Linear 40 -> 16 chunked into mu and
logvar (8 each), reparameterisation z = mu + exp(0.5 * logvar) * eps with a fixed noise input,
decoder Linear 8 -> 40 + ReLU -> Linear 40 -> 60 -> sigmoid, KL term
-0.5 * sum(1 + logvar - mu^2 - exp(logvar), dim=1) averaged over the batch.
Inputs x: (5, 60), eps: (5, 8); outputs reconstruction (5, 60) and 0-dim KL, as a tuple."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D_IN, HID, LAT = 5, 60, 40, 8


class Model(nn.Module):
    def __init__(self, d_in, hidden, latent):
        super().__init__()
        self.enc1 = nn.Linear(d_in, hidden)
        self.enc2 = nn.Linear(hidden, 2 * latent)
        self.dec1 = nn.Linear(latent, hidden)
        self.dec2 = nn.Linear(hidden, d_in)

    def forward(self, x, eps):
        mu, logvar = self.enc2(F.relu(self.enc1(x))).chunk(2, dim=-1)
        z = mu + torch.exp(0.5 * logvar) * eps
        recon = torch.sigmoid(self.dec2(F.relu(self.dec1(z))))
        kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1)
        return recon, kl.mean()


def get_inputs():
    return [torch.randn(B, D_IN), torch.randn(B, LAT)]


def get_init_inputs():
    return [D_IN, HID, LAT]
