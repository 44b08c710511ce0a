"""How fast the host is, process by process: the spread behind launch-bound speedups.

    python benchmarks/bench_host_speed.py none 3 11 > host_speed.txt

For each CPU pinning given ("none", or a comma-separated core list), starts six fresh
processes; each times a fixed Python loop five times and the launch latency of a one-element
CUDA add (median of 2000, CUDA events and a host clock up to a device synchronisation) and
prints one JSON line, with the core it ran on.
"""

import os
import subprocess
import sys

CHILD = r'''
import json, os, sys, time
pin = sys.argv[1]
if pin != "none":
    os.sched_setaffinity(0, {int(c) for c in pin.split(",")})
import torch

def cpu_now():
    with open("/proc/self/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[36])

def loop():
    t, s = time.perf_counter(), 0
    for i in range(3000000):
        s += i * i
    return (time.perf_counter() - t) * 1e3

x = torch.zeros(1, device="cuda")
torch.cuda.synchronize()
loops = [loop() for _ in range(5)]
start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
events, walls = [], []
for _ in range(2000):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    start.record(); x.add_(1); end.record()
    torch.cuda.synchronize()
    walls.append((time.perf_counter() - t0) * 1e3)
    events.append(start.elapsed_time(end))
events.sort(); walls.sort()
print(json.dumps(dict(pin=pin, cpu=cpu_now(), loop_ms=[round(v, 1) for v in loops],
                      event_us=round(events[1000] * 1e3, 2), wall_us=round(walls[1000] * 1e3, 2))))
'''


def main(pins):
    print("cores", os.cpu_count(), "affinity", sorted(os.sched_getaffinity(0)), flush=True)
    for pin in pins or ["none"]:
        for _ in range(6):
            r = subprocess.run([sys.executable, "-c", CHILD, pin], capture_output=True, text=True)
            lines = r.stdout.strip().splitlines()
            print(lines[-1] if lines else r.stderr[-500:], flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
