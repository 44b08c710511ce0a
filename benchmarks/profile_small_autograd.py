"""Where the host time of a small forward+backward goes: kernelwright against eager.

For sigmoid, mul and elu on 16 x 16384 float32: the host-inclusive time per
torch.autograd.grad(op(x), x, g) call, then a torch.profiler CPU table of 100 such calls, for
kernelwright and for eager. The basis of benchmarks/NOTES.md change 14.

    python benchmarks/profile_small_autograd.py > benchmarks/results/profile_small_autograd_<device>_<date>.txt
"""

import time

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile

import kernelwright.ops as K

CASES = {
    "sigmoid": (K.sigmoid, torch.sigmoid, 1),
    "mul": (K.mul, torch.mul, 2),
    "elu": (lambda x: K.elu(x, 0.5), lambda x: F.elu(x, 0.5), 1),
}


def per_call_us(fn, calls=400, repeats=7):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t0) / calls * 1e6)
    return best


def main():
    print(torch.cuda.get_device_name(), "torch", torch.__version__, "CUDA", torch.version.cuda)
    for name, (ours, eager, n_in) in CASES.items():
        leaves = [torch.randn(16, 16384, device="cuda").requires_grad_() for _ in range(n_in)]
        g = torch.randn(16, 16384, device="cuda")
        for label, fn in (("kernelwright", ours), ("eager", eager)):
            call = lambda: torch.autograd.grad(fn(*leaves), leaves, g)  # noqa: E731
            print("%s %-12s fwd+bwd %.2f us" % (name, label, per_call_us(call)), flush=True)
            with profile(activities=[ProfilerActivity.CPU]) as prof:
                for _ in range(100):
                    call()
                torch.cuda.synchronize()
            print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=14,
                                            max_name_column_width=60))


if __name__ == "__main__":
    main()
