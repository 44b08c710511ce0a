"""Building a GEMM epilogue program's kernel in two parts (kw/cuda/epilogue_linked.cuh says why).

A program's *shape* (its variant, the column and row vectors it reads, what it does with its
rows) fixes the CUTLASS kernel; its code is one function of an element. Each shape is compiled
once, two nvcc runs side by side: the kernel into LTO-IR, the launch into a library. Each
program is compiled into LTO-IR on its own (under a second) and link-time optimised into its
shape's kernel by nvJitLink (a few seconds), giving the cubin the library launches. Everything
is cached on disk, by the text compiled and the headers it includes."""

import functools
import os
import shutil
import sys
import time

from torch.utils.cpp_extension import CUDA_HOME

from kernelwright._build import detached, sources
from kernelwright._build.cache import cache_dir, digest
from kernelwright._build.lock import build_lock
from kernelwright.kernel import nvrtc

ARCH = "90a"  # the Hopper GEMM's wgmma, TMA and setmaxnreg exist on sm_90a alone


def _log(message):
    print("kernelwright: " + message, file=sys.stderr, flush=True)


def nvcc():
    """The nvcc beside torch's CUDA, or on PATH; None where there is none."""
    found = os.path.join(CUDA_HOME, "bin", "nvcc") if CUDA_HOME else None
    return found if found and os.path.isfile(found) else shutil.which("nvcc")


def missing():
    """Why kernels cannot be built here, or None."""
    if nvcc() is None:
        return "nvcc not found: set CUDA_HOME"
    if sources.cutlass_include() is None:
        return "no CUTLASS headers: pip install nvidia-cutlass"
    if not nvrtc.available():
        return "no cuda-bindings to reach nvJitLink with: pip install cuda-bindings nvidia-nvjitlink"
    return _nvjitlink_missing()


@functools.lru_cache(maxsize=None)
def _nvjitlink_missing():
    """Why no nvJitLink for sm_90a can be opened here, or None: cuda-bindings loads the library
    at its first call, so having the bindings says nothing of having the library."""
    try:
        jit = nvrtc._bindings("nvjitlink")
        jit.destroy(jit.create(2, ["-arch=sm_" + ARCH, "-lto"]))
    except Exception as error:  # noqa: BLE001 - no libnvJitLink found, or one too old for sm_90a
        first = (str(error).splitlines() or [""])[0]
        return "no usable nvJitLink (%s: %s): pip install nvidia-nvjitlink" % (type(error).__name__, first)
    return None


@functools.lru_cache(maxsize=None)
def csrc():
    """kernelwright's C++ sources (its headers among them)."""
    found = sources.find_csrc()
    if found is None:
        raise RuntimeError("kernelwright's C++ sources are not installed beside the package")
    return found


def _flags():
    _, flags = sources.compile_flags(with_cuda=True)
    return ([f for f in flags if not f.startswith("-gencode")]
            + ["-I" + d for d in sources.include_dirs(csrc(), with_cuda=True)])


def commands(unit, out):
    """nvcc's command lines, {part: argv}, for a unit: "device" (a shape's kernel) and "program"
    into LTO-IR in a fatbin, "library" (a shape's launch) into a shared library linked to the CUDA
    runtime torch has loaded (one runtime in the process), exporting its entry points alone."""
    lto = ["-rdc=true", "-gencode=arch=compute_%s,code=lto_%s" % (ARCH, ARCH), "-fatbin"]
    return {
        "device": [nvcc()] + _flags() + ["-DKW_LINKED_DEVICE"] + lto + ["-o", out, unit],
        "program": [nvcc()] + _flags() + lto + ["-o", out, unit],
        "library": [nvcc()] + _flags() + ["-gencode=arch=compute_%s,code=sm_%s" % (ARCH, ARCH), "-cudart", "shared",
                                          "-Xcompiler", "-fPIC,-fvisibility=hidden", "-shared", "-o", out, unit],
    }


@functools.lru_cache(maxsize=None)
def _headers_hash():
    return sources.source_hash(csrc())


class BuildError(RuntimeError):
    """A part did not build; the message names its log."""


def _write_unit(where, text):
    """``where``/unit.cu holding ``text``, written whole: a build in another process may read it."""
    unit = os.path.join(where, "unit.cu")
    with open(unit + ".partial%d" % os.getpid(), "w") as f:
        f.write(text)
    os.replace(unit + ".partial%d" % os.getpid(), unit)
    return unit


def _jobs(unit, outputs, out_of):
    """detached's jobs for {part: output name}, each output written where ``out_of(output)`` says."""
    return [(part, output, commands(unit, out_of(output))[part]) for part, output in outputs.items()]


def shape(name, text):
    """(library, LTO-IR fatbin) of the shape whose unit is ``text`` (``name`` for messages),
    compiled unless cached. The compile runs in a process of its own (``detached``) that
    finishes and caches it even where this process stops waiting or ends. Raises BuildError."""
    argv = commands("unit.cu", "out")
    where = cache_dir("epilogues", digest(text, _headers_hash(), *argv["device"], *argv["library"]))
    library, device = os.path.join(where, "launch.so"), os.path.join(where, "kernel.fatbin")
    if os.path.isfile(library) and os.path.isfile(device):
        return library, device
    os.makedirs(where, exist_ok=True)
    _log("compiling the GEMM kernel for epilogue programs of shape %s (30-60 s, once per shape; "
         "cached in %s, and finished there even if this process stops waiting)" % (name, where))
    start = time.time()
    outputs = {"device": "kernel.fatbin", "library": "launch.so"}
    proc = detached.start(where, _jobs(_write_unit(where, text), outputs, lambda output: "{partial}"))
    proc.wait()
    missing = [part for part, output in outputs.items() if not os.path.isfile(os.path.join(where, output))]
    if missing:
        raise BuildError("did not compile (log: %s)" % os.path.join(where, missing[0] + ".log"))
    _log("compiled the GEMM kernel of shape %s in %.0f s" % (name, time.time() - start))
    return library, device


def link(device, text):
    """The cubin of program ``text`` linked into the shape kernel ``device``, built unless
    cached. Raises BuildError."""
    argv = commands("unit.cu", "out")["program"]
    where = cache_dir("epilogues", digest(text, device, _headers_hash(), *argv))
    cubin = os.path.join(where, "kernel.cubin")
    with build_lock(where, log=_log):
        if not os.path.isfile(cubin):
            jobs = _jobs(_write_unit(where, text), {"program": "program.fatbin"},
                         lambda output: detached.partial(where, output))
            failed = detached.run(where, jobs)
            if failed:
                raise BuildError("did not compile (log: %s)" % failed)
            image = _link_lto([device, os.path.join(where, "program.fatbin")], os.path.join(where, "link.log"))
            with open(cubin + ".partial", "wb") as f:
                f.write(image)
            os.replace(cubin + ".partial", cubin)
    return cubin


def _link_lto(fatbins, log):
    """The cubin nvJitLink makes of ``fatbins`` (LTO-IR), optimised across them as one unit."""
    why = _nvjitlink_missing()
    if why:
        raise BuildError("could not be linked: " + why)
    jit = nvrtc._bindings("nvjitlink")
    handle = jit.create(2, ["-arch=sm_" + ARCH, "-lto"])
    try:
        try:
            for path in fatbins:
                jit.add_file(handle, jit.InputType.FATBIN, path)
            jit.complete(handle)
        except jit.nvJitLinkError:
            with open(log, "w") as f:
                f.write(_text(jit.get_error_log_size(handle), lambda b: jit.get_error_log(handle, b)))
            raise BuildError("did not link (log: %s)" % log) from None
        return bytes(_buffer(jit.get_linked_cubin_size(handle), lambda b: jit.get_linked_cubin(handle, b)))
    finally:
        jit.destroy(handle)


def _buffer(size, fill):
    out = bytearray(size)
    fill(out)
    return out


def _text(size, fill):
    return bytes(_buffer(size, fill)).rstrip(b"\0").decode(errors="replace")
