"""Strategies and fixed routines: the registry, each strategy's clicks, routine verification."""

from __future__ import annotations

import itertools

import pytest
from brute import BrutePosterior
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape
from countlo.hidden.record import Record, record_of
from countlo.play.knowledge import Knowledge, entropy
from countlo.play.oracle import SimulatedOracle
from countlo.play.strategies.names import strategy_names
from countlo.play.strategies.registry import UnknownStrategyError, make_strategy
from countlo.play.strategies.routine import ROUTINE_6X6, brute_determines, determines, routine, ternary_kernel_size

S6 = Shape(6, 6)



class Unknown:
    """Knowledge that never pins the board: shows the raw order a strategy walks."""

    possible = 2


def walk(name: str, shape: Shape, start: int, limit: int = 200) -> list[int]:
    strategy = make_strategy(name, shape)
    record = Record(shape, start.bit_count())
    oracle = SimulatedOracle(shape, board=start)
    out = []
    while len(out) < limit:
        k = strategy.next_click(record, Unknown())
        if k is None:
            return out
        out.append(k)
        record = record.then(k, oracle.click(k))
    raise AssertionError("strategy did not stop")


def test_registry_lists_every_strategy_and_rejects_unknown_names():
    names = strategy_names()
    assert names[0] == "adaptive"
    assert {"restore", "sequential", "fixed", "manual", "adaptive"} <= set(names)
    with pytest.raises(UnknownStrategyError, match=r"unknown strategy 'best'.*restore"):
        make_strategy("best", S6)


def test_restore_clicks_each_cell_then_clicks_it_back():
    assert walk("restore", S6, 0b1011) == [k for c in range(36) for k in (c, c)]


def test_sequential_clicks_every_cell_once_in_reading_order():
    assert walk("sequential", S6, 12345) == list(range(36))


def test_fixed_follows_the_routine():
    assert walk("fixed", S6, 999) == list(ROUTINE_6X6)


def test_manual_always_asks():
    s = make_strategy("manual", S6)
    assert s.asks and s.next_click(Record(S6, 3), Unknown()) is None


@pytest.mark.parametrize("name", ["restore", "sequential", "fixed", "greedy", "adaptive", "manual"])
def test_every_strategy_stops_when_the_board_is_known(name):
    shape = Shape(3, 3)
    start = 0b101100011
    record = record_of(shape, start, list(range(9)))
    k = Knowledge(record, posterior_of=BrutePosterior)
    assert k.known and k.board == start
    assert make_strategy(name, shape).next_click(record, k) is None


@pytest.mark.parametrize("name", ["restore", "sequential", "fixed", "greedy"])
def test_strategies_pin_every_3x3_board(name):
    """Exhaustive: following the strategy to its end leaves exactly one start on every 3x3 board."""
    shape = Shape(3, 3)
    starts = range(0, 1 << 9, 11) if name == "greedy" else range(1 << 9)  # greedy: brute solver is slow
    for start in starts:
        strategy = make_strategy(name, shape)
        oracle = SimulatedOracle(shape, board=start)
        record = Record(shape, oracle.start())
        for _ in range(40):
            knowledge = Knowledge(record, posterior_of=BrutePosterior, seed=start)
            k = strategy.next_click(record, knowledge)
            if k is None:
                break
            record = record.then(k, oracle.click(k))
        post = BrutePosterior(record)
        assert post.count == 1 and post.board == start, (name, start, record)


def test_knowledge_entropies_and_press_probabilities_on_a_small_board():
    shape = Shape(2, 2)
    record = Record(shape, 2)
    k = Knowledge(record, posterior_of=BrutePosterior)
    assert k.possible == 6 and not k.known
    dists = k.count_distributions
    assert all(sum(d.values()) == 6 for d in dists)
    assert k.entropies == [entropy(d) for d in dists]
    # 2x2: A is invertible over GF(2), so each start has one press set; all 6 starts are used
    starts, exact = k.starts
    assert exact and sorted(starts) == [b for b in range(16) if b.bit_count() == 2]
    assert all(0.0 <= p <= 1.0 for p in k.press_probabilities)


def test_entropy():
    assert entropy({3: 5}) == 0.0
    assert entropy({1: 2, 3: 2}) == pytest.approx(1.0)
    assert entropy({}) == 0.0


# --- fixed routines -------------------------------------------------------------------------

def test_the_6x6_routine_of_math_md_determines_every_board():
    """The only ternary vector in the kernel of its observation matrix is 0 (exhaustive DP)."""
    assert len(ROUTINE_6X6) == 24 and len(set(ROUTINE_6X6)) == 24
    assert ternary_kernel_size(S6, ROUTINE_6X6) == 1
    assert ternary_kernel_size(S6, ROUTINE_6X6[:-1]) > 1
    r = routine(S6)
    assert r.verified and r.cells == ROUTINE_6X6


def test_reading_order_determines_6x6_after_29_clicks_not_28():
    assert determines(S6, range(29))
    assert not determines(S6, range(28))
    # 28 clicks: exactly one pair of starts +-x shares every count
    assert ternary_kernel_size(S6, list(range(28))) == 3


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([Shape(1, 3), Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(3, 4)]),
    st.data(),
)
def test_the_kernel_programme_agrees_with_listing_every_board(shape, data):
    clicks = data.draw(st.lists(st.integers(0, shape.cells - 1), max_size=2 * shape.cells))
    assert determines(shape, clicks) == brute_determines(shape, clicks)


def test_the_kernel_count_matches_brute_force_exactly_on_3x3():
    shape = Shape(3, 3)
    from countlo.play.strategies.routine import observation_rows

    for clicks in [[], [4], [0, 4, 8], list(range(5)), [1, 1, 3]]:
        rows = observation_rows(shape, clicks)
        brute = sum(
            1
            for x in itertools.product((-1, 0, 1), repeat=9)
            if all(sum(c * x[j] for j, c in r.items()) == 0 for r in rows)
        )
        assert ternary_kernel_size(shape, clicks) == brute


@pytest.mark.parametrize("size", ["1x1", "2x2", "3x3", "3x4", "4x3", "4x4", "2x5"])
def test_routines_for_small_boards_are_verified_by_listing(size):
    shape = Shape.parse(size)
    r = routine(shape)
    assert r.verified and brute_determines(shape, r.cells)
    # greedy: no single click can be dropped
    for k in set(r.cells):
        assert not determines(shape, [c for c in r.cells if c != k])


@pytest.mark.parametrize("size", ["5x5", "4x7"])
def test_routines_for_larger_boards_are_verified(size):
    shape = Shape.parse(size)
    r = routine(shape)
    assert r.verified and determines(shape, r.cells) and len(r.cells) < shape.cells
