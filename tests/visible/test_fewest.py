"""Fewest presses: the coset search against brute force, A075464 and its own lower bounds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oeis import table

from countlo.board import Shape, press_masks
from countlo.visible.algebra import coset_walsh
from countlo.visible.algebra.coset_walsh import lightest, reduce_basis, region_bound
from countlo.visible.engines.polynomial_chase import clears, nullity, quiet_patterns, solve
from countlo.visible.fewest import fewest, tiles

A159257 = table("A159257_nullity_nxn_n1-1000.txt")
A075464 = {**table("A075464_min_presses_allones_nxn_upto20.txt"),
           **table("A075464_min_presses_allones_nxn_21to54.txt")}


def span_min(x: int, basis: list[int]) -> int:
    """Brute force: the least weight over x + every subset sum of basis."""
    best = x.bit_count()
    for mask in range(1, 1 << len(basis)):
        y = x
        for i, b in enumerate(basis):
            if mask >> i & 1:
                y ^= b
        best = min(best, y.bit_count())
    return best


@pytest.fixture
def walsh_everywhere(monkeypatch):
    """Send every search through the numpy Walsh path in chunks of 2^3 (several chunks)."""
    monkeypatch.setattr(coset_walsh, "GRAY_MAX", 0)
    monkeypatch.setattr(coset_walsh, "LO_BITS", 3)


cosets = st.integers(1, 40).flatmap(lambda n: st.tuples(
    st.just(n),
    st.integers(0, (1 << n) - 1),
    st.lists(st.integers(0, (1 << n) - 1), max_size=9),
))


@settings(max_examples=300, deadline=None)
@given(cosets)
def test_lightest_matches_brute_force(case):
    n, x, basis = case
    r = lightest(x, basis, n)
    assert r.exact and not r.stopped
    assert r.weight == span_min(x, basis)
    assert (r.member ^ x) in _span(basis)


@settings(max_examples=150, deadline=None)
@given(cosets)
def test_walsh_path_matches_brute_force(case):
    n, x, basis = case
    saved = coset_walsh.GRAY_MAX, coset_walsh.LO_BITS
    coset_walsh.GRAY_MAX, coset_walsh.LO_BITS = 0, 2
    try:
        r = lightest(x, basis, n)
    finally:
        coset_walsh.GRAY_MAX, coset_walsh.LO_BITS = saved
    assert r.exact
    assert r.weight == span_min(x, basis)
    assert (r.member ^ x) in _span(basis)


def _span(basis: list[int]) -> set[int]:
    out = {0}
    for b in basis:
        out |= {v ^ b for v in out}
    return out


@settings(max_examples=200, deadline=None)
@given(cosets, st.integers(1, 6), st.randoms(use_true_random=False))
def test_region_bound_never_exceeds_the_minimum(case, parts, rnd):
    n, x, basis = case
    owner = [rnd.randrange(parts) for _ in range(n)]
    regions = [sum(1 << j for j in range(n) if owner[j] == p) for p in range(parts)]
    assert region_bound(x, reduce_basis(basis), n, regions) <= span_min(x, basis)


def test_reduce_basis_keeps_the_span_and_clears_pivots():
    rnd = random.Random(3)
    basis = [rnd.getrandbits(30) for _ in range(12)] + [0]
    basis.append(basis[0] ^ basis[1])
    red = reduce_basis(basis)
    assert len(red) == 12
    assert _span(red) == _span(basis)
    for b in red:
        assert all(not (c & (b & -b)) for c in red if c is not b)


# --- boards ----------------------------------------------------------------------------------

SMALL = [Shape(r, c) for r in range(1, 17) for c in range(1, 17) if r * c <= 12]


@pytest.mark.parametrize("shape", SMALL, ids=str)
def test_every_start_of_small_boards_through_the_walsh_path(shape, walsh_everywhere):
    pm = press_masks(shape)
    best: dict[int, int] = {}
    for p in range(1 << shape.cells):  # every press set and the start it clears
        b = 0
        for k in range(shape.cells):
            if p >> k & 1:
                b ^= pm[k]
        if b not in best or p.bit_count() < best[b]:
            best[b] = p.bit_count()
    for b, want in best.items():
        f = fewest(shape, b)
        assert f is not None and f.exact and clears(shape, b, f.bits)
        assert f.count == want


@pytest.mark.parametrize("shape", [Shape(4, 4), Shape(5, 5), Shape(9, 9), Shape(4, 9),
                                   Shape(11, 11), Shape(16, 16)], ids=str)
def test_random_starts_with_nullity_up_to_8_against_every_solution(shape, walsh_everywhere):
    d = nullity(shape)
    assert 2 <= d <= 8
    rnd = random.Random(d)
    quiet = quiet_patterns(shape)
    for _ in range(20):
        presses = rnd.getrandbits(shape.cells)
        board = _board_of(shape, presses)
        f = fewest(shape, board)
        assert f is not None and f.exact and clears(shape, board, f.bits)
        assert f.count == span_min(presses, quiet)


def _board_of(shape: Shape, presses: int) -> int:
    b = 0
    for k, m in enumerate(press_masks(shape)):
        if presses >> k & 1:
            b ^= m
    return b


def test_a075464_data_is_complete():
    assert sorted(A075464) == list(range(1, 55))


QUICK = [n for n in range(21, 55) if A159257[n] <= 22]


@pytest.mark.parametrize("n", QUICK)
def test_all_on_matches_a075464(n):
    shape = Shape(n, n)
    f = fewest(shape, shape.full)
    assert f is not None and f.exact and not f.stopped
    assert clears(shape, shape.full, f.bits)
    assert f.count == A075464[n]


@pytest.mark.parametrize("n", [39, 47])
def test_stopped_search_brackets_the_published_minimum(n):
    """Nullity 32 and 30: stopped after a moment, the answer is a valid press set no lighter
    than the published minimum and the lower bound is no higher."""
    shape = Shape(n, n)
    f = fewest(shape, shape.full, time_limit=0.0)
    assert f is not None and f.stopped and not f.exact
    assert clears(shape, shape.full, f.bits)
    assert 0 < f.lower_bound <= A075464[n] <= f.count


def test_the_7x7_tiles_bound_on_47x47_is_sound_and_says_something():
    shape = Shape(47, 47)
    quiet = reduce_basis(quiet_patterns(shape))
    x = solve(shape, shape.full).presses
    bound = region_bound(x, quiet, shape.cells, tiles(shape, 7))
    assert 0.4 * A075464[47] < bound <= A075464[47]


def test_tiles_partition_the_board():
    for shape in (Shape(7, 5), Shape(10, 10), Shape(1, 9)):
        for side in (2, 3, 5):
            t = tiles(shape, side)
            assert sum(t) == shape.full
            assert sum(m.bit_count() for m in t) == shape.cells


# --- symmetry folding -------------------------------------------------------------------------


def symmetric_case(n: int, rnd: random.Random, gamma: bool):
    """A random involution sigma of n cells, a sigma-invariant quiet space and a start whose
    coset sigma keeps; with `gamma`, sigma moves the start by a fixed pattern (the c != 0 case)."""
    perm = list(range(n))
    order = list(range(n))
    rnd.shuffle(order)
    for i in range(rnd.randrange(1, n // 2 + 1)):
        a, b = order[2 * i], order[2 * i + 1]
        perm[a], perm[b] = b, a

    def sigma(v: int) -> int:
        return sum(1 << perm[j] for j in range(n) if v >> j & 1)

    basis = []
    for _ in range(rnd.randrange(1, 5)):
        v = rnd.getrandbits(n)
        basis += [v, sigma(v)]
    basis += [v | sigma(v) for v in (rnd.getrandbits(n) for _ in range(rnd.randrange(3)))]
    x = rnd.getrandbits(n)
    x |= sigma(x)  # fixed by sigma
    x ^= basis[0]  # sigma(x) = x + basis[0] + basis[1]
    if gamma:
        a = order[0]  # moved by sigma: x + e_a is moved by e_a + e_sigma(a), a fixed pattern
        basis.append((1 << a) | (1 << perm[a]))
        x ^= 1 << a
    return x, basis, sigma


@settings(max_examples=200, deadline=None)
@given(st.integers(4, 16), st.randoms(use_true_random=False), st.booleans(), st.integers(0, 3))
def test_symmetry_folding_matches_brute_force(n, rnd, gamma, lo):
    x, basis, sigma = symmetric_case(n, rnd, gamma)
    saved = coset_walsh.GRAY_MAX, coset_walsh.LO_BITS
    coset_walsh.GRAY_MAX, coset_walsh.LO_BITS = 0, lo
    try:
        r = lightest(x, basis, n, symmetries=[sigma])
    finally:
        coset_walsh.GRAY_MAX, coset_walsh.LO_BITS = saved
    assert r.exact and r.weight == span_min(x, basis)
    assert (r.member ^ x) in _span(basis)


def test_folding_finds_both_cases():
    """Both orbit rules occur: sigma moving the start by a fixed pattern, and by a member."""
    kinds = set()
    rnd = random.Random(5)
    for gamma in (True, False):
        for _ in range(20):
            x, basis, sigma = symmetric_case(12, rnd, gamma)
            red = reduce_basis(basis)
            folded = coset_walsh.fold(coset_walsh.reduce_member(x, red), red, sigma, 4)
            if folded is not None:
                kinds.add(folded[2].__name__)
    assert kinds == {"skip_gamma", "skip_pairs"}


def test_folding_refuses_a_symmetry_that_moves_the_coset():
    basis = [0b0011]

    def swap01(v: int) -> int:  # exchanges cells 0 and 2: moves 0b0011 out of the span
        return (v & ~0b101) | (v & 1) << 2 | (v >> 2 & 1)

    assert coset_walsh.fold(0b1000, basis, swap01, 1) is None
