"""ELU whose float32 result is rounded through bfloat16: bfloat16-class error, which the
precision 'medium' allows and 'highest' and 'high' do not."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return torch.where(x > 0, x, self.alpha * torch.expm1(x)).bfloat16().float()
