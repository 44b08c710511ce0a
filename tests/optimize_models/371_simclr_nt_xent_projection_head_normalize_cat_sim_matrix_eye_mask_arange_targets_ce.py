"""SimCLR NT-Xent contrastive loss with its projection head: two views' features h1, h2 (13,
48) each through nn.Linear(48 -> 64) -> ReLU -> nn.Linear(64 -> 32), F.normalize(dim=1),
z = torch.cat([z1, z2]) (26, 32), sim = z @ z.t() / temperature (0.5), self-similarity
removed with masked_fill of a torch.eye(26, dtype=bool) mask built in forward (-inf),
targets torch.cat([arange(13) + 13, arange(13)]) built in forward, F.cross_entropy.
Inputs h1, h2 (13, 48); outputs a 0-dim loss and the (26, 26) similarity logits before the
mask (finite)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, FEAT, HIDDEN, PROJ, TEMPERATURE = 13, 48, 64, 32, 0.5


class Model(nn.Module):
    def __init__(self, feat_dim, hidden_dim, proj_dim, temperature):
        super().__init__()
        self.temperature = temperature
        self.projector = nn.Sequential(
            nn.Linear(feat_dim, hidden_dim),
            nn.ReLU(inplace=True),
            nn.Linear(hidden_dim, proj_dim),
        )

    def forward(self, h1, h2):
        z1 = F.normalize(self.projector(h1), dim=1)
        z2 = F.normalize(self.projector(h2), dim=1)
        n = z1.shape[0]
        z = torch.cat([z1, z2], dim=0)
        sim = torch.matmul(z, z.t()) / self.temperature
        self_mask = torch.eye(2 * n, dtype=torch.bool, device=z.device)
        logits = sim.masked_fill(self_mask, float("-inf"))
        labels = torch.arange(n, device=z.device)
        targets = torch.cat([labels + n, labels], dim=0)
        loss = F.cross_entropy(logits, targets)
        return loss, sim


def get_inputs():
    return [torch.randn(N, FEAT), torch.randn(N, FEAT)]


def get_init_inputs():
    return [FEAT, HIDDEN, PROJ, TEMPERATURE]
