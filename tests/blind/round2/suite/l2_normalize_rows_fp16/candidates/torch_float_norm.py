import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        sq = torch.sum(x.float() * x.float(), dim=1, keepdim=True)
        norm = torch.sqrt(sq).to(x.dtype).clamp_min(1e-12)
        return x / norm
