"""One column loop for a row's max and its sum of exponentials (softmax, log_softmax,
logsumexp, cross entropy): the sum is kept relative to the running max and rescaled when the
max grows, so the row is read once for both statistics instead of twice.

A pair is a ``sum(exp(x - t))`` whose shift ``t`` is a row value computed from ``amax(x)``
alone (softmax subtracts the max itself; logsumexp subtracts it where it is finite, else 0).
The loop keeps ``s = sum(exp(x - g(m)))`` with ``g(m) = 0`` where ``m`` is infinite, else ``m``
(so that a leading -inf never makes ``exp(-inf - -inf)``); the row's sum is then
``s * exp(g(M) - t(M))``, which is ``s`` itself wherever ``M`` is finite, and reproduces ATen's
NaN and infinity where it is not.
"""

import torch

from . import opset
from .emitter import meta, reached, reduction_dims

# kw_online_add: one element. The sum is kept relative to a reference r, at most the running max
# m, moved up only where an element exceeds it by more than KW_ONLINE_SLACK: a term is then at
# most e^16, and the rescale (an exp in double) is taken a few times a row instead of, by some
# lane of the warp, at nearly every element while the lanes' maxima still grow.
# kw_online_part: a thread's (or block's) share, moved from its reference to the row's max. A
# share that is 0 stays 0 (its rescaling factor can overflow).
CUDA_MATH = r"""
#define KW_ONLINE_SLACK 16
template <typename T> KW_F T kw_shift(T m) { return kw_isinf(m) ? T(0) : m; }
template <typename T> KW_F void kw_online_add(T x, T& m, T& r, double& s) {
  if (x > m || x != x) m = x;  // a larger max, or a NaN, which then stays the max
  if (x > r + T(KW_ONLINE_SLACK) || x != x) {
    if (s != 0.0) s *= exp((double)kw_shift(r) - (double)kw_shift(x));
    r = x;
  }
  s += (double)kw_exp(x - kw_shift(r));
}
template <typename T> KW_F double kw_online_part(double s, T m, T row_max) {
  return s == 0.0 ? 0.0 : s * exp((double)kw_shift(m) - (double)kw_shift(row_max));
}
template <typename T> KW_F double kw_online_finish(double s, T row_max, T t) {
  return s * exp((double)kw_shift(row_max) - (double)t);
}
"""

CUDA_HELPERS = CUDA_MATH + r"""
template <typename T>
KW_F void kw_online_reduce(T& m, T r, double& s, T* smem, double* smem_d, int threads_per_row, bool across = false) {
  m = kw_reduce_rows(m, kw_max_op(), smem, threads_per_row, across);
  s = kw_reduce_rows(kw_online_part(s, r, m), kw_add_op(), smem_d, threads_per_row, across);
}
"""

_CTYPES = ("f32", "f64")


def pairs(reductions, members):
    """{sum node: amax node} for the sums of exponentials that can share the max's loop."""
    maxes = {r.args[0]: r for r in reductions if opset.op_name(r.target) == "amax"}
    found = {}
    for s in reductions:
        m = _paired_max(s, maxes, members)
        if m is not None and m not in found.values():
            found[s] = m
    return found


def shift_of(sum_node):
    """The ``t`` of ``sum(exp(x - t))``."""
    return sum_node.args[0].args[0].args[1]


def _paired_max(s, maxes, members):
    if opset.op_name(s.target) != "sum" or s.kwargs.get("dtype") is not None:
        return None
    e = s.args[0]
    if not _member_op(e, "exp", members):
        return None
    d = e.args[0]
    if not _member_op(d, "sub", members) or len(d.args) != 2 or d.kwargs:
        return None
    x, t = d.args
    m = maxes.get(x)
    if m is None or not isinstance(t, torch.fx.Node):
        return None
    dtypes = {meta(n).dtype for n in (x, d, e, s)}
    if len(dtypes) != 1 or opset.ctype_of(dtypes.pop()) not in _CTYPES:
        return None
    if reached(t, members, opset.REDUCTION) != [m]:
        return None
    full, t_shape = tuple(meta(x).shape), tuple(meta(t).shape)
    lead = len(full) - len(t_shape)
    dims = reduction_dims(m)[0]
    if lead < 0 or any(i - lead >= 0 and t_shape[i - lead] != 1 for i in dims):
        return None  # the shift varies along the row
    return m


def _member_op(n, name, members):
    return isinstance(n, torch.fx.Node) and n in members and opset.op_name(n.target) == name
