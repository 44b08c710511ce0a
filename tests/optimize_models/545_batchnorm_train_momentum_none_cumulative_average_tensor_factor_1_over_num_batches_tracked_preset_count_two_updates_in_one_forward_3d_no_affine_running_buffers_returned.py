"""Batch norm in train mode with momentum=None semantics (cumulative moving average): each call
increments an int64 num_batches_tracked buffer and updates the running buffers with factor
f = 1 / num_batches_tracked: running_mean = (1 - f) * running_mean + f * batch_mean,
running_var = (1 - f) * running_var + f * unbiased batch var; the output is normalised with the
biased batch statistics (F.batch_norm training=True, no running buffers passed).
Written by hand because nn.BatchNorm2d(momentum=None) calls float(num_batches_tracked), which
torch.export cannot trace (data-dependent); here f stays a 0-dim tensor.
Updates buffers in forward (in place): build a fresh model (same state) for each comparison and
compare buffers too. Batch statistics are used whatever the module's train / eval flag.
bn2 (7 channels, affine) with running_mean / running_var preset to non-trivial values and
num_batches_tracked preset to 3; applied to x1 (4, 7, 9, 11) (count -> 4, f = 1/4) and then to
x2 (2, 7, 13, 5) (count -> 5, f = 1/5) in the same forward: y1 = relu(bn2(x1)),
y2 = bn2(x2) * 0.5 + 0.1.
bn1 (6 channels, no affine, count 0 -> 1, f = 1) on s (5, 6, 17) (statistics over dims (0, 2))
-> tanh.
Also returned: clones of bn2 running_mean / running_var, bn1 running_var and bn2
num_batches_tracked (int64) after the updates.
Outputs: y1, y2, y3, rm2, rv2, rv1, nbt2."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class CumulativeBatchNorm(nn.Module):
    def __init__(self, channels, affine, preset_count, eps=1e-5):
        super().__init__()
        self.eps = eps
        if affine:
            self.weight = nn.Parameter(1.0 + 0.3 * torch.randn(channels))
            self.bias = nn.Parameter(0.2 * torch.randn(channels))
        else:
            self.weight = None
            self.bias = None
        if preset_count > 0:
            self.register_buffer("running_mean", torch.randn(channels))
            self.register_buffer("running_var", 0.5 + torch.rand(channels))
        else:
            self.register_buffer("running_mean", torch.zeros(channels))
            self.register_buffer("running_var", torch.ones(channels))
        self.register_buffer("num_batches_tracked", torch.tensor(preset_count, dtype=torch.long))

    def forward(self, x):
        dims = [0] + list(range(2, x.dim()))
        y = F.batch_norm(x, None, None, self.weight, self.bias, training=True, momentum=0.0,
                         eps=self.eps)
        mean = x.mean(dim=dims)
        var = x.var(dim=dims, correction=1)
        self.num_batches_tracked.add_(1)
        f = 1.0 / self.num_batches_tracked
        self.running_mean.mul_(1.0 - f).add_(f * mean)
        self.running_var.mul_(1.0 - f).add_(f * var)
        return y


class Model(nn.Module):
    def __init__(self, c2, c1, preset_count):
        super().__init__()
        self.bn2 = CumulativeBatchNorm(c2, affine=True, preset_count=preset_count)
        self.bn1 = CumulativeBatchNorm(c1, affine=False, preset_count=0)

    def forward(self, x1, x2, s):
        y1 = torch.relu(self.bn2(x1))
        y2 = self.bn2(x2) * 0.5 + 0.1
        y3 = torch.tanh(self.bn1(s))
        return (
            y1,
            y2,
            y3,
            self.bn2.running_mean.clone(),
            self.bn2.running_var.clone(),
            self.bn1.running_var.clone(),
            self.bn2.num_batches_tracked.clone(),
        )


def get_inputs():
    return [
        torch.randn(4, 7, 9, 11) * 2.0 + 0.5,
        torch.randn(2, 7, 13, 5) - 0.3,
        torch.randn(5, 6, 17) * 0.7 + 1.0,
    ]


def get_init_inputs():
    return [7, 6, 3]
