import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape, move_bits, popcount
from countlo.errors import BadCountError
from countlo.hidden.record import Record, Step, possible_after, record_of


def test_possible_after_matches_brute_force():
    s = Shape(2, 3)
    for board in range(1 << s.cells):
        for k in range(s.cells):
            after = popcount(s.press(board, k))
            assert after in possible_after(s, k, popcount(board))
    # and every listed value is reached by some board
    for before in range(s.cells + 1):
        for k in range(s.cells):
            reached = {popcount(s.press(b, k)) for b in range(1 << s.cells) if popcount(b) == before}
            assert reached == set(possible_after(s, k, before))


def test_bad_counts_are_refused_with_the_possible_values():
    s = Shape(6, 6)
    with pytest.raises(BadCountError, match="starting count 37"):
        Record(s, 37)
    r = Record(s, 10)
    with pytest.raises(BadCountError) as e:
        r.then(0, 12)  # corner: change is odd
    assert e.value.possible == (7, 9, 11, 13)
    assert "A1" in str(e.value)
    with pytest.raises(BadCountError):
        Record(s, 0).then(14, 1)  # from 0 lit an inner click gives exactly 5


@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_equations_hold_for_the_true_start(rows, cols, data):
    s = Shape(rows, cols)
    start = data.draw(st.integers(0, s.full))
    clicks = data.draw(st.lists(st.integers(0, s.cells - 1), max_size=12))
    rec = record_of(s, start, clicks)
    assert rec.consistent(start)
    assert all(eq.holds(start) for eq in rec.equations())
    assert rec.lights(start) == s.press_all(start, rec.clicked())


@settings(deadline=None)  # 2^12 boards per example: machine-dependent time
@given(st.integers(1, 3), st.integers(1, 4), st.data())
def test_the_transposed_record_allows_the_transposed_starts(rows, cols, data):
    s = Shape(rows, cols)
    start = data.draw(st.integers(0, s.full))
    clicks = data.draw(st.lists(st.integers(0, s.cells - 1), max_size=8))
    rec = record_of(s, start, clicks)
    t = rec.transposed()
    to = s.transposed_cells()
    assert t.shape == s.transposed() and t.start == rec.start
    assert [st_.count for st_ in t.steps] == [st_.count for st_ in rec.steps]
    for b in range(s.full + 1):
        assert t.consistent(move_bits(b, to)) == rec.consistent(b)


def test_equations_pin_down_exactly_the_consistent_boards():
    rng = random.Random(3)
    s = Shape(3, 3)
    for _ in range(30):
        start = rng.randrange(1 << 9)
        clicks = [rng.randrange(9) for _ in range(rng.randrange(8))]
        rec = record_of(s, start, clicks)
        by_eq = {b for b in range(1 << 9) if all(e.holds(b) for e in rec.equations())}
        by_sim = {b for b in range(1 << 9) if rec.consistent(b)}
        assert by_eq == by_sim and start in by_sim


def test_then_undo_prefix():
    s = Shape(3, 3)
    r = Record(s, 4).then(4, 3)
    assert r.steps == (Step(4, 3),) and r.count == 3
    assert r.undo() == Record(s, 4) and r.prefix(0) == Record(s, 4)
    assert r.counts == [4, 3]
