"""The build machinery: stale-lock recovery, cache keys, stale-build detection, and a real JIT
build of the extension from the sources (CPU-only here, with CUDA where a toolchain exists)."""

import json
import multiprocessing
import os
import subprocess
import sys
import time

import pytest

from kernelwright._build import detached, loader, sources
from kernelwright._build.lock import OWN_LOCK_NAME, TORCH_LOCK_NAME, build_lock


def test_stale_torch_lock_is_removed(tmp_path):
    (tmp_path / TORCH_LOCK_NAME).write_text("")  # what a killed torch build leaves behind
    messages = []
    with build_lock(str(tmp_path), log=messages.append):
        assert not (tmp_path / TORCH_LOCK_NAME).exists()
    assert any("interrupted build" in m for m in messages)


def _hold_lock(directory, seconds, ready):
    with build_lock(directory, log=lambda m: None):
        ready.set()
        time.sleep(seconds)


def test_lock_waits_for_a_live_builder_and_not_for_a_dead_one(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    holder = ctx.Process(target=_hold_lock, args=(str(tmp_path), 2.0, ready))
    holder.start()
    assert ready.wait(60)
    messages = []
    with build_lock(str(tmp_path), log=messages.append):
        pass
    holder.join()
    # The lock logs "waiting" only when taking it at once failed, and "acquired" once it is held.
    assert any("waiting" in m for m in messages) and any("acquired" in m for m in messages)

    # A holder killed mid-build releases its lock with its death: taken at once, no wait.
    ready = ctx.Event()
    holder = ctx.Process(target=_hold_lock, args=(str(tmp_path), 600.0, ready))
    holder.start()
    assert ready.wait(60)
    holder.kill()
    holder.join()
    messages = []
    with build_lock(str(tmp_path), log=messages.append):
        pass
    assert messages == []
    assert (tmp_path / OWN_LOCK_NAME).exists()


def _writer(seconds, text):
    """A command that writes ``text`` to its partial output after ``seconds``, as a compiler would."""
    return [sys.executable, "-c", "import sys, time; time.sleep(%r); open(sys.argv[1], 'w').write(%r)" % (seconds, text),
            "{partial}"]


def test_a_detached_build_finishes_after_the_process_that_started_it_ends(tmp_path):
    """The starter exits at once without waiting; the build goes on, and each output appears in
    place whole (no partial file left) once its command is done."""
    jobs = [("device", "kernel.fatbin", _writer(1.0, "kernel")), ("library", "launch.so", _writer(0.5, "launch"))]
    starter = "from kernelwright._build import detached; detached.start(%r, %r)" % (str(tmp_path), jobs)
    subprocess.run([sys.executable, "-c", starter], check=True, timeout=120)
    assert not (tmp_path / "kernel.fatbin").exists()  # the starter did not wait for it
    deadline = time.time() + 120
    while not ((tmp_path / "kernel.fatbin").exists() and (tmp_path / "launch.so").exists()) and time.time() < deadline:
        time.sleep(0.1)
    assert (tmp_path / "kernel.fatbin").read_text() == "kernel" and (tmp_path / "launch.so").read_text() == "launch"
    assert not [name for name in os.listdir(tmp_path) if ".partial" in name]


def test_a_detached_build_says_which_part_failed_and_skips_what_is_built(tmp_path):
    (tmp_path / "launch.so").write_text("built before")
    failing = [sys.executable, "-c", "import sys; print('error: no such template'); sys.exit(2)", "{partial}"]
    jobs = [("device", "kernel.fatbin", failing), ("library", "launch.so", _writer(0.0, "again"))]
    assert detached.start(str(tmp_path), jobs).wait(timeout=120) == 1
    assert "error: no such template" in (tmp_path / "device.log").read_text()
    assert not (tmp_path / "kernel.fatbin").exists()
    assert (tmp_path / "launch.so").read_text() == "built before" and not (tmp_path / "library.log").exists()


def test_cache_key_follows_sources_flags_and_arch(monkeypatch, tmp_path):
    monkeypatch.setenv("KERNELWRIGHT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TORCH_CUDA_ARCH_LIST", raising=False)
    base = loader.jit_build_dir(with_cuda=False)
    assert loader.jit_build_dir(with_cuda=False) == base
    assert loader.jit_build_dir(with_cuda=True) != base
    monkeypatch.setenv("TORCH_CUDA_ARCH_LIST", "8.0")
    assert loader.jit_build_dir(with_cuda=False) != base
    assert base.startswith(str(tmp_path))


def test_default_arch_is_hopper_with_ptx_unless_overridden(monkeypatch):
    monkeypatch.delenv("TORCH_CUDA_ARCH_LIST", raising=False)
    _, nvcc = sources.compile_flags(with_cuda=True)
    assert "-gencode=arch=compute_90a,code=sm_90a" in nvcc
    assert "-gencode=arch=compute_90,code=compute_90" in nvcc
    monkeypatch.setenv("TORCH_CUDA_ARCH_LIST", "8.0;9.0")
    _, nvcc = sources.compile_flags(with_cuda=True)
    assert not any("gencode" in f for f in nvcc)  # left to torch, which reads the variable


def test_cuda_sources_only_in_cuda_builds():
    csrc = sources.find_csrc()
    cpu = sources.source_list(csrc, with_cuda=False)
    cuda = sources.source_list(csrc, with_cuda=True)
    assert not any(p.endswith(".cu") for p in cpu)
    assert any(p.endswith(".cu") for p in cuda) and set(cpu) < set(cuda)


def test_cu_files_include_no_torch_headers():
    # Keeps nvcc away from ATen and pybind11: the full build stays within two minutes.
    csrc = sources.find_csrc()
    for path in sources.source_list(csrc, with_cuda=True):
        if path.endswith(".cu"):
            with open(path) as f:
                text = f.read()
            assert "torch/" not in text and "ATen/" not in text and "pybind11" not in text, path


def test_stale_aot_build_is_detected(monkeypatch, tmp_path):
    import kernelwright

    info_path = os.path.join(os.path.dirname(kernelwright.__file__), sources.INFO_FILE)
    if not os.path.isfile(info_path):
        pytest.skip("no ahead-of-time build installed")
    with open(info_path) as f:
        info = json.load(f)
    fake_pkg = tmp_path / "kernelwright"
    (fake_pkg / "_build").mkdir(parents=True)
    monkeypatch.setattr(loader, "__file__", str(fake_pkg / "_build" / "loader.py"))
    for change, reason in (
        ({"source_hash": "0" * 20}, "csrc/ changed"),
        ({"torch": "0.0.1"}, "built against torch 0.0.1"),
    ):
        (fake_pkg / sources.INFO_FILE).write_text(json.dumps(dict(info, **change)))
        status, _ = loader._aot_status()
        assert reason in status
    (fake_pkg / sources.INFO_FILE).unlink()
    assert loader._aot_status()[0] == "no ahead-of-time build is installed"


@pytest.mark.slow
def test_jit_build_from_sources(tmp_path):
    """Forces the JIT path in a fresh process with an empty cache: builds, loads, computes,
    and a second process reuses the build without compiling."""
    env = dict(os.environ, KERNELWRIGHT_CACHE_DIR=str(tmp_path), KERNELWRIGHT_FORCE_JIT="1")
    code = (
        "import torch, kernelwright.ops as K\n"
        "x = torch.randn(1000, 37, dtype=torch.float64)\n"
        "assert torch.allclose(K.logsumexp(x, 1), torch.logsumexp(x, 1))\n"
        "print('ok')\n"
    )
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=1200)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "compiling" in first.stderr and "extension built in" in first.stderr
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr[-3000:]
    assert "compiling" not in second.stderr


def test_translation_units_have_unique_object_names():
    units = sources.source_list(sources.find_csrc(), with_cuda=True)
    # torch names objects <stem>.o, and <stem>.cuda.o for .cu files.
    names = [os.path.splitext(os.path.basename(u))[0] + (".cuda.o" if u.endswith(".cu") else ".o") for u in units]
    assert len(names) == len(set(names)), sorted(names)
