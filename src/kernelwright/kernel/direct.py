"""Kernel launches through libcuda's C entry points (ctypes), for calls on a model's hot path.

An emitted forward of one small kernel (level-1 12) took about 60 us of host time a call on an
H200 host against 37 us on the device, so its launch path is the hot path. cuda-bindings
converts and checks each argument of its calls in Python (the context check, then the launch);
a ctypes call with fixed argument types does neither. The handles are the same driver objects
cuda-bindings holds. How much of the 60 us each path costs: benchmarks/bench_forward_host.py.
"""

import ctypes
import ctypes.util

from .errors import KernelLaunchError

_loaded = []


def libcuda():
    """libcuda with the launch entry points' signatures set, or None where it does not load."""
    if not _loaded:
        _loaded.append(_load())
    return _loaded[0]


def _load():
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("cuda") or "libcuda.so.1")
    except OSError:
        return None
    u, p = ctypes.c_uint, ctypes.c_void_p
    lib.cuLaunchKernel.argtypes = [p, u, u, u, u, u, u, u, p, p, p]
    lib.cuLaunchCooperativeKernel.argtypes = [p, u, u, u, u, u, u, u, p, p]
    lib.cuCtxGetCurrent.argtypes = [ctypes.POINTER(p)]
    lib.cuCtxSetCurrent.argtypes = [p]
    lib.cuGetErrorName.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    for f in (lib.cuLaunchKernel, lib.cuLaunchCooperativeKernel, lib.cuCtxGetCurrent, lib.cuCtxSetCurrent,
              lib.cuGetErrorName):
        f.restype = ctypes.c_int
    return lib


def launcher(lib, function, context, name, grid, block, shared_mem, cooperative):
    """``launch(stream, params)``: ``function`` (a CUfunction handle as an int) on the stream
    handle ``stream`` with ``params`` (the address of its argument pointers), in the primary
    context ``context`` (made current for the call where another one, or none, is)."""
    get_current, set_current = lib.cuCtxGetCurrent, lib.cuCtxSetCurrent
    dims = tuple(grid) + tuple(block)
    if cooperative:
        def call(stream, params):
            return lib.cuLaunchCooperativeKernel(function, *dims, shared_mem, stream, params)
    else:
        def call(stream, params):
            return lib.cuLaunchKernel(function, *dims, shared_mem, stream, params, None)

    def launch(stream, params):
        current = ctypes.c_void_p()
        get_current(ctypes.byref(current))
        switch = current.value != context
        if switch:
            set_current(context)
        try:
            err = call(stream, params)
        finally:
            if switch and current.value:
                set_current(current.value)
        if err:
            text = ctypes.c_char_p()
            lib.cuGetErrorName(err, ctypes.byref(text))
            raise KernelLaunchError("launching kernel %r failed: %s" % (name, (text.value or b"%d" % err).decode()))

    return launch
