"""A row the rows template reads in more than one column loop (statistics, then the normalized
row) is read from memory once in the CACHED variants: the first loop keeps each column's load
in registers (KW_PUT) and later loops take it from there (KW_GET)."""

import re

import pytest
import torch
import torch.nn.functional as F

from kernelwright.optimize import codegen
from tests.test_optimize_templates import _compiles, _fused_matches_aten


def _rows_specs(p):
    return [p.specs[g.id] for g in p.groups if p.specs[g.id].template == "rows"]


def _cached(spec):
    return [v for v in spec.variants if dict(v.defines).get("CACHED")]


@pytest.mark.parametrize("fn, shape", [
    (lambda x: x / torch.sqrt(x.pow(2).mean(1, keepdim=True) + 1e-5), (3, 24, 5, 7)),
    (lambda x: torch.softmax(x, 1) * 2.0, (2, 19, 9)),
    (lambda x: F.layer_norm(x, x.shape[-1:]), (5, 37)),
    (lambda x: x - torch.var(x, 0, keepdim=True), (11, 6, 5)),
], ids=["rms_channels", "softmax_channels", "layer_norm_odd_row", "variance_dim0"])
def test_a_row_read_again_is_kept_in_registers(fn, shape):
    p = _fused_matches_aten(fn, shape)  # the twin matches ATen; every variant compiles
    spec, = _rows_specs(p)
    cached = _cached(spec)
    assert cached, [v.describe() for v in spec.variants]
    source = spec.cuda_source(cached[0])
    put = set(re.findall(r"KW_PUT\((\d+),", source))
    got = set(re.findall(r"KW_GET\((\d+),", source))
    assert put and got == put
    # each slot is written in a loop before the one that reads it
    assert all(source.index("KW_PUT(%s," % s) < source.index("KW_GET(%s," % s) for s in put)
    for v in cached:
        d = dict(v.defines)
        assert -(-spec.cols // d["THREADS"]) * len(put) <= codegen._CACHE_WORDS and d["VEC"] == 1
    assert len(cached) <= codegen._CACHED_VARIANTS


@pytest.mark.parametrize("fn", [lambda x: x.sum(1), lambda x: x.amax(1) * 2.0, lambda x: torch.logsumexp(x, 1)],
                         ids=["sum", "amax", "logsumexp"])
def test_a_row_read_once_keeps_nothing(fn):
    p = _fused_matches_aten(fn, (3, 40, 33))
    spec, = _rows_specs(p)
    assert not _cached(spec)
    assert "KW_PUT" not in spec.cuda_source() and "KW_GET" not in spec.cuda_source()


def test_a_long_row_keeps_nothing_a_thread_could_not_hold():
    """4096 columns: no thread of any variant would hold its share in 32 registers."""
    p = _fused_matches_aten(lambda x: x / torch.sqrt(x.pow(2).mean(1, keepdim=True) + 1e-5), (2, 4096, 3))
    spec, = _rows_specs(p)
    for v in _cached(spec):
        assert -(-spec.cols // dict(v.defines)["THREADS"]) <= codegen._CACHE_WORDS
    _compiles(spec, _cached(spec))
