"""compile_ahead: a second process leaves torch.compile's reference in inductor's caches, and
the wait for it is bounded."""

import os
import subprocess
import sys
import textwrap

import pytest

from kernelwright.harness import compile_ahead

PROBLEM = textwrap.dedent("""
    import torch

    class Model(torch.nn.Module):
        def __init__(self, n):
            super().__init__()
            self.linear = torch.nn.Linear(n, n)

        def forward(self, x):
            return torch.nn.functional.gelu(self.linear(x)) * 1.5

    def get_inputs():
        return [torch.randn(%s, 37)]

    def get_init_inputs():
        return [37]
""")


def _problem(tmp_path, rows):
    path = tmp_path / "problem.py"
    path.write_text(PROBLEM % rows)
    return str(path)


def _graphs(cache):
    found = os.path.join(cache, "fxgraph")
    return sum(len(files) for _, _, files in os.walk(found)) if os.path.isdir(found) else 0


@pytest.fixture
def inductor_cache(tmp_path, monkeypatch):
    cache = str(tmp_path / "inductor")
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", cache)
    return cache


def test_the_compiled_graph_is_left_in_the_cache(tmp_path, inductor_cache):
    process = compile_ahead.start(_problem(tmp_path, 5), "cpu", "highest")
    compile_ahead.finish(process, 600)
    assert process.returncode == 0
    assert _graphs(inductor_cache) > 0


def test_large_inputs_are_left_to_the_worker(tmp_path, inductor_cache, monkeypatch):
    monkeypatch.setattr(compile_ahead, "_MAX_INPUT_BYTES", 100)
    problem = _problem(tmp_path, 5)  # 5 x 37 float32: 740 bytes
    # In this process, so that the patched limit holds; it returns before compiling.
    compile_ahead.compile_reference(problem, "cpu")
    assert _graphs(inductor_cache) == 0


def test_a_process_still_running_is_stopped_at_the_timeout():
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    compile_ahead.finish(process, 0.2)
    assert process.returncode == -9  # killed, not left running


def test_no_process_is_no_wait():
    assert compile_ahead.finish(None, 10) == 0.0
