"""Reading a ``__global__`` function's parameter list out of CUDA source.

This is not a C++ parser: it reads the declarations kernels are written with in practice
(pointers and scalars of arithmetic types, ``const``/``__restrict__``, ``extern "C"``,
``__launch_bounds__``, one ``template <typename T>``) and refuses anything else by name,
so a kernel is never launched with a guessed argument layout.
"""

import re
from dataclasses import dataclass
from typing import Optional, Tuple

import torch

from .errors import KernelSignatureError


@dataclass(frozen=True)
class CType:
    spelling: str  # how a template argument of this type is written in a name expression
    dtype: Optional[torch.dtype]  # None for void: a void* takes a tensor of any dtype
    kind: str  # "float", "int", "bool" or "void": the schema type a scalar of it takes
    fmt: str  # struct format of one scalar; "bf16" is packed by hand


_CTYPES = {}


def _add(names, spelling, dtype, kind, fmt):
    for name in names:
        _CTYPES[name] = CType(spelling, dtype, kind, fmt)


_add(["float"], "float", torch.float32, "float", "f")
_add(["double"], "double", torch.float64, "float", "d")
_add(["__half", "half"], "__half", torch.float16, "float", "e")
_add(["__nv_bfloat16", "nv_bfloat16"], "__nv_bfloat16", torch.bfloat16, "float", "bf16")
_add(["int", "signed", "signed int", "int32_t"], "int", torch.int32, "int", "i")
_add(["unsigned", "unsigned int", "uint32_t"], "unsigned int", getattr(torch, "uint32", None), "int", "I")
_add(
    ["long long", "long long int", "signed long long", "long", "long int", "int64_t", "ptrdiff_t"],
    "long long",
    torch.int64,
    "int",
    "q",
)
_add(
    ["unsigned long long", "unsigned long", "uint64_t", "size_t"],
    "unsigned long long",
    getattr(torch, "uint64", None),
    "int",
    "Q",
)
_add(["short", "short int", "signed short", "int16_t"], "short", torch.int16, "int", "h")
_add(["unsigned short", "uint16_t"], "unsigned short", getattr(torch, "uint16", None), "int", "H")
_add(["signed char", "char", "int8_t"], "signed char", torch.int8, "int", "b")
_add(["unsigned char", "uint8_t"], "unsigned char", torch.uint8, "int", "B")
_add(["bool"], "bool", torch.bool, "bool", "?")
_add(["void"], "void", None, "void", "")

_SPELLING_BY_DTYPE = {}
for _ct in _CTYPES.values():
    if _ct.dtype is not None:
        _SPELLING_BY_DTYPE.setdefault(_ct.dtype, _ct.spelling)


def ctype(name):
    return _CTYPES[name]


def spelling_of(dtype):
    """The C++ type a template is instantiated with for tensors of ``dtype``."""
    try:
        return _SPELLING_BY_DTYPE[dtype]
    except KeyError:
        raise KernelSignatureError(f"kernelwright can't instantiate a kernel for {dtype}") from None


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # a key of the type table, or the template's type parameter
    pointer: bool
    const: bool  # the pointee is const: the kernel only reads through it


@dataclass(frozen=True)
class KernelSignature:
    name: str  # as given, possibly namespace-qualified: what name expressions use
    params: Tuple[Param, ...]
    template: Optional[str]  # the type parameter's name for ``template <typename T>`` kernels
    line: int

    def name_expression(self, dtype=None):
        if self.template is None:
            return self.name
        return f"{self.name}<{spelling_of(dtype)}>"


_IDENT = re.compile(r"[A-Za-z_]\w*")
_QUALIFIED = re.compile(r"^[A-Za-z_]\w*(::[A-Za-z_]\w*)*$")
_DROPPED = {"__restrict__", "__restrict", "restrict", "volatile", "__grid_constant__", "struct"}


def _blank(text):
    """Spaces for everything but newlines, so offsets and line numbers survive."""
    return re.sub(r"[^\n]", " ", text)


def _strip(source):
    """Comments, string and char literals and preprocessor lines, blanked out."""
    pattern = re.compile(
        r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*',
        re.S | re.M,
    )
    return pattern.sub(lambda m: _blank(m.group(0)), source)


def _closing_paren(text, start):
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise KernelSignatureError("unbalanced parentheses in the kernel's parameter list")


def _split_top_level(text):
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _normalize_type(tokens):
    words = [re.sub(r"^(cuda::std::|std::|::)", "", t) for t in tokens]
    return " ".join(words)


def _parse_param(text, template, kernel):
    decl = text.split("=")[0].strip()
    if "&" in decl:
        raise KernelSignatureError(f"kernel {kernel!r}: reference parameter {text!r} can't be passed from Python")
    array = bool(re.search(r"\[\s*\]\s*$", decl))
    decl = re.sub(r"\[\s*\]\s*$", "", decl)
    tokens = [t for t in re.findall(r"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*|\*", decl) if t not in _DROPPED]
    if len(tokens) < 2 or not _IDENT.fullmatch(tokens[-1]):
        raise KernelSignatureError(f"kernel {kernel!r}: parameter {text!r} needs a type and a name")
    name, tokens = tokens[-1], tokens[:-1]
    stars = tokens.count("*") + array
    if stars > 1:
        raise KernelSignatureError(f"kernel {kernel!r}: parameter {name!r} is a pointer to a pointer; pass tensors instead")
    first_star = tokens.index("*") if "*" in tokens else len(tokens)
    const = "const" in tokens[:first_star]
    base = _normalize_type([t for t in tokens if t not in ("const", "*")])
    if base == template:
        return Param(name, base, stars == 1, const)
    if base not in _CTYPES:
        supported = ", ".join(sorted({c.spelling for c in _CTYPES.values()} | {"int64_t"}))
        raise KernelSignatureError(
            f"kernel {kernel!r}: parameter {name!r} has type {base!r}, which kernelwright can't pass; "
            f"supported are pointers to and values of {supported}"
            + (f", and the template parameter {template}" if template else "")
        )
    if base == "void" and stars == 0:
        raise KernelSignatureError(f"kernel {kernel!r}: parameter {name!r} has type void")
    if stars and base != "void" and _CTYPES[base].dtype is None:
        raise KernelSignatureError(f"kernel {kernel!r}: this torch has no tensor dtype for {base!r} ({name!r})")
    return Param(name, base, stars == 1, const)


def _template_param(head, kernel):
    match = re.search(r"\btemplate\s*<(.*)>", head, re.S)
    if not match:
        return None
    params = _split_top_level(match.group(1))
    names = [re.fullmatch(r"(?:typename|class)\s+([A-Za-z_]\w*)", p) for p in params]
    if len(params) != 1 or not names[0]:
        raise KernelSignatureError(
            f"kernel {kernel!r}: kernelwright instantiates templates with exactly one type parameter "
            f"(template <typename T>); got template <{match.group(1).strip()}>. Wrap other template "
            "arguments in a non-template kernel."
        )
    return names[0].group(1)


def global_functions(source):
    """Names of the ``__global__`` functions in ``source``, for error messages."""
    clean = _strip(source)
    names = []
    for match in re.finditer(r"\b__global__\b[^;{}]*", clean):
        decl = re.sub(r"__launch_bounds__\s*\([^)]*\)", " ", match.group(0))
        name = re.search(r"([A-Za-z_]\w*)\s*\(", decl)
        if name:
            names.append(name.group(1))
    return names


def parse_kernel(source, kernel):
    """The signature of the ``__global__`` function ``kernel`` (optionally ``ns::name``)."""
    if not isinstance(kernel, str) or not _QUALIFIED.match(kernel):
        raise KernelSignatureError(f"kernel name must be a C++ identifier, got {kernel!r}")
    short = kernel.split("::")[-1]
    clean = _strip(source)
    found = []
    for match in re.finditer(r"\b" + re.escape(short) + r"\s*\(", clean):
        start = max(clean.rfind(c, 0, match.start()) for c in ";{}") + 1
        head = clean[start : match.start()]
        if not re.search(r"\b__global__\b", head):
            continue
        open_paren = match.end() - 1
        close = _closing_paren(clean, open_paren)
        rest = clean[close + 1 :].lstrip()
        line = clean.count("\n", 0, match.start()) + 1
        found.append((rest[:1] == "{", head, clean[open_paren + 1 : close], line))
    definitions = [f for f in found if f[0]] or found
    if not definitions:
        known = global_functions(source)
        hint = f"; it defines {', '.join(known)}" if known else "; it defines no __global__ function"
        raise KernelSignatureError(f"no __global__ function named {kernel!r} in the source{hint}")
    if len(definitions) > 1:
        lines = ", ".join(str(d[3]) for d in definitions)
        raise KernelSignatureError(f"kernel {kernel!r} is defined more than once (lines {lines}); overloads are ambiguous")
    _, head, params_text, line = definitions[0]
    template = _template_param(head, kernel)
    params = tuple(_parse_param(p, template, kernel) for p in _split_top_level(params_text) if p != "void")
    names = [p.name for p in params]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise KernelSignatureError(f"kernel {kernel!r} repeats parameter names {sorted(duplicates)}")
    return KernelSignature(kernel, params, template, line)
