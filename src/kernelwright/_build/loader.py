"""Loads the compiled ops: the ahead-of-time module when it is current, else a JIT build.

A JIT build goes to a cache directory keyed by the sources, flags and the torch, CUDA and
Python versions, so a rebuilt or upgraded environment never loads a mismatched binary, and a
second process reuses the first one's build.
"""

import importlib.util
import json
import os
import sys
import threading
import time

import torch

from kernelwright._build import sources
from kernelwright._build.cache import cache_dir, digest
from kernelwright._build.lock import build_lock

_state = {"loaded": None}
_JIT_NAME = "kernelwright_ops"


def _log(message):
    print(message, file=sys.stderr, flush=True)


def _aot_status():
    """('current', build info) when the installed module matches this environment, else (reason, None)."""
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    info_path = os.path.join(package_dir, sources.INFO_FILE)
    if not os.path.isfile(info_path):
        return "no ahead-of-time build is installed", None
    with open(info_path) as f:
        info = json.load(f)
    if info.get("torch") != torch.__version__:
        return "it was built against torch %s, not %s" % (info.get("torch"), torch.__version__), None
    csrc = sources.find_csrc()
    if csrc is not None and sources.source_hash(csrc) != info.get("source_hash"):
        return "csrc/ changed since it was built", None
    if torch.cuda.is_available() and not info.get("cuda") and sources.cuda_toolchain_available():
        return "it was built without CUDA, and a CUDA toolchain is now present", None
    return "current", info


def jit_build_dir(with_cuda):
    csrc = sources.find_csrc()
    cxx, nvcc = sources.compile_flags(with_cuda)
    key = digest(
        sources.source_hash(csrc),
        " ".join(cxx + (nvcc if with_cuda else [])),
        os.environ.get("TORCH_CUDA_ARCH_LIST", ""),
        str(sources.cutlass_include()),
        torch.__version__,
        str(torch.version.cuda),
        sys.version,
    )
    return cache_dir("extension", key)


def _library_path(build_dir):
    return os.path.join(build_dir, _JIT_NAME + ".so")


def _progress(build_dir, total, stop):
    start = time.time()
    while not stop.wait(10.0):
        done = sum(1 for n in os.listdir(build_dir) if n.endswith(".o"))
        _log("kernelwright:   ... %.0f s, %d/%d objects compiled" % (time.time() - start, done, total))


def _import_library(path):
    spec = importlib.util.spec_from_file_location(_JIT_NAME, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def jit_build(force=False):
    """Compiles the extension into the cache (if needed) and imports it; returns the module."""
    from torch.utils import cpp_extension

    csrc = sources.find_csrc()
    if csrc is None:
        raise RuntimeError(
            "kernelwright: the compiled ops are missing and no C++/CUDA sources were found to "
            "build them; reinstall kernelwright (see README.md)"
        )
    with_cuda = sources.cuda_toolchain_available()
    build_dir = jit_build_dir(with_cuda)
    with build_lock(build_dir, log=_log):
        library = _library_path(build_dir)
        if force or not os.path.isfile(library):
            units = sources.source_list(csrc, with_cuda)
            _log(
                "kernelwright: compiling %d C++%s sources into %s (once per source or version "
                "change; 20-30 s on a 16-core machine)"
                % (len(units), "/CUDA" if with_cuda else "", build_dir)
            )
            cxx, nvcc = sources.compile_flags(with_cuda)
            stop = threading.Event()
            ticker = threading.Thread(target=_progress, args=(build_dir, len(units), stop), daemon=True)
            start = time.time()
            ticker.start()
            try:
                module = cpp_extension.load(
                    name=_JIT_NAME,
                    sources=units,
                    extra_cflags=cxx,
                    extra_cuda_cflags=nvcc,
                    extra_include_paths=sources.include_dirs(csrc, with_cuda),
                    build_directory=build_dir,
                    with_cuda=with_cuda,
                    is_python_module=True,
                    verbose=False,
                )
            finally:
                stop.set()
            _log("kernelwright: extension built in %.1f s" % (time.time() - start))
        else:
            module = _import_library(library)
    return module


def load_extension():
    """Registers the kernelwright ops with torch, once per process; returns the extension
    module, whose functions are the ops' fast path for calls without autograd."""
    if _state["loaded"] is not None:
        return _state["loaded"]
    if os.environ.get("KERNELWRIGHT_FORCE_JIT") == "1":
        status = "KERNELWRIGHT_FORCE_JIT=1"
    else:
        status, _ = _aot_status()
    if status == "current":
        try:
            from kernelwright import _C

            _state["loaded"] = _C
            return _C
        except (ImportError, OSError) as exc:
            status = "it failed to load (%s)" % exc
    _log("kernelwright: building the ops just in time: %s" % status)
    _state["loaded"] = jit_build()
    return _state["loaded"]
