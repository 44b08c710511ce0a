"""Host time of K.matmul where it hands the product to cuBLAS (matmul_large_k at 'high').

Two views of the same question, torch.matmul against K.matmul and against the way through
linear (ext.linear(a, b.t()), about K.matmul's path before it called at::matmul directly; the
transpose is taken in Python here):
  - host time per call: 2000 back-to-back calls on 64x64 operands, best of 7;
  - per call from an idle GPU (CUDA events, L2 flushed), 256 x 131072 x 256 float32, where the
    host's work before the launch adds to the time, as in the harness.

    python benchmarks/bench_matmul_host.py > benchmarks/results/matmul_host_path_<device>_<date>.txt
"""

import time

import torch

import kernelwright.ops as K
from kernelwright.ops._common import ext
from kernelwright.timing import time_fn


def host_us(fn, calls=2000, repeats=7):
    for _ in range(300):
        fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls * 1e6)
        torch.cuda.synchronize()
    return best


def main():
    torch.set_float32_matmul_precision("high")
    print(torch.cuda.get_device_name(), "torch", torch.__version__, "CUDA", torch.version.cuda)
    ways = {"torch.matmul": lambda x, y: torch.matmul(x, y), "K.matmul": lambda x, y: K.matmul(x, y),
            "ext.linear(a, b.t())": lambda x, y: ext.linear(x, y.t(), None, "none")}
    a, b = torch.randn(64, 64, device="cuda"), torch.randn(64, 64, device="cuda")
    for rnd in range(2):
        for name, fn in ways.items():
            print("round %d host per call %-22s %.2f us" % (rnd, name, host_us(lambda: fn(a, b))), flush=True)
    sets = [(torch.randn(256, 131072, device="cuda"), torch.randn(131072, 256, device="cuda")) for _ in range(2)]
    with torch.no_grad():
        for rnd in range(3):
            for name, fn in ways.items():
                r = time_fn(fn, lambda i: sets[i % 2], "cuda", budget_s=0.5, max_reps=300)
                print("round %d idle-start %-22s median %.4f ms" % (rnd, name, r.median_ms), flush=True)


if __name__ == "__main__":
    main()
