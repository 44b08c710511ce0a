"""Each GEMM epilogue program compiled into its own kernel: the program written as straight-line
CUDA (one function of an element), linked into the Hopper GEMM of the variant a call needs
(compiled once per shape of program, _epilogue_build.py), on first use, cached on disk and
loaded into the extension.

A call whose kernel is not loaded runs the GEMM and then the program's ATen twin (the result is
the same) and asks for the kernel; :func:`serve_wanted`, run after each programmed call, builds
what was asked. Programs that differ only in their constants share a kernel: the constants are
its arguments."""

import concurrent.futures
import functools
import os
import re
import sys
import threading

from kernelwright.ops import _epilogue_build
from kernelwright.ops._epilogue_expr import _COLUMN0, _CONST0, _FULL0, _ROW0, OPS, REGISTERS

ENV_JIT = "KERNELWRIGHT_EPILOGUE_JIT"  # "0": never compile; programs run after the GEMM
# Set while build_ahead runs its calls: they ask for their kernels without building them, in
# that thread alone, so that calls in other threads build theirs as usual meanwhile.
_deferring = threading.local()
_failed = set()  # keys and shapes whose build failed in this process: not tried again


def _log(message):
    print("kernelwright: " + message, file=sys.stderr, flush=True)


@functools.lru_cache(maxsize=None)
def variants():
    """{name: (promoted, sourced, stream_k)}, as KW_EPILOGUE_VARIANTS in kw/gemm.h lists them."""
    with open(os.path.join(_epilogue_build.csrc(), "include", "kw", "gemm.h")) as f:
        text = f.read()
    rows = re.findall(r"X\((\w+), (true|false), (true|false), (true|false)\)", text)
    return {name: tuple(v == "true" for v in flags) for name, *flags in rows}


# kw::EpilogueReduce: what the kernel does with the program's result, by its code; and the code
# of each reduction linear(..., reduce=) takes (a mean is a sum, divided after).
REDUCTIONS = ("none", "sum", "max", "min", "logsumexp")
REDUCE_CODES = {"sum": 1, "mean": 1, "amax": 2, "amin": 3, "logsumexp": 4}


def key(code, variant, reduce=0):
    """The extension's key for ``code`` run in ``variant``, its rows reduced by ``reduce`` (a
    REDUCTIONS index; epilogue_kernel_key in C++)."""
    steps = [",".join(str(v) for v in code[s:s + 5]) for s in range(0, len(code), 5)]
    return "%s:%s%s" % (variant, ";".join(steps), "|%d" % reduce if reduce else "")


def parse_key(k):
    """(code, variant, reduce) of key ``k``."""
    variant, _, rest = k.partition(":")
    steps, bar, reduce = rest.partition("|")
    try:
        code = [int(v) for step in steps.split(";") if step for v in step.split(",")]
        r = int(reduce) if bar else 0
    except ValueError:
        raise ValueError("not an epilogue kernel key: %r" % k) from None
    if variant not in variants() or len(code) % 5 or not (0 < r < len(REDUCTIONS) if bar else True):
        raise ValueError("not an epilogue kernel key: %r" % k)
    return code, variant, r


def _operand(src, registers=("r0", "r1", "r2", "r3")):
    """How the generated code names a source: a register, c0/c1 (column vectors), w0/w1 (row
    vectors), f0/f1 (full-size operands), k[j] (constants)."""
    if src < REGISTERS:
        return registers[src]
    if src < _ROW0:
        return "c%d" % (src - _COLUMN0)
    if src < _FULL0:
        return "w%d" % (src - _ROW0)
    if src < _CONST0:
        return "f%d" % (src - _FULL0)
    return "k[%d]" % (src - _CONST0)


def describe(code, reduce=0):
    """The program as one expression of y (the GEMM's result) and the sources as the generated
    code names them, for messages: ``clamp_max(relu(mul(y, k[0])), k[1])``; with ``reduce``,
    ``row sum of ...``."""
    if reduce:
        return "row %s of %s" % (REDUCTIONS[reduce], describe(code))
    regs = ["y", "0", "0", "0"]
    for s in range(0, len(code), 5):
        op, dst, a, b, c = code[s:s + 5]
        arity = 3 if OPS[op] in ("where", "softplus") else 2 if op >= OPS.index("add") else 1
        regs[dst] = regs[a] if OPS[op] == "copy" else "%s(%s)" % (
            OPS[op], ", ".join(_operand(v, regs) for v in (a, b, c)[:arity]))
    return regs[0]


def body(code, name="Body"):
    """The program as a function of one element, the struct ``name``'s apply: x (acc + bias), the
    column vectors' values c0, c1, the row vectors' w0, w1, the full-size operands' f0, f1, the
    constants k. Each step is one call of epilogue_apply with its op a constant, which the
    compiler folds to that op's math."""
    lines = ["float r0 = x, r1 = 0.0f, r2 = 0.0f, r3 = 0.0f;"]
    for s in range(0, len(code), 5):
        op, dst, a, b, c = code[s:s + 5]
        lines.append("r%d = kw::cuda::epilogue_apply(static_cast<kw::EpilogueOp>(%d), %s, %s, %s);  // %s"
                     % (dst, op, _operand(a), _operand(b), _operand(c), OPS[op]))
    lines.append("return r0;")
    return ("struct %s {\n" % name
            + "  KW_EPILOGUE_FN static float apply(float x, float c0, float c1, float w0, float w1, float f0,\n"
            "                                    float f1, const float* k) {\n"
            + "".join("    %s\n" % line for line in lines)
            + "  }\n};\n")


def operands_read(code):
    """(columns, rows, fulls): how many operands of each kind the program reads (the first
    ones)."""
    srcs = [code[s + j] for s in range(0, len(code), 5) for j in (2, 3, 4)]
    columns = max([v - _COLUMN0 + 1 for v in srcs if _COLUMN0 <= v < _ROW0], default=0)
    rows = max([v - _ROW0 + 1 for v in srcs if _ROW0 <= v < _FULL0], default=0)
    fulls = max([v - _FULL0 + 1 for v in srcs if _FULL0 <= v < _CONST0], default=0)
    return columns, rows, fulls


def functor(columns, rows, fulls, reduce=0):
    """CUTLASS's compute functor for programs reading ``columns`` column and ``rows`` row
    vectors and ``fulls`` full-size operands: called on a fragment with the affine result, those
    operands (the GEMM's visitor tree holds those alone) and the constants, it runs Body::apply
    on each element; kReduce tells the tree to reduce its rows (LinearEpilogue)."""
    params = (["Frag const& x"] + ["Frag const& c%d" % j for j in range(columns)]
              + ["Frag const& w%d" % j for j in range(rows)] + ["Frag const& f%d" % j for j in range(fulls)]
              + ["typename Epilogue<T>::Arguments const& args"])
    operands = (["x[i]"] + ["c%d[i]" % j if j < columns else "0.0f" for j in range(2)]
                + ["w%d[i]" % j if j < rows else "0.0f" for j in range(2)]
                + ["f%d[i]" % j if j < fulls else "0.0f" for j in range(2)] + ["args.consts.v"])
    return ("template <class T>\nstruct Epilogue {\n"
            "  static constexpr int kColumns = %d, kRows = %d, kFulls = %d, kReduce = %d;\n"
            "  struct Arguments {\n    kw::EpilogueConsts consts;\n  };\n};\n\n"
            "template <class T, int N>\nstruct Epilogue<cutlass::Array<T, N>> : Epilogue<T> {\n"
            "  using Frag = cutlass::Array<T, N>;\n"
            "  CUTLASS_HOST_DEVICE Frag operator()(%s) const {\n"
            "    Frag out;\n    CUTLASS_PRAGMA_UNROLL\n"
            "    for (int i = 0; i < N; ++i) out[i] = Body::apply(%s);\n"
            "    return out;\n  }\n};\n" % (columns, rows, fulls, reduce, ", ".join(params), ", ".join(operands)))


def shape(k):
    """(variant, columns, rows, fulls, reduce): what of key ``k`` its GEMM kernel depends on."""
    code, variant, reduce = parse_key(k)
    return (variant,) + operands_read(code) + (reduce,)


def shape_name(sh):
    variant, columns, rows, fulls, reduce = sh
    return "%s, %d column and %d row vectors%s%s" % (
        variant, columns, rows, ("", ", a full-size operand", ", two full-size operands")[fulls],
        ", rows reduced by %s" % REDUCTIONS[reduce] if reduce else "")


def shape_source(sh):
    """The unit of a shape's GEMM (kw/cuda/epilogue_linked.cuh): its kernel with KW_LINKED_DEVICE,
    its launch without."""
    variant, columns, rows, fulls, reduce = sh
    promoted, sourced, stream_k = (("true" if v else "false") for v in variants()[variant])
    return ("// The GEMM of epilogue programs of shape %s, compiled by kernelwright\n"
            "// (kernelwright/ops/_epilogue_build.py); each program is linked into it.\n"
            "#include \"kw/cuda/epilogue_linked.cuh\"\n\nnamespace kw_shape {\n\nusing Body = kw::cuda::LinkedBody;\n\n"
            % shape_name(sh) + functor(columns, rows, fulls, reduce) +
            "\nusing Config = kw::cuda::LinearFp16Programmed<%s, %s, %s, Epilogue>;\n\n}  // namespace kw_shape\n\n"
            "#ifdef KW_LINKED_DEVICE\nKW_DEFINE_LINKED_EPILOGUE_KERNEL(kw_shape::Config)\n#else\n"
            "KW_EXPORT_LINKED_EPILOGUE_LAUNCHER(kw_shape::Config)\n#endif\n" % (promoted, sourced, stream_k))


def program_source(code):
    """The unit of a program: kw_epilogue_body, which its shape's kernel calls per element."""
    return ("// The GEMM epilogue program %s, compiled by kernelwright (kernelwright/ops/_epilogue_kernels.py).\n"
            "#include \"kw/cuda/epilogue_ops.cuh\"\n\nnamespace {\n\n" % describe(code) + body(code) +
            "\n}  // namespace\n\nextern \"C\" __device__ float kw_epilogue_body(float x, float c0, float c1, float w0, float w1,\n"
            "                                             float f0, float f1, const float* k) {\n"
            "  return Body::apply(x, c0, c1, w0, w1, f0, f1, k);\n}\n")


def build(k):
    """(library, cubin) of key ``k``'s kernel, built unless cached; None (and the reason logged
    once) where it cannot be built."""
    if k in _failed:
        return None
    why = _epilogue_build.missing()
    if why is not None:
        _failed.add(k)
        _log("cannot compile a GEMM epilogue kernel (%s); the epilogue runs after the GEMM" % why)
        return None
    code, variant, reduce = parse_key(k)
    sh = shape(k)
    if sh in _failed:  # said once, for the first program of that shape
        _failed.add(k)
        return None
    try:
        library, device = _epilogue_build.shape(shape_name(sh), shape_source(sh))
    except _epilogue_build.BuildError as error:
        _failed.update((k, sh))
        _log("the GEMM kernel of shape %s %s; its programs run after the GEMM" % (shape_name(sh), error))
        return None
    try:
        return library, _epilogue_build.link(device, program_source(code))
    except _epilogue_build.BuildError as error:
        _failed.add(k)
        _log("the GEMM epilogue kernel for %s (%s) %s; the epilogue runs after the GEMM"
             % (describe(code, reduce), variant, error))
        return None


def load(keys, ext, jobs=None):
    """Builds (in parallel, ``jobs`` at a time: default the CPUs) and loads the kernels of
    ``keys``; the keys loaded."""
    keys = [k for k in dict.fromkeys(keys) if k not in _failed]
    if not keys:
        return []
    workers = max(1, min(len(keys), jobs or os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        paths = list(pool.map(build, keys))
    loaded = []
    for k, built in zip(keys, paths):
        if built is None:
            continue
        try:
            ext.load_epilogue_kernel(*built, k)
            loaded.append(k)
        except RuntimeError as error:  # a kernel this process cannot load: the call runs apart
            _failed.add(k)
            _log("cannot load %s (%s); the epilogue runs after the GEMM" % (built[1], str(error).splitlines()[0]))
    return loaded


def build_ahead(call, ext):
    """Runs ``call`` (programmed linear calls) with compiling off in this thread, so that each asks
    for its kernel and runs apart, and builds what they asked for in a thread while the caller
    goes on: a Future of the keys loaded (empty at once where KERNELWRIGHT_EPILOGUE_JIT=0). The
    caller waits on it, as long as it cares to, before the calls that should run fused."""
    if os.environ.get(ENV_JIT) == "0":
        done = concurrent.futures.Future()
        done.set_result([])
        return done
    _deferring.on = True
    try:
        call()
    finally:
        _deferring.on = False
    ahead = concurrent.futures.Future()
    wanted = ext.epilogue_kernels_wanted()

    def build():
        try:
            ahead.set_result(load(wanted, ext))
        except BaseException as error:  # noqa: BLE001 - handed to whoever waits on the Future
            ahead.set_exception(error)

    # A daemon thread: a caller that stops waiting may end before the build does, which then
    # finishes in its own process (_epilogue_build.shape) and is found cached next time.
    threading.Thread(target=build, name="kernelwright-epilogue-build", daemon=True).start()
    return ahead


def serve_wanted(ext):
    """Builds and loads the kernels the extension asked for since it was last asked. With
    KERNELWRIGHT_EPILOGUE_JIT=0 (or within build_ahead's calls) it leaves them asked for, so
    that a later call builds them all at once, in parallel."""
    if os.environ.get(ENV_JIT, "1") == "0" or getattr(_deferring, "on", False):
        return
    wanted = ext.epilogue_kernels_wanted()
    if wanted:
        load(wanted, ext)
