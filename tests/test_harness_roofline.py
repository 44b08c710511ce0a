"""Work counting, ceilings and the sentence on what bounds a candidate (roofline.py)."""

import math

import pytest
import torch
import torch.nn as nn

from kernelwright import timing
from kernelwright.harness import report, roofline

# ------------------------------------------------------------------- work


class MatMul(nn.Module):
    def forward(self, a, b):
        return a @ b


class Elementwise(nn.Module):
    def forward(self, x):
        return torch.nn.functional.elu(x) * 2


def test_matmul_flops_are_2mnk_and_bytes_count_inputs_and_output():
    m, k, n = 24, 40, 16
    a, b = torch.randn(m, k), torch.randn(k, n)
    out, work = roofline.count_work(MatMul(), [a, b])
    assert torch.equal(out, a @ b)
    assert work["flops"] == 2 * m * n * k
    assert work["bytes"] == (m * k + k * n + m * n) * 4
    assert work["dtype"] == "float32"


def test_parameters_count_as_bytes_once():
    lin = nn.Linear(64, 48)
    x = torch.randn(32, 64, dtype=torch.float64)
    lin = lin.double()
    _, work = roofline.count_work(lin, [x])
    assert work["flops"] == 2 * 32 * 64 * 48
    assert work["bytes"] == (32 * 64 + 48 * 64 + 48 + 32 * 48) * 8
    assert work["dtype"] == "float64"


def test_elementwise_has_no_flops_and_moves_input_plus_output():
    x = torch.randn(128, 33)
    _, work = roofline.count_work(Elementwise(), [x])
    assert work["flops"] == 0
    assert work["bytes"] == 2 * x.numel() * 4


def test_used_bytes_counts_shared_memory_once():
    x = torch.randn(100, 10)
    assert roofline.used_bytes([x, x, x[3:7]]) == 4000
    assert roofline.used_bytes([x[3:7]]) == 4 * 10 * 4
    assert roofline.used_bytes([x[:, 0]]) == (99 * 10 + 1) * 4  # a column reaches across the rows
    row = torch.randn(10)
    assert roofline.used_bytes([row.expand(1000, 10)]) == 40
    assert roofline.used_bytes([torch.empty(0, 5), x.t()]) == 4000
    assert roofline.used_bytes([]) == 0


def test_main_dtype_is_the_one_holding_most_bytes():
    assert roofline.main_dtype([torch.zeros(10, dtype=torch.bfloat16), torch.zeros(3)]) == "bfloat16"
    assert roofline.main_dtype([torch.zeros(10, dtype=torch.int64)]) == "float32"


# --------------------------------------------------------------- ceilings


def test_cpu_ceilings_are_measured_once_and_cheap(monkeypatch):
    monkeypatch.setattr(roofline, "_measured", {})
    cpu = torch.device("cpu")
    budgets = []

    def time_fn(*args, **kwargs):
        budgets.append(kwargs["budget_s"])
        return timing.time_fn(*args, **kwargs)

    copy = roofline.copy_ceiling(cpu, None, timing.flush_buffer_bytes(cpu), time_fn)
    matrix = roofline.matrix_ceiling(cpu, "float32", None, time_fn)
    # Cheap by construction: one timing run each, on a small time budget.
    assert len(budgets) == 2 and sum(budgets) <= 1.0
    assert copy["copy_bytes"] >= timing.flush_buffer_bytes(cpu)
    for rate in (copy["copy_gbps"], matrix["matrix_tflops"]):
        assert isinstance(rate, float) and math.isfinite(rate) and rate > 0
    assert matrix["matrix_dtype"] == "float32"
    assert matrix["precision"] == torch.get_float32_matmul_precision()
    # No tensor cores for a split to run on: float32's own torch.mm alone.
    assert matrix["matrix_method"] == "float32 torch.mm at '%s'" % matrix["precision"]
    assert matrix["matrix_rates"] == {matrix["matrix_method"]: matrix["matrix_tflops"]}

    def never(*args, **kwargs):
        raise AssertionError("measured twice")

    assert roofline.copy_ceiling(cpu, None, 0, never) is copy
    assert roofline.matrix_ceiling(cpu, "float32", None, never) == matrix


def test_ceilings_that_do_not_fit_are_not_measured(monkeypatch):
    monkeypatch.setattr(roofline, "_measured", {})
    cpu = torch.device("cpu")
    assert roofline.copy_ceiling(cpu, 1 << 20, 64 << 20, timing.time_fn) is None
    assert roofline.matrix_ceiling(cpu, "float32", 1 << 20, timing.time_fn) is None
    assert roofline._measured == {}


def test_float32_methods_follow_the_precision_on_a_gpu():
    methods = lambda precision, device="cuda": [  # noqa: E731
        (mm, products) for _, mm, products in roofline.matrix_methods("float32", precision, device)]
    assert methods("highest") == [("float32", 1), ("float16", 3), ("bfloat16", 3)]
    assert methods("high") == [("float32", 1), ("float16", 1)]
    assert methods("medium") == [("float32", 1), ("float16", 1), ("bfloat16", 1)]
    for precision in ("highest", "high", "medium"):
        assert methods(precision, "cpu") == [("float32", 1)]
        for dtype in ("float16", "bfloat16", "float64"):
            assert roofline.matrix_methods(dtype, precision, "cuda") == [("%s torch.mm" % dtype, dtype, 1)]
    labels = [label for label, _, _ in roofline.matrix_methods("float32", "highest", "cuda")]
    assert labels == ["float32 torch.mm at 'highest'", "float16 torch.mm / 3 (3-product split)",
                      "bfloat16 torch.mm / 3 (3-product split)"]


# torch.mm rates: float32 at 'highest' and 'high' as measured on an H200
# (benchmarks/results/gemm_precision_nvidia-h200_2026-11-22.md); the half-precision ones
# assumed (not recorded; kernelwright's one-float16-product GEMM ran 462 TFLOP/s there).
H200_MM = {("float32", "highest"): 50.9, ("float32", "high"): 355.2, ("float32", "medium"): 355.2,
           "float16": 760.0, "bfloat16": 740.0}
# kernelwright's own GEMMs there: the float16 split at 'highest', one float16 product at 'high'.
KERNELWRIGHT_TFLOPS = {"highest": 131.1, "high": 429.3, "medium": 462.0}


@pytest.mark.parametrize("precision,method,tflops", [
    ("highest", "float16 torch.mm / 3 (3-product split)", 760.0 / 3),
    ("high", "float16 torch.mm", 760.0),
    ("medium", "float16 torch.mm", 760.0),
])
def test_gpu_float32_ceiling_is_the_fastest_method_the_precision_allows(monkeypatch, precision, method, tflops):
    """At 'highest' the ceiling was float32 FMA's 51 TFLOP/s and kernelwright's split GEMM read
    2.6 "of ceiling"; against the fastest float32-accurate method it reads about half."""
    monkeypatch.setattr(roofline, "_measured", {})
    asked = []

    def rate(device, dtype, room, time_fn):
        asked.append(dtype)
        tflops = H200_MM[(dtype, torch.get_float32_matmul_precision())] if dtype == "float32" else H200_MM[dtype]
        return {"tflops": tflops, "size": 8192}

    monkeypatch.setattr(roofline, "matrix_rate", rate)
    monkeypatch.setattr(torch, "get_float32_matmul_precision", lambda: precision)
    c = roofline.matrix_ceiling(torch.device("cuda"), "float32", None, None)
    assert asked == [mm for _, mm, _ in roofline.matrix_methods("float32", precision, "cuda")]
    assert c["matrix_method"] == method and c["matrix_tflops"] == pytest.approx(tflops)
    assert c["precision"] == precision and c["matrix_dtype"] == "float32" and len(c["matrix_rates"]) == len(asked)
    assert KERNELWRIGHT_TFLOPS[precision] / c["matrix_tflops"] <= 1
    flops = 2 * 8192.0 ** 3
    _, fraction, text = roofline.bound(flops, 3 * 8192 ** 2 * 4, flops / (KERNELWRIGHT_TFLOPS[precision] * 1e12),
                                       dict(c, copy_gbps=4030.0))
    assert fraction == pytest.approx(KERNELWRIGHT_TFLOPS[precision] / tflops)
    assert "of the fastest float32 matrix rate precision '%s' allows (%s: " % (precision, method) in text


def test_a_method_that_does_not_fit_is_left_out(monkeypatch):
    monkeypatch.setattr(roofline, "_measured", {})
    monkeypatch.setattr(roofline, "matrix_rate", lambda device, dtype, room, time_fn:
                        None if dtype == "float32" else {"tflops": 600.0, "size": 4096})
    c = roofline.matrix_ceiling(torch.device("cuda"), "bfloat16", None, None)
    assert c["matrix_method"] == "bfloat16 torch.mm" and c["matrix_size"] == 4096
    assert roofline.matrix_ceiling(torch.device("cuda"), "float64", None, None) is not None
    monkeypatch.setattr(roofline, "matrix_rate", lambda *args: None)
    assert roofline.matrix_ceiling(torch.device("cuda"), "float32", None, None) is None

    def no_bfloat16(device, dtype, room, time_fn):
        if dtype == "bfloat16":
            raise RuntimeError("bfloat16 GEMM not supported")
        return {"tflops": {"float32": 14.0, "float16": 112.0}[dtype], "size": 8192}

    monkeypatch.setattr(roofline, "matrix_rate", no_bfloat16)
    monkeypatch.setattr(torch, "get_float32_matmul_precision", lambda: "highest")
    c = roofline.matrix_ceiling(torch.device("cuda"), "float32", None, None)
    assert c["matrix_rates"] == {"float32 torch.mm at 'highest'": 14.0,
                                 "float16 torch.mm / 3 (3-product split)": pytest.approx(112.0 / 3)}
    with pytest.raises(RuntimeError):
        roofline.matrix_ceiling(torch.device("cuda"), "bfloat16", None, None)


# --------------------------------------------------------------- sentence


H200 = {"copy_gbps": 4030.0, "matrix_tflops": 383.0, "matrix_dtype": "float32", "precision": "highest",
        "matrix_method": "float32 torch.mm at 'highest'"}


def test_memory_bound_sentence():
    nbytes = 12.9e9
    seconds = nbytes / 3.91e12
    by, fraction, text = roofline.bound(0.25 * nbytes, nbytes, seconds, H200)
    assert by == "memory" and fraction == pytest.approx(3910 / 4030)
    assert text == ("memory-bound (0.25 FLOP/byte, ridge 95): moves 12.9 GB at 3.91 TB/s = 0.97 of the "
                    "measured copy bandwidth (4.03 TB/s)")


def test_compute_bound_sentence_names_the_precision_and_the_method():
    ceiling = dict(H200, matrix_tflops=474.0, precision="high", matrix_method="float16 torch.mm")
    nbytes = 1e9
    flops = 2731 * nbytes
    seconds = flops / 389e12
    by, fraction, text = roofline.bound(flops, nbytes, seconds, ceiling)
    assert by == "compute" and fraction == pytest.approx(389 / 474)
    assert text == ("compute-bound (2731 FLOP/byte, ridge 118): 389 TFLOP/s = 0.821 of the fastest float32 "
                    "matrix rate precision 'high' allows (float16 torch.mm: 474 TFLOP/s)")


@pytest.mark.parametrize("flops_per_byte", [0.0, 1.0, 94.0, 96.0, 5000.0])
def test_fraction_is_the_larger_of_the_two(flops_per_byte):
    nbytes, seconds = 1e9, 1e-3
    by, fraction, _ = roofline.bound(flops_per_byte * nbytes, nbytes, seconds, H200)
    memory = nbytes / seconds / 1e9 / H200["copy_gbps"]
    compute = flops_per_byte * nbytes / seconds / 1e12 / H200["matrix_tflops"]
    assert fraction == pytest.approx(max(memory, compute))
    assert by == ("memory" if memory >= compute else "compute")


def test_sentence_with_one_ceiling_or_none():
    copy_only = {"copy_gbps": 100.0}
    by, fraction, text = roofline.bound(0, 1e9, 0.02, copy_only)
    assert by == "memory" and fraction == pytest.approx(0.5) and "no matrix ceiling measured" in text
    assert roofline.bound(0, 1e9, 0.02, {}) == (None, None, None)
    assert roofline.bound(None, None, 0.02, H200) == (None, None, None)


def test_other_dtypes_name_themselves():
    ceiling = dict(H200, matrix_dtype="bfloat16", precision="high", matrix_method="bfloat16 torch.mm")
    assert roofline.matrix_rate_phrase(ceiling) == "the measured bfloat16 matrix rate (383 TFLOP/s)"
    assert roofline.matrix_rate_phrase(H200) == ("the fastest float32 matrix rate precision 'highest' allows "
                                                 "(float32 torch.mm at 'highest': 383 TFLOP/s)")


def test_result_fields_rates_per_variant():
    timings = {"candidate": {"median_ms": 2.0}, "eager": {"median_ms": 4.0}}
    f = roofline.result_fields({"flops": 4e9, "bytes": 8e9, "dtype": "float32"}, timings, H200)
    assert f["gbps"] == {"candidate": pytest.approx(4000.0), "eager": pytest.approx(2000.0)}
    assert f["tflops"] == {"candidate": pytest.approx(2.0), "eager": pytest.approx(1.0)}
    assert f["bound_by"] == "memory" and f["fraction_of_ceiling"] == pytest.approx(4000 / 4030)
    assert f["bound"].startswith("memory-bound") and f["ceiling"] is H200
    missing = roofline.result_fields({}, timings, None)
    assert missing["gbps"] is None and missing["bound"] is None and missing["flops"] is None


def test_first_sentence_of_a_docstring():
    doc = """The sigmoid and the logsumexp are kernelwright's; the GEMMs
    are still torch's. Later sentences are left out.

    Another paragraph."""
    assert roofline.first_sentence(doc) == \
        "The sigmoid and the logsumexp are kernelwright's; the GEMMs are still torch's."
    assert roofline.first_sentence("One tile per warp, no full stop") == "One tile per warp, no full stop"
    assert roofline.first_sentence(None) is None and roofline.first_sentence("  \n ") is None
    assert roofline.first_sentence("Uses 2.5x fewer loads. Then more.") == "Uses 2.5x fewer loads."


def test_report_shows_the_bound_and_design():
    r = {"id": "elu/candidate", "verdict": "pass", "speedup_vs_eager": 1.1, "flags": [], "reason": "ok",
         "design": "One pass over the tensor."}
    r.update(roofline.result_fields({"flops": 0, "bytes": 8e9}, {"candidate": {"median_ms": 2.0}}, H200))
    md = report.markdown([r], report.summarize([r]))
    assert "| 0.993 memory |" in md
    assert "- **elu/candidate**: memory-bound (0 FLOP/byte, ridge 95)" in md
    assert md.rstrip().endswith("Design: One pass over the tensor.")
    assert "| elu/candidate | 0 FLOP | 8 GB | 4000 | - | - | 0 | - | - | copy 4030 GB/s, float32 matmul 383 " \
           "TFLOP/s (precision highest) |" in md
    assert report.bound_line({"verdict": "error"}) is None
