import pytest

from countlo.board import Shape
from countlo.errors import BadCellError, CountloError
from countlo.ui.entry import Entry, EntryError, Verb, parse_entry

S = Shape(6, 6)


@pytest.mark.parametrize(
    "line, entry",
    [
        ("17", Entry(Verb.COUNT, count=17)),
        ("  0 ", Entry(Verb.COUNT, count=0)),
        ("", Entry(Verb.NEXT)),
        ("   ", Entry(Verb.NEXT)),
        ("C4", Entry(Verb.CLICK, cell=3 * 6 + 2)),
        ("c4", Entry(Verb.CLICK, cell=20)),
        ("C 4", Entry(Verb.CLICK, cell=20)),
        ("4 3", Entry(Verb.CLICK, cell=20)),
        ("4,3", Entry(Verb.CLICK, cell=20)),
        ("C4 17", Entry(Verb.CLICK, cell=20, count=17)),
        ("C4=17", Entry(Verb.CLICK, cell=20, count=17)),
        ("C4: 17", Entry(Verb.CLICK, cell=20, count=17)),
        ("C4 -> 17", Entry(Verb.CLICK, cell=20, count=17)),
        ("4 3 17", Entry(Verb.CLICK, cell=20, count=17)),
        ("A1 0", Entry(Verb.CLICK, cell=0, count=0)),
        ("F6", Entry(Verb.CLICK, cell=35)),
        ("undo", Entry(Verb.UNDO)),
        ("UNDO", Entry(Verb.UNDO)),
        ("u", Entry(Verb.UNDO)),
        ("help", Entry(Verb.HELP)),
        ("?", Entry(Verb.HELP)),
        ("board", Entry(Verb.BOARD)),
        ("history", Entry(Verb.HISTORY)),
        ("quit", Entry(Verb.QUIT)),
        ("q", Entry(Verb.QUIT)),
        ("fix 3 17", Entry(Verb.FIX, step=3, count=17)),
        ("fix 0 20", Entry(Verb.FIX, step=0, count=20)),
        ("17!", Entry(Verb.COUNT, count=17, force=True)),
        ("C4 17 !", Entry(Verb.CLICK, cell=20, count=17, force=True)),
        ("4 3 17!", Entry(Verb.CLICK, cell=20, count=17, force=True)),
    ],
)
def test_parses(line, entry):
    assert parse_entry(line, S) == entry


@pytest.mark.parametrize(
    "line, error, words",
    [
        ("G1", BadCellError, "off the 6x6 board"),
        ("7 1", BadCellError, "off the 6x6 board"),
        ("C0", BadCellError, "count from 1"),
        ("hello", EntryError, "not a count"),
        ("-3", EntryError, "not a count"),
        ("1 2 3 4", EntryError, "too many numbers"),
        ("undo now", EntryError, "takes nothing"),
        ("fix 3", EntryError, "fix STEP COUNT"),
        ("fix x 3", EntryError, "whole number"),
        ("C4 x", EntryError, "not a count"),
        ("undo!", EntryError, "not a count"),
    ],
)
def test_refuses_with_one_line(line, error, words):
    with pytest.raises(error) as e:
        parse_entry(line, S)
    assert isinstance(e.value, CountloError)
    assert words in str(e.value) and "\n" not in str(e.value)
