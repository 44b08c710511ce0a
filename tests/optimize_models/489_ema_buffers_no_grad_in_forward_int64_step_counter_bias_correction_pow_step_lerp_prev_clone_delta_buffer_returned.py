"""Exponential-moving-average buffers updated in place under torch.no_grad() inside forward
(BUFFERS CHANGE on every call: compare running_mean, running_sq and step too; a second call
gives different outputs).
x (3, 11, 21). Buffers: running_mean (21,) = randn * 0.1, running_sq (21,) = 1 + rand,
step 0-dim int64 = 3. decay = 0.9. Parameters weight (21,), bias (21,).
m = x.mean(dim=(0, 1)); sq = (x * x).mean(dim=(0, 1)); prev = running_mean.clone() (taken
before the update).
no_grad: step.add_(1) (-> 4); running_mean.mul_(0.9).add_(m, alpha=0.1);
running_sq.lerp_(sq, 0.1).
corr = 1 - 0.9 ** step.to(float32) (0-dim, uses the UPDATED step = 4: 0.3439);
mh = running_mean / corr; vh = (running_sq / corr - mh * mh).clamp_min(1e-3) (the updated
buffers are read after the in-place writes);
y = (x - mh) * rsqrt(vh + 1e-5) * weight + bias.
Outputs: y (3, 11, 21), running_mean - prev (21,) (= 0.1 * (m - prev)), running_sq itself
(the buffer tensor returned directly, aliasing model state), corr (0-dim)."""

import torch
import torch.nn as nn

B, T, D = 3, 11, 21
DECAY = 0.9


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("running_mean", torch.randn(D) * 0.1)
        self.register_buffer("running_sq", 1.0 + torch.rand(D))
        self.register_buffer("step", torch.tensor(3, dtype=torch.int64))
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(D))
        self.bias = nn.Parameter(0.1 * torch.randn(D))

    def forward(self, x):
        m = x.mean(dim=(0, 1))
        sq = (x * x).mean(dim=(0, 1))
        prev = self.running_mean.clone()
        with torch.no_grad():
            self.step.add_(1)
            self.running_mean.mul_(DECAY).add_(m, alpha=1.0 - DECAY)
            self.running_sq.lerp_(sq, 1.0 - DECAY)
        corr = 1.0 - DECAY ** self.step.to(x.dtype)
        mh = self.running_mean / corr
        vh = (self.running_sq / corr - mh * mh).clamp_min(1e-3)
        y = (x - mh) * torch.rsqrt(vh + 1e-5) * self.weight + self.bias
        return y, self.running_mean - prev, self.running_sq, corr


def get_inputs():
    return [torch.randn(B, T, D) * 1.3 + 0.2]


def get_init_inputs():
    return []
