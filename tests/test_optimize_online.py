"""The one-loop max and sum of exponentials (optimize/online.py): which reductions pair, what
the kernel's loops become, and the update and combine arithmetic itself, compiled for the host
and checked against float64 on rows with infinities, NaN, huge values and a max that grows at
every element."""

import math
import shutil
import subprocess

import pytest
import torch
import torch.nn.functional as F

from kernelwright.kernel import nvrtc
from kernelwright.optimize import capture, dialects, kernels, online, plan, runtime, split


def _planned(fn, x):
    class M(torch.nn.Module):
        def forward(self, x):
            return fn(x)

    return plan.plan(capture.capture(M(), [x]))


def _statistics_loops(p):
    """Per rows kernel of the plan: (reduction loops, pairs) in its CUDA rendering."""
    out = []
    for g in p.groups:
        if p.specs[g.id].template != "rows":
            continue
        _, _, lines, _, _, _ = kernels.rows(g.nodes, g.outputs, dialects.Cuda())
        loops = [seg for seg in lines if isinstance(seg, kernels.Loop) and seg.reduces]
        out.append((len(loops), sum(1 for seg in loops for r in seg.reduces if r.online_of)))
    return out


_PAIRED = {
    "softmax": lambda x: torch.softmax(x, -1),
    "log_softmax_dim0": lambda x: F.log_softmax(x, 0),
    "logsumexp": lambda x: torch.logsumexp(x, 1),
    "cross_entropy": lambda x: F.cross_entropy(x, torch.arange(x.shape[0]) % x.shape[1]),
}


@pytest.mark.parametrize("case", sorted(_PAIRED))
def test_softmax_statistics_take_one_loop(case):
    p = _planned(_PAIRED[case], torch.randn(6, 37))
    assert (1, 1) in _statistics_loops(p)
    if nvrtc.available():
        for g in p.groups:
            spec = p.specs[g.id]
            for launch in spec.variants:
                nvrtc._compile(runtime.PRELUDE + spec.cuda_source(launch), spec.name + ".cu", spec.name,
                               ["--gpu-architecture=compute_90", "-std=c++17"], spec.name)


_UNPAIRED = {
    "shift_varies_along_the_row": lambda x: (x - x.amax(1, keepdim=True) * torch.linspace(0, 1, x.shape[1])).exp().sum(1),
    "max_of_another_value": lambda x: (x - (2 * x).amax(1, keepdim=True)).exp().sum(1),
    "mean_not_sum": lambda x: (x - x.amax(1, keepdim=True)).exp().mean(1),
    "no_exp": lambda x: (x - x.amax(1, keepdim=True)).abs().sum(1),
}


@pytest.mark.parametrize("case", sorted(_UNPAIRED))
def test_sums_that_are_not_softmax_statistics_keep_their_own_loop(case):
    p = _planned(_UNPAIRED[case], torch.randn(6, 37))
    assert [pairs for _, pairs in _statistics_loops(p)] == [0] * len(_statistics_loops(p))
    assert max(loops for loops, _ in _statistics_loops(p)) == 2


def test_split_rows_move_each_parts_sum_to_the_rows_max():
    p = _planned(lambda x: torch.logsumexp(x, 1), torch.randn(2, 3 * split.MIN_COLS))
    spec = p.specs[p.groups[0].id]
    launch = next(v for v in spec.variants if v.template == "split rows")
    assert "kw_online_part(kw_part_load<double>" in spec.cuda_source(launch)


_HOST = r"""
#include <cmath>
#include <cstdio>
#define KW_F inline
KW_F bool kw_isinf(float x) { return std::isinf(x); }
KW_F bool kw_isinf(double x) { return std::isinf(x); }
KW_F float kw_exp(float x) { return std::exp(x); }
KW_F double kw_exp(double x) { return std::exp(x); }
%(math)s
int main() {
  const int rows = %(rows)d, cols = %(cols)d, threads = %(threads)d;
  static const float x[] = {%(values)s};
  for (int r = 0; r < rows; ++r) {
    float m[threads], ref[threads]; double s[threads];
    for (int t = 0; t < threads; ++t) {
      m[t] = ref[t] = -INFINITY; s[t] = 0.0;
      for (int c = t; c < cols; c += threads) kw_online_add(x[r * cols + c], m[t], ref[t], s[t]);
    }
    float row_max = -INFINITY;  // as kw_max_op: NaN wins
    for (int t = 0; t < threads; ++t) if (m[t] != m[t] || m[t] > row_max) row_max = m[t];
    double sum = 0.0;
    for (int t = 0; t < threads; ++t) sum += kw_online_part(s[t], ref[t], row_max);
    const float lse_shift = std::isinf(row_max) ? 0.0f : row_max;  // logsumexp's shift
    std::printf("%%.17g %%.17g\n", kw_online_finish(sum, row_max, row_max), kw_online_finish(sum, row_max, lse_shift));
  }
}
"""


def _host_rows():
    inf, nan = math.inf, math.nan
    torch.manual_seed(0)
    rows = [torch.randn(40).tolist(),
            (torch.randn(40) * 30 + 5000).tolist(),  # exp overflows float unless shifted
            (torch.randn(40) - 5000).tolist(),
            sorted(torch.randn(40).tolist()),  # the max grows at every element
            torch.linspace(-100, 100, 40).tolist(),  # ... by less than the slack, and past it
            (torch.randn(40) * 20).tolist(),
            [-inf] * 5 + torch.randn(35).tolist(),
            [-inf] * 40,
            torch.randn(20).tolist() + [inf] + torch.randn(19).tolist(),
            torch.randn(20).tolist() + [nan] + torch.randn(19).tolist(),
            [nan] + torch.randn(39).tolist(),
            [3.0] * 40]
    return torch.tensor(rows, dtype=torch.float32)


@pytest.mark.skipif(shutil.which("c++") is None, reason="needs a host C++ compiler")
@pytest.mark.parametrize("threads", [1, 4, 32])
def test_online_update_and_combine_match_float64_softmax_sums(tmp_path, threads):
    x = _host_rows()
    rows, cols = x.shape
    source = _HOST % {"math": online.CUDA_MATH, "rows": rows, "cols": cols, "threads": threads,
                      "values": ", ".join(_c_float(v) for v in x.reshape(-1).tolist())}
    (tmp_path / "online.cpp").write_text(source)
    subprocess.run(["c++", "-O1", "-std=c++17", "-o", str(tmp_path / "online"), str(tmp_path / "online.cpp")],
                   check=True, capture_output=True)
    out = subprocess.run([str(tmp_path / "online")], check=True, capture_output=True, text=True).stdout
    got = torch.tensor([[float(v) for v in line.split()] for line in out.splitlines()], dtype=torch.float64)
    xd = x.double()
    m = xd.amax(1, keepdim=True)
    softmax_sum = (xd - m).exp().sum(1)
    lse_shift = torch.where(m.isinf(), torch.zeros_like(m), m)
    lse_sum = (xd - lse_shift).exp().sum(1)
    for col, want in ((0, softmax_sum), (1, lse_sum)):
        torch.testing.assert_close(got[:, col], want, rtol=1e-6, atol=0, equal_nan=True)


def _c_float(v):
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return repr(float(v)) + "f"
