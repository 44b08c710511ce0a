"""A quick end-to-end check of every op on the GPU against torch, for build bring-up."""

import torch

import kernelwright.ops as K

dev = "cuda"
for dtype in (torch.float32, torch.float16, torch.bfloat16, torch.float64):
    x = torch.randn(1000, 517, device=dev, dtype=dtype)
    b = torch.randn(517, device=dev, dtype=dtype)
    checks = {
        "elu": (K.elu(x, 0.7), torch.nn.functional.elu(x, 0.7)),
        "sigmoid": (K.sigmoid(x), torch.sigmoid(x)),
        "square": (K.square(x), torch.square(x)),
        "mul": (K.mul(x, b), x * b),
        "mul_t": (K.mul(x.t(), x.t()), x.t() * x.t()),
        "add": (K.add(x, b, alpha=0.5), torch.add(x, b, alpha=0.5)),
        "lse1": (K.logsumexp(x, 1), torch.logsumexp(x, 1)),
        "lse0": (K.logsumexp(x, 0), torch.logsumexp(x, 0)),
        "lse_long": (K.logsumexp(x.reshape(1, -1), 1), torch.logsumexp(x.reshape(1, -1), 1)),
    }
    for name, (got, want) in checks.items():
        err = (got.double() - want.double()).abs().max().item()
        print("%-10s %-15s max|diff| %.3g" % (name, dtype, err))
torch.cuda.synchronize()
print("smoke ok")
