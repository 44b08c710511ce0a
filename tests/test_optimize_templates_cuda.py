"""Every launch variant of the templates that only shapes beyond the corpus's reach (rows held
by a cluster, rows split across blocks, softmax statistics in one loop, one-loop variance,
rows kept in registers between loops, layouts walked in memory order) launched on the GPU:
each must build, launch and match its ATen twin, and the optimized model must match eager and
float64."""

import copy

import pytest
import torch
import torch.nn.functional as F

from kernelwright.kernel import nvrtc
from kernelwright.optimize import api, cluster, codegen, split
from tests.optimize_util import as_list, assert_matches, float64_errors

pytestmark = pytest.mark.cuda


@pytest.fixture(autouse=True)
def _needs_cuda():
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")


def _special_rows(x):
    """Rows of -inf, a leading -inf run, a +inf and a NaN among ordinary ones."""
    x = x.clone()
    x[1] = float("-inf")
    x[2, :7] = float("-inf")
    x[3, 5] = float("inf")
    x[4, 9] = float("nan")
    return x


def _special_columns(x):
    """A (b, :, k) line of -inf, one with a +inf and one with a NaN among ordinary ones."""
    x = x.clone()
    x[0, :, 1] = float("-inf")
    x[1, 3, 2] = float("inf")
    x[2, 9, 3] = float("nan")
    return x


_CASES = {
    # cluster rows: statistics then the normalized row, rows of 120 KB to 400 KB
    "layer_norm_cluster": (lambda x: F.layer_norm(x, x.shape[-1:]) * 1.5, lambda: torch.randn(300, 30000) + 3.0),
    "softmax_cluster": (lambda x: torch.softmax(x, -1), lambda: _special_rows(torch.randn(64, 100000))),
    "log_softmax_cluster": (lambda x: F.log_softmax(x, -1), lambda: torch.randn(48, 50000) * 4),
    "group_norm_cluster": (lambda x: torch.relu(F.group_norm(x, 4)), lambda: torch.randn(8, 16, 96, 96)),
    "instance_norm_cluster": (lambda x: F.instance_norm(x), lambda: torch.randn(1, 32, 128, 160)),
    # many rows a cluster (taken from the counter), rows off 16 bytes (filled by loads), and
    # an input that starts off 16 bytes (checked at run time)
    "softmax_many_rows_cluster": (lambda x: torch.softmax(x, -1) * 3.0, lambda: torch.randn(3000, 20000) * 2),
    "log_softmax_odd_cluster": (lambda x: F.log_softmax(x, -1), lambda: torch.randn(37, 30001) * 4),
    "layer_norm_offset_cluster": (lambda x: F.layer_norm(x, x.shape[-1:]),
                                  lambda: torch.randn(40 * 32768 + 1)[1:].view(40, 32768) * 2 - 1),
    # split rows with the online pair and with a one-loop variance
    "logsumexp_split": (lambda x: torch.logsumexp(x, 1), lambda: _special_rows(torch.randn(6, 3 * split.MIN_COLS + 5))),
    # a scan carried in double by the log-sum-exp of the carry and each chunk
    "logcumsumexp_scan": (lambda x: torch.logcumsumexp(x, 1) - 1.0, lambda: _special_rows(torch.randn(6, 1000) * 5)),
    # split rows in rounds: rows whose inputs outgrow half the L2, a round's rows across the grid
    "layer_norm_rounds_split": (lambda x: F.layer_norm(x, x.shape[-1:]),
                                lambda: torch.randn(7, (codegen.l2_bytes() // 4 + 5) // 4 - 3) * 2 + 1),
    "var_split": (lambda x: torch.var(x, dim=1), lambda: torch.randn(3, 40 * split.MIN_COLS) * 0.1 + 100.0),
    # split rows in 16-byte vectors where aligned, one column at a time where a row starts off 16 bytes
    "frobenius_split": (lambda x: x / torch.norm(x), lambda: torch.randn(2, 3, 5 * split.MIN_COLS) * 3 - 1),
    "frobenius_misaligned_split": (lambda x: x / torch.norm(x),
                                   lambda: torch.randn(3 * 5 * split.MIN_COLS + 1)[1:].view(3, -1) * 3 - 1),
    # the target's logit gathered from the input, the row statistics split across blocks
    "cross_entropy_split": (lambda x: F.cross_entropy(x, torch.arange(x.shape[0], device=x.device) * 7919 % x.shape[1]),
                            lambda: torch.randn(5, 4 * split.MIN_COLS) * 4),
    "cross_entropy": (lambda x: F.cross_entropy(x, torch.arange(x.shape[0], device=x.device) % x.shape[1]),
                      lambda: torch.randn(4096, 1000)),
    # rows read in vectors where aligned; one column at a time where a row starts off 16 bytes
    "layer_norm_misaligned": (lambda x: F.layer_norm(x, x.shape[-1:]), lambda: torch.randn(64 * 8192 + 1)[1:].view(64, 8192)),
    "rms_norm_half": (lambda x: x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6).to(x.dtype),
                      lambda: torch.randn(256, 8192).half() * 3),
    # reductions over a middle dim or dim 0: a warp on consecutive rows (ROWS_ACROSS_LANES)
    "sum_middle_dim_across": (lambda x: x.sum(1) * 0.5, lambda: torch.randn(6, 700, 301)),
    "argmax_ties_across": (lambda x: x.argmax(1), lambda: torch.randint(-3, 4, (5, 600, 129)).float()),
    "amin_nan_across": (lambda x: torch.amin(x, 1), lambda: _special_columns(torch.randn(4, 300, 65))),
    "softmax_middle_dim_across": (lambda x: torch.softmax(x, 1), lambda: _special_columns(torch.randn(4, 500, 67) * 3)),
    "var_dim0_across": (lambda x: torch.var(x, 0), lambda: torch.randn(3000, 37) * 0.1 + 100.0),
    # a row read again after its statistics, kept in registers between the loops (CACHED)
    "rms_norm_channels_cached": (lambda x: x / torch.sqrt(x.pow(2).mean(1, keepdim=True) + 1e-5),
                                 lambda: torch.randn(6, 48, 33, 17) * 3 - 1),
    "softmax_channels_cached": (lambda x: torch.softmax(x, 1) * 2.0, lambda: _special_columns(torch.randn(4, 20, 333))),
    "layer_norm_odd_row_cached": (lambda x: F.layer_norm(x, x.shape[-1:]), lambda: torch.randn(3001, 37) * 2 + 5),
    # nearest upsampling read through at float32 scales (fractional factors, a size)
    "nearest_upsample_factors": (lambda x: torch.relu(F.interpolate(x, scale_factor=(1.5, 2.7), mode="nearest") * 2 - 1),
                                 lambda: torch.randn(4, 8, 33, 21)),
    "nearest_upsample_size": (lambda x: torch.sigmoid(F.interpolate(x, size=(97, 61), mode="nearest")),
                              lambda: torch.randn(2, 16, 45, 29)),
    # bilinear upsampling blended in the kernel, half-pixel centres and aligned corners
    "bilinear_upsample_factors": (lambda x: F.interpolate(x, scale_factor=(0.37, 1.91), mode="bilinear") * 2 - 1,
                                  lambda: torch.randn(4, 8, 50, 33) * 3),
    "bilinear_upsample_align_size": (lambda x: torch.tanh(F.interpolate(x, size=(97, 61), mode="bilinear",
                                                                        align_corners=True)),
                                     lambda: torch.randn(2, 16, 45, 29)),
    # adaptive average pooling, windows of two sizes in each dim
    # a pooled tensor's taps in the padding: predicated loads, nothing read there
    "max_pool1d_padded_dilated": (lambda x: F.max_pool1d(x, 8, 1, 4, 3), lambda: _special_rows(torch.randn(6, 10, 4099))),
    "avg_pool2d_padded_ceil": (lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
                               lambda: torch.randn(4, 6, 37, 41)),
    # adaptive max pooling's values as an amax (an output of ones) or a max pooling (dividing)
    "adaptive_max_pool_global": (lambda x: F.adaptive_max_pool2d(x, 1) * 2 - 1, lambda: _special_rows(torch.randn(8, 16, 28, 28))),
    "adaptive_max_pool_dividing": (lambda x: torch.sigmoid(F.adaptive_max_pool2d(x, (7, 4))), lambda: torch.randn(4, 16, 28, 28)),
    # a float32 operand of a float16 op rounded to float16 first, as ATen casts it
    "half_op_of_float32_operand": (lambda x: (x.half() + x[:1, :1].sum()).float() - x, lambda: torch.randn(300, 77)),
    "adaptive_avg_pool_ragged": (lambda x: F.adaptive_avg_pool2d(torch.relu(x), (7, 5)) * 2 - 1,
                                 lambda: torch.randn(4, 16, 45, 29)),
    # pointwise kernels walking a channels_last result
    "channels_last_pointwise": (lambda x: torch.sigmoid(x) * 2.0 - x,
                                lambda: torch.randn(8, 64, 56, 56).to(memory_format=torch.channels_last)),
}


@pytest.mark.parametrize("case", sorted(_CASES))
def test_template_variants_launch_and_match(case):
    fn, make = _CASES[case]

    class M(torch.nn.Module):
        def forward(self, x):
            return fn(x)

    torch.manual_seed(0)
    x = make().cuda()
    model = M()
    optimized = api.optimize(model, [x])
    for gid, t in optimized.timings.items():
        assert not t.failures, "%s: %s" % (optimized.plan.specs[gid].name, t.failures)
    new = optimized.bind(copy.deepcopy(model))
    with torch.no_grad():
        want, got = as_list(model(x)), as_list(new(x))
        ref = as_list(model(x.double()))
    assert_matches(got, want, case)
    for g, w, r in zip(got, want, ref):
        err_new, err_eager = float64_errors(g, w, r)
        assert err_new <= 16 * max(err_eager, 2.0**-24), "%s: error %.3g vs eager's %.3g" % (case, err_new, err_eager)
    templates = {v.template for gid in optimized.timings for v in optimized.plan.specs[gid].variants}
    if case.endswith("_cluster") and torch.cuda.get_device_capability() >= (9, 0):
        assert "cluster rows" in templates, templates
    if case.endswith("_split"):
        assert "split rows" in templates, templates
    if case.endswith("_rounds_split"):
        assert any("ROUNDS" in dict(v.defines) for gid in optimized.timings for v in optimized.plan.specs[gid].variants)
    if case.endswith("_cached"):
        assert any(dict(v.defines).get("CACHED") for gid in optimized.timings
                   for v in optimized.plan.specs[gid].variants)
    if case.endswith("_across"):
        assert any(dict(v.defines).get("ROWS_ACROSS_LANES") for gid in optimized.timings
                   for v in optimized.plan.specs[gid].variants if not v.template)


def test_the_cluster_budget_fits_the_device():
    limit = nvrtc._limits_of_device(torch.cuda.current_device())["max_shared_optin"]
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("clusters need compute capability 9.0")
    assert cluster.SMEM_BUDGET + 4096 <= limit



class _Tanh(torch.nn.Module):
    def forward(self, x):
        return torch.tanh(x) * 2.0 - x


def test_kernels_compiled_ahead_are_the_ones_their_calls_load():
    from kernelwright.optimize import capture, plan as planning, runtime

    x = torch.randn(3, 1001, device="cuda")
    spec = next(iter(planning.plan(capture.capture(_Tanh(), [x])).specs.values()))
    kernels = [(spec.name, spec.cuda_source(launch)) for launch in spec.variants]
    broken = ("kw_broken", "extern \"C\" __global__ void kw_broken(float* y) { y[0] = undeclared; }\n")
    nvrtc._binaries.clear()
    runtime.compile_into_cache(kernels + [broken], torch.cuda.current_device())
    assert len(nvrtc._binaries) == len(set(kernels))  # the broken one is left for its call to report
    compiled = dict(nvrtc._binaries)
    for launch in spec.variants:
        k = runtime.Kernel(spec.name, spec.cuda_source(launch), launch.grid, launch.block,
                           [(t.shape, t.stride, t.dtype) for t in spec.inputs],
                           [(t.shape, t.stride, t.dtype) for t in spec.outputs], None, workspace=launch.workspace,
                           cooperative=launch.cooperative, shared=launch.shared)
        got, = k(x)
        torch.testing.assert_close(got, torch.tanh(x) * 2.0 - x)
    assert nvrtc._binaries == compiled
