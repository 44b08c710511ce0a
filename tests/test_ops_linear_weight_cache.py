"""linear with a WeightCache: the weight's conversion for the tensor cores made once and kept
while the weight stays as it is; the same results as without it, before and after the weight
changes, with the same gradients."""

import pytest
import torch

import kernelwright.ops as K
from reference import poison, randn
from test_ops_linear import ACTS, check_against_torch, float32_modes, make, precision, torch_linear

# (m, n, k): rows under and over the 96 from which 'auto' takes the conversion at 'highest' (given
# 2^31 multiply-adds, which these small shapes leave to cuBLAS under 'auto': test_ops_linear's
# test_auto_at_highest takes the conversion); an n off 16 bytes (a padded output); a k off 16
# bytes (a padded segment).
SHAPES = [(5, 24, 64), (64, 128, 256), (130, 37, 1000), (96, 520, 999)]


@pytest.mark.parametrize("mnk", SHAPES, ids=str)
@pytest.mark.parametrize("act", ACTS, ids=str)
def test_cached_weight_gives_linears_result(device, mnk, act):
    x, w, b = make(*mnk, torch.float32, device)
    for mode in float32_modes(device) + [("highest", "auto")]:
        cache = K.WeightCache()
        with precision(*mode):
            poison(device)
            first = K.linear(x, w, b, act, cache=cache)
            check_against_torch(first, x, w, b, act, floor=1e-6)
            assert torch.equal(K.linear(x, w, b, act, cache=cache), first), mode
            x2 = randn(x.shape, torch.float32, device, scale=0.5, mean=-0.2)  # new input, same weight
            check_against_torch(K.linear(x2, w, b, act, cache=cache), x2, w, b, act, floor=1e-6)


def test_cache_follows_the_weight(device):
    """Every way a weight changes makes the conversion again: in place, new storage, another
    tensor, a view of another layout, another precision."""
    x, w, b = make(96, 200, 300, torch.float32, device)
    cache = K.WeightCache()
    with precision("highest"):
        check_against_torch(K.linear(x, w, b, cache=cache), x, w, b, None, floor=1e-6)
        w.mul_(-0.5).add_(0.01)  # in place: the version counter moves
        check_against_torch(K.linear(x, w, b, cache=cache), x, w, b, None, floor=1e-6)
        w.data = randn(w.shape, torch.float32, device, scale=0.05)  # new storage
        check_against_torch(K.linear(x, w, b, cache=cache), x, w, b, None, floor=1e-6)
        other = randn(w.shape, torch.float32, device, scale=0.05, mean=0.01)
        check_against_torch(K.linear(x, other, b, cache=cache), x, other, b, None, floor=1e-6)
        wt = randn((300, 200), torch.float32, device, scale=0.05).t()  # k-major no longer
        for _ in range(2):
            check_against_torch(K.linear(x, wt, b, cache=cache), x, wt, b, None, floor=1e-6)
    with precision("high"):
        check_against_torch(K.linear(x, wt, b, cache=cache), x, wt, b, None, floor=1e-6)
    with precision("highest"):
        check_against_torch(K.linear(x, wt, b, cache=cache), x, wt, b, None, floor=1e-6)


def test_batched_input_and_gradients(device):
    x, w, b = make(130, 96, 200, torch.float32, device)
    cache = K.WeightCache()
    for mode in float32_modes(device):
        grads = []
        for dtype in (torch.float32, torch.float64):
            leaves = [t.to(dtype).view(2, 65, 200) if i == 0 else t.to(dtype) for i, t in enumerate((x, w, b))]
            leaves = [t.requires_grad_() for t in leaves]
            with precision(*mode):
                out = (K.linear(*leaves, "gelu", cache=cache) if dtype == torch.float32
                       else torch_linear(*leaves, "gelu"))
                assert out.shape == (2, 65, 96)
                g = torch.linspace(-1, 1, out.numel(), dtype=dtype, device=device).view(out.shape)
                grads.append(torch.autograd.grad(out, leaves, g))
        for got, want in zip(*grads):
            err = ((got.double() - want).norm() / want.norm()).item()
            assert err < (5e-6 if mode[0] == "highest" else 5e-3), mode


def test_prepared_op_is_a_well_formed_op(device):
    x, w, b = make(64, 32, 48, torch.float32, device)
    with precision("highest", "fp16"):
        parts, scales = torch.ops.kernelwright.linear_prepare_weight(w)
        if device == "cpu":
            assert parts.numel() == 0 and scales.numel() == 0, "no conversion applies on the CPU"
        for args in ((x, w, parts, scales, b, "gelu"), (x, w, parts, scales, None, "none")):
            torch.library.opcheck(torch.ops.kernelwright.linear_prepared.default, args)


def test_bad_conversion_is_a_clear_error(device):
    x, w, b = make(64, 32, 48, torch.float32, device)
    half = torch.ones((33, 48), dtype=torch.float16, device=device)
    op = torch.ops.kernelwright.linear_prepared
    cases = [
        (lambda: op(x, w, half[:5], torch.ones(5, device=device), b), "weight_parts"),
        (lambda: op(x, w, half.float(), torch.ones(33, device=device), b), "weight_parts"),
        (lambda: op(x, w, half[:32], torch.ones(7, device=device), b), "weight_scales"),
        (lambda: op(x, w, half[:32], torch.ones(32, dtype=torch.float64, device=device), b), "weight_scales"),
        (lambda: torch.ops.kernelwright.linear_prepare_weight(w[0]), "weight"),
    ]
    for call, word in cases:
        with pytest.raises(ValueError, match=word):
            call()
    check_against_torch(K.linear(x, w, b, cache=K.WeightCache()), x, w, b, None, floor=1e-6)  # the next call works
