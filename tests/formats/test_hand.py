import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape
from countlo.errors import TranscriptError
from countlo.formats.hand import detect, dumps_restore, dumps_rows, parse, read_restore, read_rows
from countlo.formats.transcript import ImpossibleCountsError, dumps, read
from countlo.hidden.record import record_of

ROWS_2x3 = """\
# counts read while clicking every cell once, reading order
3
2 4 3
2 2 5
"""


def test_rows_format_reads_cells_in_reading_order():
    t = parse(ROWS_2x3)
    assert t.format == "rows" and t.shape == Shape(2, 3)
    assert t.record.counts == [3, 2, 4, 3, 2, 2, 5]
    assert t.record == record_of(Shape(2, 3), _start_of(t), list(range(6)))
    assert _start_of(t) == 0b010011
    assert t.line_of_step == (3, 3, 3, 4, 4, 4)
    assert t.header.strategy == "sequential"


def _start_of(t):
    # the unique start that shows these counts, by brute force over the 2^6 boards
    (b,) = [b for b in range(64) if t.record.consistent(b)]
    return b


def test_restore_format_clicks_and_clicks_back():
    text = "# size: 1x3\n2\n2 2\n1 2\n2 2\n"
    t = parse(text)
    assert t.format == "restore" and t.shape == Shape(1, 3)
    assert [s.cell for s in t.record.steps] == [0, 0, 1, 1, 2, 2]
    assert t.record.counts == [2, 2, 2, 1, 2, 2, 2]
    assert t.line_of_step == (3, 3, 4, 4, 5, 5)
    assert [b for b in range(8) if t.record.consistent(b)] == [0b101]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_both_formats_round_trip_and_are_detected(rows, cols, data):
    shape = Shape(rows, cols)
    board = data.draw(st.integers(0, shape.full))
    seq = record_of(shape, board, list(range(shape.cells)))
    text = dumps_rows(seq)
    assert detect(text) == "rows"
    t = parse(text)
    assert t.record == seq
    assert read(dumps(t)).record == seq  # and it converts to the countlo format
    back = record_of(shape, board, [k for k in range(shape.cells) for _ in (0, 1)])
    text = dumps_restore(back)
    assert detect(text) == "restore"
    assert parse(text).record == back


def test_detection_rule():
    assert detect("# countlo transcript 1\n# size: 6x6\n") == "countlo"
    assert detect("# size: 2x2\nstart 1\nA1 2\n") == "countlo"
    assert detect("4\n1 2 3\n") == "rows"
    assert detect("3\n2 3\n4 3\n2 3\n1 3\n") == "restore"          # second count repeats the start
    assert detect("3\n2 5\n4 1\n") == "rows"                       # never repeats: a 2-wide board
    assert detect("# size: 2x2\n3\n2 3\n4 2\n2 3\n1 3\n") == "restore"
    assert detect("30\n2 3\n4 3\n2 3\n1 3\n") == "restore"  # the start mistyped: 3 repeats
    with pytest.raises(TranscriptError, match="--format restore or --format rows") as e:
        detect("3\n2 3\n4 1\n5 2\n")                   # the start once, nothing repeated
    assert e.value.problems[0][0] == 2
    with pytest.raises(TranscriptError, match="nothing to read"):
        detect("# just a comment\n")


def test_rows_problems_have_lines():
    with pytest.raises(TranscriptError) as e:
        read_rows("3\n2 4 3\n2 x\n1 2 3 4\n")
    # the short row, the 'x', the long row, and the count changes that still can be checked
    assert [n for n, _ in e.value.problems] == [3, 3, 3, 4, 4]
    assert sum("impossible" in m for _, m in e.value.problems) == 2
    with pytest.raises(TranscriptError, match="starting count alone"):
        read_rows("3 4\n2 4 3\n")
    with pytest.raises(TranscriptError, match="a 2x3 board has 2 rows; found 3 lines"):
        read_rows("# size: 2x3\n3\n2 4 3\n2 2 1\n2 2 1\n")
    with pytest.raises(TranscriptError, match="expected 3 counts, one per column of the 3x3 board, found 2"):
        read_rows("# size: 3x3\n3\n2 4\n2 2 1\n")
    with pytest.raises(TranscriptError, match="'# size: 3x3' but --size says 4x4"):
        read_rows("# size: 3x3\n3\n2 4 3\n", shape=Shape(4, 4))


def _rows_text(shape: Shape, hidden: int, cells: int) -> str:
    """The rows notes of the first `cells` clicks of a game on `shape` from `hidden`."""
    counts, lights = [], hidden
    for k in range(cells):
        lights = shape.press(lights, k)
        counts.append(lights.bit_count())
    lines = [" ".join(map(str, counts[r:r + shape.cols])) for r in range(0, cells, shape.cols)]
    return f"{hidden.bit_count()}\n" + "\n".join(lines) + "\n"


def test_a_rows_table_of_a_game_in_progress_is_read_on_the_size_given():
    """Issue 26, item 9: 3 of 6 rows could not be replayed, and --size 6x6 was ignored."""
    shape = Shape(6, 6)
    hidden = 0b101100_010011_110001_001110_100101_011010
    text = _rows_text(shape, hidden, 18)
    t = parse(text, fmt="rows", shape=shape)
    assert t.shape == shape and len(t.record.steps) == 18
    assert [s.cell for s in t.record.steps] == list(range(18))
    assert list(t.line_of_step)[::6] == [2, 3, 4]
    assert read_rows("# size: 6x6\n" + text).record == t.record  # the size line says the same
    cut = parse(_rows_text(shape, hidden, 20), fmt="rows", shape=shape)  # the 4th row cut short
    assert len(cut.record.steps) == 20 and cut.record.steps[-1].cell == 19
    with pytest.raises(ImpossibleCountsError) as e:  # without a size the table is the board: 3x6
        parse(text, fmt="rows")
    assert e.value.tape.shape == Shape(3, 6)


def test_rows_impossible_count_is_a_typo_at_its_line():
    with pytest.raises(ImpossibleCountsError) as e:
        read_rows("3\n2 4 3\n2 2 4\n")     # C2 is a corner: 3 flips, so 2 -> 4 is impossible
    assert e.value.problems[0][0] == 3 and "can only become" in e.value.problems[0][1]


def test_restore_problems_have_lines():
    with pytest.raises(TranscriptError) as e:
        read_restore("2\n2 2\n1\n2 2 5\n")
    assert [n for n, _ in e.value.problems] == [1, 3, 4]  # 3 lines: no square board either
    with pytest.raises(TranscriptError, match="not a square board"):
        read_restore("2\n2 2\n1 2\n2 2\n")
    with pytest.raises(TranscriptError) as e:
        read_restore("# size: 2x2\n2\n2 2\n1 2\n2 2\n")
    assert (5, "a 2x2 board has 4 cells, one line each; found 3 lines") in e.value.problems


_BITS = ["0", "1", "2", "3", "7", "12", "36", " ", "  ", "\n", "\n", ",", "#", "# size: 2x2\n",
         "# size: 1x3\n", "x", "\t", "999999999999", "\r\n"]


@settings(max_examples=int(os.environ.get("FUZZ", 300)), deadline=None)
@given(st.lists(st.sampled_from(_BITS), max_size=40).map("".join),
       st.sampled_from([None, "rows", "restore", "countlo"]))
def test_any_table_of_numbers_reads_or_names_lines(text, fmt):
    try:
        t = parse(text, "fuzz", fmt)
    except TranscriptError as e:
        last = text.count("\n") + 1
        assert e.problems and all(1 <= n <= last for n, _ in e.problems), e.problems
    else:
        assert t.record is None or t.record.shape == t.shape
