import random

import pytest
from brute import by_counts
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape
from countlo.hidden import linear
from countlo.hidden.record import Record, Step, possible_after, record_of


def restore(shape):
    return [k for k in range(shape.cells) for _ in (0, 1)]


def reading(shape):
    return list(range(shape.cells))


def orders(shape, seed=0):
    """Restore, reading order, and random click orders of several lengths."""
    rng = random.Random(seed)
    out = [restore(shape), reading(shape)]
    for length in (2, 5, shape.cells):
        out.append([rng.randrange(shape.cells) for _ in range(length)])
    return out


def altered(shape, rec, rng):
    """The record with one count changed to another value that still passes the entry checks."""
    counts = rec.counts
    for i in rng.sample(range(len(counts)), len(counts)):
        for v in rng.sample(range(shape.cells + 1), shape.cells + 1):
            if v == counts[i]:
                continue
            trial = counts[:i] + [v] + counts[i + 1 :]
            try:
                return Record(shape, trial[0], tuple(Step(s.cell, c) for s, c in zip(rec.steps, trial[1:])))
            except ValueError:
                continue
    return None


@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(2, 4)])
def test_solutions_are_exactly_the_consistent_starts(shape):
    rng = random.Random(7)
    statuses = set()
    for clicks in orders(shape):
        groups = by_counts(shape, clicks)
        for b in range(1 << shape.cells):
            rec = record_of(shape, b, clicks)
            assert set(linear.solutions(rec)) == groups[tuple(rec.counts)]
            bad = altered(shape, rec, rng)
            if bad is not None:
                got = set(linear.solutions(bad))
                assert got == groups.get(tuple(bad.counts), set())
                statuses.add(len(got) if len(got) < 2 else 2)
            statuses.add(min(2, len(groups[tuple(rec.counts)])))
    assert statuses == {0, 1, 2}  # contradictory, determined and ambiguous records all occurred


def test_counting_stops_at_the_limit():
    s = Shape(4, 4)
    rec = record_of(s, 0b1011_0110_0001_1100, [5, 10])
    every = list(linear.solutions(rec))
    assert len(every) == len(set(every)) > 10
    r = linear.reconstruct(rec, limit=10)
    assert (r.status, r.possible, r.possible_exact, r.board) == ("ambiguous", 10, False, None)
    r = linear.reconstruct(rec, limit=10_000)
    assert (r.possible, r.possible_exact) == (len(every), True)


def test_elimination_is_exact_integers():
    s = Shape(6, 6)
    e = linear.eliminate(record_of(s, 12345678, [rng for rng in random.Random(2).sample(range(36), 20)]))
    for row in list(e.pivots.values()) + e.checks:
        assert all(type(x) is int for x in row)
    assert e.rank == 21  # n0 and 20 distinct clicks are independent


@pytest.mark.parametrize("clicks", [restore(Shape(6, 6)), reading(Shape(6, 6))], ids=["restore", "reading"])
def test_documented_6x6_methods_have_full_rank(clicks):
    """The coefficients do not depend on the hidden start, so full rank means every start is determined."""
    assert linear.eliminate(record_of(Shape(6, 6), 0, clicks)).rank == 36


def test_rank_of_28_reading_clicks_is_not_full():
    s = Shape(6, 6)
    assert linear.eliminate(record_of(s, 0, reading(s)[:28])).rank == 29


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([Shape(8, 8), Shape(10, 10), Shape(7, 9)]), st.data())
def test_large_boards_find_the_true_start(shape, data):
    start = data.draw(st.integers(0, shape.full))
    n_clicks = data.draw(st.integers(shape.cells // 2, 2 * shape.cells))
    clicks = data.draw(st.lists(st.integers(0, shape.cells - 1), min_size=n_clicks, max_size=n_clicks))
    rec = record_of(shape, start, clicks)
    found = []
    for board in linear.solutions(rec):
        assert rec.consistent(board)
        found.append(board)
        if len(found) == 3:
            break
    r = linear.reconstruct(rec)
    assert r.status != "contradictory"
    if len(found) < 3:
        assert start in found
    if r.status == "determined":
        assert r.board == start


def test_restore_typo_on_10x10_is_contradictory():
    """Clicking a cell back restores the board, so a restored count that differs cannot be explained."""
    s = Shape(10, 10)
    rec = record_of(s, random.Random(11).getrandbits(100), restore(s))
    last, before = rec.steps[-1], rec.steps[-2].count
    for typo in possible_after(s, last.cell, before):
        if typo != last.count:
            bad = Record(s, rec.start, rec.steps[:-1] + (Step(last.cell, typo),))
            assert linear.reconstruct(bad).status == "contradictory"
