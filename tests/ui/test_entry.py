import pytest

from countlo.board import Shape
from countlo.errors import BadCellError, CountloError
from countlo.ui.entry import Click, Command, Count, EntryError, FixCount, Verb, parse_entry

S = Shape(6, 6)


@pytest.mark.parametrize(
    "line, entry",
    [
        ("17", Count(17)),
        ("  0 ", Count(0)),
        ("", Command(Verb.NEXT)),
        ("   ", Command(Verb.NEXT)),
        ("C4", Click(3 * 6 + 2)),
        ("c4", Click(20)),
        ("C 4", Click(20)),
        ("4 3", Click(20)),
        ("4,3", Click(20)),
        ("C4 17", Click(20, 17)),
        ("C4=17", Click(20, 17)),
        ("C4: 17", Click(20, 17)),
        ("C4 -> 17", Click(20, 17)),
        ("4 3 17", Click(20, 17)),
        ("A1 0", Click(0, 0)),
        ("F6", Click(35)),
        ("undo", Command(Verb.UNDO)),
        ("UNDO", Command(Verb.UNDO)),
        ("u", Command(Verb.UNDO)),
        ("help", Command(Verb.HELP)),
        ("?", Command(Verb.HELP)),
        ("board", Command(Verb.BOARD)),
        ("history", Command(Verb.HISTORY)),
        ("quit", Command(Verb.QUIT)),
        ("q", Command(Verb.QUIT)),
        ("fix 3 17", FixCount(3, 17)),
        ("fix 0 20", FixCount(0, 20)),
        ("17!", Count(17, True)),
        ("C4 17 !", Click(20, 17, True)),
        ("4 3 17!", Click(20, 17, True)),
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
