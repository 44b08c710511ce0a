"""ELU from a .cu file, with its backward as a second CUDA kernel.

The forward has a default argument (alpha=1.0) from an explicit schema; the backward gets the
forward's output through its keyword-only ``output`` parameter and returns one gradient, for
the only tensor argument.

    PYTHONPATH=src python examples/elu.py
"""

import os

import torch
import torch.nn.functional as F
from torch._subclasses.fake_tensor import FakeTensorMode

from kernelwright.kernel import cuda_op

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "elu.cu")

elu_grad = cuda_op(SOURCE, "elu_backward_kernel", name="elu_grad")


def elu_backward(grad, x, alpha, *, output):
    return elu_grad(grad, x, output, alpha)


elu = cuda_op(SOURCE, "elu_kernel", schema="(Tensor x, float alpha=1.0) -> Tensor", backward=elu_backward)


class ModelNew(torch.nn.Module):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return elu(x, self.alpha)


def check_fake():
    with FakeTensorMode():
        x = torch.empty(16, 1024, device="cuda")
        assert elu(x).shape == x.shape
        assert elu_grad(x, x, x, 0.5).shape == x.shape
    print("fake:", elu.schema, "|", elu_grad.schema)


def check_cuda():
    for alpha in (1.0, 0.3):
        x = torch.randn(16, 1024, device="cuda", requires_grad=True)
        y = torch.compile(ModelNew(alpha), fullgraph=True)(x)
        grad = torch.randn_like(y)
        (gx,) = torch.autograd.grad(y, x, grad)
        ref = F.elu(x, alpha)
        (ref_gx,) = torch.autograd.grad(ref, x, grad)
        torch.testing.assert_close(y, ref)
        torch.testing.assert_close(gx, ref_gx)
    torch.library.opcheck(elu.op, (x.detach().requires_grad_(), 0.7))
    print("cuda: forward and backward match torch.nn.functional.elu")


if __name__ == "__main__":
    check_fake()
    if torch.cuda.is_available():
        check_cuda()
    else:
        print("no CUDA device: registration and the fake path are checked; running the kernel needs a GPU")
