"""k-state grids read and written a row at a time through bytes (issue 31: per-cell Python made
a 4095 x 4095 file cost 2 s each way): the same values, the same refusals, for every k."""

from __future__ import annotations

import random

import pytest

from countlo.board import Shape
from countlo.errors import BoardFormatError
from countlo.formats.states import format_grid, parse_grid
from countlo.rules import Rules


@pytest.mark.parametrize("k", [2, 3, 7, 10, 11, 64, 255])
def test_grids_round_trip_for_every_k(k):
    rng = random.Random(k)
    for rows, cols in ((1, 1), (3, 5), (40, 33)):
        shape = Shape(rows, cols, Rules(states=k))
        values = [rng.randrange(k) for _cell in range(shape.cells)]
        text = format_grid(shape, values)
        assert parse_grid(text, k) == (rows, cols, values)
        if k <= 10:
            assert text.splitlines()[0] == "".join(str(v) for v in values[:cols])
        else:
            assert text.splitlines()[0] == " ".join(str(v) for v in values[:cols])


def test_the_forms_people_write():
    assert parse_grid("# a comment\n\n1 # *\n. O -\n", 2) == (2, 3, [1, 1, 1, 0, 1, 0])
    assert parse_grid("2.1\n-20\n", 3) == (2, 3, [2, 0, 1, 0, 2, 0])
    assert parse_grid("10 . 254\n- 3 0\n", 255) == (2, 3, [10, 0, 254, 0, 3, 0])


@pytest.mark.parametrize(("text", "k", "said"), [
    ("012\n013\n", 3, "t.txt line 2: state 3 is not below the number of states, 3"),
    ("10 2\n4 300\n", 255, "t.txt line 2: state 300 is not below the number of states, 255"),
    ("10 2\n4 12\n", 11, "t.txt line 2: state 12 is not below the number of states, 11"),
    ("01\n011\n", 2, "t.txt line 2: 3 cells, but line 1 has 2 (rows must all be the same length)"),
    ("01\nx1\n", 2, "t.txt line 2: not a row of states 0..1 (digits): 'x1'"),
    ("01\n١1\n", 2, "t.txt line 2: not a row of states 0..1 (digits)"),
    ("\n\n", 3, "t.txt: no board rows found"),
])
def test_refusals_name_the_line(text, k, said):
    with pytest.raises(BoardFormatError) as err:
        parse_grid(text, k, "t.txt")
    assert said in str(err.value)
