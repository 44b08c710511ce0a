"""How long passing one large GPU tensor to another process takes, four ways.

The harness's workers pass input sets and outputs through files (src/kernelwright/harness/
exchange.py). At KernelBench's largest sizes a set is 6 GiB, and the evaluation time is mostly
these transfers. This measures, for one float32 tensor on the GPU (a fresh process reads each):

- torch_save: what the exchange did first: copy to the host, torch.save into /dev/shm; the
  reader maps the file (torch.load(mmap=True)) and copies it to its GPU;
- exchange_save: the exchange's own save and load (kernelwright.harness.exchange), which stage
  large CUDA tensors through pinned memory and skip torch.save's CRC;
- shared_file: a file-backed shared tensor (torch.from_file) written by a device-to-host copy,
  read the same way: no serialisation;
- shared_file_pinned: the same with the pages registered (cudaHostRegister) for the copies;
- cuda_ipc: a CUDA IPC handle (torch.multiprocessing.reductions) in a small file; the reader
  opens it and clones the tensor into its own memory.

    python benchmarks/bench_exchange.py [--gib 6] [--out benchmarks/results]
"""

import argparse
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time

import torch

from common import environment, result_paths, write_json
from kernelwright.harness import exchange

READER = r"""
import pickle, sys, time, torch
mode, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
torch.empty(1, device="cuda"); torch.cuda.synchronize()
t0 = time.perf_counter()
if mode == "torch_save":
    g = torch.load(path, weights_only=True, mmap=True).cuda()
elif mode == "exchange_save":
    from kernelwright.harness import exchange
    g = exchange.load(path)
elif mode == "shared_file":
    g = torch.from_file(path, shared=True, size=n, dtype=torch.float32).cuda()
elif mode == "shared_file_pinned":
    h = torch.from_file(path, shared=True, size=n, dtype=torch.float32)
    rt = torch.cuda.cudart()
    assert int(rt.cudaHostRegister(h.data_ptr(), n * 4, 0)) == 0
    g = h.cuda()
    torch.cuda.synchronize()
    rt.cudaHostUnregister(h.data_ptr())
else:
    import torch.multiprocessing.reductions  # noqa: F401  (registers the rebuild functions)
    with open(path, "rb") as f:
        rebuild, args = pickle.load(f)
    g = rebuild(*args).clone()
torch.cuda.synchronize()
print(time.perf_counter() - t0, float(g[:4096].double().sum()))
"""


def _timed(fn):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    return time.perf_counter() - t0


def _read(mode, path, n, checksum):
    out = subprocess.run([sys.executable, "-c", READER, mode, path, str(n)], capture_output=True, text=True, check=True)
    seconds, got = out.stdout.split()
    assert float(got) == checksum, (mode, got, checksum)  # the reader saw the writer's data
    return float(seconds)


def _write_torch_save(g, path):
    host = g.cpu()
    torch.save(host, path)


def _write_shared(g, path, pinned):
    h = torch.from_file(path, shared=True, size=g.numel(), dtype=torch.float32)
    if pinned:
        rt = torch.cuda.cudart()
        assert int(rt.cudaHostRegister(h.data_ptr(), g.numel() * 4, 0)) == 0
    h.copy_(g)
    torch.cuda.synchronize()
    if pinned:
        rt.cudaHostUnregister(h.data_ptr())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gib", type=float, default=6.0)
    p.add_argument("--out", default="benchmarks/results")
    args = p.parse_args()
    n = int(args.gib * (1 << 30)) // 4
    g = torch.randn(n, device="cuda")
    checksum = float(g[:4096].double().sum())
    work = tempfile.mkdtemp(prefix="kw-bench-exchange-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    keep = []  # the IPC producer's tensor lives until the reader is done
    writers = {
        "torch_save": lambda path: _write_torch_save(g, path),
        "exchange_save": lambda path: exchange.save(g, os.path.basename(path), [work]),
        "shared_file": lambda path: _write_shared(g, path, pinned=False),
        "shared_file_pinned": lambda path: _write_shared(g, path, pinned=True),
    }

    def write_ipc(path):
        from torch.multiprocessing.reductions import reduce_tensor

        keep.append(g.clone())
        with open(path, "wb") as f:
            pickle.dump(reduce_tensor(keep[-1]), f)

    writers["cuda_ipc"] = write_ipc
    rows = {}
    try:
        for mode, write in writers.items():
            path = os.path.join(work, mode)
            w = _timed(lambda: write(path))
            r = _read(mode, path, n, checksum)
            rows[mode] = {"write_s": round(w, 4), "read_s": round(r, 4), "total_s": round(w + r, 4)}
            print("%-20s write %.3f s  read %.3f s" % (mode, w, r), flush=True)
            os.remove(path)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    env = environment()
    payload = {"what": __doc__.split("\n\n")[0], "bytes": n * 4, "environment": env, "paths": rows,
               "how": "python benchmarks/bench_exchange.py --gib %g" % args.gib}
    path = result_paths(args.out, "exchange", env)[0]
    write_json(path, payload)
    print("written:", path)


if __name__ == "__main__":
    main()
