"""Index expressions known as digits of the domain's flat index.

The emitter's coordinates are text, so the same coordinate reached along two paths of views
(a GroupNorm's group, read as the row being reduced and again through the reshapes that carry
its per-channel coefficients back to the (N, C, H, W) output) is two different strings. Where
both came from one flat index ``F`` over the domain, each is a digit of ``F`` in a mixed radix:
``(F // a) % b`` (``b`` None: no modulus). Tracking ``(a, b)`` for the variables that hold
such values lets the emitter see that two expressions are the same coordinate.
"""


class Digits:
    def __init__(self):
        self.known = {}  # expression or variable -> (a, b)
        self.size = None  # the number of values F takes (the domain's size); None: no F

    def start_rows(self, rows, cols):
        """The domain is ``rows`` rows of ``cols`` columns, contiguous: F = row * cols + col."""
        self.size = rows * cols
        self.set("row", (cols, None))
        self.set("col", (1, cols))

    def set(self, expr, digit):
        if self.size is not None and digit is not None:
            self.known[expr] = self._normal(*digit)

    def of(self, expr):
        return self.known.get(expr)

    def same(self, x, y):
        """Whether expressions ``x`` and ``y`` are the same value: the same text, or the same
        digit of the flat index."""
        return x == y or (self.of(x) is not None and self.of(x) == self.of(y))

    def _normal(self, a, b):
        # F < size: a modulus at or above what F // a can reach changes nothing.
        if b is not None and a * b >= self.size:
            b = None
        return a, b

    def unflattened(self, digit, shape, strides):
        """The digits of the row-major coordinates of a value with ``digit`` over ``shape``
        (None for a coordinate that is not one, or where ``digit`` is None)."""
        out = []
        leading = True
        for s, st in zip(shape, strides):
            if s == 1:
                out.append(None)
                continue
            out.append(self._slice(digit, st, None if leading else s))
            leading = False
        return out

    def _slice(self, digit, divisor, modulus):
        """The digit of ``(value // divisor) % modulus`` for a value with ``digit``."""
        if digit is None:
            return None
        a, b = digit
        if b is not None:
            if b % divisor:
                return None
            b //= divisor
            if modulus is not None:
                if b % modulus:
                    return None
                b = modulus
        else:
            b = modulus
        return a * divisor, b

    def summed(self, terms):
        """The digit of sum(coordinate * stride) for ``terms`` [(expression, stride)] where the
        terms are consecutive digits that recompose one (the same value through a reshape),
        else None."""
        parts = sorted(((st, self.of(c)) for c, st in terms), key=lambda t: t[0])
        if not parts or parts[0][0] != 1 or any(d is None for _, d in parts):
            return None
        a0, b = parts[0][1]
        a, width = a0, 1
        for st, (ai, bi) in parts:
            if st != width or ai != a:
                return None
            if bi is None:
                return (a0, None) if (st, (ai, bi)) == parts[-1] else None
            width, a = width * bi, a * bi
        return a0, width
