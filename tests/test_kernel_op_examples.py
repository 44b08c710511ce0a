"""The examples under examples/ run as scripts: on CPU their registration and fake path, on a GPU all of it."""

import os
import subprocess
import sys

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("example", ["mul_with_backward.py", "square.py", "elu.py"])
def test_example_runs(example, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"), KERNELWRIGHT_CACHE_DIR=str(tmp_path))
    done = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", example)], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    if torch.cuda.is_available():
        assert "cuda: forward and backward match" in done.stdout
    else:
        assert "no CUDA device" in done.stdout
