"""The scan template: cumulative sums, products and log-sum-exps along one dim, with the
pointwise chain that feeds them and the one that follows, in one kernel.

Rows are the other dims, columns the scanned one. THREADS threads of a row take the columns a
chunk of THREADS at a time, in order: each chunk is scanned across the block (warp shuffles,
then the warps' totals through shared memory) and offset by the carry of the chunks before it.
Every thread runs every chunk, the last one padded with the op's identity, so the block-wide
steps see all their threads. Sums and products of floats carry in double, as the rows template
accumulates, so that a long row does not pile up float32 rounding.
"""

import math
import textwrap

from . import dialects, opset
from .emitter import Emitter, Scope, contiguous_strides, meta, reached
from .ir import KernelSpec, Launch, Unsupported
from .kernels import coord_vars, output_args, store

CUDA_HELPERS = r"""
template <typename T, typename F>
KW_F T kw_scan_step(T v, bool valid, T& carry, F f, T identity, T* smem, int threads_per_row) {
  // The inclusive scan of v over the row's threads, after the carry of earlier chunks; the
  // carry then takes this chunk's total. Every thread of the block must call it.
  v = valid ? v : identity;
  int width = threads_per_row < 32 ? threads_per_row : 32;
  int lane = threadIdx.x % width;
  for (int o = 1; o < width; o <<= 1) {
    T n = __shfl_up_sync(0xffffffffu, v, o, width);
    if (lane >= o) v = f(n, v);
  }
  T total;
  if (threads_per_row <= 32) {
    total = __shfl_sync(0xffffffffu, v, width - 1, width);
  } else {
    int warps = threads_per_row / 32, warp = threadIdx.x / 32;
    T* mine = smem + threadIdx.y * warps;
    __syncthreads();
    if (lane == 31) mine[warp] = v;
    __syncthreads();
    T before = identity;
    total = identity;
    for (int w = 0; w < warps; ++w) {
      if (w < warp) before = f(before, mine[w]);
      total = f(total, mine[w]);
    }
    v = f(before, v);
  }
  T out = f(carry, v);
  carry = f(carry, total);
  return out;
}
struct kw_logaddexp_op {
  // log(exp(a) + exp(b)) without overflow; equal arguments (two infinities among them, whose
  // difference is NaN) give a + log 2; a NaN stays NaN, as ATen's logcumsumexp keeps it.
  template <typename T> KW_F T operator()(T a, T b) const {
    if (a != a || b != b) return a + b;
    if (a == b) return a + T(0.69314718055994530942);
    const T hi = a > b ? a : b, lo = a > b ? b : a;
    return hi + log1p(exp(lo - hi));
  }
};
"""

_COMBINE = {"cumsum": ("kw_add_op", 0, "cumsum"), "cumprod": ("kw_mul_op", 1, "cumprod"),
            "logcumsumexp": ("kw_logaddexp_op", float("-inf"), "logcumsumexp")}
_THREADS = (32, 128, 256, 512, 1024)


def scan_nodes(nodes):
    return [n for n in nodes if opset.kind(n) == opset.SCAN]


def build(group, index, signature, torch_def):
    """The scan spec of ``group`` (``signature``/``torch_def``: codegen's renderers)."""
    em, outs, row_lines, lines, stores, rows, cols, carries, ctypes = _render(group, dialects.Cuda(index))
    tem, _, trow_lines, tlines, tstores = _render(group, dialects.Torch())[:5]
    smem = "".join("  __shared__ %s kw_scan_smem_%s[32];\n" % (dialects.CUDA_TYPES[t], t) for t in sorted(ctypes))
    body = ["%s %s = %s;" % (dialects.CUDA_TYPES[t], c, init) for c, t, init in carries]
    body += ["for (int j = 0; j < (%d + THREADS - 1) / THREADS; ++j) {" % cols,
             "  const %s col_raw = (%s)j * THREADS + threadIdx.x;" % (index, index),
             "  const bool col_ok = col_raw < %d;" % cols,
             "  const %s col = col_ok ? col_raw : %d;" % (index, cols - 1)]
    body += ["  " + line for line in lines]
    body += ["  if (row_ok && col_ok) {"] + ["    " + s for s in stores] + ["  }", "}"]
    source = ("%s {\n%s  const %s row_raw = (%s)blockIdx.x * ROWS_PER_BLOCK + threadIdx.y;\n"
              "  const bool row_ok = row_raw < %d;\n  const %s row = row_ok ? row_raw : %d;\n%s\n}\n") % (
        signature(group.name, em, outs, "THREADS * ROWS_PER_BLOCK"), smem, index, index, rows, index, rows - 1,
        textwrap.indent("\n".join(row_lines + body), "  "))
    torch_src = torch_def(group.name, tem, outs,
                          trow_lines + ["col = torch.arange(%d, device=out0.device).view(1, -1)" % cols] + tlines + tstores,
                          ["row = torch.arange(%d, device=out0.device).view(-1, 1)" % rows])
    variants = []
    widest = 1
    while widest < cols and widest < 1024:
        widest *= 2
    for threads in sorted({min(t, widest) for t in _THREADS}):
        per_block = max(1, 256 // threads)
        variants.append(Launch((-(-rows // per_block), 1, 1), (threads, per_block, 1),
                               (("THREADS", threads), ("ROWS_PER_BLOCK", per_block))))
    return KernelSpec(group.name, "scan", list(em.inputs.values()), outs, source, torch_src, variants,
                      group.ops(), rows=rows, cols=cols)


def _render(group, d):
    nodes, outputs = group.nodes, group.outputs
    scans = scan_nodes(nodes)
    if any(opset.kind(n) == opset.REDUCTION for n in nodes):
        raise Unsupported("a scan and a reduction in one kernel")
    full = tuple(meta(scans[0]).shape)
    dim = _dim(scans[0])
    for s in scans[1:]:
        if tuple(meta(s).shape) != full or _dim(s) != dim:
            raise Unsupported("scans along different dims or of different shapes")
    for o in outputs:
        if tuple(meta(o).shape) != full:
            raise Unsupported("output %s of shape %s beside a scan of shape %s" % (o.name, tuple(meta(o).shape), full))
    kept = tuple(s for i, s in enumerate(full) if i != dim)
    rows, cols = math.prod(kept), full[dim]
    em = Emitter(d, nodes)
    row_scope = em.scope
    row_coords = coord_vars("r", kept, "row", em)
    loop = Scope(parent=row_scope, hoist=row_scope)
    em.scope = loop
    (col,) = coord_vars("c", (cols,), "col", em)
    it = iter(row_coords)
    coords = tuple(col if i == dim else next(it) for i in range(len(full)))
    if dim == len(full) - 1 or all(s == 1 for s in full[dim + 1:]):
        em.flat[(coords, full)] = ("row * %d + col" % cols if cols > 1 else "row", contiguous_strides(full))
    carries, ctypes = [], set()
    em.scan_value = lambda node, at: _step(em, node, at, coords, carries, ctypes, rows, cols)
    outs = output_args(outputs)
    stores = [store(em, k, coords, outs[k], em.value(o, coords)) for k, o in enumerate(outputs)]
    return em, outs, row_scope.lines, loop.lines, stores, rows, cols, carries, ctypes


def _step(em, node, at, coords, carries, ctypes, rows, cols):
    if tuple(at) != coords:
        raise Unsupported("%s is read away from its own column" % node.name)
    operand = node.args[0]
    if cols == 1:  # one column is its own scan; without column variables it would leave the loop
        value = em.value(operand, coords)
        out_ctype = opset.ctype_of(meta(node).dtype)
        if opset.ctype_of(meta(operand).dtype) == out_ctype:
            return value
        return em._emit(("scan cast", node), em.d.cast(value, out_ctype), out_ctype, coords)
    if reached(operand, em.members, opset.SCAN):
        raise Unsupported("a scan of a scan in one kernel")
    name = opset.op_name(node.target)
    combine, identity, torch_op = _COMBINE[name]
    src_ctype = opset.ctype_of(meta(operand).dtype)
    acc = "f64" if src_ctype in ("f32", "f64") else "i64"
    if acc != "f64" and name == "logcumsumexp":
        raise Unsupported("logcumsumexp of a %s tensor" % meta(operand).dtype)
    value = em.value(operand, coords)
    if src_ctype != acc:
        value = em.d.cast(value, acc)
    out_ctype = opset.ctype_of(meta(node).dtype)
    d = em.d
    if d.name == "cuda":
        carry = em.fresh("carry")
        carries.append((carry, acc, d.literal(identity, acc)))
        ctypes.add(acc)
        expr = "kw_scan_step(%s, col_ok, %s, %s(), %s, kw_scan_smem_%s, THREADS)" % (
            value, carry, combine, d.literal(identity, acc), acc)
    else:
        expr = "torch.%s(kw_grid(%s, %d, %d), 1)" % (torch_op, value, rows, cols)
    result = em._emit(("scan", node), expr, acc, coords)
    if out_ctype != acc:
        cast = dialects.rounded(d.cast(result, out_ctype), meta(node).dtype)
        result = em._emit(("scan cast", node), cast, out_ctype, coords)
    return result


def _dim(node):
    rank = len(meta(node).shape)
    return node.args[1] % rank if rank else 0
