"""Inputs for the correctness trials: seeded draws from get_inputs() and adversarial variants.

``get_inputs()`` often draws from one narrow distribution (``torch.rand`` is all
positive, ``torch.randn`` never leaves a few units), so a kernel that only handles
that distribution, or special-cases it, looks correct.  Each variant keeps the shapes,
dtypes and integer tensors (indices, labels) of a real draw and changes only the values
of floating tensors:

``signed``       the same magnitudes with random signs (both branches of sign-dependent ops)
``wide``         magnitudes spread over 10^-3 .. 10^3 with random signs
``shifted``      the draw plus one constant, 10 to 300 times its RMS (at most 1/64 of the
                 dtype's range), of the sign of its mean (random where the mean is near
                 zero): a large common offset, as in
                 activations that are not centred, breaks shortcuts such as a variance
                 taken as E[x^2] - E[x]^2, statistics in half precision, or an exponential
                 without its max shift, that centred draws never show
``wide_same_sign`` magnitudes spread over 10^-3 .. 10^3, signs of the original draw
                 (for ops whose domain is one sign, such as log or sqrt)
``small``        the draw times one constant in 10^-3 .. 10^-1: where an epsilon is
                 comparable to the values (a variance near a LayerNorm's eps, a norm near a
                 clamp), an epsilon in the wrong place, such as 1/(sqrt(var) + eps) for
                 1/sqrt(var + eps), shows; unit-scale draws hide it

A variant on which the reference itself produces NaN or Inf where the original draw
did not is outside the problem's domain; the judge drops it and says so.
"""

import random
import zlib

import torch

VARIANTS = ("signed", "wide", "shifted", "wide_same_sign", "small")  # at most api.VARIANT_SEEDS


def seed_everything(seed):
    """Seed every generator that get_inputs() or a model constructor may draw from."""
    random.seed(seed)
    torch.manual_seed(seed)
    try:
        import numpy as np

        np.random.seed(seed % (2**32))
    except ImportError:
        pass


def seed_forward(init_seed, set_name):
    """Seed every generator before a forward on input set ``set_name`` whose output is judged:
    a model that draws random numbers (dropout in training mode) then draws the same ones for
    the eager reference in the judge and for the candidate in its own worker, whatever each
    process drew before. The seed is a function of the set's name, the same in every process."""
    seed_everything((init_seed * 1000003 + zlib.crc32(set_name.encode())) % (1 << 63))


def draw_inputs(get_inputs, seed, device=None):
    """``get_inputs()`` under ``seed``; on a CUDA ``device``, with that device as the default.

    Factory calls in ``get_inputs()`` that name no device then draw on the GPU: the same
    distributions, without PyTorch's CPU generator, which gains nothing from threads (0.66 s per
    400 MB of ``torch.randn`` with one thread or two, so ~10 s for 6 GiB).  Tensors made with an
    explicit device stay there.
    """
    seed_everything(seed)
    if device is not None and torch.device(device).type == "cuda":
        with torch.device(device):
            inputs = get_inputs()
    else:
        inputs = get_inputs()
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("get_inputs() must return a list or tuple, got %s" % type(inputs).__name__)
    return list(inputs)


def construct(cls, init_inputs, seed, device=None):
    """``cls(*init_inputs)`` under ``seed``, moved to ``device``; on a CUDA device, built there
    as ``draw_inputs`` draws: parameters initialised by the GPU's generator (a 32768 x 32768
    Linear took 7-10 s on the CPU, and a problem's model is built three times). A constructor
    that cannot run with the GPU as the default device (a CPU generator, ``.numpy()``) is built
    on the CPU and moved, whose error, if it fails there too, is the one raised."""
    if device is not None and torch.device(device).type == "cuda":
        seed_everything(seed)
        try:
            with torch.device(device):
                return _moved(cls(*init_inputs), device)
        except Exception:  # noqa: BLE001 - built on the CPU below
            pass
    seed_everything(seed)
    return _moved(cls(*init_inputs), device)


def _moved(model, device):
    return model.to(device) if device is not None and isinstance(model, torch.nn.Module) else model


class InputsNotReproduced(RuntimeError):
    """An input set drawn again from its seeds differs from the judge's draw."""


def draw_set(get_inputs, recipe, trial_seeds, variant_seeds, device):
    """Input set ``recipe`` = (trial index, variant index or None) on ``device``, drawn again
    from its seeds exactly as the judge made it: the trial's draw, and the variant made from
    it on the device.  Both workers call this, so a reproducible ``get_inputs()`` gives them
    the same bytes without passing the set between them."""
    b, k = recipe
    x = to_device(draw_inputs(get_inputs, trial_seeds[b], device), device)
    if k is None:
        return x
    return make_variant(x, VARIANTS[k], variant_seeds[k])


def identical(a, b):
    """True when two draws hold the same structure, values and tensor bytes."""
    from kernelwright.harness.compare import bitwise_equal

    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.device == b.device \
            and a.stride() == b.stride() and bitwise_equal(a, b)
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(identical(u, v) for u, v in zip(a, b))
    if isinstance(a, dict) or isinstance(b, dict):
        return type(a) is type(b) and a.keys() == b.keys() and all(identical(a[k], b[k]) for k in a)
    try:
        return bool(a == b)
    except Exception:  # a value whose == is not a truth value: judged unequal, the safe answer
        return False


def to_device(obj, device):
    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_device(o, device) for o in obj)
    if isinstance(obj, dict):
        return {k: to_device(v, device) for k, v in obj.items()}
    return obj


def clone_tree(obj):
    if isinstance(obj, torch.Tensor):
        return obj.clone()
    if isinstance(obj, (list, tuple)):
        return type(obj)(clone_tree(o) for o in obj)
    return obj


def rescale(pristine, work, scale):
    """Make ``work`` (a copy of the input list ``pristine``) the inputs of one timed call.

    Floating tensors become ``pristine * scale``, other tensors copies of ``pristine``; the
    multiplication runs on ``work``'s device.  The judge rebuilds a re-checked call's inputs
    with this same function, from the same set and scale.
    """
    for src, dst in zip(pristine, work):
        if isinstance(dst, torch.Tensor):
            if not dst.is_floating_point():
                dst.copy_(src)
            elif src.device == dst.device:
                torch.mul(src, scale, out=dst)
            else:
                dst.copy_(src)
                dst.mul_(scale)
    return work


# Share of the elements a "touched" timed call changes (see ``touch``).
TOUCH_FRACTION = 1e-3


def touch(work, seed, factor, fraction=TOUCH_FRACTION):
    """Multiply a random ``fraction`` of the elements of each floating tensor in ``work`` by
    ``factor``, in place; positions drawn from ``seed`` on the tensor's device.

    A timed call whose inputs differ from the call before only there looks unchanged to a
    cache keyed on a sample of the input values, which then returns the previous output: the
    re-check of that call finds it wrong.  The judge rebuilds the same inputs from the seed.
    """
    for k, t in enumerate(work):
        if isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel() > 0:
            g = torch.Generator(device=t.device)
            g.manual_seed((seed + k) % (1 << 63))
            count = max(1, int(t.numel() * fraction))
            pos = torch.randint(t.numel(), (count,), generator=g, device=t.device)
            idx = torch.unravel_index(pos, t.shape)
            t.index_put_(idx, t[idx] * factor)
    return work


def to_float64(obj):
    if isinstance(obj, torch.Tensor):
        return obj.double() if obj.is_floating_point() else obj
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_float64(o) for o in obj)
    return obj


def float64_copy(obj):
    """A private float64 copy of every floating tensor and a clone of the rest (one copy each)."""
    if isinstance(obj, torch.Tensor):
        return obj.to(torch.float64, copy=True) if obj.is_floating_point() else obj.clone()
    if isinstance(obj, (list, tuple)):
        return type(obj)(float64_copy(o) for o in obj)
    return obj


def nbytes(obj):
    """Bytes of all tensors in a (nested) object."""
    return sum(t.numel() * t.element_size() for t in tensors_in(obj))


def tensors_in(obj):
    if isinstance(obj, torch.Tensor):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [t for o in obj for t in tensors_in(o)]
    if isinstance(obj, dict):
        return [t for o in obj.values() for t in tensors_in(o)]
    return []


# Elements per chunk when rewriting values: float64 temporaries stay at a few hundred MiB
# however large the tensor (variants of a 6 GiB input used to need ~8x its size).
CHUNK_ELEMENTS = 1 << 24


def _offset(flat, chunk, gen):
    """The ``shifted`` variant's constant for one tensor: 10^U(1, 2.5) times its RMS (or 1
    where it is all zero), with the sign of its mean where the mean is not small beside the
    RMS (a one-signed domain stays one-signed), else a random sign; at most 1/64 of the
    dtype's largest value (1024 in float16), so that the shifted values stay finite and
    their squares do in float32."""
    total = square = 0.0
    for lo in range(0, flat.numel(), chunk):
        x = flat[lo:lo + chunk].to(torch.float64)
        total += float(x.sum())
        square += float(x.square().sum())
    mean, rms = total / flat.numel(), (square / flat.numel()) ** 0.5
    u = torch.rand(2, generator=gen, dtype=torch.float64, device=flat.device).tolist()
    sign = (1.0 if mean > 0 else -1.0) if abs(mean) > 0.1 * rms else (1.0 if u[0] < 0.5 else -1.0)
    size = 10.0 ** (1.0 + 1.5 * u[1]) * (rms if rms > 0 else 1.0)
    return sign * min(size, torch.finfo(flat.dtype).max / 64)


def make_variant(inputs, kind, seed, chunk_elements=None):
    """A copy of ``inputs`` whose floating tensors are rewritten as ``kind`` describes.

    The values are computed in float64 chunk by chunk and written into a tensor of the
    input's own dtype, so the extra memory is one copy of the input plus one chunk.
    """
    if kind not in VARIANTS:
        raise ValueError("unknown variant %r" % kind)
    chunk = int(chunk_elements or CHUNK_ELEMENTS)
    gens = {}

    def rewrite(t):
        if not isinstance(t, torch.Tensor) or not t.is_floating_point() or t.numel() == 0:
            return t.clone() if isinstance(t, torch.Tensor) else t
        if t.device not in gens:
            gens[t.device] = torch.Generator(device=t.device).manual_seed(seed)
        gen = gens[t.device]
        src = t.detach().reshape(-1)
        out = torch.empty(t.shape, dtype=t.dtype, device=t.device)
        flat = out.view(-1)
        # "signed" keeps magnitudes unless they are all ~0 (e.g. zeros()).
        all_zero = kind == "signed" and not bool(src.any())
        if kind == "shifted":
            offset = _offset(src, chunk, gen)
        elif kind == "small":
            factor = 10.0 ** float(torch.rand(1, generator=gen, dtype=torch.float64, device=t.device) * 2 - 3)
        for lo in range(0, src.numel(), chunk):
            x = src[lo:lo + chunk].to(torch.float64)

            def rand(shape=x.shape):
                return torch.rand(shape, generator=gen, dtype=torch.float64, device=t.device)

            if kind in ("shifted", "small"):
                flat[lo:lo + x.numel()].copy_(x + offset if kind == "shifted" else x * factor)
                continue
            sign = torch.where(rand() < 0.5, -1.0, 1.0)
            if kind == "signed":
                y = (rand() if all_zero else x.abs()) * sign
            else:
                mag = torch.pow(10.0, rand() * 6 - 3)
                y = mag * sign if kind == "wide" else mag * torch.where(x < 0, -1.0, 1.0)
            flat[lo:lo + x.numel()].copy_(y)
            del x, y, sign
        return out

    def walk(obj):
        if isinstance(obj, (list, tuple)):
            return type(obj)(walk(o) for o in obj)
        return rewrite(obj)

    return walk(inputs)
