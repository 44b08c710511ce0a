"""Checking a launch configuration against the device and the compiled kernel.

Pure Python on purpose: the limits come from the driver once per loaded kernel, and every
launch is checked here before it is issued, because a launch the driver rejects leaves a
confusing error behind and one it accepts with the wrong shape reads out of bounds.
"""

import operator
from dataclasses import dataclass
from typing import Tuple

from .errors import LaunchConfigError

ELEMENTWISE_THREADS = 256


@dataclass(frozen=True)
class Limits:
    """What one compiled kernel may be launched with on one device."""

    max_threads_per_block: int  # of this kernel: its register use can lower it below 1024
    max_block_dim: Tuple[int, int, int]
    max_grid_dim: Tuple[int, int, int]
    static_shared: int  # bytes the kernel declares with __shared__
    max_shared_per_block: int  # without opting in
    max_shared_optin: int  # the most a kernel may opt in to


@dataclass(frozen=True)
class LaunchConfig:
    grid: Tuple[int, int, int]
    block: Tuple[int, int, int]
    shared_mem: int
    needs_optin: bool  # dynamic shared memory above the default cap: the kernel must opt in first

    @property
    def empty(self):
        return 0 in self.grid


def _dims(value, what, kernel):
    if isinstance(value, bool):
        raise LaunchConfigError(f"kernel {kernel!r}: {what} must be an int or up to 3 ints, got {value!r}")
    try:
        dims = [operator.index(value)]
    except TypeError:
        try:
            dims = [operator.index(v) for v in value]
        except TypeError:
            raise LaunchConfigError(f"kernel {kernel!r}: {what} must be an int or up to 3 ints, got {value!r}") from None
    if not 1 <= len(dims) <= 3:
        raise LaunchConfigError(f"kernel {kernel!r}: {what} has {len(dims)} dimensions; CUDA allows 1 to 3")
    return tuple(dims) + (1,) * (3 - len(dims))


def elementwise(numel):
    """One thread per element, 256 to a block."""
    return (-(-numel // ELEMENTWISE_THREADS),), (ELEMENTWISE_THREADS,), 0


def unpack(config, kernel):
    """``(grid, block)`` or ``(grid, block, shared_mem)`` from a user's launch function."""
    if isinstance(config, dict):
        extra = set(config) - {"grid", "block", "shared_mem"}
        if extra or not {"grid", "block"} <= set(config):
            raise LaunchConfigError(
                f"kernel {kernel!r}: a launch dict has keys grid, block and optionally shared_mem; got {sorted(config)}"
            )
        return config["grid"], config["block"], config.get("shared_mem", 0)
    if isinstance(config, (tuple, list)) and len(config) in (2, 3):
        return tuple(config) + (0,) * (3 - len(config))
    raise LaunchConfigError(
        f"kernel {kernel!r}: launch must return (grid, block) or (grid, block, shared_mem), got {config!r}"
    )


def check(kernel, grid, block, shared_mem, limits):
    """A ``LaunchConfig`` the device will accept, or a ``LaunchConfigError`` saying why not."""
    grid = _dims(grid, "grid", kernel)
    block = _dims(block, "block", kernel)
    try:
        shared_mem = operator.index(shared_mem)
    except TypeError:
        raise LaunchConfigError(f"kernel {kernel!r}: shared_mem must be an int, got {shared_mem!r}") from None

    for axis, size, most in zip("xyz", grid, limits.max_grid_dim):
        if size < 0 or size > most:
            raise LaunchConfigError(f"kernel {kernel!r}: grid.{axis} = {size} is outside 0..{most}")
    for axis, size, most in zip("xyz", block, limits.max_block_dim):
        if size < 1 or size > most:
            raise LaunchConfigError(f"kernel {kernel!r}: block.{axis} = {size} is outside 1..{most}")
    threads = block[0] * block[1] * block[2]
    if threads > limits.max_threads_per_block:
        why = "" if limits.max_threads_per_block >= 1024 else " (its register use limits it)"
        raise LaunchConfigError(
            f"kernel {kernel!r}: block {block} has {threads} threads; this kernel can run at most "
            f"{limits.max_threads_per_block} per block{why}"
        )
    if shared_mem < 0:
        raise LaunchConfigError(f"kernel {kernel!r}: shared_mem = {shared_mem} is negative")
    total = limits.static_shared + shared_mem
    if total > limits.max_shared_optin:
        raise LaunchConfigError(
            f"kernel {kernel!r}: needs {total} bytes of shared memory per block ({limits.static_shared} static + "
            f"{shared_mem} dynamic); the device allows at most {limits.max_shared_optin}"
        )
    return LaunchConfig(grid, block, shared_mem, total > limits.max_shared_per_block)
