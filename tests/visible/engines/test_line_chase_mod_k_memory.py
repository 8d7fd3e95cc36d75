"""The symbolic chase writes its constraints straight into one float32 matrix that zklu factors
where it is (countlo.visible.engines.line_chase_mod_k.make, docs/MATH.md §18.8): the same constraints, residuals,
kernels and solutions as the int64 rows joined and copied, on random boards, with every scratch
bound (rows packed, finished and multiplied at a time) small enough to cut lines and blocks."""

from __future__ import annotations

import random

import numpy as np
import pytest

from countlo.board import Shape
from countlo.rules import Rules
from countlo.visible.algebra import bitsliced, dense_lu
from countlo.visible.engines import line_chase_mod_k


def old_make(z: line_chase_mod_k.ZLayout, rhs: np.ndarray) -> tuple[dense_lu.System | dense_lu.Blocks, np.ndarray]:
    """The plan as it was made before: int64 constraint rows from the chase, each colour's block
    cut out by boolean indexing (copies), zklu copying its input."""
    split = line_chase_mod_k.colours(z)
    if split is None:
        eye = np.eye(z.nfree, z.nfree + 1, dtype=np.uint8)
        cons = line_chase_mod_k.chase(z, eye, rhs, rhs_col=z.nfree).cons
        assert cons.dtype == np.int64
        return dense_lu.System(cons[:, :z.nfree], z.k), cons[:, z.nfree]
    var, con = split
    counts, width, folded = line_chase_mod_k.colour_identity(var, True)
    cons = line_chase_mod_k.chase(z, folded, rhs, rhs_col=width).cons
    blocks = [(np.flatnonzero(con == c), np.flatnonzero(var == c), cons[con == c][:, :counts[c]]) for c in (0, 1)]
    return dense_lu.Blocks(blocks, z.nfree, z.k), cons[:, width]


BOARDS = [("torus", "knight", 12, 12), ("plane", "plus", 13, 11), ("torus", "x", 12, 14), ("klein", "x", 12, 12),
          ("cylinder", "star", 11, 12), ("moebius", "knight", 12, 13), ("projective", "plus", 11, 11),
          ("plane", "x", 12, 12)]


@pytest.mark.parametrize("k", [3, 4, 5, 6, 255])
@pytest.mark.parametrize("tiny", [False, True])
def test_the_matrix_in_place_gives_what_the_joined_int64_rows_gave(k, tiny, monkeypatch):
    if tiny:  # every bounded scratch cut small (and bit-sliced chases for k = 3, 6 at any width)
        monkeypatch.setattr(line_chase_mod_k, "PUT_ROWS", 3)
        monkeypatch.setattr(bitsliced, "PACK_ROWS", 5)
        monkeypatch.setattr(dense_lu, "PRODUCT_ROWS", 7)
        monkeypatch.setattr(line_chase_mod_k, "BITS_CELLS", 0)
    rng = random.Random(k * 2 + tiny)
    for topology, rule, rows, cols in BOARDS:
        board = Shape(rows, cols, Rules.make(topology, rule, k))
        if not line_chase_mod_k.applies(board):
            continue
        for transposed in (False, True):
            z = line_chase_mod_k.zlayout(board, transposed)
            b = np.array([[rng.randrange(k) for _ in range(cols)] for _ in range(rows)], dtype=np.int64)
            rhs = line_chase_mod_k.to_lines(z, b)
            old, old_resid = old_make(z, rhs)
            new, new_resid = line_chase_mod_k.make(board, transposed, rhs)
            assert type(new.system) is type(old)
            assert new_resid is not None and np.array_equal(new_resid, old_resid)
            assert new.system.orders == old.orders
            assert np.array_equal(new.system.gens, old.gens)
            # the constraint matrices themselves: what the in-place factors were made from
            chased = line_chase_mod_k.chase(z, np.eye(z.nfree, dtype=np.uint8)).cons
            into = np.full((z.ncons, z.nfree), -1, dtype=np.float32)
            order = np.array(rng.sample(range(z.ncons), z.ncons), dtype=np.int64)
            line_chase_mod_k.chase(z, np.eye(z.nfree, dtype=np.uint8), into=into, order=order)
            assert np.array_equal(into[order].astype(np.int64), chased)
            for _ in range(3):
                y = np.array([rng.randrange(k) for _ in range(z.nfree)], dtype=np.int64)
                rhs_sys = chased @ y % k  # a solvable right-hand side, and a random one
                for c in (rhs_sys, np.array([rng.randrange(k) for _ in range(z.ncons)], dtype=np.int64)):
                    got, want = new.system.solve(c), old.solve(c)
                    assert (got is None) == (want is None)
                    if got is not None:
                        assert np.array_equal(got, want)
                        assert not ((chased @ got - c) % k).any()
        line_chase_mod_k.plan.cache_clear()


@pytest.mark.parametrize("k", [3, 4, 5, 6, 9, 12, 255])
def test_zklu_overwriting_its_float32_input_agrees_with_a_copy(k):
    """System(a, k, overwrite=True) on a float32 a (a strided view, as the chase hands it) answers
    as System on an int64 copy; with several prime powers the others copy before the last
    overwrites."""
    rng = np.random.default_rng(k)
    m, n = 70, 60
    a = rng.integers(0, k, (m, n))
    a[:, -5:] = a[:, :5] @ rng.integers(0, k, (5, 5)) % k
    ref = dense_lu.System(a, k)
    big = np.zeros((m, n + 1), dtype=np.float32)
    big[:, :n] = a
    got = dense_lu.System(big[:, :n], k, overwrite=True)
    assert got.orders == ref.orders and np.array_equal(got.gens, ref.gens)
    for _ in range(4):
        c = a @ rng.integers(0, k, n) % k
        assert np.array_equal(got.solve(c), ref.solve(c))
        d = rng.integers(0, k, m)
        g, r = got.solve(d), ref.solve(d)
        assert (g is None) == (r is None) and (g is None or np.array_equal(g, r))
    assert not big[:, n].any()  # the column past the view is never touched
