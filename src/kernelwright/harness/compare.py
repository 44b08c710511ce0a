"""Correctness of a candidate's outputs, measured against a float64 reference.

For every floating output element, with ``c`` the candidate, ``e`` the eager reference
in the problem's own precision and ``r`` the reference run in float64:

    |c - r| <= atol + rtol * |r|  +  |e - r|  +  NOISE * rms(|e - r|)

``atol`` and ``rtol`` are KernelBench's (1e-4 for float32, 1e-2 for float16/bfloat16, and for
float32 at a float32 matmul precision of 'high' or 'medium').
The last two terms allow the candidate the rounding error the eager reference itself
makes (element-wise, and as a multiple of its typical size), so a kernel that is as
accurate as PyTorch passes even on ill-conditioned inputs, while a kernel that is more
accurate is never penalised for disagreeing with PyTorch's rounding.  Where the eager
result is exact the rule is KernelBench's tolerance against the exact answer.  Without
a float64 reference, ``r`` is the eager output and the rule is KernelBench's exactly.

Non-finite values must agree: a NaN is accepted only where the eager or float64
reference has a NaN, an infinity only where one of them has the same infinity.
Integer and boolean outputs must equal the eager or float64 result exactly.
"""

import math

import torch

NOISE = 8.0

_UNIT_ROUNDOFF = {
    torch.float64: 2.0**-53,
    torch.float32: 2.0**-24,
    torch.float16: 2.0**-11,
    torch.bfloat16: 2.0**-8,
}


def tolerance_for(dtype, precision=None):
    """KernelBench's (atol, rtol) for outputs of ``dtype``.

    float32 outputs at a float32 matmul ``precision`` (default: the one in force) of 'high' or
    'medium' get float16's and bfloat16's (TF32 keeps float16's 10 mantissa bits): the error
    those allow is bounded as a whole by the verdict's precision contract (api.precision_check).
    """
    if dtype in (torch.float16, torch.bfloat16):
        return 1e-2, 1e-2
    if dtype == torch.float32 and (precision or torch.get_float32_matmul_precision()) != "highest":
        return 1e-2, 1e-2
    if getattr(torch, "float8_e4m3fn", None) is not None and dtype in (
        torch.float8_e4m3fn,
        torch.float8_e5m2,
    ):
        return 1e-1, 1e-1
    return 1e-4, 1e-4


def unit_roundoff(dtype):
    return _UNIT_ROUNDOFF.get(dtype, 2.0**-24)


def map_leaves(out, fn, path="out"):
    """``out`` with each leaf replaced by ``fn(path, leaf)``; containers are lists, tuples and
    dicts (visited in sorted key order), paths name the leaf as ``out[0]['key']``."""
    if isinstance(out, (list, tuple)):
        return type(out)(map_leaves(o, fn, "%s[%d]" % (path, i)) for i, o in enumerate(out))
    if isinstance(out, dict):
        return {k: map_leaves(out[k], fn, "%s[%r]" % (path, k)) for k in sorted(out, key=str)}
    return fn(path, out)


def flatten(out):
    """[(path, leaf)] of a (nested) output, in :func:`map_leaves` order."""
    leaves = []
    map_leaves(out, lambda path, leaf: leaves.append((path, leaf)))
    return leaves


def sample_leaves(out, limit, seed):
    """Re-checked timed outputs: tensors of more than ``limit`` elements replaced by ``limit``
    of their elements at random positions, drawn from ``seed`` after the call returned.

    Returns (the output so reduced, {leaf path: (shape, positions)}).  A timed call that
    returns a stale or partly computed output is wrong at a fraction of its elements; a
    random million finds any fraction above ~1e-5, at a few MB instead of a 6 GiB copy.
    """
    samples = {}

    def take(path, t):
        if not isinstance(t, torch.Tensor) or t.numel() <= limit:
            return t
        gen = torch.Generator(device=t.device).manual_seed(seed)
        idx = torch.randint(0, t.numel(), (limit,), generator=gen, device=t.device)
        samples[path] = (tuple(t.shape), idx.cpu())
        return t.detach().reshape(-1)[idx]

    return map_leaves(out, take), samples


def samples_mismatch(ref, samples):
    """Why the positions :func:`sample_leaves` drew do not fit ``ref``'s leaves, or None."""
    leaves = dict(flatten(ref))
    for path, (shape, _) in samples.items():
        leaf = leaves.get(path)
        if not isinstance(leaf, torch.Tensor) or tuple(leaf.shape) != tuple(shape):
            return "%s has shape %s, reference is %s" % (path, tuple(shape), describe(leaf))
    return None


def take_samples(ref, samples):
    """``ref`` with its sampled leaves reduced to the positions :func:`sample_leaves` drew
    (check :func:`samples_mismatch` first)."""
    return map_leaves(ref, lambda path, t: t.reshape(-1)[samples[path][1].to(t.device)]
                      if path in samples else t)


def describe(x):
    if isinstance(x, torch.Tensor):
        return "Tensor(shape=%s, dtype=%s, device=%s)" % (tuple(x.shape), str(x.dtype).replace("torch.", ""), x.device)
    return type(x).__name__


def structure_mismatch(eager, cand):
    """Why ``cand`` cannot be compared to ``eager`` element-wise, or None."""
    e_leaves, c_leaves = flatten(eager), flatten(cand)
    if len(e_leaves) != len(c_leaves):
        return "output has %d leaves, reference has %d (%s vs %s)" % (
            len(c_leaves),
            len(e_leaves),
            ", ".join(describe(v) for _, v in c_leaves[:4]),
            ", ".join(describe(v) for _, v in e_leaves[:4]),
        )
    for (path, e), (_, c) in zip(e_leaves, c_leaves):
        if isinstance(e, torch.Tensor) != isinstance(c, torch.Tensor):
            return "%s is %s, reference is %s" % (path, describe(c), describe(e))
        if not isinstance(e, torch.Tensor):
            continue
        if tuple(c.shape) != tuple(e.shape):
            return "%s has shape %s, reference has %s" % (path, tuple(c.shape), tuple(e.shape))
        if c.dtype != e.dtype:
            return "%s has dtype %s, reference has %s" % (path, c.dtype, e.dtype)
        if c.device.type != e.device.type:
            return "%s is on %s, reference is on %s" % (path, c.device, e.device)
    return None


# Elements compared at a time: the float64 temporaries of one chunk take a few hundred
# MiB, so comparing a 6 GiB output costs no more memory than comparing a small one.
CHUNK_ELEMENTS = 1 << 23


class _Metrics:
    """Error of x against r over the positions where both are finite, accumulated by chunk."""

    def __init__(self):
        self.any = False
        self.max_abs = self.max_rel = 0.0
        self.sq_d = self.sq_r = 0.0

    def add(self, x, r, atol):
        both = torch.isfinite(x) & torch.isfinite(r)
        if not bool(both.any()):
            return
        self.any = True
        d = (x - r).abs()[both]
        rf = r[both]
        self.sq_r += float(torch.linalg.vector_norm(rf)) ** 2
        self.sq_d += float(torch.linalg.vector_norm(d)) ** 2
        self.max_abs = max(self.max_abs, float(d.max()))
        self.max_rel = max(self.max_rel, float((d / (rf.abs() + atol)).max()))

    def result(self):
        if not self.any:
            return {"max_abs": 0.0, "max_rel": 0.0, "rel_l2": 0.0}
        norm_r, norm_d = math.sqrt(self.sq_r), math.sqrt(self.sq_d)
        return {
            "max_abs": self.max_abs,
            "max_rel": self.max_rel,
            "rel_l2": norm_d / norm_r if norm_r > 0 else (0.0 if norm_d == 0 else float("inf")),
        }


def _metrics(x, r, atol):
    m = _Metrics()
    m.add(x, r, atol)
    return m.result()


def _chunks(n, chunk):
    return [(lo, min(n, lo + chunk)) for lo in range(0, n, chunk)] or [(0, 0)]


def compare_tensor(cand, eager, ref64, atol, rtol, chunk_elements=None, device=None):
    """Element-wise verdict for one output tensor; see the module docstring.

    Runs on ``device`` (default: where ``ref64`` lives), ``chunk_elements`` at a time (two
    passes: the RMS of the eager reference's error first, then the bound), so its temporaries
    stay small; a reference kept on the host reaches the device a chunk at a time.
    """
    if ref64 is None:
        ref64 = eager
    total = cand.numel()
    if not (cand.is_floating_point() or cand.is_complex()):
        same = (cand == eager.to(cand.device)) | (cand == ref64.to(cand.device).to(cand.dtype))
        bad = int((~same).sum())
        return {"ok": bad == 0, "mismatched": bad, "total": total, "worst": None,
                "cand": None, "eager": None}
    dev = ref64.device if device is None else torch.device(device)
    chunk = int(chunk_elements or CHUNK_ELEMENTS)
    cf, ef, rf = cand.reshape(-1), eager.reshape(-1), ref64.reshape(-1)
    parts = _chunks(total, chunk)

    def piece(t, lo, hi):
        return t[lo:hi].to(dev, torch.float64)

    # Pass 1: the eager reference's own error (its RMS enters every element's bound).
    sq, count = 0.0, 0
    em = _Metrics()
    for lo, hi in parts:
        e, r = piece(ef, lo, hi), piece(rf, lo, hi)
        both_e = torch.isfinite(e) & torch.isfinite(r)
        d_e = (e - r).abs()[both_e]
        sq += float((d_e.double() ** 2).sum())
        count += int(d_e.numel())
        em.add(e, r, atol)
        del e, r, both_e, d_e
    noise = math.sqrt(sq / count) if count else 0.0

    # Pass 2: the bound, the mismatches and the candidate's error.
    bad = nonfinite_bad = 0
    worst_excess, worst_flat = None, None
    cm = _Metrics()
    for lo, hi in parts:
        c, e, r = piece(cf, lo, hi), piece(ef, lo, hi), piece(rf, lo, hi)
        d_c = (c - r).abs()
        d_e = (e - r).abs()
        both_e = torch.isfinite(e) & torch.isfinite(r)
        # Where the eager result is non-finite but the exact one is not, PyTorch itself is
        # off by an unbounded amount; any finite candidate value is no worse.
        d_e = torch.where(both_e, d_e, torch.full_like(d_e, float("inf")))
        bound = atol + rtol * r.abs() + d_e + NOISE * noise
        c_nan = torch.isnan(c)
        ok = (c_nan & (torch.isnan(e) | torch.isnan(r))) | (c == e) | (c == r)
        ok |= torch.isfinite(c) & torch.isfinite(r) & (d_c <= bound)
        bad_mask = ~ok
        n_bad = int(bad_mask.sum())
        if n_bad:
            bad += n_bad
            nonfinite_bad += int((bad_mask & ~torch.isfinite(c)).sum())
            excess = torch.where(bad_mask, torch.nan_to_num(d_c - bound, nan=float("inf"), posinf=float("inf")),
                                 torch.full_like(d_c, -float("inf")))
            k = int(torch.argmax(excess))
            val = float(excess[k])
            if worst_excess is None or val > worst_excess:
                worst_excess, worst_flat = val, lo + k
        cm.add(c, r, atol)
        del c, e, r, d_c, d_e, both_e, bound, c_nan, ok, bad_mask

    worst = None
    if bad:
        flat = worst_flat
        idx = list(torch.unravel_index(torch.tensor(flat), tuple(cand.shape))) if cand.dim() else []
        worst = {
            "index": [int(i) for i in idx],
            "candidate": float(cf[flat].double()),
            "reference_fp64": float(rf[flat].double()),
            "eager": float(ef[flat].double()),
        }
    cmr = cm.result()
    if nonfinite_bad:
        cmr["max_abs"] = cmr["max_rel"] = cmr["rel_l2"] = float("inf")
    return {
        "ok": bad == 0,
        "mismatched": bad,
        "nonfinite_mismatched": nonfinite_bad,
        "total": total,
        "worst": worst,
        "cand": cmr,
        "eager": em.result(),
    }


def compare_outputs(cand, eager, ref64, atol=None, rtol=None, device=None):
    """Compare a whole (possibly nested) output; returns a summary dict with ``ok``.  ``device``:
    where the comparison runs (see :func:`compare_tensor`)."""
    why = structure_mismatch(eager, cand)
    if why:
        return {"ok": False, "reason": why, "mismatched": None, "total": None,
                "cand": None, "eager": None}
    e_leaves = flatten(eager)
    c_leaves = flatten(cand)
    r_leaves = flatten(ref64) if ref64 is not None else [(p, None) for p, _ in e_leaves]
    if len(r_leaves) != len(e_leaves):
        r_leaves = [(p, None) for p, _ in e_leaves]
    summary = {"ok": True, "reason": None, "mismatched": 0, "total": 0, "cand": None, "eager": None}
    for (path, e), (_, c), (_, r) in zip(e_leaves, c_leaves, r_leaves):
        if not isinstance(e, torch.Tensor):
            if isinstance(e, (int, float)) and isinstance(c, (int, float)):
                a, rt = tolerance_for(torch.float32)
                good = c == e or (math.isfinite(c) and abs(c - e) <= a + rt * abs(e))
            else:
                good = c == e
            summary["total"] += 1
            if not good:
                summary["ok"] = False
                summary["mismatched"] += 1
                summary["reason"] = summary["reason"] or "%s is %r, reference is %r" % (path, c, e)
            continue
        if isinstance(r, torch.Tensor) and tuple(r.shape) != tuple(e.shape):
            r = None
        a, rt = tolerance_for(e.dtype)
        a = a if atol is None else atol
        rt = rt if rtol is None else rtol
        res = compare_tensor(c, e, r, a, rt, device=device)
        summary["total"] += res["total"]
        summary["mismatched"] += res["mismatched"]
        for key in ("cand", "eager"):
            if res[key] is not None:
                summary[key] = merge_metrics(summary[key], res[key])
        summary.setdefault("dtype", str(e.dtype).replace("torch.", ""))
        if not res["ok"]:
            summary["ok"] = False
            if summary["reason"] is None:
                w = res["worst"]
                summary["reason"] = "%s: %d of %d elements outside tolerance (atol=%g, rtol=%g)%s" % (
                    path, res["mismatched"], res["total"], a, rt,
                    "; worst at %s: got %r, float64 reference %r, eager %r" % (
                        w["index"], w["candidate"], w["reference_fp64"], w["eager"]) if w else "",
                )
    return summary


def merge_metrics(a, b):
    """Worst case of two metric dicts."""
    if a is None:
        return dict(b) if b is not None else None
    if b is None:
        return dict(a)
    return {k: max(a[k], b[k]) for k in a}


def bitwise_equal(a, b):
    """True when two tensors hold identical bytes (NaN payloads included)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.numel() == 0:
        return True
    return torch.equal(a.reshape(-1).contiguous().view(torch.uint8), b.reshape(-1).contiguous().view(torch.uint8))


def storages_overlap(a, b):
    """True when the memory behind two tensors overlaps."""
    sa, sb = a.untyped_storage(), b.untyped_storage()
    if a.device != b.device or sa.nbytes() == 0 or sb.nbytes() == 0:
        return False
    pa, pb = sa.data_ptr(), sb.data_ptr()
    return pa < pb + sb.nbytes() and pb < pa + sa.nbytes()
