"""Coordinates as digits of the domain's flat index: two index expressions reached along
different paths of views are recognised as the same coordinate only where they are."""

from kernelwright.optimize.digits import Digits


def _value(digit, flat):
    a, b = digit
    return flat // a if b is None else (flat // a) % b


def test_row_and_column_digits_and_a_reshape_back_agree_with_arithmetic():
    rows, cols = 6, 20  # a (2, 3) grid of rows, each (4, 5) columns
    d = Digits()
    d.start_rows(rows, cols)
    row_coords = d.unflattened(d.of("row"), (2, 3), (3, 1))
    col_coords = d.unflattened(d.of("col"), (4, 5), (5, 1))
    for flat in range(rows * cols):
        row, col = divmod(flat, cols)
        assert [_value(x, flat) for x in row_coords] == [row // 3, row % 3]
        assert [_value(x, flat) for x in col_coords] == [col // 5, col % 5]
    # The same elements as (2, 12, 5): its first two coordinates recompose the row's (2, 3)
    # and the column's 4 into one value, then split again.
    for i, x in enumerate(row_coords):
        d.set("r%d" % i, x)
    d.set("c0", col_coords[0])
    merged = d.summed([("r0", 60), ("r1", 20), ("c0", 5)])
    assert merged is None, "strides that skip a digit recompose nothing"
    d.set("n", d.unflattened((1, None), (2, 12, 5), (60, 5, 1))[0])
    d.set("j", d.unflattened((1, None), (2, 12, 5), (60, 5, 1))[1])
    group = d.summed([("n", 12), ("j", 1)])  # n * 12 + j: the flat index of (n, j) over (2, 12)
    assert group is not None
    d.set("nj", group)
    g = d.unflattened(group, (2, 3, 4), (12, 4, 1))  # (n, j) read as (sample, group, channel)
    d.set("g0", g[0])
    d.set("g1", g[1])
    assert d.same("g0", "r0") and d.same("g1", "r1")
    assert not d.same("g1", "r0") and not d.same("nj", "r1")


def test_digits_that_do_not_line_up_are_unknown():
    d = Digits()
    d.start_rows(10, 7)
    assert d.unflattened(d.of("col"), (2, 3), (3, 1)) == [None, None]  # 7 is not 2 x 3
    d.set("x", (1, 4))
    d.set("y", (8, 2))
    assert d.summed([("x", 1), ("y", 4)]) is None  # x covers F % 4, y starts at F // 8
    d.set("z", (4, 2))
    assert d.summed([("x", 1), ("z", 4)]) == (1, 8)
    for flat in range(70):
        assert _value((1, 4), flat) + 4 * _value((4, 2), flat) == _value((1, 8), flat)


def test_nothing_is_known_without_a_flat_index():
    d = Digits()
    d.set("v", (1, 4))
    assert d.of("v") is None and not d.same("v", "w") and d.same("v", "v")
