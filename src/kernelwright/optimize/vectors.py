"""A column loop that gives each thread VEC consecutive columns: the row-indexed operands it
reads or writes staged through registers in 16-byte (or 8-byte) accesses.

One scalar column loop issues a load and a store per element and waits on each; VEC columns
at once cut the loop's instructions and put VEC elements in flight a thread (softmax over
4096 rows of 393,216 in the rows template, 1024 threads: 8.64 ms a column a thread, 6.61 ms
four, H100 2026-11-26). The rows template stages from global memory, the cluster template from the
row's copy in shared memory; both stage outputs the same way.
"""

from . import accumulate, dialects


def row_vector(em, outs, ncols):
    """The columns a VEC variant gives a thread at once: 16 bytes of the narrowest operand read
    or written at the row's flat index (4 float32, 8 float16), where the row's length keeps
    every row's start aligned; 0 where nothing is read or written so."""
    sizes = [a.dtype.itemsize for k, a in enumerate(em.inputs.values()) if k in em.row_loads]
    sizes += [outs[k].dtype.itemsize for k in em.row_stores]
    vec = 16 // min(sizes) if sizes else 0
    return vec if vec > 1 and ncols % vec == 0 else 0


def aligned(pointers):
    """The condition that every pointer is 16-byte aligned."""
    return "((%s) & 15ull) == 0" % " | ".join("reinterpret_cast<unsigned long long>(%s)" % p for p in pointers)


# KW_ROW_LOAD's definition outside a vector loop, by where the row is read from.
GLOBAL_LOAD = "kw_load(in##k[off])"


def column_loop(loop, index, ncols, em, outs, start, end, source, row_load=GLOBAL_LOAD, batch=1):
    """VEC columns a thread over [start, end) in steps of THREADS * VEC (``start`` includes the
    thread's own offset); ``source(k)`` is where input ``k``'s VEC elements at flat index
    ``kw_base`` are read from; ``row_load``, KW_ROW_LOAD's definition to restore after.
    ``batch``: that many steps' loads issued before any of them is used. A reduction's body
    (the online max and sum's branch and exp) keeps the compiler from moving one step's load
    ahead of the previous step's work, so without it a thread waits out each load's latency in
    turn; the columns are still taken in the same order."""
    body = accumulate.column_body(loop)
    text = "\n".join(body)
    ins = [(k, a) for k, a in enumerate(em.inputs.values()) if "KW_ROW_LOAD(%d," % k in text]
    stored = [k for k in range(len(outs)) if "KW_OUT_AT(%d," % k in text]
    step = "THREADS * VEC"
    lines = ["for (%s kw_colb = %s; kw_colb < %s; kw_colb += %d * %s) {" % (index, start, end, batch, step)]
    lines += ["  alignas(16) %s kw_stage%d[%d][VEC];" % (dialects.STORAGE_TYPES[a.dtype], k, batch) for k, a in ins]
    lines += ["  #pragma unroll", "  for (int kw_u = 0; kw_u < %d; ++kw_u) {" % batch,
              "    const %s colv = kw_colb + kw_u * %s;" % (index, step),
              "    const %s kw_base = row * %d + colv;" % (index, ncols),
              "    if (colv < %s) {" % end]
    lines += ["      kw_copy_vec<VEC>(kw_stage%d[kw_u], %s);" % (k, source(k)) for k, _ in ins]
    lines += ["    }", "  }",
              "  #pragma unroll", "  for (int kw_u = 0; kw_u < %d; ++kw_u) {" % batch,
              "  const %s colv = kw_colb + kw_u * %s;" % (index, step),
              "  if (colv >= %s) break;" % end,
              "  const %s kw_base = row * %d + colv;" % (index, ncols)]
    lines += ["  alignas(16) %s kw_ostage%d[VEC];" % (dialects.STORAGE_TYPES[outs[k].dtype], k) for k in stored]
    lines += ["#undef KW_ROW_LOAD", "#define KW_ROW_LOAD(k, off) kw_load(kw_stage##k[kw_u][(off) - kw_base])",
              "#undef KW_OUT_AT", "#define KW_OUT_AT(k, off) (&kw_ostage##k[(off) - kw_base])",
              "  #pragma unroll", "  for (int v = 0; v < VEC; ++v) {", "    const %s col = colv + v;" % index]
    lines += ["    " + line for line in body]
    lines += ["  }", "#undef KW_ROW_LOAD", "#define KW_ROW_LOAD(k, off) %s" % row_load,
              "#undef KW_OUT_AT", "#define KW_OUT_AT(k, off) (&out##k[off])"]
    if stored:
        lines += ["  if (row_ok) {"] + ["    kw_copy_vec<VEC>(out%d + kw_base, kw_ostage%d);" % (k, k) for k in stored]
        lines += ["  }"]
    return lines + ["  }", "}"]
