"""One training step of an elementwise multiply: the product and both input gradients."""

import os

import torch
import torch.nn as nn

# KernelBench's level-1 size; small for CPU runs (`kernelwright run` sets this).
SMALL = os.environ.get("KERNELWRIGHT_PROBLEM_SIZE") == "small"
ROWS, COLS = (64, 4099) if SMALL else (4096, 393216)


class Model(nn.Module):
    def forward(self, a, b, grad_out):
        a = a.detach().requires_grad_()
        b = b.detach().requires_grad_()
        with torch.enable_grad():
            out = a * b
            grad_a, grad_b = torch.autograd.grad(out, (a, b), grad_out)
        return out.detach(), grad_a, grad_b


def get_inputs():
    return [torch.randn(ROWS, COLS), torch.randn(ROWS, COLS), torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
