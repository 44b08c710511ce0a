"""The ops under DistributedDataParallel: one process per GPU, NCCL gradient all-reduce."""

import os
import subprocess
import sys

import pytest
import torch

pytestmark = [
    pytest.mark.cuda,
    pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs"),
]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_ddp_training_matches_torch_ops():
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2",
           os.path.join(ROOT, "scripts", "ddp_train.py")]
    env = dict(os.environ, NCCL_NVLS_ENABLE="0", TORCH_SYMM_MEM_DISABLE_MULTICAST="1")
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    print(run.stdout)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    assert "MATCH" in run.stdout
