"""kernelwright.kernel without a GPU: parsing, schemas, registration, checks, launch validation, fake path."""

import itertools
import struct
import subprocess
import sys

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx

from kernelwright.kernel import (
    KernelInputError,
    KernelSignatureError,
    LaunchConfigError,
    Limits,
    cuda_op,
    parse_kernel,
)
from kernelwright.kernel import launch
from kernelwright.kernel.binding import Binding
from kernelwright.kernel.torch_ext import needs_torch

_counter = itertools.count()


@pytest.fixture
def ns():
    """A fresh op namespace: ops can't be unregistered, so each test defines its own."""
    return f"kw_test_{next(_counter)}"


SQUARE = r"""
template <typename scalar_t>
__global__ void square_kernel(const scalar_t* x, scalar_t* y, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
"""

ELU = r"""
__global__ void elu_kernel(const float* x, float* out, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] > 0.f ? x[i] : alpha * (expf(x[i]) - 1.f);
}
"""

MATMUL = r"""
__global__ void matmul_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.f;
        for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
"""


def _matmul_launch(A, B):
    return ((B.shape[1] + 15) // 16, (A.shape[0] + 15) // 16), (16, 16)


# signature parsing


def test_parse_template_restrict_launch_bounds_and_comments():
    src = r"""
    #include <cuda_fp16.h>
    #define BLOCK 256  // __global__ void decoy(int x)
    /* __global__ void commented_out(float* a) */
    template <typename T>
    __global__ void __launch_bounds__(BLOCK) scale(const T* __restrict__ x, T* __restrict__ y, T alpha, long long n) {
        const char* s = "scale(";  // a string that names the kernel
    }
    """
    sig = parse_kernel(src, "scale")
    assert sig.template == "T"
    assert [(p.name, p.type, p.pointer, p.const) for p in sig.params] == [
        ("x", "T", True, True),
        ("y", "T", True, False),
        ("alpha", "T", False, False),
        ("n", "long long", False, False),
    ]
    assert sig.line == 6
    assert sig.name_expression(torch.float16) == "scale<__half>"
    assert sig.name_expression(torch.bfloat16) == "scale<__nv_bfloat16>"


def test_parse_const_placement_extern_c_and_namespace():
    src = """
    namespace ops {
    extern "C" __global__ void k(float const* a, float* const b, const unsigned int* idx, std::int64_t n, bool flag);
    extern "C" __global__ void k(float const* a, float* const b, const unsigned int* idx, std::int64_t n, bool flag) {}
    }
    """
    sig = parse_kernel(src, "ops::k")
    assert [(p.name, p.const) for p in sig.params if p.pointer] == [("a", True), ("b", False), ("idx", True)]
    assert sig.params[3].type == "int64_t" and sig.params[4].type == "bool"
    assert sig.name_expression() == "ops::k"


@pytest.mark.parametrize(
    "params, message",
    [
        ("const float4* x, float* y", "float4"),
        ("float& x", "reference"),
        ("float** x", "pointer to a pointer"),
        ("float", "needs a type and a name"),
    ],
)
def test_parse_rejects_what_it_cannot_pass(params, message):
    with pytest.raises(KernelSignatureError, match=message):
        parse_kernel(f"__global__ void k({params}) {{}}", "k")


def test_parse_missing_kernel_lists_the_ones_defined():
    with pytest.raises(KernelSignatureError, match=r"no __global__ function named 'nope'.*defines square_kernel"):
        parse_kernel(SQUARE, "nope")


def test_parse_rejects_multi_parameter_templates_and_bad_names():
    with pytest.raises(KernelSignatureError, match="exactly one type parameter"):
        parse_kernel("template <typename T, int B> __global__ void k(const T* x, T* y) {}", "k")
    with pytest.raises(KernelSignatureError, match="identifier"):
        parse_kernel(SQUARE, "square kernel")


# schema derivation and binding


def _binding(src, kernel, **kw):
    return Binding(parse_kernel(src, kernel), **kw)


def test_schema_derived_from_signature():
    assert _binding(SQUARE, "square_kernel").schema == "(Tensor x) -> Tensor"
    assert _binding(ELU, "elu_kernel").schema == "(Tensor x, float alpha) -> Tensor"
    two = "__global__ void k(const float* a, const double* b, float* lo, double* hi, int steps, bool flip, int64_t numel) {}"
    assert _binding(two, "k").schema == "(Tensor a, Tensor b, int steps, bool flip) -> (Tensor, Tensor)"


def test_schema_binds_by_name_and_accepts_non_const_inputs():
    sloppy = "__global__ void add(float* a, float* b, float* out, int size) {}"
    with pytest.raises(KernelSignatureError, match="declare the inputs const"):
        _binding(sloppy, "add")
    b = _binding(sloppy, "add", schema="(Tensor b, Tensor a) -> Tensor")
    assert [(s.param.name, s.source) for s in b.slots] == [("a", "arg"), ("b", "arg"), ("out", "out"), ("size", "size")]


@pytest.mark.parametrize(
    "schema, message",
    [
        ("(Tensor x) -> Tensor", "parameter 'alpha' isn't in the schema"),
        ("(Tensor x, Tensor alpha) -> Tensor", "alpha.*float"),
        ("(float x, float alpha) -> Tensor", "'x' is a pointer"),
        ("(Tensor x, float alpha) -> (Tensor, Tensor)", "returns 2 tensor"),
        ("(Tensor x, Tensor y, float alpha) -> Tensor", "'y' isn't one of the kernel's parameters"),
        ("(Tensor x, float alpha) -> int", "may only return Tensors"),
    ],
)
def test_schema_mismatch_is_reported_at_definition(schema, message):
    with pytest.raises(KernelSignatureError, match=message):
        _binding(ELU, "elu_kernel", schema=schema)


def test_shape_symbols_fill_integer_parameters():
    b = _binding(MATMUL, "matmul_kernel", shapes={"A": ("M", "K"), "B": ("K", "N"), "C": ("M", "N")})
    assert b.schema == "(Tensor A, Tensor B) -> Tensor"
    assert [s.symbol for s in b.slots if s.source == "symbol"] == ["M", "N", "K"]


def test_dtypes_only_for_templates():
    with pytest.raises(KernelSignatureError, match="isn't a template"):
        _binding(ELU, "elu_kernel", dtypes=[torch.float32])
    assert _binding(SQUARE, "square_kernel", dtypes=[torch.float16]).dtypes == (torch.float16,)


# registration


def test_registers_a_real_custom_op(ns):
    op = cuda_op(SQUARE, "square_kernel", namespace=ns)
    assert op.name == f"{ns}::square"
    assert op.op is getattr(torch.ops, ns).square.default
    assert op.schema == f"{ns}::square(Tensor x) -> Tensor"


def test_full_schema_names_the_op(ns):
    op = cuda_op(ELU, "elu_kernel", schema="my_elu(Tensor x, float alpha=1.0) -> Tensor", namespace=ns)
    assert op.name == f"{ns}::my_elu"


def test_redefinition_swaps_the_kernel_but_not_the_schema(ns):
    first = cuda_op(SQUARE, "square_kernel", namespace=ns, cpu=lambda x: x * x)
    again = cuda_op(SQUARE, "square_kernel", namespace=ns, cpu=lambda x: x * x * x)
    assert again is first
    assert first(torch.tensor([2.0])).item() == 8.0
    with pytest.raises(KernelSignatureError, match="already registered"):
        cuda_op(ELU, "elu_kernel", name="square", namespace=ns)


def test_bad_names_and_options(ns):
    with pytest.raises(KernelSignatureError, match="op name"):
        cuda_op(SQUARE, "square_kernel", name="bad-name", namespace=ns)
    with pytest.raises(KernelSignatureError, match="contiguous"):
        cuda_op(SQUARE, "square_kernel", contiguous="maybe", namespace=ns)
    with pytest.raises(TypeError, match="launch must be callable"):
        cuda_op(SQUARE, "square_kernel", launch=(1, 256), namespace=ns)
    with pytest.raises(ValueError, match="backend"):
        cuda_op(SQUARE, "square_kernel", backend="nvcc", namespace=ns)


def test_source_from_a_path(ns, tmp_path):
    path = tmp_path / "elu.cu"
    path.write_text(ELU)
    op = cuda_op(path, "elu_kernel", namespace=ns)
    assert op._definition.filename == str(path)
    with pytest.raises(FileNotFoundError):
        cuda_op(str(tmp_path / "missing.cu"), "elu_kernel", namespace=ns)


def test_torch_headers_select_the_cpp_extension_backend(ns):
    assert needs_torch("#include <torch/extension.h>\n" + SQUARE)
    assert needs_torch('  #  include "ATen/cuda/CUDAContext.h"\n')
    assert not needs_torch("#include <cuda_fp16.h>\n// #include <torch/extension.h> is not needed\n")
    op = cuda_op("#include <torch/extension.h>\n" + SQUARE, "square_kernel", namespace=ns)
    assert op._definition.backend == "torch"


# input checks, on CPU (through cpu=) and on fake CUDA tensors


def test_cpu_without_reference_says_how_to_fix(ns):
    op = cuda_op(SQUARE, "square_kernel", namespace=ns)
    with pytest.raises(KernelInputError, match="pass cpu="):
        op(torch.randn(3))


def test_dtype_errors_name_argument_and_expectation(ns):
    sq = cuda_op(SQUARE, "square_kernel", namespace=ns, dtypes=[torch.float32, torch.float16], cpu=lambda x: x * x)
    with pytest.raises(KernelInputError, match=r"argument 'x' has dtype torch.float64.*torch.float32, torch.float16"):
        sq(torch.randn(3, dtype=torch.float64))
    elu = cuda_op(ELU, "elu_kernel", namespace=ns, cpu=lambda x, a: torch.nn.functional.elu(x, a))
    with pytest.raises(KernelInputError, match=r"'x' has dtype torch.float16, expected torch.float32 \(the kernel takes float\*\)"):
        elu(torch.randn(3).half(), 1.0)


def test_template_arguments_must_agree(ns):
    src = "template <typename T> __global__ void k(const T* a, const T* b, T* c, int n) {}"
    op = cuda_op(src, "k", namespace=ns, cpu=torch.add)
    with pytest.raises(KernelInputError, match=r"'b' has dtype torch.float16, expected torch.float32 \('a' is torch.float32\)"):
        op(torch.randn(3), torch.randn(3).half())


def test_elementwise_launch_refuses_mismatched_sizes(ns):
    src = "__global__ void k(const float* a, const float* b, float* c, int n) {}"
    op = cuda_op(src, "k", namespace=ns, cpu=torch.mul)
    with pytest.raises(KernelInputError, match="'b' has 4 elements but the elementwise launch covers 12"):
        op(torch.randn(3, 4), torch.randn(4))
    with FakeTensorMode():
        with pytest.raises(KernelInputError, match="'b' has 4 elements"):
            op(torch.empty(3, 4, device="cuda"), torch.empty(4, device="cuda"))


def test_shapes_are_checked_and_outputs_allocated(ns):
    op = cuda_op(
        MATMUL,
        "matmul_kernel",
        namespace=ns,
        shapes={"A": ("M", "K"), "B": ("K", "N"), "C": ("M", "N")},
        launch=_matmul_launch,
        cpu=torch.mm,
    )
    with FakeTensorMode():
        c = op(torch.empty(8, 5, device="cuda"), torch.empty(5, 3, device="cuda"))
        assert c.shape == (8, 3) and c.device.type == "cuda"
        with pytest.raises(KernelInputError, match=r"'B' has shape \(4, 3\); its dim 0 is K = 5 from 'A', got 4"):
            op(torch.empty(8, 5, device="cuda"), torch.empty(4, 3, device="cuda"))
        with pytest.raises(KernelInputError, match="expected 2 dimensions"):
            op(torch.empty(8, device="cuda"), torch.empty(5, 3, device="cuda"))
    torch.testing.assert_close(op(torch.eye(3), torch.ones(3, 2)), torch.ones(3, 2))


def test_mixed_devices_are_refused_in_the_fake_path(ns):
    op = cuda_op("__global__ void k(const float* a, const float* b, float* c, int n) {}", "k", namespace=ns)
    with FakeTensorMode():
        with pytest.raises(KernelInputError, match="'b' is on cpu but 'a' is on cuda:0"):
            op(torch.empty(4, device="cuda"), torch.empty(4))


def test_launching_makes_inputs_contiguous_or_refuses():
    x = torch.empty(4, 6, device="meta").t()
    copied = _binding(SQUARE, "square_kernel").check([x], launching=True)
    assert copied.values[0].is_contiguous() and copied.dtype == torch.float32
    assert _binding(SQUARE, "square_kernel").check([x], launching=False).values[0] is x
    with pytest.raises(KernelInputError, match="'x' must be contiguous"):
        _binding(SQUARE, "square_kernel", contiguous="require").check([x], launching=True)
    inplace = _binding("__global__ void k(float* x, int n) {}", "k", schema="(Tensor(a!) x) -> ()")
    assert inplace.mutated == ("x",)
    with pytest.raises(KernelInputError, match="writes to it in place"):
        inplace.check([x], launching=True)


# kernel parameter packing


def _unpack(buffer, address, formats):
    count = len(formats)
    pointers = struct.unpack_from("<" + "Q" * count, buffer, 0)
    assert pointers == tuple(address + 8 * count + 8 * i for i in range(count))
    return [struct.unpack_from("<" + f, buffer, 8 * count + 8 * i)[0] for i, f in enumerate(formats)]


def test_pack_lays_out_pointers_and_scalars():
    src = "template <typename T> __global__ void k(const T* x, T* y, T alpha, float beta, int steps, int64_t n) {}"
    b = _binding(src, "k", schema="(Tensor x, float alpha, float beta, int steps) -> Tensor")
    x = torch.randn(5, dtype=torch.float16)
    call = b.check(b.bind([x, 0.5, 2.5], {"steps": 3}), launching=False)
    outs = b.allocate_outputs(call, None, launching=False)
    buffer, address = b.pack(call, outs, 5)
    values = _unpack(buffer, address, ["Q", "Q", "e", "f", "i", "q"])
    assert values == [x.data_ptr(), outs[0].data_ptr(), 0.5, 2.5, 3, 5]
    call = b.check([x.bfloat16(), 1.5, 0.0, 1], launching=False)
    buffer, address = b.pack(call, b.allocate_outputs(call, None, launching=False), 5)
    assert _unpack(buffer, address, ["Q", "Q", "H", "f", "i", "q"])[2] == 0x3FC0  # 1.5 in bfloat16


def test_pack_turns_float_overflow_into_infinity_like_a_cast():
    src = "template <typename T> __global__ void k(const T* x, T* y, T alpha, int64_t n) {}"
    b = _binding(src, "k")
    call = b.check([torch.randn(2, dtype=torch.float16), 1e6], launching=False)
    buffer, address = b.pack(call, b.allocate_outputs(call, None, launching=False), 2)
    assert _unpack(buffer, address, ["Q", "Q", "e", "q"])[2] == float("inf")


def test_pack_refuses_values_that_do_not_fit():
    b = _binding(ELU, "elu_kernel")
    call = b.check([torch.randn(2), 1.0], launching=False)
    outs = b.allocate_outputs(call, None, launching=False)
    with pytest.raises(KernelInputError, match=r"'n' = 3000000000 doesn't fit the kernel's int; declare it int64_t"):
        b.pack(call, outs, 3_000_000_000)


# launch configuration


H100 = Limits(
    max_threads_per_block=1024,
    max_block_dim=(1024, 1024, 64),
    max_grid_dim=(2**31 - 1, 65535, 65535),
    static_shared=1024,
    max_shared_per_block=48 * 1024,
    max_shared_optin=227 * 1024,
)


def test_launch_config_normalizes_and_accepts():
    config = launch.check("k", 10, (16, 16), 0, H100)
    assert config.grid == (10, 1, 1) and config.block == (16, 16, 1) and not config.needs_optin
    assert launch.check("k", (0,), 256, 0, H100).empty
    assert launch.check("k", 1, 128, 100 * 1024, H100).needs_optin


@pytest.mark.parametrize(
    "grid, block, shared, message",
    [
        (1, 2048, 0, r"block.x = 2048 is outside 1..1024"),
        (1, (32, 32, 2), 0, "2048 threads"),
        (1, (1, 1, 65), 0, r"block.z = 65"),
        (1, 0, 0, r"block.x = 0"),
        ((1, 70000), 256, 0, r"grid.y = 70000"),
        (-1, 256, 0, r"grid.x = -1"),
        (1, 256, 227 * 1024, r"needs 233472 bytes of shared memory per block \(1024 static \+ 232448 dynamic\)"),
        (1, 256, -4, "negative"),
        (1.5, 256, 0, "grid must be an int"),
        ((1, 1, 1, 1), 256, 0, "4 dimensions"),
        (1, True, 0, "block must be an int"),
    ],
)
def test_launch_config_errors(grid, block, shared, message):
    with pytest.raises(LaunchConfigError, match=message):
        launch.check("k", grid, block, shared, H100)


def test_register_pressure_lowers_the_thread_limit():
    heavy = Limits(640, (1024, 1024, 64), (2**31 - 1, 65535, 65535), 0, 48 * 1024, 227 * 1024)
    with pytest.raises(LaunchConfigError, match="at most 640 per block \\(its register use limits it\\)"):
        launch.check("k", 1, 1024, 0, heavy)


def test_launch_function_results():
    assert launch.unpack(((2, 2), 64), "k") == ((2, 2), 64, 0)
    assert launch.unpack({"grid": 4, "block": 32, "shared_mem": 128}, "k") == (4, 32, 128)
    with pytest.raises(LaunchConfigError, match="grid, block"):
        launch.unpack({"grid": 4}, "k")
    with pytest.raises(LaunchConfigError, match=r"must return \(grid, block\)"):
        launch.unpack(256, "k")
    assert launch.elementwise(1000) == ((4,), (256,), 0)


# fake kernel, autograd, opcheck, torch.compile


def test_fake_kernel_with_dynamic_shapes_in_a_traced_graph(ns):
    op = cuda_op(SQUARE, "square_kernel", namespace=ns)
    x = torch.empty(7, 3, device="meta", dtype=torch.bfloat16)
    graph = make_fx(lambda x: op(x) + 1, tracing_mode="symbolic")(x)
    assert f"{ns}.square.default" in graph.code
    (node,) = [n for n in graph.graph.nodes if n.target is op.op]
    assert all(isinstance(d, torch.SymInt) for d in node.meta["val"].shape)


def test_outputs_function_may_return_shapes_or_tensors(ns):
    src = "__global__ void rowsum(const float* x, float* out, int rows, int cols) {}"
    shapes_fn = cuda_op(src, "rowsum", namespace=ns, schema="(Tensor x, int rows, int cols) -> Tensor",
                        launch=lambda x, rows, cols: (rows, 32), outputs=lambda x, rows, cols: (rows,))
    tensors_fn = cuda_op(src, "rowsum", name="rowsum2", namespace=ns, schema="(Tensor x, int rows, int cols) -> Tensor",
                         launch=lambda x, rows, cols: (rows, 32), outputs=lambda x, rows, cols: x.new_empty(rows))
    with FakeTensorMode():
        x = torch.empty(6, 4, device="cuda")
        assert shapes_fn(x, 6, 4).shape == (6,)
        assert tensors_fn(x, 6, 4).shape == (6,)
    wrong = cuda_op(src, "rowsum", name="rowsum3", namespace=ns, schema="(Tensor x, int rows, int cols) -> Tensor",
                    launch=lambda x, rows, cols: (rows, 32), outputs=lambda x, rows, cols: x.new_empty(rows, dtype=torch.float16))
    with FakeTensorMode():
        with pytest.raises(KernelInputError, match="output 'out' has dtype torch.float16, the kernel writes torch.float32"):
            wrong(torch.empty(6, 4, device="cuda"), 6, 4)


def test_backward_forms(ns):
    mul = cuda_op("__global__ void k(const float* a, const float* b, float* c, int n) {}", "k", name="mul",
                  namespace=ns, cpu=torch.mul, backward=lambda g, a, b: (mul(g, b), mul(g, a)))
    a, b = torch.randn(5, requires_grad=True), torch.randn(5, requires_grad=True)
    mul(a, b).sum().backward()
    torch.testing.assert_close(a.grad, b.detach())

    def elu_backward(grad, x, alpha, *, output):
        return torch.where(x > 0, grad, grad * (output + alpha))  # only x's gradient: alpha gets None

    elu = cuda_op(ELU, "elu_kernel", namespace=ns, cpu=torch.nn.functional.elu, backward=elu_backward)
    x = torch.randn(20, requires_grad=True)
    (gx,) = torch.autograd.grad(elu(x, 0.5).sum(), x)
    (ref,) = torch.autograd.grad(torch.nn.functional.elu(x, 0.5).sum(), x)
    torch.testing.assert_close(gx, ref)

    bad = cuda_op(SQUARE, "square_kernel", name="bad", namespace=ns, cpu=lambda x: x * x, backward=lambda g, x: (g, g, g))
    with pytest.raises(KernelSignatureError, match="backward returned 3 gradient"):
        bad(torch.randn(2, requires_grad=True)).sum().backward()


def test_backward_is_refused_for_in_place_ops(ns):
    with pytest.raises(KernelSignatureError, match="in place"):
        cuda_op("__global__ void k(float* x, int n) {}", "k", schema="(Tensor(a!) x) -> ()", namespace=ns, backward=lambda: None)


def test_in_place_write_bumps_the_version(ns):
    def scale_(x, s):
        x.mul_(s)

    scale = cuda_op("__global__ void k(float* x, float s, int n) {}", "k", name="scale_",
                    schema="(Tensor(a!) x, float s) -> ()", namespace=ns, cpu=scale_)
    x = torch.randn(5)
    before = x._version
    scale(x, 2.0)
    assert x._version > before
    w = torch.randn(5, requires_grad=True)
    y = w * x  # saves x for w's gradient
    scale(x, 3.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
    with torch.inference_mode():
        scale(torch.randn(3), 2.0)  # inference tensors have no version to bump


def test_no_backward_says_so_and_a_redefinition_adds_one(ns):
    sq = cuda_op(SQUARE, "square_kernel", namespace=ns, cpu=lambda x: x * x)
    x = torch.randn(4, requires_grad=True)
    with pytest.raises(RuntimeError, match="has no backward; pass backward="):
        sq(x).sum().backward()
    cuda_op(SQUARE, "square_kernel", namespace=ns, cpu=lambda x: x * x, backward=lambda g, x: 2 * x * g)
    (g,) = torch.autograd.grad(sq(x).sum(), x)
    torch.testing.assert_close(g, 2 * x.detach())


def test_first_call_imports_no_compiler(tmp_path):
    """torch.library.custom_op's kernels import torch._dynamo on their first call (seconds);
    a cuda_op's first call in a fresh process must not."""
    script = tmp_path / "first_call.py"
    script.write_text(
        "import sys, torch\n"
        "from kernelwright.kernel import cuda_op\n"
        "SRC = '__global__ void square_kernel(const float* x, float* y, long n) {}'\n"
        "sq = cuda_op(SRC, 'square_kernel', namespace='kw_first_call', cpu=lambda x: x * x,\n"
        "             backward=lambda g, x: 2 * x * g)\n"
        "x = torch.randn(8, requires_grad=True)\n"
        "sq(x).sum().backward()\n"
        "print('torch._dynamo' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False"]


def test_opcheck_on_cpu(ns):
    elu = cuda_op(ELU, "elu_kernel", namespace=ns, schema="(Tensor x, float alpha=1.0) -> Tensor",
                  cpu=torch.nn.functional.elu,
                  backward=lambda grad, x, alpha, *, output: torch.where(x > 0, grad, grad * (output + alpha)))
    torch.library.opcheck(elu.op, (torch.randn(4, 3, requires_grad=True), 0.5))
    torch.library.opcheck(elu.op, (torch.randn(8),))


class _ModelNew(torch.nn.Module):
    def __init__(self, op):
        super().__init__()
        self.op = op

    def forward(self, x):
        return torch.relu(self.op(x)) + 1


def test_torch_compile_fullgraph_with_backward(ns):
    sq = cuda_op(SQUARE, "square_kernel", namespace=ns, cpu=lambda x: x * x, backward=lambda g, x: 2 * x * g)
    model = _ModelNew(sq)
    compiled = torch.compile(model, fullgraph=True, backend="aot_eager")
    x = torch.randn(6, 4, requires_grad=True)
    y = compiled(x)
    torch.testing.assert_close(y, model(x))
    (g,) = torch.autograd.grad(y.sum(), x)
    torch.testing.assert_close(g, 2 * x * (x * x > 0))


def test_torch_compile_inductor_fullgraph(ns):
    sq = cuda_op(SQUARE, "square_kernel", namespace=ns, cpu=lambda x: x * x)
    x = torch.randn(33)
    torch.testing.assert_close(torch.compile(_ModelNew(sq), fullgraph=True)(x), torch.relu(x * x) + 1)
