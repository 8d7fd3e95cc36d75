"""The dense elimination over Z_k (countlo.visible.algebra.dense_lu, docs/MATH.md §18.4): the recursive float32
LU on unit pivots against brute force on tiny systems and against countlo.visible.algebra.smith's Smith form
on random systems of many shapes, ranks and moduli, with its constants turned down so that small
matrices take every path (many leaves and groups, skipped columns caught up in several chunks,
reductions before entries leave the exact integers)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from brute import agrees_with_the_smith_form

from countlo.visible.algebra import dense_lu, smith


def low_rank(rng: np.random.Generator, m: int, n: int, k: int, rank: int) -> np.ndarray:
    return rng.integers(0, k, (m, rank)) @ rng.integers(0, k, (rank, n)) % k


@pytest.fixture
def small_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leaves of 4 columns and catch-ups 8 pivots at a time: a 100-column matrix has a deep tree."""
    monkeypatch.setattr(dense_lu, "SUB", 4)
    monkeypatch.setattr(dense_lu, "PIVOT_CHUNK", 8)


@pytest.mark.parametrize("k", [3, 4, 6, 9, 255])
def test_matches_the_smith_form_around_word_widths(k):
    """Widths around 64 and 128, square, tall and wide, full and deficient rank."""
    rng = np.random.default_rng(40 + k)
    for m, n in [(64, 64), (63, 65), (65, 63), (127, 128), (129, 127), (70, 140), (140, 70)]:
        r = min(m, n) - int(rng.integers(0, 6))
        agrees_with_the_smith_form(low_rank(rng, m, n, k, r), k, rng)


@pytest.mark.parametrize("k", [3, 4, 6, 8, 9, 25, 255])
def test_matches_the_smith_form_with_small_leaves(k, small_steps):
    """Many leaves and pivot groups; columns with no unit (multiples of a prime of k) in the
    middle, so the skipped columns catch up across several leaves and chunks."""
    rng = np.random.default_rng(70 + k)
    p = smith.factor(k)[0][0]
    for m, n, r in [(50, 50, 50), (60, 45, 40), (40, 70, 33), (90, 90, 70)]:
        a = low_rank(rng, m, n, k, r)
        a[:, 3::11] = a[:, 3::11] * (k // p) % k
        a[:, 20] = 0
        agrees_with_the_smith_form(a, k, rng)


@pytest.mark.parametrize("k", [9, 251, 255])
def test_entries_are_reduced_before_they_leave_the_exact_integers(k, small_steps, monkeypatch):
    """With the exact limits turned down to 2^12, float32 and float64 alike, products go in
    slices and the targets are reduced between them: the answers do not change."""
    monkeypatch.setattr(dense_lu, "EXACT32", 1 << 12)
    monkeypatch.setattr(dense_lu, "EXACT64", 1 << 12)
    rng = np.random.default_rng(k)
    for m, n, r in [(48, 48, 44), (60, 50, 50)]:
        a = low_rank(rng, m, n, k, r)
        a[:, 7] = a[:, 7] * smith.factor(k)[0][0] % k
        agrees_with_the_smith_form(a, k, rng)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sub_product_is_exact(dtype):
    q = 251
    rng = np.random.default_rng(1)
    limit = dense_lu.EXACT32 if dtype == np.float32 else dense_lu.EXACT64
    bound = limit - 300
    t = rng.integers(-bound + 1, bound, (30, 20)).astype(dtype)
    a = rng.integers(-125, 126, (30, 600)).astype(dtype)
    b = rng.integers(-125, 126, (600, 20)).astype(dtype)
    exact = t.astype(np.int64) - a.astype(np.int64) @ b.astype(np.int64)
    new = dense_lu.sub_product(t, a, b, bound, q)
    assert new < limit
    assert float(np.abs(t).max()) < new
    assert np.array_equal(t.astype(np.int64) % q, exact % q)


@pytest.mark.parametrize("k, m, n", [(4, 3, 4), (6, 4, 3), (9, 2, 3), (3, 4, 4), (8, 3, 3)])
def test_against_every_vector_on_tiny_systems(k, m, n):
    """Brute force: the kernel has prod(orders) elements and b is reachable iff solve finds y."""
    rng = np.random.default_rng(k * 100 + m * 10 + n)
    ys = np.array(list(itertools.product(range(k), repeat=n)), dtype=np.int64)
    for _ in range(6):
        a = rng.integers(0, k, (m, n))
        a[:, int(rng.integers(0, n))] *= int(rng.integers(0, 2)) * smith.factor(k)[0][0]
        images = {tuple(v) for v in (ys @ a.T) % k}
        sys = dense_lu.System(a % k, k)
        assert int(np.prod(sys.orders)) == int((~((ys @ a.T) % k).any(axis=1)).sum())
        for b in itertools.product(range(k), repeat=m):
            y = sys.solve(np.array(b))
            assert (y is not None) == (b in images)
            if y is not None:
                assert not ((a @ y - np.array(b)) % k).any()
