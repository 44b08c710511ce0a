"""How much the host time measured behind the timing gate moves, within and between processes.

    python benchmarks/bench_gated_host.py [PROCESSES] > gated_host.txt

Starts PROCESSES (default 6) fresh processes; each times three calls with kernelwright.timing
behind the gate, 200 calls each, with Python's garbage collector on and then off, and from an
idle GPU, and prints one JSON line per call and mode: the 10th, 50th and 90th percentiles of
the host time and the device time, and the median from an idle GPU.  The headline speedup
of host-bound calls is built from that host time, so its spread between processes bounds
how well such speedups can reproduce.
"""

import json
import subprocess
import sys

CHILD = r'''
import gc, json, sys
import torch
from kernelwright import timing

dev = torch.device("cuda")
gate = timing.Gate(dev)
x = torch.randn(256, 32749, device=dev)
y = torch.randn(4096, 4096, device=dev)
z = torch.randn(4096, 4096, device=dev)
tiny = torch.zeros(1, device=dev)
calls = {
    "add_1_element": lambda: tiny.add_(1),
    "log_softmax_256x32749": lambda: torch.log_softmax(x, dim=1),
    "swish_add_3_ops": lambda: y * torch.sigmoid(y) + z,
}


def pct(v, q):
    v = sorted(v)
    return round(v[min(len(v) - 1, int(q * len(v)))] * 1e3, 2)


for name, fn in calls.items():
    for mode in ("gated", "gated_gc_off", "idle"):
        if mode == "gated_gc_off":
            gc.disable()
        kw = dict(gate=gate, gate_timeout_ms=20.0) if mode != "idle" else {}
        r = timing.time_fn(fn, None, dev, min_reps=200, max_reps=200, budget_s=30, target_rse=0, **kw)
        gc.enable()
        row = dict(proc=int(sys.argv[1]), call=name, mode=mode, device_p50_us=pct(r.samples_ms, 0.5))
        if r.host_samples_ms:
            row.update(host_p10_us=pct(r.host_samples_ms, 0.1), host_p50_us=pct(r.host_samples_ms, 0.5),
                       host_p90_us=pct(r.host_samples_ms, 0.9), gate_timeouts=r.gate_timeouts)
        print(json.dumps(row), flush=True)
'''


def main(processes=6):
    for k in range(processes):
        r = subprocess.run([sys.executable, "-c", CHILD, str(k)], capture_output=True, text=True)
        print(r.stdout.strip() if r.returncode == 0 else r.stderr[-800:], flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
