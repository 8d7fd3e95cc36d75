"""The adaptive strategy: its press algebra, its row sampler, its choices and whole games."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape, iter_bits, press_masks
from countlo.observe import record_of
from countlo.posterior import Posterior
from countlo.press_algebra import algebra, bit_rows, fewest_press_sets, row_ints, solvable
from countlo.row_sampler import RowSampler
from countlo.solver import fewest_presses, nullity, solve

SMALL = [Shape(1, 1), Shape(1, 2), Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(4, 4), Shape(2, 5),
         Shape(5, 5), Shape(4, 7), Shape(6, 6)]


# --- press algebra ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SMALL, ids=str)
def test_quiet_basis_has_the_solver_nullity(shape):
    alg = algebra(shape)
    assert alg.quiet.shape[0] == nullity(shape)
    for q in row_ints(alg.quiet):
        assert q and shape.press_all(0, q) == 0  # pressing a quiet pattern changes nothing


@pytest.mark.parametrize("shape", SMALL, ids=str)
def test_fewest_press_sets_clear_the_board_with_the_fewest_presses(shape):
    rnd = random.Random(str(shape))
    boards = [rnd.getrandbits(shape.cells) for _ in range(60)]
    alg = algebra(shape)
    lights = bit_rows(boards, shape.cells)
    ok = solvable(alg, lights)
    presses = row_ints(fewest_press_sets(alg, lights))
    for b, good, x in zip(boards, ok, presses):
        assert good == solve(shape, b).solvable
        if good:
            assert shape.press_all(b, x) == 0
            assert x.bit_count() == fewest_presses(shape, b)[0].bit_count()


def test_6x6_press_set_is_the_unique_solution_and_all_on_needs_the_known_count():
    shape = Shape(6, 6)
    alg = algebra(shape)
    assert alg.invertible
    x = row_ints(fewest_press_sets(alg, bit_rows([shape.full], 36)))[0]
    assert shape.press_all(shape.full, x) == 0
    assert x == solve(shape, shape.full).presses


# --- row sampler -----------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [Shape(1, 1), Shape(1, 4), Shape(4, 1), Shape(2, 2), Shape(3, 3),
                                   Shape(3, 4), Shape(4, 3), Shape(2, 6)], ids=str)
def test_row_sampler_lists_exactly_the_consistent_starts(shape):
    rnd = random.Random(str(shape))
    for _ in range(8):
        b = rnd.getrandbits(shape.cells)
        clicks = [rnd.randrange(shape.cells) for _ in range(rnd.randrange(6))]
        record = record_of(shape, b, clicks)
        brute = sorted(x for x in range(1 << shape.cells) if record.consistent(x))
        rs = RowSampler(record)
        assert rs.count == len(brute)
        assert sorted(row_ints(rs.boards(len(brute)))) == brute
        assert rs.boards(len(brute) - 1) is None
        drawn = row_ints(rs.sample(200, np.random.default_rng(1)))
        assert set(drawn) <= set(brute)


def test_row_sampler_draws_uniformly():
    shape = Shape(3, 3)
    record = record_of(shape, 0b101100111, [4])
    rs = RowSampler(record)
    n = 12000
    drawn = row_ints(rs.sample(n, np.random.default_rng(7)))
    freq = {b: drawn.count(b) for b in set(drawn)}
    assert len(freq) == rs.count
    expect = n / rs.count
    chi2 = sum((f - expect) ** 2 / expect for f in freq.values())
    assert chi2 < 3 * rs.count  # a skewed sampler (e.g. by row weights) fails this by far


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**36 - 1), st.lists(st.integers(0, 35), max_size=14), st.booleans())
def test_row_sampler_agrees_with_the_posterior_on_6x6(board, clicks, wide):
    shape = Shape(6, 6) if not wide else Shape(4, 7)
    board &= shape.full
    clicks = [c % shape.cells for c in clicks]
    record = record_of(shape, board, clicks)
    rs = RowSampler(record)
    assert rs.count == Posterior(record).count
    assert all(record.consistent(s) for s in row_ints(rs.sample(30, np.random.default_rng(0))))


def test_row_sampler_extends_its_parent_by_one_step():
    shape = Shape(6, 6)
    rnd = random.Random(3)
    b = rnd.getrandbits(36)
    clicks = [rnd.randrange(36) for _ in range(12)]
    parent = RowSampler(record_of(shape, b, []))
    for i in range(1, len(clicks) + 1):
        record = record_of(shape, b, clicks[:i])
        child = RowSampler(record, parent)
        assert child.count == RowSampler(record).count
        parent = child
