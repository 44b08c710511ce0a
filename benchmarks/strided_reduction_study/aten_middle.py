"""ATen's reductions over the middle dim of [128, 4096, 4095] (level-1 47-53), timed as the
harness times (CUDA events, L2 flushed, median): the baseline for middle_sum.cu."""

import torch
from kernelwright.timing import time_fn

x = torch.randn(128, 4096, 4095, device="cuda")
for name, fn in [("sum", lambda: x.sum(1)), ("mean", lambda: x.mean(1)), ("amax", lambda: x.amax(1)),
                 ("argmax", lambda: x.argmax(1))]:
    t = time_fn(fn, device="cuda", budget_s=1.0).median_ms
    print("ATen %-7s %8.4f ms  read %6.0f GB/s" % (name, t, x.numel() * 4 / t / 1e6))
