"""Shared helpers for op tests: float64 references, tolerances, poisoned allocations."""

import torch

# Tolerance of a kernelwright result against the float64 reference, by storage dtype: the
# error of rounding the exact result once, with headroom for fp32 arithmetic inside.
TOL = {
    torch.float64: dict(rtol=1e-12, atol=1e-12),
    torch.float32: dict(rtol=2e-6, atol=2e-6),
    torch.float16: dict(rtol=2e-3, atol=2e-3),
    torch.bfloat16: dict(rtol=1.6e-2, atol=1.6e-2),
}

DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.float64]

# (shape, dim) cases every reduction over a dim is checked on: one element, rows of one, odd
# lengths along either dim, a negative dim, rows longer than a block, a strided reduced axis,
# a 0-dim tensor.
REDUCTION_CASES = [((1,), 0), ((5, 1), 1), ((7, 33), 1), ((7, 33), 0), ((7, 33), -1),
                   ((3, 4097), 1), ((2, 3, 129), 1), ((), 0)]


def randn(shape, dtype, device, scale=3.0, generator=None, mean=0.0):
    """Both signs and a wide spread, so every branch of every op is taken."""
    t = torch.randn(shape, dtype=torch.float64, generator=generator) * scale + mean
    return t.to(device=device, dtype=dtype)


def poison(device):
    """Fill memory the caching allocator will hand out next with NaN, so an output element
    the kernel forgot to write shows up as NaN instead of a stale plausible value."""
    if torch.device(device).type == "cuda":
        blocks = [torch.full((1 << 20,), float("nan"), device=device) for _ in range(8)]
        del blocks


def assert_close_to_reference(got, want64, dtype):
    """got: kernelwright result; want64: the float64 reference result."""
    assert got.dtype == dtype, (got.dtype, dtype)
    assert got.shape == want64.shape, (got.shape, want64.shape)
    torch.testing.assert_close(got.double().cpu(), want64.double().cpu(), equal_nan=True, **TOL[dtype])


def assert_no_worse_than_torch(got, eager, want64, factor=2.0):
    """Where rounding of an intermediate dominates (a low-precision saved result), hold the
    result to PyTorch's own error against float64 rather than to a fixed tolerance."""
    assert got.dtype == eager.dtype and got.shape == eager.shape
    ours = (got.double() - want64.double()).abs().max().item()
    theirs = (eager.double() - want64.double()).abs().max().item()
    eps = torch.finfo(got.dtype).eps
    scale = want64.abs().max().item()
    assert ours <= factor * theirs + eps * scale, (ours, theirs)
