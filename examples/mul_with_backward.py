"""Elementwise multiply with a backward, as a PyTorch custom op.

One templated kernel serves float32, float16, bfloat16 and float64. The backward reuses the
op itself (d(a*b)/da = grad*b), so training runs the custom kernel in both directions and
torch.compile sees it as one op in the forward and the backward graph.

    PYTHONPATH=src python examples/mul_with_backward.py
"""

import torch
from torch.fx.experimental.proxy_tensor import make_fx

from kernelwright.kernel import cuda_op

SOURCE = r"""
template <typename scalar_t>
__global__ void mul_kernel(const scalar_t* a, const scalar_t* b, scalar_t* out, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * b[i];
}
"""


def mul_backward(grad, a, b):
    return mul(grad, b), mul(grad, a)


mul = cuda_op(SOURCE, "mul_kernel", backward=mul_backward)


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        return mul(a, b)


def check_graph():
    """What a training step traces to, on meta tensors: no GPU needed."""

    def train_step(a, b):
        return torch.autograd.grad(ModelNew()(a, b).sum(), (a, b))

    a = torch.empty(4, 8, device="meta", dtype=torch.bfloat16, requires_grad=True)
    graph = make_fx(train_step)(a, torch.empty_like(a, requires_grad=True))
    assert graph.code.count("kernelwright_user.mul") == 3, graph.code  # forward + two gradients
    print("graph: forward and backward both call", mul.op)


def check_cuda():
    for dtype, tol in ((torch.float32, 1e-6), (torch.float16, 1e-3), (torch.bfloat16, 1e-2)):
        a = torch.randn(1000, 37, device="cuda", dtype=dtype, requires_grad=True)
        b = torch.randn(1000, 37, device="cuda", dtype=dtype, requires_grad=True)
        out = torch.compile(ModelNew(), fullgraph=True)(a, b)
        grad = torch.randn_like(out)
        ga, gb = torch.autograd.grad(out, (a, b), grad)
        torch.testing.assert_close(out, a * b, rtol=tol, atol=tol)
        torch.testing.assert_close(ga, grad * b, rtol=tol, atol=tol)
        torch.testing.assert_close(gb, grad * a, rtol=tol, atol=tol)
    torch.library.opcheck(mul.op, (a.float(), b.float()))
    print("cuda: forward and backward match torch for float32, float16, bfloat16")


if __name__ == "__main__":
    print(mul)
    check_graph()
    if torch.cuda.is_available():
        check_cuda()
    else:
        print("no CUDA device: registration and the traced graph are checked; running the kernel needs a GPU")
