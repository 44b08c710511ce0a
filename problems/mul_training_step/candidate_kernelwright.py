import torch
import torch.nn as nn

import kernelwright.ops as K


class ModelNew(nn.Module):
    def forward(self, a, b, grad_out):
        a = a.detach().requires_grad_()
        b = b.detach().requires_grad_()
        with torch.enable_grad():
            out = K.mul(a, b)
            grad_a, grad_b = torch.autograd.grad(out, (a, b), grad_out)
        return out.detach(), grad_a, grad_b
