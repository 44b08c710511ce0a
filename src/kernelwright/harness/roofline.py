"""What a problem must do, what the device can do, and how close a candidate comes.

Work is counted once on the reference ``Model``, in the judge, during its first eager
forward: FLOPs by ``torch.utils.flop_counter.FlopCounterMode`` (matmuls, convolutions,
attention; elementwise ops count 0 there), and the fewest bytes any implementation must
move: every input, parameter, buffer and output read or written once.

Ceilings are measured in the candidate worker, on its device, with the harness's timing
utility: the bandwidth of a large copy, and the matrix rate of the fastest method the
problem's precision allows, each method's rate measured as a large ``torch.mm``.  For
float32 on a GPU the methods follow the float32 matmul precision and the verdict's
precision contract (``FLOAT32_METHODS``); otherwise the one method is ``torch.mm`` in the
problem's dtype.  A forward cannot take less than max(bytes / bandwidth, flops / matrix
rate) (the roofline), so the candidate's fraction of the ceiling is the larger of its two
achieved fractions, and which one is larger is decided by its arithmetic intensity
(flops / bytes) against the ridge point (matrix rate / bandwidth).

Importing this module does not import torch: the parent process only builds sentences.
"""

import re

# Ceiling sizes: on a GPU big enough that the copy and the matmul run at their asymptotic
# rates, yet cost milliseconds; on the CPU small enough to cost a fraction of a second
# (the copy still at least twice the last-level cache).
COPY_BYTES = {"cuda": 1 << 30, "cpu": 64 << 20}
MATRIX_SIZE = {"cuda": 8192, "cpu": 512}
# Copies per timed call: the launch of one copy, a few microseconds, is then a negligible
# part of the time (queued launches overlap the copy before them).
COPIES_PER_CALL = 4
# Below this a matmul no longer fills a GPU and its rate would understate the ceiling.
MIN_MATRIX_SIZE = 2048
# The methods a float32 matmul may use on a GPU at each float32 matmul precision, within the
# error the verdict's precision contract allows there (api.precision_check), as (dtype of the
# torch.mm measured, products per float32 product).  float32's own torch.mm computes at what
# the precision allows (float32 FMA, TF32).  'highest': an operand split into a high and a low
# half-precision part takes three tensor-core products (hi*hi + hi*lo + lo*hi) and stays
# within the contract (bf16x3 6x and a float16 split 0.2-0.4x cuBLAS float32's error,
# benchmarks/results/gemm_precision_nvidia-h200_2026-11-22.md), so a third of the
# half-precision rate bounds it.  'high': one float16 product keeps TF32's 10 mantissa bits
# (kernelwright's 'high' GEMM: 429 TFLOP/s where cuBLAS TF32 ran 355).  'medium': bfloat16.
FLOAT32_METHODS = {
    "highest": (("float32", 1), ("float16", 3), ("bfloat16", 3)),
    "high": (("float32", 1), ("float16", 1)),
    "medium": (("float32", 1), ("float16", 1), ("bfloat16", 1)),
}

_measured = {}


def count_work(model, args):
    """(output, work) of ``model(*args)``: work is {"flops", "bytes", "dtype"}.

    ``bytes``: inputs, parameters, buffers and outputs, each byte once; ``dtype``: the
    floating-point dtype that holds most of the inputs and parameters.
    """
    from torch.utils.flop_counter import FlopCounterMode

    from kernelwright.harness.inputs import tensors_in

    counter = FlopCounterMode(display=False)
    with counter:
        out = model(*args)
    state = list(model.parameters()) + list(model.buffers())
    given = tensors_in(list(args)) + state
    return out, {"flops": int(counter.get_total_flops()), "bytes": used_bytes(given + tensors_in(out)),
                 "dtype": main_dtype(given)}


def used_bytes(tensors):
    """Bytes of memory the tensors reach, each byte once however many tensors share it.

    A view reaches only its own elements' span of the storage behind it; an expanded
    (stride 0) tensor reaches its small storage once.
    """
    spans = {}
    for t in tensors:
        if t.numel() == 0:
            continue
        reach = 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))
        start = t.data_ptr()
        spans.setdefault(str(t.device), []).append((start, start + reach * t.element_size()))
    total = 0
    for intervals in spans.values():
        intervals.sort()
        lo, hi = intervals[0]
        for a, b in intervals[1:]:
            if a > hi:
                total += hi - lo
                lo = a
            hi = max(hi, b)
        total += hi - lo
    return total


def main_dtype(tensors):
    """Name of the floating-point dtype holding the most bytes (float32 when none does)."""
    by_dtype = {}
    for t in tensors:
        if t.is_floating_point():
            by_dtype[t.dtype] = by_dtype.get(t.dtype, 0) + t.numel() * t.element_size()
    if not by_dtype:
        return "float32"
    return str(max(by_dtype, key=by_dtype.get)).replace("torch.", "")


# ------------------------------------------------------------------------ ceilings


def _timed(time_fn, fn, device):
    t = time_fn(fn, None, device, warmup=2, warmup_ms=20.0, min_reps=5, max_reps=200, budget_s=0.25,
                flush_cache=False)
    return t.median_ms * 1e-3


def copy_ceiling(device, room, min_bytes, time_fn):
    """{"copy_gbps", "copy_bytes"}: read plus written bytes per second of one large copy.

    Two buffers of ``COPY_BYTES`` for the device type, or ``min_bytes`` (twice the
    last-level cache, so that the copy runs from memory) when that is more, shrunk to fit
    ``room`` (None: no limit) but never below ``min_bytes``: None when that does not fit.
    Measured once per device and process.
    """
    import torch

    key = ("copy", str(device))
    if key not in _measured:
        n = max(COPY_BYTES[device.type], min_bytes)
        if room is not None:
            n = min(n, room // 2)
        n -= n % 4
        if n < min_bytes:
            return None
        src = torch.empty(n // 4, dtype=torch.int32, device=device).random_()
        dst = torch.empty_like(src)

        def copies():
            for _ in range(COPIES_PER_CALL):
                dst.copy_(src)

        seconds = _timed(time_fn, copies, device)
        del src, dst
        _measured[key] = {"copy_gbps": 2 * n * COPIES_PER_CALL / seconds / 1e9, "copy_bytes": n}
    return _measured[key]


def matrix_methods(dtype, precision, device_type):
    """[(label, dtype of the torch.mm, products per product of ``dtype``)]: the methods whose
    rates bound a ``dtype`` matmul at the float32 matmul ``precision`` on ``device_type``.

    float32 on a GPU: ``FLOAT32_METHODS``.  Elsewhere ``torch.mm`` in ``dtype`` alone: the
    precision governs float32 only, and a CPU has no tensor cores for a split to run on.
    """
    if dtype != "float32" or device_type != "cuda":
        return [(method_label(dtype, precision, dtype, 1), dtype, 1)]
    return [(method_label(dtype, precision, mm_dtype, products), mm_dtype, products)
            for mm_dtype, products in FLOAT32_METHODS[precision]]


def method_label(dtype, precision, mm_dtype, products):
    """What a method is, in a few words: "float32 torch.mm at 'high'", "float16 torch.mm / 3
    (3-product split)"."""
    label = "%s torch.mm" % mm_dtype
    if mm_dtype == "float32" == dtype:
        label += " at '%s'" % precision
    if products > 1:
        label += " / %d (%d-product split)" % (products, products)
    return label


def matrix_rate(device, dtype, room, time_fn):
    """{"tflops", "size"}: a square ``torch.mm`` in ``dtype`` at the float32 matmul precision
    in force.

    Size ``MATRIX_SIZE`` for the device type, halved while its three matrices do not fit in
    ``room`` (None: no limit), down to ``MIN_MATRIX_SIZE``; None when even that does not
    fit.  Measured once per device, dtype and precision and process.
    """
    import torch

    key = ("matrix", str(device), dtype, torch.get_float32_matmul_precision())
    if key not in _measured:
        torch_dtype = getattr(torch, dtype)
        itemsize = torch.empty(0, dtype=torch_dtype).element_size()
        n = MATRIX_SIZE[device.type]
        while room is not None and 3 * n * n * itemsize > room:
            if n <= MIN_MATRIX_SIZE:
                return None
            n //= 2
        a = torch.randn(n, n, dtype=torch_dtype, device=device)
        b = torch.randn(n, n, dtype=torch_dtype, device=device)
        out = torch.empty(n, n, dtype=torch_dtype, device=device)
        seconds = _timed(time_fn, lambda: torch.mm(a, b, out=out), device)
        del a, b, out
        _measured[key] = {"tflops": 2 * n ** 3 / seconds / 1e12, "size": n}
    return _measured[key]


def matrix_ceiling(device, dtype, room, time_fn):
    """{"matrix_tflops", "matrix_dtype", "precision", "matrix_method", "matrix_size",
    "matrix_rates"}: the fastest of :func:`matrix_methods` for a ``dtype`` problem at the
    float32 matmul precision in force, each measured by :func:`matrix_rate` and divided by
    its products; ``matrix_rates`` holds every method's rate ({label: TFLOP/s}).  None when
    no method's matrices fit in ``room``.  An error measuring the problem's own dtype is
    raised; one measuring another dtype leaves that method out.
    """
    import torch

    precision = torch.get_float32_matmul_precision()
    rates, sizes = {}, {}
    for label, mm_dtype, products in matrix_methods(dtype, precision, device.type):
        try:
            rate = matrix_rate(device, mm_dtype, room, time_fn)
        except RuntimeError:
            if mm_dtype == dtype:
                raise
            rate = None  # a GPU without that half-precision GEMM has no such method
        if rate is not None:
            rates[label], sizes[label] = rate["tflops"] / products, rate["size"]
    if not rates:
        return None
    best = max(rates, key=rates.get)
    return {"matrix_tflops": rates[best], "matrix_dtype": dtype, "precision": precision, "matrix_method": best,
            "matrix_size": sizes[best], "matrix_rates": rates}


# ------------------------------------------------------------------ rates, sentence


def rates(flops, nbytes, timings):
    """({variant: GB/s}, {variant: TFLOP/s}) from the variants' median times.

    (None, None) when the work was not counted.
    """
    if nbytes is None or flops is None:
        return None, None
    seconds = {name: t["median_ms"] * 1e-3 for name, t in timings.items() if t["median_ms"] > 0}
    return ({name: nbytes / s / 1e9 for name, s in seconds.items()},
            {name: flops / s / 1e12 for name, s in seconds.items()})


def si(value, unit):
    """3 significant digits with an SI prefix: 3.91 TB/s, 389 TFLOP/s, 12.9 GB."""
    for prefix, scale in (("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(value) >= scale:
            return "%.3g %s%s" % (value / scale, prefix, unit)
    return "%.3g %s" % (value, unit)


def num(x):
    """3 significant digits, without an exponent up to 10^15: 0.25, 95, 2731."""
    return "%.0f" % x if x >= 100 else "%.3g" % x


def matrix_rate_phrase(ceiling):
    """Which matrix rate the compute fraction is of: for float32, the fastest the precision
    allows and its method; for other dtypes, their own."""
    if ceiling["matrix_dtype"] == "float32":
        return "the fastest float32 matrix rate precision '%s' allows (%s: %s)" % (
            ceiling["precision"], ceiling["matrix_method"], si(ceiling["matrix_tflops"] * 1e12, "FLOP/s"))
    return "the measured %s matrix rate (%s)" % (ceiling["matrix_dtype"], si(ceiling["matrix_tflops"] * 1e12, "FLOP/s"))


def bound(flops, nbytes, seconds, ceiling):
    """(bound_by, fraction_of_ceiling, sentence) for one forward taking ``seconds``.

    ``ceiling`` holds ``copy_gbps`` and ``matrix_tflops`` (None where not measured).  With
    only one of them measured, the fraction is of that one; with neither, or no bytes,
    there is nothing to say and the result is (None, None, None).
    """
    copy_gbps, matrix_tflops = ceiling.get("copy_gbps"), ceiling.get("matrix_tflops")
    if not nbytes or seconds <= 0 or flops is None or not (copy_gbps or matrix_tflops):
        return None, None, None
    flops_per_byte = flops / nbytes
    memory = (nbytes / seconds / 1e9) / copy_gbps if copy_gbps else None
    compute = (flops / seconds / 1e12) / matrix_tflops if matrix_tflops else None
    if copy_gbps and matrix_tflops:
        ridge = matrix_tflops * 1e12 / (copy_gbps * 1e9)
        by = "memory" if flops_per_byte < ridge else "compute"
        where = "(%s FLOP/byte, ridge %s)" % (num(flops_per_byte), num(ridge))
    else:
        by = "memory" if copy_gbps else "compute"
        where = "(%s FLOP/byte; no %s ceiling measured)" % (
            num(flops_per_byte), "matrix" if copy_gbps else "copy")
    if by == "memory":
        text = "memory-bound %s: moves %s at %s = %.3g of the measured copy bandwidth (%s)" % (
            where, si(nbytes, "B"), si(nbytes / seconds, "B/s"), memory, si(copy_gbps * 1e9, "B/s"))
        return by, memory, text
    text = "compute-bound %s: %s = %.3g of %s" % (
        where, si(flops / seconds, "FLOP/s"), compute, matrix_rate_phrase(ceiling))
    return by, compute, text


def result_fields(work, timings, ceiling):
    """The result's work, rate and ceiling fields.

    ``work`` as the judge counted it (empty when it could not), ``timings`` as
    {variant: {"median_ms": ...}}, ``ceiling`` as the candidate worker measured it (None
    when it could not).
    """
    flops, nbytes = work.get("flops"), work.get("bytes")
    gbps, tflops = rates(flops, nbytes, timings)
    cand = timings.get("candidate")
    by = fraction = text = None
    if cand and ceiling:
        by, fraction, text = bound(flops, nbytes, cand["median_ms"] * 1e-3, ceiling)
    return {"flops": flops, "bytes": nbytes, "gbps": gbps, "tflops": tflops, "ceiling": ceiling,
            "fraction_of_ceiling": fraction, "bound_by": by, "bound": text}


def first_sentence(doc):
    """The first sentence of a docstring's first paragraph, on one line; None without one."""
    if not doc or not doc.strip():
        return None
    paragraph = " ".join(re.split(r"\n\s*\n", doc.strip())[0].split())
    m = re.match(r"(.+?[.!?])(\s|$)", paragraph)
    return (m.group(1) if m else paragraph)[:400]
