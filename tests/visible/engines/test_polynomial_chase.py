"""The classic solver against published tables, brute force and plain Gaussian elimination."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oeis import table

from countlo.board import Shape, press_masks
from countlo.visible.algebra import gf2
from countlo.visible.bitsets import all_solutions, fewest_presses, solution_count
from countlo.visible.engines.polynomial_chase import (
    chase,
    chebyshev,
    clears,
    evaluate,
    nullity,
    quiet_patterns,
    quiet_rows,
    rows_clear,
    solve,
    solve_rows,
    to_poly,
    transform,
)

A159257 = table("A159257_nullity_nxn_n1-1000.txt")
A075462 = table("A075462_num_solutions_allones_nxn.txt")
A075464 = table("A075464_min_presses_allones_nxn_upto20.txt")



def assert_proves_unsolvable(witness, rows, cols):
    """The witness is a nonzero quiet pattern (presses it leave nothing lit) with odd overlap with the start."""
    assert any(witness) and rows_clear([0] * len(rows), witness, cols)
    overlap = 0
    for x, y in zip(witness, rows):
        overlap ^= x & y
    assert overlap.bit_count() % 2 == 1

def test_tables_are_complete():
    assert sorted(A159257) == list(range(1, 1001))
    assert sorted(A075462) == list(range(1, 63))
    assert sorted(A075464) == list(range(1, 21))


def test_nullity_matches_a159257_for_every_n_up_to_1000():
    wrong = [(n, nullity(Shape(n, n)), a) for n, a in A159257.items() if nullity(Shape(n, n)) != a]
    assert wrong == []


def test_solve_reports_the_same_nullity_as_the_fast_path():
    for n in range(1, 80):
        assert solve(Shape(n, n), 0).nullity == A159257[n]


def test_all_on_solution_counts_match_a075462():
    for n, a in A075462.items():
        assert solution_count(Shape(n, n), Shape(n, n).full) == a


def test_all_on_solutions_enumerated_match_a075462_and_clear():
    for n in range(1, 12):
        shape = Shape(n, n)
        sols = list(all_solutions(shape, shape.full))
        assert len(set(sols)) == len(sols) == A075462[n]
        assert all(clears(shape, shape.full, x) for x in sols)


@pytest.mark.parametrize("n", range(1, 21))
def test_fewest_presses_all_on_matches_a075464(n):
    shape = Shape(n, n)
    x, exact = fewest_presses(shape, shape.full)
    assert exact
    assert clears(shape, shape.full, x)
    assert x.bit_count() == A075464[n]


# --- exhaustive against brute force --------------------------------------------------------

SMALL = [Shape(r, c) for r in range(1, 17) for c in range(1, 17) if r * c <= 16]


def brute_force(shape: Shape) -> dict[int, list[int]]:
    """Every board reachable from all-dark, with every press set reaching it."""
    masks = press_masks(shape)
    out: dict[int, list[int]] = {}
    board = presses = 0
    for i in range(1 << shape.cells):
        if i:
            k = (i & -i).bit_length() - 1
            board ^= masks[k]
            presses ^= 1 << k
        out.setdefault(board, []).append(presses)
    return out


@pytest.mark.parametrize("shape", SMALL, ids=str)
def test_every_start_against_brute_force(shape):
    reach = brute_force(shape)
    quiet = len(reach[0])
    assert 1 << nullity(shape) == quiet
    for b in range(1 << shape.cells):
        sol = solve(shape, b)
        assert sol.nullity == nullity(shape)
        assert sol.solvable == (b in reach)
        if sol.solvable:
            assert sol.witness is None
            assert sol.presses in reach[b]
            assert sorted(all_solutions(shape, b)) == sorted(reach[b])
            x, exact = fewest_presses(shape, b)
            assert exact and x in reach[b]
            assert x.bit_count() == min(p.bit_count() for p in reach[b])
        else:
            assert sol.presses is None
            assert sol.witness in reach[0] and (sol.witness & b).bit_count() % 2 == 1
            if b % 16 == 1:  # both start from solve(); a sample shows they stop there
                assert fewest_presses(shape, b) is None
                assert list(all_solutions(shape, b)) == []


# --- independent Gaussian elimination --------------------------------------------------------


def gauss(shape: Shape, board: int) -> tuple[bool, int, int | None]:
    """(solvable, nullity, one solution) by plain Gauss-Jordan on the RC x RC press matrix."""
    n = shape.cells
    rows = []
    for k in range(n):
        row = 0
        for j in shape.neighbours(k):
            row |= 1 << j
        rows.append(row | ((board >> k) & 1) << n)
    pivots = []
    r = 0
    for col in range(n):
        piv = next((i for i in range(r, n) if rows[i] >> col & 1), None)
        if piv is None:
            continue
        rows[r], rows[piv] = rows[piv], rows[r]
        for i in range(n):
            if i != r and rows[i] >> col & 1:
                rows[i] ^= rows[r]
        pivots.append(col)
        r += 1
    if any(rows[i] >> n & 1 for i in range(r, n)):
        return False, n - r, None
    x = 0
    for i, col in enumerate(pivots):
        if rows[i] >> n & 1:
            x |= 1 << col
    return True, n - r, x


def test_against_gaussian_elimination_on_random_rectangles():
    rng = random.Random(1234)
    shapes = [Shape(rng.randint(1, 30), rng.randint(1, 30)) for _ in range(30)]
    shapes += [Shape(4, 4), Shape(5, 5), Shape(9, 9), Shape(16, 16), Shape(19, 19), Shape(30, 30),
               Shape(5, 17), Shape(11, 23), Shape(4, 9), Shape(14, 29)]
    for shape in shapes:
        quiet = quiet_patterns(shape)
        starts = [rng.getrandbits(shape.cells), shape.full, 0]
        if quiet:  # a start sure to be solvable: the image of random presses
            starts.append(shape.press_all(0, rng.getrandbits(shape.cells)))
        for b in starts:
            ok, null, _ = gauss(shape, b)
            sol = solve(shape, b)
            assert (sol.solvable, sol.nullity) == (ok, null), (shape, b)
            if ok:
                assert clears(shape, b, sol.presses)


# --- properties ---------------------------------------------------------------------------

shapes = st.builds(Shape, st.integers(1, 40), st.integers(1, 40))


@settings(max_examples=150, deadline=None)
@given(shapes, st.data())
def test_presses_clear_or_witness_proves_unsolvable(shape, data):
    b = data.draw(st.integers(0, shape.full))
    sol = solve(shape, b)
    if sol.solvable:
        assert clears(shape, b, sol.presses)
    else:
        w = sol.witness
        assert w and shape.press_all(0, w) == 0
        assert (w & b).bit_count() % 2 == 1


@settings(max_examples=60, deadline=None)
@given(shapes)
def test_quiet_patterns_are_a_basis_of_the_kernel(shape):
    quiet = quiet_patterns(shape)
    assert len(quiet) == nullity(shape)
    assert gf2.rank(quiet) == len(quiet)
    for q in quiet:
        assert q and shape.press_all(0, q) == 0


@settings(max_examples=80, deadline=None)
@given(shapes, st.data())
def test_transform_turns_p_into_b(shape, data):
    p = data.draw(st.integers(0, shape.full))
    b = data.draw(st.integers(0, shape.full))
    sol = transform(shape, p, b)
    assert sol.solvable == solve(shape, p ^ b).solvable
    if sol.solvable:
        assert shape.press_all(p, sol.presses) == b


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300), st.randoms(use_true_random=False))
def test_rows_api_on_larger_boards(r, c, rnd):
    shape = Shape(r, c)
    rows = [rnd.getrandbits(c) for _ in range(r)]
    sol = solve_rows(shape, rows)
    if sol.solvable:
        assert rows_clear(rows, sol.presses, c)
    else:
        assert_proves_unsolvable(sol.witness, rows, c)


def test_rows_api_solves_a_huge_board():
    n = 1000
    rnd = random.Random(5)
    rows = [rnd.getrandbits(n) for _ in range(n)]
    sol = solve_rows(Shape(n, n), rows)
    assert sol.nullity == A159257[n]
    if sol.solvable:
        assert rows_clear(rows, sol.presses, n)
    # a start built from known presses is always solvable
    presses = [rnd.getrandbits(n) for _ in range(n)]
    mask = (1 << n) - 1
    board = [(presses[i] ^ (presses[i] << 1) ^ (presses[i] >> 1)) & mask
             ^ (presses[i - 1] if i else 0) ^ (presses[i + 1] if i + 1 < n else 0)
             for i in range(n)]
    sol = solve_rows(Shape(n, n), board)
    assert sol.solvable and rows_clear(board, sol.presses, n)


# --- the maths the solver rests on -----------------------------------------------------------


@pytest.mark.parametrize("cols", [1, 2, 3, 5, 8, 13, 33])
def test_rows_are_polynomials_in_j(cols):
    """e_k = p_k(J) e_0, chi = p_C kills e_0, and to_poly inverts evaluation."""
    for k in range(cols):
        assert evaluate(chebyshev(k), 1, cols) == 1 << k
    assert evaluate(chebyshev(cols), 1, cols) == 0
    rng = random.Random(cols)
    for _ in range(20):
        v = rng.getrandbits(cols)
        assert evaluate(to_poly(v, cols), 1, cols) == v


@pytest.mark.parametrize("shape", [Shape(3, 7), Shape(6, 6), Shape(9, 4), Shape(1, 5), Shape(5, 1)],
                         ids=str)
def test_chasing_is_affine_in_the_first_row(shape):
    """x_R(first) = x_R(0) + p_R(T) first, where p_R(T) = p_R(u + 1) evaluated at J."""
    rng = random.Random(7)
    rows = [rng.getrandbits(shape.cols) for _ in range(shape.rows)]
    zero = [0] * shape.rows
    c = chase(rows, 0, shape.cols)[1]
    a = gf2.taylor_shift(chebyshev(shape.rows))
    for _ in range(10):
        y = rng.getrandbits(shape.cols)
        assert chase(rows, y, shape.cols)[1] == c ^ chase(zero, y, shape.cols)[1]
        assert chase(zero, y, shape.cols)[1] == evaluate(gf2.mul(a, to_poly(y, shape.cols)), 1,
                                                           shape.cols)


def test_quiet_rows_match_bitsets():
    shape = Shape(9, 9)
    assert [shape.from_rows(q) for q in quiet_rows(shape)] == quiet_patterns(shape)


def test_fewest_presses_beyond_the_exact_limit_says_so():
    shape = Shape(9, 9)  # nullity 8, 256 solutions
    best = min(x.bit_count() for x in all_solutions(shape, shape.full))
    x, exact = fewest_presses(shape, shape.full, exact_nullity=4)
    assert not exact
    assert clears(shape, shape.full, x)
    assert x.bit_count() >= best
    x, exact = fewest_presses(shape, shape.full, exact_nullity=8)
    assert exact and x.bit_count() == best == A075464[9]


def test_unsolvable_has_no_solutions():
    shape = Shape(4, 4)
    sol = solve(shape, 1)  # one corner light: unsolvable on 4x4
    assert not sol.solvable and sol.presses is None
    assert fewest_presses(shape, 1) is None
    assert list(all_solutions(shape, 1)) == []
    assert solution_count(shape, 1) == 0


def test_all_solutions_limit():
    shape = Shape(9, 9)
    assert len(list(all_solutions(shape, 0, limit=10))) == 10
    assert len(set(all_solutions(shape, 0))) == 256


def test_both_solving_paths_are_exercised():
    """Y = m c (gcd(g, chi/g) = 1) and the polynomial division path both occur on small boards."""
    from countlo.visible.engines.polynomial_chase import plan_for

    paths = {plan_for(s.rows, s.cols).m is None for s in SMALL}
    assert paths == {True, False}


def test_witness_on_a_large_board_with_big_nullity():
    """257 x 257 (nullity 114): random starts are unsolvable; the witness search uses random
    kernel members there (more than 2^16 cells)."""
    n = 257
    shape = Shape(n, n)
    rnd = random.Random(11)
    rows = [rnd.getrandbits(n) for _ in range(n)]
    sol = solve_rows(shape, rows)
    assert sol.nullity == A159257[n] == 114
    assert not sol.solvable
    assert_proves_unsolvable(sol.witness, rows, n)


@pytest.mark.parametrize("n", [9, 11, 16, 19, 30])
def test_local_search_reaches_the_known_minimum_on_moderate_boards(n):
    """With the exact walk switched off, the local search still finds the exact minimum here."""
    shape = Shape(n, n)
    exact = fewest_presses(shape, shape.full)
    approx = fewest_presses(shape, shape.full, exact_nullity=0)
    assert exact[1] and not approx[1]
    assert clears(shape, shape.full, approx[0])
    assert approx[0].bit_count() == exact[0].bit_count()


def test_rows_api_rejects_rows_of_the_wrong_width_or_number():
    with pytest.raises(ValueError):
        solve_rows(Shape(2, 3), [0b1000, 0])
    with pytest.raises(ValueError):
        solve_rows(Shape(2, 3), [-1, 0])
    with pytest.raises(ValueError):
        solve_rows(Shape(2, 3), [0])


@pytest.mark.parametrize("shape", [Shape(1, 1), Shape(3, 5), Shape(130, 129), Shape(1, 20000),
                                   Shape(20000, 1)], ids=str)
def test_row_conversions_match_the_bit_layout_on_small_and_big_boards(shape):
    """Row r is bits r*C .. r*C+C-1 of the board; big boards take the linear-time path."""
    rng = random.Random(shape.cells)
    mask = shape.row_mask
    for board in (0, shape.full, rng.getrandbits(shape.cells), 1, 1 << (shape.cells - 1)):
        rows = shape.to_rows(board)
        assert rows == [(board >> (r * shape.cols)) & mask for r in range(shape.rows)]
        assert shape.from_rows(rows) == board


def test_first_few_quiet_patterns_on_small_and_big_boards():
    small = Shape(19, 19)
    assert quiet_patterns(small, 3) == quiet_patterns(small)[:3]
    big = Shape(257, 257)  # over 2^16 cells: built on demand, not cached
    few = quiet_rows(big, 2)
    assert len(few) == 2
    for q in few:
        assert any(q) and rows_clear([0] * 257, q, 257)
    assert [big.from_rows(q) for q in few] == quiet_patterns(big, 2)
