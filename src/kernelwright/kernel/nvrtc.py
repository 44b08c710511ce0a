"""Runtime compilation with NVRTC, a cubin cache on disk, and launches through the driver API.

NVRTC turns a kernel-only source into a cubin in well under a second, where a
torch.utils.cpp_extension build takes most of a minute. Cubins are cached under
``kernelwright._build.cache`` keyed by everything that changes the binary, so later calls and
later processes only read a file and hand it to ``cuModuleLoadData``.
"""

import glob
import importlib.util
import json
import os
import re
import threading

import torch

from .. import __version__
from .._build import cache
from . import direct
from .errors import KernelCompileError, KernelLaunchError, LaunchConfigError
from .launch import Limits

# NVRTC has no <cstdint>; kernels still expect the fixed-width names.
_STDINT = (
    "typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long long int64_t;\n"
    "typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;\n"
    "typedef unsigned long long uint64_t;\n"
)
_USES_HALF = re.compile(r"\b(__half2?|half2?)\b")
_USES_BF16 = re.compile(r"\b(__nv_bfloat162?|nv_bfloat162?)\b")

_lock = threading.Lock()
_binaries = {}
_primary_contexts = {}
_device_limits = {}
_nvrtc_version = []
_toolchain = []


def available():
    """Whether cuda-bindings is installed (without importing it)."""
    try:
        return importlib.util.find_spec("cuda.bindings") is not None
    except (ImportError, ValueError):
        return False


def _bindings(module):
    """cuda.bindings.<module>, imported on first use: a cache hit needs the driver only, and
    importing the NVRTC bindings as well cost ~50 ms per process (H200 machine)."""
    try:
        return importlib.import_module("cuda.bindings." + module)
    except ImportError as error:
        raise ImportError(
            "compiling kernels at run time needs NVIDIA's cuda-bindings (and an NVRTC library): "
            "pip install cuda-bindings nvidia-cuda-nvrtc (pick the major version of your CUDA driver's toolkit)"
        ) from error


def _driver():
    return _bindings("driver")


def _nvrtc():
    return _bindings("nvrtc")


def _check_driver(result, what):
    driver = _driver()
    err = result[0]
    if err != driver.CUresult.CUDA_SUCCESS:
        _, name = driver.cuGetErrorName(err)
        raise KernelLaunchError(f"{what} failed: {name.decode() if name else err}")
    return result[1] if len(result) == 2 else result[1:]


def _check_nvrtc(result, what):
    nvrtc = _nvrtc()
    err = result[0]
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise KernelCompileError(f"NVRTC {what} failed: {err}")
    return result[1] if len(result) == 2 else None


def _wheel_nvrtc_libraries():
    """libnvrtc files shipped by NVIDIA's wheels (nvidia/cu13/lib, nvidia/cuda_nvrtc/lib, ...)."""
    try:
        import nvidia
    except ImportError:
        return []
    found = []
    for root in nvidia.__path__:
        found += glob.glob(os.path.join(root, "*", "lib", "libnvrtc.so*"))
        found += glob.glob(os.path.join(root, "*", "bin", "nvrtc64_*.dll"))
    return sorted(found)


def toolchain_id():
    """Names the NVRTC that would compile, for cache keys, without loading it where a wheel
    provides it: a cache hit should not pay for loading the compiler. Files are named by path,
    size and modification time; importlib.metadata is avoided (it scans every installed
    distribution, tens of milliseconds in a large environment)."""
    if not _toolchain:
        import cuda.bindings

        parts = ["cuda-bindings=" + str(getattr(cuda.bindings, "__version__", "?"))]
        libraries = _wheel_nvrtc_libraries()
        for lib in libraries:
            st = os.stat(lib)
            parts.append("%s:%d:%d" % (lib, st.st_size, int(st.st_mtime)))
        if not libraries:
            parts.append("nvrtc=" + nvrtc_version())  # a toolkit's NVRTC: ask it
        _toolchain.append(";".join(parts))
    return _toolchain[0]


def nvrtc_version():
    if not _nvrtc_version:
        nvrtc = _nvrtc()
        err, major, minor = nvrtc.nvrtcVersion()
        _check_nvrtc((err,), "nvrtcVersion")
        _nvrtc_version.append(f"{major}.{minor}")
    return _nvrtc_version[0]


def _include_dirs():
    """Where cuda_fp16.h and friends live: pip's CUDA headers, $CUDA_HOME, or /usr/local/cuda."""
    candidates = []
    try:
        from cuda.pathfinder import find_nvidia_header_directory

        candidates.append(find_nvidia_header_directory("cudart"))
    except Exception:  # an older cuda-bindings without pathfinder, or no headers it knows of
        pass
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            candidates.append(os.path.join(os.environ[var], "include"))
    candidates.append("/usr/local/cuda/include")
    for path in candidates:
        if path and os.path.isfile(os.path.join(path, "cuda_fp16.h")):
            dirs = [path]
            if os.path.isdir(os.path.join(path, "cccl")):
                dirs.append(os.path.join(path, "cccl"))
            return dirs
    return []


def prelude(source, filename, dtype):
    """What goes in front of the user's source; the #line keeps their line numbers in messages."""
    parts = [_STDINT]
    if dtype == torch.float16 or _USES_HALF.search(source):
        parts.append("#include <cuda_fp16.h>\n")
    if dtype == torch.bfloat16 or _USES_BF16.search(source):
        parts.append("#include <cuda_bf16.h>\n")
    parts.append(f'#line 1 "{filename}"\n')
    return "".join(parts)


def _error_line(log, filename):
    match = re.search(re.escape(filename) + r"\((\d+)\): (?:catastrophic )?error", log)
    return int(match.group(1)) if match else None


def _compile(text, filename, name_expression, options, kernel):
    nvrtc = _nvrtc()
    prog = _check_nvrtc(nvrtc.nvrtcCreateProgram(text.encode(), filename.encode(), 0, [], []), "nvrtcCreateProgram")
    try:
        _check_nvrtc(nvrtc.nvrtcAddNameExpression(prog, name_expression.encode()), "nvrtcAddNameExpression")
        flags = [o.encode() for o in options] + [f"-I{d}".encode() for d in _include_dirs()]
        (status,) = nvrtc.nvrtcCompileProgram(prog, len(flags), flags)
        size = _check_nvrtc(nvrtc.nvrtcGetProgramLogSize(prog), "nvrtcGetProgramLogSize")
        # NVRTC writes into the buffers it is given: they must be mutable. `b" " * 1` is
        # CPython's shared one-byte object, and an empty log's NUL written into it made every
        # byte 0x20 that Python later read one at a time a 0 (unpickled ints 32 came out 0).
        log = bytearray(size)
        nvrtc.nvrtcGetProgramLog(prog, log)
        log = bytes(log).rstrip(b"\x00 ").decode(errors="replace")
        if status != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            line = _error_line(log, filename)
            where = f"{filename}, line {line}" if line else filename
            raise KernelCompileError(f"NVRTC could not compile kernel {kernel!r} ({where}):\n{log}", log, filename, line)
        virtual = any(o.startswith(("--gpu-architecture=compute_", "-arch=compute_")) for o in options)
        if virtual:
            size = _check_nvrtc(nvrtc.nvrtcGetPTXSize(prog), "nvrtcGetPTXSize")
            binary = bytearray(size)
            _check_nvrtc(nvrtc.nvrtcGetPTX(prog, binary), "nvrtcGetPTX")
        else:
            size = _check_nvrtc(nvrtc.nvrtcGetCUBINSize(prog), "nvrtcGetCUBINSize")
            binary = bytearray(size)
            _check_nvrtc(nvrtc.nvrtcGetCUBIN(prog, binary), "nvrtcGetCUBIN")
        lowered = _check_nvrtc(nvrtc.nvrtcGetLoweredName(prog, name_expression.encode()), "nvrtcGetLoweredName")
        return bytes(binary), {"lowered": lowered.decode(), "format": "ptx" if virtual else "cubin", "log": log}
    finally:
        nvrtc.nvrtcDestroyProgram(prog)


def _target(device_index, arch):
    """The -arch flag: the device's own sm_XY, or PTX for the newest one NVRTC knows if it is older than the device."""
    if arch:
        return arch
    major, minor = torch.cuda.get_device_capability(device_index)
    return f"sm_{major}{minor}"


def _resolve_target(target):
    nvrtc = _nvrtc()
    match = re.fullmatch(r"sm_(\d+)[af]?", target)
    if not match:
        return target
    supported = _check_nvrtc(nvrtc.nvrtcGetSupportedArchs(), "nvrtcGetSupportedArchs")
    wanted = int(match.group(1))
    if supported and wanted > max(supported):
        return f"compute_{max(supported)}"
    return target


def _write_atomically(path, data):
    tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def binary(source, filename, sig, dtype, device_index, options=(), arch=None):
    """(binary, meta) for one instantiation on one device: from memory, from disk, or compiled."""
    name_expression = sig.name_expression(dtype)
    text = prelude(source, filename, dtype) + source
    flags = list(options)
    if not any(o.startswith(("-std", "--std")) for o in flags):
        flags.insert(0, "-std=c++17")
    target = _target(device_index, arch)
    key = cache.digest("nvrtc", __version__, toolchain_id(), text, filename, name_expression, target, *flags)
    with _lock:
        if key in _binaries:
            return _binaries[key]
    directory = cache.cache_dir("nvrtc", key)
    meta_path = os.path.join(directory, "meta.json")
    try:
        with open(meta_path) as f:
            meta = json.load(f)
        with open(os.path.join(directory, "kernel." + meta["format"]), "rb") as f:
            found = f.read(), meta
    except (OSError, ValueError, KeyError):
        data, meta = _compile(text, filename, name_expression, [f"--gpu-architecture={_resolve_target(target)}"] + flags, sig.name)
        _write_atomically(os.path.join(directory, "kernel." + meta["format"]), data)
        _write_atomically(meta_path, json.dumps(meta).encode())
        found = data, meta
    with _lock:
        _binaries[key] = found
    return found


def _primary_context(device_index):
    driver = _driver()
    ctx = _primary_contexts.get(device_index)
    if ctx is None:
        _check_driver(driver.cuInit(0), "cuInit")
        device = _check_driver(driver.cuDeviceGet(device_index), "cuDeviceGet")
        ctx = _check_driver(driver.cuDevicePrimaryCtxRetain(device), "cuDevicePrimaryCtxRetain")
        _primary_contexts[device_index] = ctx
    return ctx


class _Current:
    """Makes the device's primary context (torch's) current for the driver calls inside.

    Threads torch never touched (autograd's, a user's) start with no current context.
    """

    def __init__(self, device_index):
        self.device_index = device_index

    def __enter__(self):
        driver = _driver()
        ctx = _primary_context(self.device_index)
        current = _check_driver(driver.cuCtxGetCurrent(), "cuCtxGetCurrent")
        self.restore = None
        if int(current) != int(ctx):
            _check_driver(driver.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
            if int(current):
                self.restore = current
        return self

    def __exit__(self, *exc):
        if self.restore is not None:
            driver = _driver()
            driver.cuCtxSetCurrent(self.restore)


def _limits_of_device(device_index):
    limits = _device_limits.get(device_index)
    if limits is None:
        driver = _driver()
        a = driver.CUdevice_attribute
        device = _check_driver(driver.cuDeviceGet(device_index), "cuDeviceGet")

        def get(attr):
            return _check_driver(driver.cuDeviceGetAttribute(attr, device), "cuDeviceGetAttribute")

        limits = {
            "max_block_dim": tuple(get(x) for x in (a.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, a.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, a.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)),
            "max_grid_dim": tuple(get(x) for x in (a.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, a.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, a.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)),
            "max_shared_per_block": get(a.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
            "max_shared_optin": get(a.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
        }
        _device_limits[device_index] = limits
    return limits


class CudaKernel:
    """One instantiation loaded on one device, launched with cuLaunchKernel."""

    def __init__(self, data, meta, device_index, name):
        driver = _driver()
        self.name = name
        self.device_index = device_index
        with _Current(device_index):
            self._module = _check_driver(driver.cuModuleLoadData(data), f"loading kernel {name!r}")
            self._function = _check_driver(driver.cuModuleGetFunction(self._module, meta["lowered"].encode()), "cuModuleGetFunction")
            f = driver.CUfunction_attribute

            def attr(which):
                return _check_driver(driver.cuFuncGetAttribute(which, self._function), "cuFuncGetAttribute")

            device = _limits_of_device(device_index)
            self.limits = Limits(
                max_threads_per_block=attr(f.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
                static_shared=attr(f.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
                **device,
            )
        self._dynamic_shared_cap = self.limits.max_shared_per_block - self.limits.static_shared

    def launch(self, config, stream, params, cooperative=False):
        """``cooperative``: the blocks wait for one another, so the driver must make them all
        resident at once or refuse the launch (an error, where a plain launch could hang)."""
        driver = _driver()
        self._opt_in(config)
        with _Current(self.device_index):
            if cooperative:
                (err,) = driver.cuLaunchCooperativeKernel(self._function, *config.grid, *config.block,
                                                          config.shared_mem, stream, params)
            else:
                (err,) = driver.cuLaunchKernel(self._function, *config.grid, *config.block, config.shared_mem, stream, params, 0)
        if err != driver.CUresult.CUDA_SUCCESS:
            _check_driver((err,), f"launching kernel {self.name!r}")

    def _opt_in(self, config):
        """Lets the function take ``config``'s dynamic shared memory where that is beyond the
        default cap (once: the attribute stays set)."""
        if config.needs_optin and config.shared_mem > self._dynamic_shared_cap:
            driver = _driver()
            attribute = driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            with _Current(self.device_index):
                _check_driver(driver.cuFuncSetAttribute(self._function, attribute, config.shared_mem),
                              "cuFuncSetAttribute")
            self._dynamic_shared_cap = config.shared_mem

    def direct_launcher(self, config, cooperative=False):
        """``launch(stream, params)`` for ``config`` through libcuda's own entry points (see
        ``direct``), or None where libcuda does not load (``launch`` serves then)."""
        lib = direct.libcuda()
        if lib is None:
            return None
        self._opt_in(config)
        return direct.launcher(lib, int(self._function), int(_primary_context(self.device_index)), self.name,
                               config.grid, config.block, config.shared_mem, cooperative)

    def launcher(self, config):
        """``launch(stream, params)`` for ``config`` through the driver's functions as they are
        now, not as looked up at each call: code imported later cannot replace what it launches
        through (the harness's timing gate is made before the candidate is imported)."""
        if config.needs_optin:
            raise LaunchConfigError(f"kernel {self.name!r}: a bound launcher takes no opt-in shared memory")
        driver = _driver()
        get_current, set_current, launch = driver.cuCtxGetCurrent, driver.cuCtxSetCurrent, driver.cuLaunchKernel
        ok = driver.CUresult.CUDA_SUCCESS
        context = _primary_context(self.device_index)
        function, grid, block, shared_mem, name = self._function, config.grid, config.block, config.shared_mem, self.name

        def bound(stream, params):
            err, current = get_current()
            if err != ok:
                _check_driver((err,), "cuCtxGetCurrent")
            switch = int(current) != int(context)
            if switch:
                set_current(context)
            try:
                (err,) = launch(function, *grid, *block, shared_mem, stream, params, 0)
            finally:
                if switch and int(current):
                    set_current(current)
            if err != ok:
                _check_driver((err,), f"launching kernel {name!r}")

        return bound


def load(source, filename, sig, dtype, device_index, options=(), arch=None):
    data, meta = binary(source, filename, sig, dtype, device_index, options, arch)
    return CudaKernel(data, meta, device_index, sig.name)
