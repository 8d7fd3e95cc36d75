import random

import pytest
from brute import by_counts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from countlo.board import Shape
from countlo.errors import CountloError
from countlo.hidden.rebuild import (
    Engine,
    Reconstruction,
    Status,
    determined_after,
    from_count,
    reconstruct,
)
from countlo.hidden.record import Record, Step, record_of

FAST = [Engine.LINEAR, Engine.EXACT]
ALL = FAST + [Engine.Z3]


def with_count(rec, i, v):
    """`rec` with count i replaced by v, or None if the entry checks refuse it."""
    counts = rec.counts[:i] + [v] + rec.counts[i + 1 :]
    try:
        return Record(rec.shape, counts[0], tuple(Step(s.cell, c) for s, c in zip(rec.steps, counts[1:])))
    except ValueError:
        return None


def expected(consistent):
    """The reconstruction brute force gives for this set of consistent starts."""
    n = len(consistent)
    status = Status.CONTRADICTORY if n == 0 else Status.DETERMINED if n == 1 else Status.AMBIGUOUS
    return status, (next(iter(consistent)) if n == 1 else None)


def agree(rec, consistent, engine):
    r = reconstruct(rec, engine)
    assert (r.status, r.board) == expected(consistent), (engine, rec)
    if r.possible_exact:
        assert r.possible == len(consistent)
    else:
        assert 2 <= r.possible <= len(consistent)
    return r.status


@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(2, 4)], ids=str)
@pytest.mark.parametrize("method", ["restore", "reading", "random"])
def test_every_small_board_agrees_with_brute_force(shape, method):
    rng = random.Random(hash((str(shape), method)) & 0xFFFF)
    if method == "restore":
        sequences = [[k for k in range(shape.cells) for _ in (0, 1)]]
    elif method == "reading":
        sequences = [list(range(shape.cells))]
    else:
        sequences = [[rng.randrange(shape.cells) for _ in range(n)] for n in (3, shape.cells)]
    seen = set()
    for clicks in sequences:
        groups = by_counts(shape, clicks)
        boards = range(1 << shape.cells)
        z3_boards = set(rng.sample(boards, 6))
        for b in boards:
            rec = record_of(shape, b, clicks)
            variants = [rec]
            i = rng.randrange(len(rec.counts))
            variants += [v for v in (with_count(rec, i, c) for c in range(shape.cells + 1) if c != rec.counts[i]) if v]
            for r in variants[:3]:
                consistent = groups.get(tuple(r.counts), set())
                for engine in FAST + ([Engine.Z3] if b in z3_boards else []):
                    seen.add(agree(r, consistent, engine))
    want = {Status.DETERMINED, Status.CONTRADICTORY} | ({Status.AMBIGUOUS} if method == "random" else set())
    assert seen >= want


def random_record(data, shape):
    start = data.draw(st.integers(0, shape.full), label="start")
    method = data.draw(st.sampled_from(["restore", "reading", "random"]), label="method")
    if method == "restore":
        clicks = [k for k in range(shape.cells) for _ in (0, 1)]
    elif method == "reading":
        clicks = list(range(shape.cells))
    else:
        clicks = data.draw(st.lists(st.integers(0, shape.cells - 1), max_size=2 * shape.cells), label="clicks")
    cut = data.draw(st.integers(0, len(clicks)), label="steps kept")
    return start, record_of(shape, start, clicks[:cut])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([Shape(5, 5), Shape(6, 6)]), st.data())
def test_engines_agree_on_5x5_and_6x6(shape, data):
    start, rec = random_record(data, shape)
    results = {e: reconstruct(rec, e) for e in ALL}
    assert len({(r.status, r.board) for r in results.values()}) == 1, results
    r = results[Engine.LINEAR]
    assert r.status is not Status.CONTRADICTORY
    if r.status is Status.DETERMINED:
        assert r.board == start
    exact = [x for x in results.values() if x.possible_exact]
    assert len({x.possible for x in exact}) <= 1


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_documented_6x6_methods_always_determine_the_board(data):
    s = Shape(6, 6)
    start = data.draw(st.integers(0, s.full))
    restore = record_of(s, start, [k for k in range(36) for _ in (0, 1)])
    reading = record_of(s, start, list(range(36)))
    for rec in (restore, reading):
        for engine in FAST:
            assert reconstruct(rec, engine) == Reconstruction(Status.DETERMINED, start, 1, True)
    assert determined_after(reading, Engine.LINEAR) <= 29
    assert determined_after(restore, Engine.LINEAR) <= 72


def test_determined_after_matches_prefix_by_prefix():
    s = Shape(3, 3)
    rng = random.Random(4)
    for trial in range(30):
        clicks = [rng.randrange(9) for _ in range(12)]
        shown = [record_of(s, b, clicks).counts for b in range(512)]
        rec = record_of(s, rng.randrange(512), clicks)
        left = [sum(c[: k + 1] == rec.counts[: k + 1] for c in shown) for k in range(13)]
        first = next((k for k in range(13) if left[k] == 1), None)
        engines = FAST + ([Engine.Z3] if trial % 10 == 0 else [])
        assert all(determined_after(rec, e) == first for e in engines)


def test_determined_after_counts_a_prefix_that_a_later_typo_contradicts():
    rec = record_of(Shape(4, 4), 0, [0, 0])
    bad = with_count(rec, 2, 2)  # 0 lit pins the start at once; clicking A1 twice cannot end at 2
    assert reconstruct(bad, "linear").status is Status.CONTRADICTORY
    assert determined_after(bad, "linear") == 0


def test_determined_after_is_none_when_never_determined_or_contradictory():
    s = Shape(4, 4)
    assert determined_after(record_of(s, 0b1010_0000_0110_0001, [3]), "linear") is None
    rec = record_of(s, 1 << 15, [0, 0])
    bad = with_count(rec, 2, 3)  # clicking A1 twice must restore the 1 lit; 3 cannot be explained
    assert bad is not None and reconstruct(bad, "linear").status is Status.CONTRADICTORY
    assert determined_after(bad, "linear") is None


def test_engine_names():
    rec = record_of(Shape(2, 2), 0b0110, [0, 1, 2])
    assert reconstruct(rec, "LINEAR") == reconstruct(rec, Engine.LINEAR) == reconstruct(rec, "z3")
    with pytest.raises(CountloError, match=r"unknown engine 'simplex'.*exact, linear, z3"):
        reconstruct(rec, "simplex")


def test_from_count():
    assert from_count(0, None, True) == Reconstruction(Status.CONTRADICTORY, None, 0, True)
    assert from_count(1, 5, True) == Reconstruction(Status.DETERMINED, 5, 1, True)
    assert from_count(7, 5, False) == Reconstruction(Status.AMBIGUOUS, None, 7, False)


def test_exact_engine_agrees_with_linear_on_a_wide_board():
    rng = random.Random(8)
    s = Shape(5, 7)
    for n in (10, 25, 40):
        start = rng.getrandbits(35)
        rec = record_of(s, start, [rng.randrange(35) for _ in range(n)])
        a, b = reconstruct(rec, "exact"), reconstruct(rec, "linear")
        assert (a.status, a.board) == (b.status, b.board)


@pytest.mark.slow
def test_engines_agree_on_many_records_with_typos():
    """Long randomized sweep: exact counts from linear and exact, status and board from all three."""
    rng = random.Random(2026)
    for trial in range(150):
        shape = rng.choice([Shape(5, 5), Shape(6, 6), Shape(4, 7), Shape(3, 8)])
        n = shape.cells
        kind = trial % 3
        if kind == 0:
            clicks = [rng.randrange(n) for _ in range(rng.randrange(2 * n))]
        elif kind == 1:
            clicks = [k for k in rng.sample(range(n), rng.randrange(n)) for _ in (0, 1)]
        else:
            clicks = list(range(rng.randrange(n + 1)))
        rec = record_of(shape, rng.getrandbits(n), clicks)
        i = rng.randrange(len(rec.counts))
        typo = with_count(rec, i, rng.randrange(n + 1))
        for r in [rec] + ([typo] if typo else []):
            results = {e: reconstruct(r, e, limit=2000 if e is Engine.LINEAR else None) for e in ALL}
            assert len({(x.status, x.board) for x in results.values()}) == 1, (results, r)
            linear = results[Engine.LINEAR]
            if linear.possible_exact:
                assert linear.possible == results[Engine.EXACT].possible
