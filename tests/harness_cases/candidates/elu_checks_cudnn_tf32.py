"""Correct ELU that refuses to run unless cuDNN's TF32 switch follows the float32 precision:
off at 'highest' (float32-accurate convolutions), on at 'high' and 'medium'."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        expected = torch.get_float32_matmul_precision() != "highest"
        if torch.backends.cudnn.allow_tf32 != expected:
            raise RuntimeError("cudnn.allow_tf32 is %s at precision %r" % (
                torch.backends.cudnn.allow_tf32, torch.get_float32_matmul_precision()))
        self.alpha = alpha

    def forward(self, x):
        return torch.where(x > 0, x, self.alpha * torch.expm1(x))
