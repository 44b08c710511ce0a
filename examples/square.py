"""y = x * x as a PyTorch custom op, with a backward written in Python.

The schema, the input checks and the fake kernel all come from the kernel's signature:
``const scalar_t* x`` is the input, ``scalar_t* y`` the output, ``n`` the element count.

    PYTHONPATH=src python examples/square.py
"""

import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from kernelwright.kernel import KernelInputError, cuda_op

SOURCE = r"""
template <typename scalar_t>
__global__ void square_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        y[i] = x[i] * x[i];
}
"""

square = cuda_op(SOURCE, "square_kernel", backward=lambda grad, x: 2 * x * grad)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return square(x)


def check_fake():
    with FakeTensorMode():
        x = torch.empty(3, 5, device="cuda", dtype=torch.float16)
        y = square(x)
        assert y.shape == x.shape and y.dtype == x.dtype
        try:
            square(torch.empty(4, device="cuda", dtype=torch.int32))
        except KernelInputError as error:
            print("rejected before launch:", error)
    print("fake:", square.schema)


def check_cuda():
    x = torch.randn(4096, 513, device="cuda", requires_grad=True)
    y = torch.compile(ModelNew(), fullgraph=True)(x)
    (grad,) = torch.autograd.grad(y.sum(), x)
    torch.testing.assert_close(y, x * x)
    torch.testing.assert_close(grad, 2 * x)
    strided = torch.randn(64, 64, device="cuda").t()  # non-contiguous: made contiguous before launch
    torch.testing.assert_close(square(strided), strided * strided)
    half = x.detach().half()
    torch.testing.assert_close(square(half), half * half)
    torch.library.opcheck(square.op, (x.detach().requires_grad_(),))
    print("cuda: forward and backward match torch")


if __name__ == "__main__":
    check_fake()
    if torch.cuda.is_available():
        check_cuda()
    else:
        print("no CUDA device: registration and the fake path are checked; running the kernel needs a GPU")
