"""Cold compile and warm load time of each example's kernels, each measured in a fresh process.

Cold: an empty cache directory, so NVRTC compiles. Warm: a new process over the filled cache,
so the cubin is read from disk and loaded. Nothing is warmed beforehand but torch's CUDA
context: the first kernel's time includes importing cuda-bindings (and, cold, loading NVRTC).
Then the example's op is called once, forward and backward (first_call_ms: what the process's
first use of the op costs beyond the load).

    PYTHONPATH=src python examples/compile_times.py --out times.json
"""

import argparse
import datetime
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = {"mul_with_backward": ["mul"], "square": ["square"], "elu": ["elu", "elu_grad"]}
# Each example's first op, called once forward and backward on fresh data after the loads.
FIRST_CALLS = {"mul_with_backward": lambda op, x: op(x, x), "square": lambda op, x: op(x),
               "elu": lambda op, x: op(x, 0.5)}


def _ms(start):
    return round((time.perf_counter() - start) * 1e3, 2)


def measure(example):
    """One example's timings in this process (run as a child of ``main``)."""
    import torch

    torch.empty(1, device="cuda")
    torch.cuda.synchronize()
    result = {}
    sys.path.insert(0, HERE)
    start = time.perf_counter()
    module = importlib.import_module(example)
    result["register_ms"] = _ms(start)
    result["load_ms"] = {}
    for name in EXAMPLES[example]:
        op = getattr(module, name)
        start = time.perf_counter()
        op.load(dtypes=[torch.float32])
        result["load_ms"][name] = _ms(start)
    x = torch.randn(4096, device="cuda", requires_grad=True)
    start = time.perf_counter()
    FIRST_CALLS[example](getattr(module, EXAMPLES[example][0]), x).sum().backward()
    torch.cuda.synchronize()
    result["first_call_ms"] = _ms(start)
    result["torch_dynamo_imported"] = "torch._dynamo" in sys.modules
    return result


def _child(example, cache):
    env = dict(os.environ, KERNELWRIGHT_CACHE_DIR=cache)
    out = subprocess.run(
        [sys.executable, __file__, "--child", example], env=env, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--child")
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child)))
        return

    import torch

    from kernelwright.kernel import nvrtc

    report = {
        "what": "cold compile (empty cache) and warm load (fresh process, filled cache) per kernel, float32",
        "date": datetime.date.today().isoformat(),
        "device": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
        "nvrtc": nvrtc.nvrtc_version(),
        "examples": {},
    }
    for example in EXAMPLES:
        with tempfile.TemporaryDirectory() as cache:
            cold = _child(example, cache)
            warm = [_child(example, cache) for _ in range(3)]
        report["examples"][example] = {"cold": cold, "warm": warm}
        worst_warm = max(max(w["load_ms"].values()) for w in warm)
        worst_first = max(r["first_call_ms"] for r in [cold] + warm)
        print(f"{example}: cold {cold['load_ms']} ms, warm (worst of 3) {worst_warm} ms, "
              f"first forward+backward (worst of 4) {worst_first} ms")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
