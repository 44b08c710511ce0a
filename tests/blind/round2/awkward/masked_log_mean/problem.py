import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Masked mean of log(x) per row (a geometric-mean style statistic).

    forward(x, mask) -> out
        x:    [B, N] float32, strictly positive (get_inputs draws rand() + 0.1)
        mask: [B, N] bool, True marks the positions that participate
        out:  [B]    float32, sum_{mask} log(x) / max(count(mask), 1)
    """

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        logx = torch.log(x) * mask
        count = mask.sum(dim=-1).clamp(min=1)
        return logx.sum(dim=-1) / count


B, N = 4096, 4096


def get_inputs():
    x = torch.rand(B, N) + 0.1
    mask = torch.rand(B, N) < 0.7
    return [x, mask]


def get_init_inputs():
    return []
