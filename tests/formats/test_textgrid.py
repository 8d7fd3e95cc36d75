"""Reading and printing text grids and --lit lists."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape
from countlo.errors import BadCellError, BoardFormatError
from countlo.formats.textgrid import cell_names, cell_pairs, format_rows, parse_grid, parse_lit, side_by_side


def test_symbols_spaces_and_comments():
    shape, rows = parse_grid("# a comment about the start\n\n1 0 #\n. * -\nO.0\n")
    assert shape == Shape(3, 3)
    assert rows == [0b101, 0b010, 0b001]


def test_a_line_of_cell_symbols_is_always_a_row():
    shape, rows = parse_grid("# . #\n#\t.\t#\n")
    assert shape == Shape(2, 3) and rows == [0b101, 0b101]
    shape, rows = parse_grid("#\n")  # a lone '#' is a 1x1 lit board, not a comment
    assert shape == Shape(1, 1) and rows == [1]


@settings(deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_format_then_parse_round_trips(r, c, data):
    rows = [data.draw(st.integers(0, (1 << c) - 1)) for _ in range(r)]
    for on, off in (("1", "0"), ("#", "."), ("O", "-")):
        assert parse_grid(format_rows(rows, c, on, off)) == (Shape(r, c), rows)


@pytest.mark.parametrize("text, message", [
    ("101\n10\n", "input line 2: 2 cells, but line 1 has 3"),
    ("\n\n101\n1 0 x\n", "input line 4, column 5: unknown character 'x'"),
    ("1o1\n", "input line 1, column 2: unknown character 'o'"),
    ("", "input: no board rows found"),
    ("# just a note\n", "input: no board rows found"),
    ("  abc\n", "input line 1, column 3: unknown character 'a'"),
])
def test_bad_grids_name_the_line_and_column(text, message):
    with pytest.raises(BoardFormatError) as e:
        parse_grid(text)
    assert str(e.value).startswith(message)


def test_lit_numbers_in_reading_order():
    shape = Shape(3, 4)
    rows = parse_lit("1, 6 12", shape)
    assert rows == [0b0001, 0b0010, 0b1000]
    assert cell_names(shape, rows) == ["A1", "B2", "D3"]
    assert cell_pairs(rows) == [[1, 1], [2, 2], [3, 4]]
    assert parse_lit("", shape) == [0, 0, 0]


@pytest.mark.parametrize("text, message", [
    ("13", "--lit item 13 is off the 3x4 board (cells 1-12)"),
    ("0", "--lit item 0 is off"),
    ("3,-1", "--lit item '-1' is not a cell number"),
    ("4,4", "--lit item 4 is listed twice"),
])
def test_bad_lit_items(text, message):
    with pytest.raises(BadCellError) as e:
        parse_lit(text, Shape(3, 4))
    assert str(e.value).startswith(message)


def test_side_by_side_lines_up():
    shape = Shape(2, 3)
    text = side_by_side(shape, [("start", [0b001, 0b110], "#", "."), ("presses", [0b100, 0], "X", ".")])
    assert text.splitlines() == [
        "start      presses",
        "   A B C      A B C",
        "1  # . .   1  . . X",
        "2  . # #   2  . . .",
    ]


def test_lit_takes_a1_names_as_well_as_numbers():
    shape = Shape(3, 3)
    assert parse_lit("A1,B2 9", shape) == parse_lit("1,5,9", shape) == [0b001, 0b010, 0b100]
    with pytest.raises(BadCellError, match="D1 is off the 3x3 board"):
        parse_lit("D1", shape)
    with pytest.raises(BadCellError, match="listed twice"):
        parse_lit("A1,1", shape)


def test_a_file_of_several_generated_boards_is_refused_in_one_line():
    """Issue 26, item 9: `generate --count 2` output was read as one tall board."""
    from countlo.formats.states import parse_grid as parse_states
    from countlo.formats.textgrid import board_heads

    two = ("# countlo generate: 2 3x3 boards, uniform over the solvable boards, seed 1\n"
           "# board 1: fewest presses 2\n.##\n#.#\n##.\n\n# board 2\n...\n#..\n.#.\n")
    with pytest.raises(BoardFormatError, match=r"^two.txt holds 2 boards \(the '# board' lines 2, 7, as countlo "
                                               r"generate writes them\)"):
        parse_grid(two, "two.txt")
    with pytest.raises(BoardFormatError, match="holds 2 boards"):
        parse_states("# board 1: fewest presses 8\n010\n110\n022\n\n# board 2\n122\n022\n200\n", 3, "two.txt")
    chinese = "# 第 1 个盘面：最少 2 次点击\n.#\n\n# 第 12 个盘面\n#.\n"
    assert board_heads([(1, "# 第 1 个盘面：最少 2 次点击"), (4, "# 第 12 个盘面")]) == [1, 4]
    with pytest.raises(BoardFormatError, match="holds 2 boards"):
        parse_grid(chinese, "zh.txt")
    # one generated board, and comments that only look alike, are boards as before
    assert parse_grid("# board 1: fewest presses 2\n.##\n#.#\n##.\n")[0] == Shape(3, 3)
    assert parse_grid("# board 1\n# dashboard 2\n# board: 2\n.#\n#.\n")[0] == Shape(2, 2)
