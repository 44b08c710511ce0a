"""Inputs for the correctness trials: seeded draws from get_inputs() and adversarial variants.

``get_inputs()`` often draws from one narrow distribution (``torch.rand`` is all
positive, ``torch.randn`` never leaves a few units), so a kernel that only handles
that distribution, or special-cases it, looks correct.  Each variant keeps the shapes,
dtypes and integer tensors (indices, labels) of a real draw and changes only the values
of floating tensors:

``signed``       the same magnitudes with random signs (both branches of sign-dependent ops)
``wide``         magnitudes spread over 10^-3 .. 10^3 with random signs
``wide_same_sign`` magnitudes spread over 10^-3 .. 10^3, signs of the original draw
                 (for ops whose domain is one sign, such as log or sqrt)

A variant on which the reference itself produces NaN or Inf where the original draw
did not is outside the problem's domain; the judge drops it and says so.
"""

import random

import torch

VARIANTS = ("signed", "wide", "wide_same_sign")


def seed_everything(seed):
    """Seed every generator that get_inputs() or a model constructor may draw from."""
    random.seed(seed)
    torch.manual_seed(seed)
    try:
        import numpy as np

        np.random.seed(seed % (2**32))
    except ImportError:
        pass


def draw_inputs(get_inputs, seed):
    seed_everything(seed)
    inputs = get_inputs()
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("get_inputs() must return a list or tuple, got %s" % type(inputs).__name__)
    return list(inputs)


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


def to_float64(obj):
    if isinstance(obj, torch.Tensor):
        return obj.double() if obj.is_floating_point() else obj
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_float64(o) for o in obj)
    return obj


def tensors_in(obj):
    if isinstance(obj, torch.Tensor):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [t for o in obj for t in tensors_in(o)]
    if isinstance(obj, dict):
        return [t for o in obj.values() for t in tensors_in(o)]
    return []


def make_variant(inputs, kind, seed):
    """A copy of ``inputs`` whose floating tensors are rewritten as ``kind`` describes."""
    if kind not in VARIANTS:
        raise ValueError("unknown variant %r" % kind)
    gens = {}

    def rewrite(t):
        if not isinstance(t, torch.Tensor) or not t.is_floating_point() or t.numel() == 0:
            return t.clone() if isinstance(t, torch.Tensor) else t
        if t.device not in gens:
            gens[t.device] = torch.Generator(device=t.device).manual_seed(seed)
        gen = gens[t.device]

        def rand():
            return torch.rand(t.shape, generator=gen, dtype=torch.float64, device=t.device)

        x = t.detach().to(torch.float64)
        sign = torch.where(rand() < 0.5, -1.0, 1.0)
        if kind == "signed":
            # Keep magnitudes, but make sure they are not all ~0 (e.g. zeros()).
            mag = x.abs()
            if float(mag.max()) == 0.0:
                mag = rand()
            y = mag * sign
        else:
            mag = torch.pow(10.0, rand() * 6 - 3)
            if kind == "wide":
                y = mag * sign
            else:
                y = mag * torch.where(x < 0, -1.0, 1.0)
        return y.to(dtype=t.dtype, device=t.device)

    def walk(obj):
        if isinstance(obj, (list, tuple)):
            return type(obj)(walk(o) for o in obj)
        return rewrite(obj)

    return walk(inputs)
