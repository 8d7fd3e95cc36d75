"""The most presses a solvable start can need (covering radius of the quiet patterns) against
brute force over every press set."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape, press_masks
from countlo.visible.algebra import covering_radius
from countlo.visible.algebra.coset_walsh import lightest, reduce_basis, span_members
from countlo.visible.algebra.covering_radius import hardest, sphere_bound
from countlo.visible.engines.polynomial_chase import quiet_patterns


def radius(basis: list[int], n: int) -> int:
    """Brute force: the largest, over all 2^n words, of the distance to the nearest codeword."""
    code = span_members(reduce_basis(basis))
    return max(min((x ^ c).bit_count() for c in code) for x in range(1 << n))


def board_radius(shape: Shape) -> int:
    """Brute force on the board: every press set, the start it makes, the fewest for each."""
    masks = press_masks(shape)
    fewest: dict[int, int] = {}
    board = presses = 0
    for i in range(1 << shape.cells):
        if i:
            k = (i & -i).bit_length() - 1
            board ^= masks[k]
            presses ^= 1 << k
        w = presses.bit_count()
        if fewest.get(board, w + 1) > w:
            fewest[board] = w
    return max(fewest.values())


def check(h: covering_radius.Hardest, basis: list[int], n: int) -> None:
    """The reported start really needs `need` presses: its coset's lightest member."""
    assert h.presses is not None
    r = lightest(h.presses, basis, n)
    assert r.exact and r.weight == h.need == h.presses.bit_count()


SHAPES = [Shape(r, c) for r in range(1, 17) for c in range(1, 17) if r * c <= 14]


@pytest.mark.parametrize("shape", [*SHAPES, Shape(4, 4)], ids=str)
def test_boards_against_brute_force(shape):
    q = quiet_patterns(shape)
    h = hardest(q, shape.cells)
    assert h.exact
    assert h.need == board_radius(shape)
    check(h, q, shape.cells)


def test_published_and_independent_values():
    """4x4: 7 and 5x5: 15 (brute force here over all 2^16 and, for 5x5, the class count);
    6x6 has nullity 0, so pressing all 36 cells makes a start that needs all 36."""
    for n, want in ((4, 7), (5, 15), (6, 36)):
        shape = Shape(n, n)
        h = hardest(quiet_patterns(shape), shape.cells)
        assert h.exact and h.need == want


codes = st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(0, (1 << n) - 1), max_size=5)))


@settings(max_examples=200, deadline=None)
@given(codes)
def test_random_codes_against_brute_force(case):
    n, basis = case
    h = hardest(basis, n)
    assert h.exact and h.need == radius(basis, n)
    check(h, basis, n)


@settings(max_examples=60, deadline=None)
@given(codes.filter(lambda c: len(reduce_basis(c[1])) >= 2))
def test_bounds_bracket_the_truth(case):
    n, basis = case
    red = reduce_basis(basis)
    h = covering_radius.bounds(red, n, 0.05, 0)
    truth = radius(basis, n)
    assert h.need <= truth <= h.upper
    assert sphere_bound(len(red), n) <= truth
    assert covering_radius.average_bound(red, n) >= truth
    if h.presses is not None:
        check(h, red, n)


def test_nullity_two_family_matches_the_general_count():
    """The nullity-2 class count agrees with brute force on two dense patterns, and on 17x17
    (nullity 2) it reports a start that needs what it says."""
    q1, q2 = reduce_basis([0b0110_1011_0001_1110, 0b1010_0101_1100_0011])
    h = hardest([q1, q2], 16)
    assert h.need == radius([q1, q2], 16)
    shape = Shape(17, 17)
    big = hardest(quiet_patterns(shape), shape.cells)
    assert big.exact and big.method.startswith("nullity 2")
    check(big, quiet_patterns(shape), shape.cells)


@given(st.integers(2, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, (1 << n) - 1),
                                                       st.integers(1, (1 << n) - 1))))
@settings(max_examples=150, deadline=None)
def test_the_nullity_two_pass_over_u_is_the_brute_force_radius(case):
    """The linear pass (one u at a time, the best v of its parity) against every word."""
    n, q1, q2 = case
    if q1 == q2:
        return
    h = covering_radius.hardest([q1, q2], n)
    assert h.need == radius([q1, q2], n)
    check(h, reduce_basis([q1, q2]), n)


def test_nullity_two_and_one_far_past_64x64():
    """Issue 31: the README promises --most on classic boards up to 1024x1024 with an exact
    closed form at nullity 2 and 1, but the class table refused past 64x64."""
    for shape in (Shape(77, 77), Shape(61, 902)):
        basis = quiet_patterns(shape)
        h = hardest(basis, shape.cells)
        assert h.exact and h.method.startswith(f"nullity {len(basis)}")
        assert h.presses is not None and h.presses.bit_count() == h.need
        assert all((h.presses ^ c).bit_count() >= h.need for c in span_members(reduce_basis(basis)))


def test_big_boards_get_counting_bounds_without_a_start():
    """47x47 (nullity 30): no start's minimum is proven in a moment, so the lower bound is the
    sphere-covering count and no start is claimed."""
    shape = Shape(47, 47)
    q = quiet_patterns(shape)
    h = hardest(q, shape.cells, time_limit=0.2)
    assert h.presses is None and not h.exact
    assert h.need == sphere_bound(30, shape.cells) < h.upper <= covering_radius.average_bound(q, shape.cells)
