"""How an op's arguments become a kernel's parameters.

Kernel parameters are bound to schema arguments by name. A pointer that isn't a schema
argument is an output; an integer that isn't one is filled in by kernelwright, from a shape
symbol of the same name or, for the usual size names, with the element count the launch
covers. Everything a call could get wrong (device, dtype, shape, layout, integer range) is
checked here, on real and on fake tensors alike, before a kernel is loaded or launched.
"""

import ctypes
import re
import struct
from dataclasses import dataclass
from typing import Optional

import torch

from .errors import KernelInputError, KernelSignatureError
from .signature import ctype, spelling_of

# Integer parameters with these names, absent from the schema, receive the element count.
SIZE_NAMES = frozenset({"n", "N", "numel", "size", "count", "num_elements", "n_elements", "total_elements", "length"})

TEMPLATE_DTYPES = (torch.float32, torch.float16, torch.bfloat16, torch.float64)

_INT_RANGES = {
    "b": (-(2**7), 2**7 - 1),
    "B": (0, 2**8 - 1),
    "h": (-(2**15), 2**15 - 1),
    "H": (0, 2**16 - 1),
    "i": (-(2**31), 2**31 - 1),
    "I": (0, 2**32 - 1),
    "q": (-(2**63), 2**63 - 1),
    "Q": (0, 2**64 - 1),
}
# Each parameter gets an 8-byte slot: no kernel scalar is wider or more aligned.
_SLOT = {"f": "f4x", "d": "d", "e": "e6x", "bf16": "H6x", "i": "i4x", "I": "I4x", "q": "q", "Q": "Q",
         "h": "h6x", "H": "H6x", "b": "b7x", "B": "B7x", "?": "?7x", "ptr": "Q"}
_REQUIRED = object()


_FINITE_MAX = {"e": 65504.0, "f": 3.4028234663852886e38, "bf16": 3.3895313892515355e38}


def _narrow(value, fmt):
    """Out-of-range floats become infinities, as a torch cast would make them, not struct errors."""
    most = _FINITE_MAX.get(fmt)
    if most is not None and value == value and abs(value) > most:
        return float("inf") if value > 0 else float("-inf")
    return value


def _bf16_bits(value):
    if value != value:
        return 0x7FC0
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


@dataclass(frozen=True)
class SchemaArg:
    name: str
    type: str
    mutable: bool
    default: object


@dataclass(frozen=True)
class Slot:
    """Where one kernel parameter's value comes from."""

    param: object  # signature.Param
    source: str  # "arg", "out", "size" or "symbol"
    index: int = -1  # schema argument or output number
    symbol: Optional[str] = None


@dataclass
class Call:
    """One call's arguments after checking: what the kernel and the fake kernel work from."""

    values: list  # schema order, defaults filled in, tensors possibly made contiguous
    device: Optional[torch.device]
    dtype: Optional[torch.dtype]  # the instantiation a templated kernel runs
    symbols: dict


def split_schema(schema):
    """A schema with or without a leading op name: (name or None, "(...) -> ...")."""
    match = re.match(r"\s*([A-Za-z_]\w*)\s*(\(.*)$", schema, re.S)
    if match:
        return match.group(1), match.group(2).strip()
    return None, schema.strip()


def _parse_schema(schema):
    parsed = torch._C.parse_schema("kernelwright_schema::parse" + schema)
    args = tuple(
        SchemaArg(
            a.name,
            str(a.type),
            bool(a.alias_info is not None and a.alias_info.is_write),
            a.default_value if a.has_default_value() else _REQUIRED,
        )
        for a in parsed.arguments
    )
    return args, [str(r.type) for r in parsed.returns]


class Binding:
    def __init__(self, sig, schema=None, shapes=None, dtypes=None, contiguous="copy", has_outputs_fn=False):
        self.sig = sig
        self.kernel = sig.name
        if contiguous not in ("copy", "require"):
            raise KernelSignatureError(f"contiguous must be 'copy' or 'require', got {contiguous!r}")
        self.copy_noncontiguous = contiguous == "copy"
        self.shapes = self._check_shapes(shapes or {})
        symbols = {d for dims in self.shapes.values() for d in dims if isinstance(d, str)}

        self.schema = schema.strip() if schema is not None else self._derive_schema(symbols)
        self.args, returns = _parse_schema(self.schema)
        if any(r != "Tensor" for r in returns):
            raise KernelSignatureError(f"kernel {self.kernel!r}: the schema may only return Tensors, got {returns}")
        self.mutated = tuple(a.name for a in self.args if a.mutable)
        by_name = {a.name: i for i, a in enumerate(self.args)}

        slots, outputs = [], []
        for p in sig.params:
            if p.name in by_name:
                slots.append(self._bind_arg(p, by_name[p.name]))
            elif p.pointer:
                slots.append(Slot(p, "out", len(outputs)))
                outputs.append(p)
            elif p.name in symbols and self._kind(p) == "int":
                slots.append(Slot(p, "symbol", symbol=p.name))
            elif p.name in SIZE_NAMES and self._kind(p) == "int":
                slots.append(Slot(p, "size"))
            else:
                raise KernelSignatureError(
                    f"kernel {self.kernel!r}: parameter {p.name!r} isn't in the schema {self.schema}; "
                    "add it there" + (", or name it as a dimension in shapes=" if self._kind(p) == "int" else "")
                )
        self.slots = tuple(slots)
        self.outputs = tuple(outputs)
        if len(outputs) != len(returns):
            raise KernelSignatureError(
                f"kernel {self.kernel!r}: the schema returns {len(returns)} tensor(s) but the kernel writes "
                f"{len(outputs)} pointer(s) that aren't schema arguments: {[p.name for p in outputs]}"
            )
        bound = {s.index for s in slots if s.source == "arg"}
        for i, a in enumerate(self.args):
            if a.type == "Tensor" and i not in bound:
                raise KernelSignatureError(
                    f"kernel {self.kernel!r}: schema argument {a.name!r} isn't one of the kernel's parameters "
                    f"{[p.name for p in sig.params]}"
                )
        for name in self.shapes:
            if name not in by_name and name not in {p.name for p in outputs}:
                raise KernelSignatureError(f"kernel {self.kernel!r}: shapes= names {name!r}, which is neither an argument nor an output")
        self.tensor_args = tuple(s.index for s in slots if s.source == "arg" and s.param.pointer)
        if not self.tensor_args and not has_outputs_fn:
            raise KernelSignatureError(f"kernel {self.kernel!r} takes no input tensor: pass outputs= to say what it returns")

        self.dtypes = None
        self.dispatch = None
        if sig.template is not None:
            generic = [s.index for s in slots if s.source == "arg" and s.param.pointer and s.param.type == sig.template]
            if not generic:
                raise KernelSignatureError(
                    f"kernel {self.kernel!r} is a template, so it needs an input tensor of type {sig.template}* "
                    "to choose the instantiation from"
                )
            self.dispatch = generic[0]
            self.dtypes = tuple(dtypes) if dtypes is not None else TEMPLATE_DTYPES
            for d in self.dtypes:
                spelling_of(d)
        elif dtypes is not None:
            raise KernelSignatureError(f"kernel {self.kernel!r} isn't a template: its parameter types fix the dtypes")

        self._pointers = "<" + "Q" * len(slots)
        self._formats = {}

    # definition time

    def _kind(self, p):
        return "float" if p.type == self.sig.template else ctype(p.type).kind

    def _fmt(self, p, dtype):
        if p.type == self.sig.template:
            return ctype(spelling_of(dtype)).fmt if dtype is not None else "d"
        return ctype(p.type).fmt

    def _derive_schema(self, symbols):
        pointers = [p for p in self.sig.params if p.pointer]
        if len(pointers) > 1 and not any(p.const for p in pointers):
            raise KernelSignatureError(
                f"kernel {self.kernel!r}: none of its pointers is const, so kernelwright can't tell inputs from "
                "outputs; declare the inputs const (const float* x) or pass schema="
            )
        args, returns = [], []
        for p in self.sig.params:
            kind = self._kind(p)
            if p.pointer:
                if p.const:
                    args.append(f"Tensor {p.name}")
                else:
                    returns.append("Tensor")
            elif kind == "int" and (p.name in symbols or p.name in SIZE_NAMES):
                continue
            else:
                args.append(f"{kind} {p.name}")
        ret = returns[0] if len(returns) == 1 else "(" + ", ".join(returns) + ")"
        return "(" + ", ".join(args) + ") -> " + ret

    def _bind_arg(self, p, index):
        a = self.args[index]
        if p.pointer:
            if a.type != "Tensor":
                raise KernelSignatureError(f"kernel {self.kernel!r}: parameter {p.name!r} is a pointer, so the schema must give it type Tensor, not {a.type}")
        else:
            kind = self._kind(p)
            allowed = {"float": ("float", "int"), "int": ("int", "SymInt"), "bool": ("bool",)}[kind]
            if a.type not in allowed:
                raise KernelSignatureError(
                    f"kernel {self.kernel!r}: parameter {p.name!r} is a {p.type}, so the schema must give it type "
                    f"{' or '.join(allowed)}, not {a.type}"
                )
        return Slot(p, "arg", index)

    def _check_shapes(self, shapes):
        checked = {}
        for name, dims in shapes.items():
            dims = tuple(dims)
            for d in dims:
                if not (d is None or isinstance(d, str) and d.isidentifier() or isinstance(d, int) and not isinstance(d, bool) and d >= 0):
                    raise KernelSignatureError(f"shapes[{name!r}]: each dimension is an int, a symbol name or None, got {d!r}")
            checked[name] = dims
        return checked

    # call time

    def bind(self, args, kwargs):
        """The call's arguments in schema order, with defaults filled in."""
        values = list(args)
        for a in self.args[len(values):]:
            if a.name in kwargs:
                values.append(kwargs[a.name])
            elif a.default is not _REQUIRED:
                values.append(a.default)
            else:
                raise KernelInputError(f"{self.kernel}: missing argument {a.name!r}")
        return values

    def check(self, values, launching):
        """A ``Call`` with every tensor argument checked; contiguous copies made when ``launching``."""
        device = dtype = None
        first = None
        for i in self.tensor_args:
            a, t = self.args[i], values[i]
            if not isinstance(t, torch.Tensor):
                raise KernelInputError(f"{self.kernel}: argument {a.name!r} must be a tensor, got {type(t).__name__}")
            if device is None:
                device, first = t.device, a.name
            elif t.device != device:
                raise KernelInputError(f"{self.kernel}: argument {a.name!r} is on {t.device} but {first!r} is on {device}")
        if self.dispatch is not None:
            dtype = values[self.dispatch].dtype
            if dtype not in self.dtypes:
                raise KernelInputError(
                    f"{self.kernel}: argument {self.args[self.dispatch].name!r} has dtype {dtype}; the kernel is "
                    f"instantiated for {', '.join(str(d) for d in self.dtypes)} (dtypes= sets them)"
                )
        for s in self.slots:
            if s.source != "arg" or not s.param.pointer:
                continue
            a, t = self.args[s.index], values[s.index]
            expected = self._dtype(s.param, dtype)
            if expected is not None and t.dtype != expected:
                why = f"the kernel takes {s.param.type}*" if s.param.type != self.sig.template else f"{self.args[self.dispatch].name!r} is {dtype}"
                raise KernelInputError(f"{self.kernel}: argument {a.name!r} has dtype {t.dtype}, expected {expected} ({why})")
            if launching and not t.is_contiguous():
                if a.mutable or not self.copy_noncontiguous:
                    reason = "the kernel writes to it in place" if a.mutable else "contiguous='require'"
                    raise KernelInputError(f"{self.kernel}: argument {a.name!r} must be contiguous ({reason}); call .contiguous() first")
                values[s.index] = t.contiguous()
        symbols = {}
        for i, a in enumerate(self.args):
            if a.name in self.shapes and isinstance(values[i], torch.Tensor):
                self._match_shape(a.name, values[i].shape, symbols)
        return Call(values, device, dtype, symbols)

    def _dtype(self, p, dispatch_dtype):
        if p.type == self.sig.template:
            return dispatch_dtype
        return ctype(p.type).dtype

    def _match_shape(self, name, shape, symbols):
        dims = self.shapes[name]
        if len(shape) != len(dims):
            raise KernelInputError(f"{self.kernel}: {name!r} has shape {tuple(shape)}, expected {len(dims)} dimensions {_show(dims)}")
        for axis, (size, want) in enumerate(zip(shape, dims)):
            if want is None:
                continue
            if isinstance(want, str):
                if want not in symbols:
                    symbols[want] = (size, name)
                    continue
                want_size, source = symbols[want]
                if size != want_size:
                    raise KernelInputError(
                        f"{self.kernel}: {name!r} has shape {tuple(shape)}; its dim {axis} is {want} = {want_size} "
                        f"from {source!r}, got {size}"
                    )
            elif size != want:
                raise KernelInputError(f"{self.kernel}: {name!r} has shape {tuple(shape)}, expected {_show(dims)}")

    def allocate_outputs(self, call, outputs_fn, launching):
        """The output tensors, from ``outputs_fn`` or the defaults, checked like inputs."""
        ref = call.values[self.tensor_args[0]] if self.tensor_args else None
        if outputs_fn is None:
            made = [self._default_shape(p, call, ref) for p in self.outputs]
        else:
            made = _as_list(outputs_fn(*call.values))
            if len(made) != len(self.outputs):
                raise KernelInputError(f"{self.kernel}: outputs= returned {len(made)} output(s), the kernel writes {len(self.outputs)}")
        outs = []
        for p, spec in zip(self.outputs, made):
            want = self._dtype(p, call.dtype)
            if isinstance(spec, torch.Tensor):
                if want is not None and spec.dtype != want:
                    raise KernelInputError(f"{self.kernel}: output {p.name!r} has dtype {spec.dtype}, the kernel writes {want}")
                if call.device is not None and spec.device != call.device:
                    raise KernelInputError(f"{self.kernel}: output {p.name!r} is on {spec.device}, the inputs on {call.device}")
                if launching and not spec.is_contiguous():
                    raise KernelInputError(f"{self.kernel}: output {p.name!r} from outputs= must be contiguous")
                out = spec
            else:
                dtype = want if want is not None else (ref.dtype if ref is not None else torch.float32)
                if ref is not None:
                    out = ref.new_empty(tuple(spec), dtype=dtype)
                else:
                    out = torch.empty(tuple(spec), dtype=dtype, device=call.device)
            if p.name in self.shapes:
                self._match_shape(p.name, out.shape, call.symbols)
            outs.append(out)
        return outs

    def _default_shape(self, p, call, ref):
        dims = self.shapes.get(p.name)
        if dims is not None and all(isinstance(d, int) or d in call.symbols for d in dims):
            return tuple(d if isinstance(d, int) else call.symbols[d][0] for d in dims)
        return tuple(ref.shape)

    def extent(self, call, outs):
        """The element count a size parameter receives and an elementwise launch covers."""
        if outs:
            return outs[0].numel()
        return call.values[self.tensor_args[0]].numel()

    def check_elementwise(self, call, outs, n):
        for s in self.slots:
            if s.param.pointer:
                t = outs[s.index] if s.source == "out" else call.values[s.index]
                if t.numel() != n:
                    kind = "output" if s.source == "out" else "argument"
                    raise KernelInputError(
                        f"{self.kernel}: {kind} {s.param.name!r} has {t.numel()} elements but the elementwise launch "
                        f"covers {n}; pass launch= (and outputs=) for kernels whose tensors differ in size"
                    )

    def pack(self, call, outs, n):
        """The kernelParams array: returns (buffer, address); keep the buffer alive until launched."""
        values = []
        for s in self.slots:
            p = s.param
            if p.pointer:
                t = outs[s.index] if s.source == "out" else call.values[s.index]
                values.append(t.data_ptr())
                continue
            if s.source == "arg":
                value = call.values[s.index]
            elif s.source == "symbol":
                value = int(call.symbols[s.symbol][0])
            else:
                value = n
            values.append(self._scalar(p, value, call.dtype))
        fmt = self._formats.get(call.dtype)
        if fmt is None:
            fmt = "<" + "".join(_SLOT["ptr"] if s.param.pointer else _SLOT[self._fmt(s.param, call.dtype)] for s in self.slots)
            self._formats[call.dtype] = fmt
        count = len(self.slots)
        buffer = ctypes.create_string_buffer(8 * count * 2 or 8)
        base = ctypes.addressof(buffer)
        struct.pack_into(self._pointers, buffer, 0, *[base + 8 * count + 8 * i for i in range(count)])
        struct.pack_into(fmt, buffer, 8 * count, *values)
        return buffer, base

    def _scalar(self, p, value, dispatch_dtype):
        fmt = self._fmt(p, dispatch_dtype)
        if fmt in _INT_RANGES:
            if isinstance(value, float):
                if not value.is_integer():
                    raise KernelInputError(f"{self.kernel}: {p.name!r} is an integer parameter, got {value}")
                value = int(value)
            lo, hi = _INT_RANGES[fmt]
            if not lo <= value <= hi:
                hint = "; declare it int64_t" if fmt in ("i", "I", "h", "H", "b", "B") else ""
                raise KernelInputError(f"{self.kernel}: {p.name!r} = {value} doesn't fit the kernel's {p.type}{hint}")
            return value
        if fmt == "?":
            return bool(value)
        value = _narrow(float(value), fmt)
        return _bf16_bits(value) if fmt == "bf16" else value

    def result(self, outs):
        if not outs:
            return None
        return outs[0] if len(outs) == 1 else tuple(outs)


def _as_list(made):
    if isinstance(made, torch.Tensor) or _is_shape(made):
        return [made]
    return list(made)


def _is_shape(value):
    return isinstance(value, (tuple, list, torch.Size)) and all(isinstance(v, (int, torch.SymInt)) and not isinstance(v, bool) for v in value)


def _show(dims):
    return "(" + ", ".join("*" if d is None else str(d) for d in dims) + ")"
