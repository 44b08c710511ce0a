import math
import os
import weakref

import torch

from kernelwright.ops import _epilogue_finish, _epilogue_kernels
from kernelwright.ops import epilogue as _epilogue
from kernelwright.ops._common import check_floating, ext, run

_op = torch.ops.kernelwright.linear.default
_backward_op = torch.ops.kernelwright.linear_backward.default
_prepare_op = torch.ops.kernelwright.linear_prepare_weight.default
_prepared_op = torch.ops.kernelwright.linear_prepared.default
_program_op = torch.ops.kernelwright.linear_program.default

ACTIVATIONS = ("none", "relu", "sigmoid", "gelu", "gelu_tanh")


_TORCH_REDUCE = _epilogue_finish.TORCH_REDUCE  # reduce= of linear, as torch computes it


def linear(x, weight, bias=None, activation=None, cache=None, epilogue=None, reduce=None, after=None):
    """``activation(torch.nn.functional.linear(x, weight, bias))`` in one GEMM whose epilogue adds
    the bias and applies the activation.

    activation: None, "relu", "sigmoid", "gelu" (erf form, torch's default) or "gelu_tanh".
    float32 follows ``torch.get_float32_matmul_precision()``: 'highest' multiplies operands split
    into two fp16 halves per row-scaled element (three products on the tensor cores, partial sums
    promoted to fp32; fp32-accurate), or leaves thin products to cuBLAS fp32; 'high' and
    'medium' multiply the row-scaled operands rounded to fp16 once (TF32's 11 bits at twice its
    rate), or run one TF32 pass where that conversion does not pay off; float16 and bfloat16 use
    the tensor cores directly. On GPUs other than Hopper and for shapes the kernels do not take,
    cuBLAS runs the GEMM at the same precision. See docs/linear.md.

    cache: a :class:`WeightCache` that keeps the weight's conversion for the tensor cores
    between calls, so that a float32 call converts ``x`` alone; for a weight that stays as it
    is over many calls (a layer's parameter at inference), never for one that changes every
    call. The result is the same with or without it.

    epilogue: in place of an activation, a function from the GEMM's result (bias added) to a
    pointwise expression built with :mod:`kernelwright.ops.epilogue` (or such an expression),
    run in the GEMM's epilogue on the tensor cores' output: ``epilogue=lambda y: E.clamp(
    E.gelu(y * 2.0 + E.column(scale)), -1, 1)`` writes only the clamped result; or a Program
    compiled once (:func:`kernelwright.ops.epilogue.compile`, then ``Program.bind``). Each
    program gets its own kernel, built when a call first needs it (seconds where a program of its
    shape was built before, else about 30 s; cached on disk); that call, and every call where no kernel applies, runs the program
    after the GEMM instead.

    reduce: "sum", "mean", "amax", "amin" or "logsumexp" of each row of the result (of the
    epilogue's, if given), shape ``x.shape[:-1]``: each output tile reduces its rows in the
    epilogue and writes those partials alone (a float per row per 128 columns; a logsumexp's
    running max and sum of exponentials, two), which one small kernel finishes; the [rows,
    out_features] result is never written. Where a gradient is recorded, the result
    is written and reduced by torch, so that autograd sees both.

    after: with reduce, what to compute from the reduced rows, a list: for each item an
    expression of them (``E.result()`` stands for the reduced row; a function of it, or a
    compiled Program reading numbers alone) or None for the rows themselves. The reduction's
    partials are finished and every item computed in one small kernel; returns the list of
    results, each of shape ``x.shape[:-1]``.
    """
    if after is not None and reduce is None:
        raise ValueError("kernelwright.linear(): 'after' applies to reduced rows; give 'reduce' too")
    if reduce is not None:
        return _linear_reduced(x, weight, bias, activation, epilogue, reduce, cache, after)
    if epilogue is not None:
        return linear_program(x, weight, bias, _as_program(epilogue, activation), cache)
    activation = activation or "none"
    if cache is not None and not torch.compiler.is_compiling():
        parts = cache.parts(weight)
        if parts is not None:
            return _prepared_op(x, weight, parts[0], parts[1], bias, activation)
    return run(ext.linear, _op, x, weight, bias, activation)


def _as_program(epilogue, activation):
    """``epilogue`` (an expression, a function of the GEMM's result, or a Program) compiled."""
    if activation not in (None, "none"):
        raise ValueError("kernelwright.linear(): give 'activation' or 'epilogue', not both")
    return epilogue if isinstance(epilogue, _epilogue.Program) else _epilogue.compile(epilogue)


# Each activation as an epilogue expression of the GEMM's result y.
_ACTIVATION_EXPRS = {"none": lambda y: y, "relu": _epilogue.relu, "sigmoid": _epilogue.sigmoid,
                     "gelu": _epilogue.gelu, "gelu_tanh": lambda y: _epilogue.gelu(y, "tanh")}


def _linear_reduced(x, weight, bias, activation, epilogue, reduce, cache, after):
    if reduce not in _TORCH_REDUCE:
        raise ValueError("kernelwright.linear(): argument 'reduce' must be one of %s (or None), but got %r"
                         % (", ".join("'%s'" % r for r in _TORCH_REDUCE), reduce))
    if epilogue is None:
        _check("linear", x, weight, bias, activation or "none")
        program = _as_program(_ACTIVATION_EXPRS[activation or "none"], None)
    else:
        program = _as_program(epilogue, activation)
    programs = [None] if after is None else [_after_program(a) for a in after]
    tensors = [x, weight, bias, *program.columns, *program.rows, *program.fulls]
    shape = x.shape[:-1]
    if torch.is_grad_enabled() and any(isinstance(t, torch.Tensor) and t.requires_grad for t in tensors):
        # The whole result written, then reduced by torch, so that autograd sees both.
        outs = _epilogue_finish.twin(linear_program(x, weight, bias, program, cache), reduce, weight.shape[0], programs)
    else:
        parts = linear_program(x, weight, bias, program, cache, _epilogue_kernels.REDUCE_CODES[reduce])
        outs = _epilogue_finish.finish(parts, reduce, weight.shape[0], programs)
    outs = [o.view(shape) for o in outs]
    return outs[0] if after is None else outs


def _after_program(item):
    """An item of linear's ``after``: None, or a Program of numbers alone."""
    if item is None:
        return None
    program = item if isinstance(item, _epilogue.Program) else _epilogue.compile(item)
    if program.columns or program.rows:
        raise ValueError("kernelwright.linear(): an 'after' expression reads the reduced rows and numbers, "
                         "not vectors (it reads %d column and %d row vectors)" % (len(program.columns), len(program.rows)))
    return program


def linear_program(x, weight, bias, program, cache=None, reduce=0):
    """linear whose epilogue runs ``program`` (:func:`kernelwright.ops.epilogue.compile`'s);
    ``reduce`` (1 sum, 2 max, 3 min, 4 logsumexp): rows whose reduction is the answer (the
    op's doc, csrc/include/kw/ops.h)."""
    parts = cache.parts(weight) if cache is not None and not torch.compiler.is_compiling() else None
    if parts is None:
        parts = (None, None)
    out = run(ext.linear_program, _program_op, x, weight, bias, program.code, program.consts,
              list(program.columns), list(program.rows), list(program.fulls), *parts, reduce)
    if x.is_cuda and not torch.compiler.is_compiling():
        _epilogue_kernels.serve_wanted(ext)  # the program's kernel, for the calls after this one
    return out


class WeightCache:
    """One linear weight's conversion for the tensor-core GEMM, made on first use and made again
    whenever the weight changes: written in place (its version counter moves), given new
    storage, another shape, another tensor, or another float32 matmul precision.

    Holds the conversion's memory (1.5x the weight's at 'highest', half at 'high') as long as
    it lives. Where no conversion applies (not float32 on a Hopper GPU, the CPU, a precision or
    ``KERNELWRIGHT_GEMM_SPLIT`` that sends the GEMM elsewhere) it holds nothing and linear runs
    as without it. Fewer than 96 rows of ``x`` ('highest'; 256 at 'high') leave the GEMM bound
    by reading the converted weight, which takes more bytes than cuBLAS reads: they go to
    cuBLAS.
    """

    def __init__(self):
        self._key = None
        self._base = None
        self._parts = None

    def parts(self, weight):
        """(parts, scales) for ``weight`` [out_features, in_features], or None."""
        if weight.is_inference() or weight.device.type != "cuda" or weight.dtype != torch.float32:
            return None
        base = weight if weight._base is None else weight._base  # a view's stays the same tensor
        key = (weight.data_ptr(), weight._version, tuple(weight.shape), weight.stride(),
               torch.get_float32_matmul_precision(), os.environ.get("KERNELWRIGHT_GEMM_SPLIT"))
        if key != self._key or self._base is None or self._base() is not base:
            self._parts = None  # the old conversion freed before the new one is made
            with torch.no_grad():
                parts = _prepare_op(weight.detach())
            self._parts = parts if parts[0].numel() else None
            self._key, self._base = key, weakref.ref(base)
        return self._parts


def _check(op, x, weight, bias, activation):
    check_floating(op, "x", x)
    check_floating(op, "weight", weight)
    if activation not in ACTIVATIONS:
        raise ValueError(
            "kernelwright.%s(): argument 'activation' must be one of %s (or None), but got '%s'"
            % (op, ", ".join("'%s'" % a for a in ACTIVATIONS), activation))
    if weight.dim() != 2 or x.dim() < 1 or x.shape[-1] != weight.shape[1]:
        raise ValueError(
            "kernelwright.%s(): argument 'x' must have in_features = weight.shape[1] as its last "
            "dim; got x %s and weight %s" % (op, tuple(x.shape), tuple(weight.shape)))
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[0]):
        raise ValueError(
            "kernelwright.%s(): argument 'bias' must have shape [%d] (out_features), but has "
            "shape %s" % (op, weight.shape[0], tuple(bias.shape)))


@torch.library.register_fake("kernelwright::linear")
def _(x, weight, bias=None, activation="none"):
    _check("linear", x, weight, bias, activation)
    return x.new_empty(tuple(x.shape[:-1]) + (weight.shape[0],))


@torch.library.register_fake("kernelwright::linear_backward")
def _(grad, x, weight, bias, output, activation, output_mask):
    _check("linear_backward", x, weight, bias, activation)
    empty = x.new_empty((0,))
    return (x.new_empty(x.shape) if output_mask[0] else empty,
            weight.new_empty(weight.shape) if output_mask[1] else empty,
            weight.new_empty((weight.shape[0],)) if output_mask[2] and bias is not None else empty)


@torch.library.register_fake("kernelwright::linear_prepare_weight")
def _(weight):
    check_floating("linear_prepare_weight", "weight", weight)
    if weight.dim() != 2:
        raise ValueError("kernelwright.linear_prepare_weight(): argument 'weight' must be 2-D "
                         "[out_features, in_features], but has shape %s" % (tuple(weight.shape),))
    # Whether a conversion applies, and its width, depend on the GPU and the precision: sizes
    # the tracer learns from the values.
    ctx = torch.library.get_ctx()
    rows, width = ctx.new_dynamic_size(), ctx.new_dynamic_size()
    return (weight.new_empty((rows, width), dtype=torch.float16),
            weight.new_empty((rows,), dtype=torch.float32))


@torch.library.register_fake("kernelwright::linear_prepared")
def _(x, weight, weight_parts, weight_scales, bias=None, activation="none"):
    _check("linear_prepared", x, weight, bias, activation)
    return x.new_empty(tuple(x.shape[:-1]) + (weight.shape[0],))


@torch.library.register_fake("kernelwright::linear_program")
def _(x, weight, bias, code, consts, columns, rows, fulls, weight_parts, weight_scales, reduce=0):
    _check("linear_program", x, weight, bias, "none")
    for name, vectors in (("columns", columns), ("rows", rows), ("fulls", fulls)):
        for j, v in enumerate(vectors):
            check_floating("linear_program", "%s[%d]" % (name, j), v)
    if reduce:  # partials per row: one per tile of columns, or the whole row, as the kernel runs
        return x.new_empty((math.prod(x.shape[:-1]), torch.library.get_ctx().new_dynamic_size()))
    return x.new_empty(tuple(x.shape[:-1]) + (weight.shape[0],))


def _setup_program(ctx, inputs, output):
    x, weight, bias, code, consts, columns, rows, fulls = inputs[:8]
    ctx.save_for_backward(x, weight, bias, *columns, *rows, *fulls)
    ctx.program = (code, consts, len(columns), len(rows))
    # The gradients mirror the inputs' structure: an empty list (consts) is a list of tensors.
    ctx.shapes = [isinstance(v, list) and all(isinstance(t, torch.Tensor) for t in v) for v in inputs]


def _backward_program(ctx, grad):
    """Recomputes the GEMM's result and differentiates the program's torch twin: the forward
    kept neither, having written only the output."""
    code, consts, n_columns, n_rows = ctx.program
    x, weight, bias, *operands = ctx.saved_tensors
    needs = ctx.needs_input_grad  # a list of flags for each Tensor[] argument
    n_fulls = len(operands) - n_columns - n_rows
    column_needs, row_needs, full_needs = (_flags(needs[i], k) for i, k in ((5, n_columns), (6, n_rows), (7, n_fulls)))
    wanted = [needs[0], needs[1], bias is not None and needs[2]] + column_needs + row_needs + full_needs
    with torch.enable_grad():
        leaves = [t.detach().requires_grad_(w) if t is not None else None
                  for t, w in zip([x, weight, bias] + operands, wanted)]
        lx, lw, lb, *lv = leaves
        z = torch.nn.functional.linear(lx, lw, lb).reshape(-1, weight.shape[0])
        columns, rows, fulls = lv[:n_columns], lv[n_columns:n_columns + n_rows], lv[n_columns + n_rows:]
        y = _epilogue.evaluate(code, consts, z, columns, [v.reshape(-1) for v in rows], fulls)
        inputs = [t for t, w in zip(leaves, wanted) if w]
        found = iter(torch.autograd.grad(y, inputs, grad.reshape(y.shape), allow_unused=True) if inputs else [])
    grads = [next(found) if w else None for w in wanted]
    gx, gw, gb, gv = grads[0], grads[1], grads[2], grads[3:]
    # No entry for reduce: a call that records a gradient leaves it at its default (linear's
    # twin), and an argument left at its default is not among the inputs autograd matches.
    out = [gx, gw, gb, None, None, gv[:n_columns], gv[n_columns:n_columns + n_rows], gv[n_columns + n_rows:],
           None, None]
    return tuple(g if not listed or g is not None else [] for g, listed in zip(out, ctx.shapes))


def _flags(needs, count):
    return list(needs) if isinstance(needs, (list, tuple)) else [bool(needs)] * count


def _setup_context(ctx, inputs, output):
    x, weight, bias, activation = inputs
    ctx.save_for_backward(x, weight, bias, output)
    ctx.activation = activation


def _grads(ctx, grad, needs):
    """(gx, gw, gb) of linear for ``needs``, whether x, weight and bias need theirs."""
    x, weight, bias, output = ctx.saved_tensors
    mask = [needs[0], needs[1], bias is not None and needs[2]]
    gx, gw, gb = _backward_op(grad, x, weight, bias, output, ctx.activation, mask)
    return (gx if mask[0] else None, gw if mask[1] else None, gb if mask[2] else None)


def _backward(ctx, grad):
    return _grads(ctx, grad, ctx.needs_input_grad[:3]) + (None,)


def _setup_prepared(ctx, inputs, output):
    x, weight, _, _, bias, activation = inputs
    _setup_context(ctx, (x, weight, bias, activation), output)


def _backward_prepared(ctx, grad):  # inputs: x, weight, weight_parts, weight_scales, bias, activation
    needs = ctx.needs_input_grad
    gx, gw, gb = _grads(ctx, grad, (needs[0], needs[1], needs[4]))
    return gx, gw, None, None, gb, None


torch.library.register_autograd("kernelwright::linear", _backward, setup_context=_setup_context)
torch.library.register_autograd("kernelwright::linear_prepared", _backward_prepared,
                                setup_context=_setup_prepared)
torch.library.register_autograd("kernelwright::linear_program", _backward_program, setup_context=_setup_program)
