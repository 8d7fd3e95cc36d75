import pytest

from countlo.board import Shape
from countlo.ui.picture import DARK, LIT, board_picture, glyph, legend, picture, plain, shade_styles


def test_known_cells_and_percentages():
    s = Shape(2, 3)
    lit = [1.0, 0.0, 0.5, 0.004, 0.996, 0.37]
    text = plain(picture(s, lit))
    lines = text.splitlines()
    assert lines[0].split() == ["A", "B", "C"]
    assert lines[1].split() == ["1", LIT, DARK, "50"]
    # nearly sure is not sure: an unknown cell never looks known, and never shows 0 or 100
    assert lines[2].split() == ["2", "1", "99", "37"]


def test_columns_line_up_and_suggestion_is_bracketed():
    s = Shape(3, 4)
    lit = [0.5] * s.cells
    lines = plain(picture(s, lit, suggest=6)).splitlines()
    assert len({len(line) for line in lines}) == 1  # every line the same width
    assert "[50]" in lines[2] and lines[2].count("[") == 1
    # the bracket sits in the cell's own four columns: the glyph stays under its letter
    col_of_c = lines[0].index("C")
    assert lines[2][col_of_c:col_of_c + 2] == "50"
    assert lines[2][col_of_c - 1] == "["


def test_two_digit_rows_and_columns():
    s = Shape(12, 28)
    lines = plain(picture(s, [0.0] * s.cells, suggest=s.cells - 1)).splitlines()
    assert lines[0].split()[-1] == "AB"
    assert lines[12].startswith("12 ")
    assert lines[12].endswith("[..]")
    assert lines[1].startswith(" 1 ")
    assert len({len(line) for line in lines}) == 1


def test_board_picture_shows_every_cell():
    s = Shape(6, 6)
    board = 0b101 | 1 << 35
    lines = plain(board_picture(s, board)).splitlines()
    assert lines[1].split()[1:] == [LIT, DARK, LIT, DARK, DARK, DARK]
    assert lines[6].split()[-1] == LIT
    assert plain(board_picture(s, board)).count(LIT) == 3


def test_styles_follow_probability():
    assert glyph(1.0)[0] == "class:cell.lit"
    assert glyph(0.0)[0] == "class:cell.dark"
    shades = [glyph(p)[0] for p in (0.01, 0.3, 0.6, 0.99)]
    assert shades == sorted(shades) and len(set(shades)) == 4
    rules = shade_styles()
    assert all(s.split(" class:")[0].removeprefix("class:") in rules for s in shades)


def test_wrong_length_is_an_error():
    with pytest.raises(ValueError):
        picture(Shape(2, 2), [0.5] * 3)


def test_legend_is_one_line():
    assert plain(legend()).count("\n") == 1


def test_side_lines_beside_the_rows_and_below_a_short_board():
    from countlo.ui.picture import legend_lines

    lines = plain(picture(Shape(2, 3), [0.5] * 6, side=legend_lines())).splitlines()
    assert len(lines) == 1 + 4
    assert lines[1].endswith("## lit") and lines[2].endswith(".. dark")
    assert lines[4].strip().endswith("click this")
    assert lines[4].index("[") == lines[1].index("##", 14)  # the legend column lines up
