import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from countlo.board import Cell, Shape, column_index, column_letters, iter_bits, move_bits, press_masks
from countlo.errors import BadCellError, BadSizeError


def test_column_letters_like_a_spreadsheet():
    assert [column_letters(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]


@given(st.integers(0, 100_000))
def test_column_letters_round_trip(col):
    assert column_index(column_letters(col)) == col


@given(st.integers(0, 65534), st.integers(0, 65534))
def test_cell_names_round_trip(r, c):
    cell = Cell(r, c)
    assert Cell.parse(cell.name) == cell
    assert Cell.parse(f"{r + 1} {c + 1}") == cell


def test_cell_parse_forms():
    assert Cell.parse("A1") == Cell(0, 0)
    assert Cell.parse(" c4 ") == Cell(3, 2)
    assert Cell.parse("4 3") == Cell(3, 2)
    assert Cell.parse("4,3") == Cell(3, 2)
    assert Cell.parse("(4, 3)") == Cell(3, 2)


@pytest.mark.parametrize("text", ["", "4", "A", "1A", "A0", "0 3", "3 0", "C-4", "ä4"])
def test_cell_parse_rejects(text):
    with pytest.raises(BadCellError):
        Cell.parse(text)


def test_cell_off_board_names_the_board():
    with pytest.raises(BadCellError, match=r"G1 is off the 6x6 board \(columns A-F, rows 1-6\)"):
        Cell.parse("G1", Shape(6, 6))
    with pytest.raises(BadCellError, match="off the 6x6"):
        Shape(6, 6).parse_cell("7 1")


def test_shape_parse_and_limits():
    assert Shape.parse("6x6") == Shape(6, 6)
    assert Shape.parse("4X7") == Shape(4, 7)
    assert Shape.parse(" 5 ") == Shape(5, 5)
    assert Shape.parse("65535x1") == Shape(65535, 1)
    for bad in ["0x3", "3x0", "65536x2", "axb", "3x", "-3x3", ""]:
        with pytest.raises(BadSizeError):
            Shape.parse(bad)


def test_neighbourhood_sizes():
    s = Shape(6, 6)
    sizes = [len(s.neighbours(k)) for k in range(36)]
    assert sizes.count(3) == 4 and sizes.count(4) == 16 and sizes.count(5) == 16
    assert Shape(1, 1).neighbours(0) == (0,)
    assert Shape(1, 3).neighbours(1) == (0, 1, 2)


@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(2, 5), Shape(6, 6), Shape(1, 4)])
def test_press_masks_are_symmetric(shape):
    masks = press_masks(shape)
    for i, j in itertools.product(range(shape.cells), repeat=2):
        assert (masks[i] >> j & 1) == (masks[j] >> i & 1)


def test_rows_round_trip():
    s = Shape(3, 5)
    for board in (0, 1, s.full, 0b101010101010101, 12345):
        assert s.from_rows(s.to_rows(board)) == board
    assert s.to_rows(1 << 7) == [0, 1 << 2, 0]


@pytest.mark.parametrize("shape,n", [(Shape(4, 4), 8), (Shape(3, 5), 4), (Shape(1, 1), 8)])
def test_symmetries_form_a_group_and_preserve_presses(shape, n):
    syms = shape.symmetries()
    assert len(syms) == n
    boards = [1 << k for k in range(shape.cells)]
    images = {tuple(g.apply(b) for b in boards) for g in syms}
    if shape.cells > 1:
        assert len(images) == n
    for g in syms:
        for k in range(shape.cells):
            # a symmetry maps the press mask of k to the press mask of k's image
            img = next(iter_bits(g.apply(1 << k)))
            assert g.apply(shape.press_mask(k)) == shape.press_mask(img)


@pytest.mark.parametrize("shape", [Shape(1, 1), Shape(2, 5), Shape(5, 2), Shape(4, 4)], ids=str)
def test_transposed_cells_carry_boards_and_presses_over_the_diagonal(shape):
    to, back = shape.transposed_cells(), shape.transposed().transposed_cells()
    t = shape.transposed()
    for k in range(shape.cells):
        r, c = divmod(k, shape.cols)
        assert to[k] == t.index(Cell(c, r)) and back[to[k]] == k
        # a click's lights, carried over, are the lights of the carried click on the transpose
        assert move_bits(shape.press_mask(k), to) == t.press_mask(to[k])
    board = 0b1011001 & shape.full
    assert move_bits(move_bits(board, to), back) == board


@pytest.mark.parametrize("rows, cols", [(129, 131), (131, 129), (300, 64), (1, 20000), (20000, 1), (257, 255),
                                        (17, 1001), (23, 767), (23, 768), (40, 769), (33, 1024)])
def test_rows_of_big_boards_through_bytes(rows, cols):
    """Above 16384 cells the rows go through the board's bytes (eight rows, C whole bytes, at a
    time; from WIDE_ROW columns to_rows reads each row from the bytes it spans): every row count
    modulo 8 and widths on and off whole bytes, either side of WIDE_ROW, against plain shifts."""
    s = Shape(rows, cols)
    board = random.Random(rows * cols).getrandbits(s.cells)
    got = s.to_rows(board)
    assert got == [(board >> (r * cols)) & ((1 << cols) - 1) for r in range(rows)]
    assert s.from_rows(got) == board
    assert s.to_rows(0) == [0] * rows and s.from_rows([0] * rows) == 0
