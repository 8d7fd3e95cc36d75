"""Bit-sliced Z_3 and Z_6 = Z_2 x Z_3 for the line chase (countlo.visible.algebra.bitsliced, docs/MATH.md
§18.7): every operation on all pairs of elements at widths across word boundaries, and the chase
on packed lines against the chase on bytes (the same constraints, presses and dot products), and
whole solves through the packed chase against brute force."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from test_line_chase_mod_k import FAST, agrees_with_general_on_starts, check_small

from countlo.board import Shape
from countlo.rules import NAMED, Rules
from countlo.visible.algebra import bitsliced
from countlo.visible.engines import line_chase_mod_k, reference_chase

WIDTHS = (1, 63, 64, 65, 130)
KINDS = (bitsliced.Z3Bits, bitsliced.Z6Bits)


def pairs(k: int, width: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(a, b) of shape (k^2 + extra, width): all pairs of elements of Z_k in every column, then
    random rows."""
    a = np.array([p[0] for p in itertools.product(range(k), repeat=2)], dtype=np.int64)
    b = np.array([p[1] for p in itertools.product(range(k), repeat=2)], dtype=np.int64)
    a = np.repeat(a[:, None], width, axis=1)
    b = np.repeat(b[:, None], width, axis=1)
    extra_a = rng.integers(0, k, (5, width))
    extra_b = rng.integers(0, k, (5, width))
    return np.concatenate([a, extra_a]), np.concatenate([b, extra_b])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("width", WIDTHS)
def test_pack_and_unpack_are_inverse(width, kind):
    rng = np.random.default_rng(width)
    ar = kind(width)
    vals = rng.integers(0, ar.k, (7, width))
    packed = ar.pack(vals)
    assert packed.shape == (7, *ar.lane) and ar.lane[-1] == -(-width // 64)
    assert not (packed[:, -2] & packed[:, -1]).any()  # never both bits of Z_3
    assert np.array_equal(ar.values(packed), vals)
    assert np.array_equal(ar.done(packed), vals)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("width", WIDTHS)
def test_sums_differences_and_negation_on_all_pairs(width, kind):
    rng = np.random.default_rng(width + 1)
    ar = kind(width)
    k = ar.k
    a, b = pairs(k, width, rng)
    for c in range(-1, 8):
        out = ar.pack(a)
        ar.add_scaled(out, ar.pack(b), c)
        assert np.array_equal(ar.values(out), (a + c * b) % k), c
    out = ar.pack(a)
    ar.add(out, ar.pack(b))
    assert np.array_equal(ar.values(out), (a + b) % k)
    assert np.array_equal(ar.values(ar.neg(ar.pack(a), k)), (-a) % k)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("width", WIDTHS)
def test_overlapping_and_broadcast_sums(width, kind):
    """out += out shifted (the operand overlaps the result) and a row added to a block."""
    rng = np.random.default_rng(width + 2)
    ar = kind(width)
    k, planes = ar.k, ar.lane[0]
    a = rng.integers(0, k, (12, width))
    out = ar.pack(a)
    ar.add(out[3:], out[:-3])
    ref = a.copy()
    ref[3:] = (a[3:] + a[:-3]) % k
    assert np.array_equal(ar.values(out), ref)
    cube = ar.zeros(12).reshape(3, 4, planes, -1)
    cube[...] = ar.pack(a).reshape(3, 4, planes, -1)
    ar.add(cube[1:], cube[0][None, 2:3])
    ref = a.reshape(3, 4, width).copy()
    ref[1:] = (ref[1:] + ref[0, 2]) % k
    assert np.array_equal(ar.values(cube.reshape(12, planes, -1)), ref.reshape(12, width))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("width", WIDTHS)
def test_a_column_added_and_an_outer_product_added(width, kind):
    rng = np.random.default_rng(width + 3)
    ar = kind(width)
    k = ar.k
    a = rng.integers(0, k, (2 * k, width))
    col = np.arange(2 * k) % k
    row = rng.integers(-7, 7, width)
    out = ar.pack(a)
    ar.outer_add(out, col, row)
    assert np.array_equal(ar.values(out), (a + np.multiply.outer(col, row)) % k)
    vals = rng.integers(-7, 7, 2 * k)
    out = ar.pack(a)
    ar.add_col(out, width - 1, vals)
    expect = a.copy()
    expect[:, width - 1] = (a[:, width - 1] + vals) % k
    assert np.array_equal(ar.values(out), expect)


@pytest.mark.parametrize("k", [3, 6])
@pytest.mark.parametrize("topology", FAST)
def test_the_packed_chase_is_the_byte_chase(topology, k):
    """Random free values, b and dot vector on random boards of every named rule, both layouts
    (the game and its transpose): identical constraints, presses and dot products."""
    rng = random.Random(topology)
    seen = 0
    for rule in NAMED:
        for _ in range(2):
            board = Shape(rng.randint(4, 11), rng.randint(4, 11), Rules.make(topology, rule, k))
            if not line_chase_mod_k.applies(board):
                continue
            for transposed in (False, True):
                z = line_chase_mod_k.zlayout(board, transposed)
                w = rng.choice(WIDTHS)
                nrng = np.random.default_rng(rng.randrange(1 << 30))
                fv = nrng.integers(0, k, (z.nfree, w)).astype(np.uint8)
                rhs = nrng.integers(0, k, (z.lay.rows, z.lay.cols))
                dot = nrng.integers(0, k, (z.lay.rows, z.lay.cols))
                ref = line_chase_mod_k.chase(z, fv, rhs, keep=True, dot=dot, rhs_col=w - 1, packed=False)
                got = line_chase_mod_k.chase(z, fv, rhs, keep=True, dot=dot, rhs_col=w - 1, packed=True)
                assert np.array_equal(ref.cons, got.cons)
                assert ref.presses is not None and got.presses is not None
                assert np.array_equal(ref.presses, got.presses)
                assert np.array_equal(ref.dots, got.dots)
                seen += 1
    assert seen


PACKED = [b for b in (Shape(rows, cols, Rules.make(topology, rule, k)) for rows, cols, k in ((3, 3, 3), (2, 2, 6))
                      for topology in FAST for rule in ("plus", "x", "star"))
          if line_chase_mod_k.applies(b)]  # the boards the chase takes (the others are no test of it)


@pytest.mark.parametrize("board", PACKED, ids=str)
def test_every_start_through_the_packed_chase(board, monkeypatch):
    """Every chase packed, however narrow: whole solves, quiet groups and witnesses against
    brute force."""
    monkeypatch.setattr(line_chase_mod_k, "BITS_CELLS", 0)
    line_chase_mod_k.plan.cache_clear()
    check_small(board, 100)
    line_chase_mod_k.plan.cache_clear()


@pytest.mark.parametrize("k", [3, 6])
@pytest.mark.parametrize("topology", FAST)
def test_medium_boards_through_the_packed_chase_against_the_general_chase(topology, k, monkeypatch):
    """Every chase packed on boards of 7 to 9 lines: the quiet group's orders and the answers
    (presses that work, or a witness) agree with the chase one equation at a time."""
    monkeypatch.setattr(line_chase_mod_k, "BITS_CELLS", 0)
    rng = random.Random(k)
    for rule in ("plus", "x", "ring"):
        board = Shape(rng.randint(7, 9), rng.randint(7, 9), Rules.make(topology, rule, k))
        if not line_chase_mod_k.applies(board):
            continue
        line_chase_mod_k.plan.cache_clear()
        reference_chase.plan.cache_clear()
        assert line_chase_mod_k.orders(board) == tuple(reference_chase.plan(board).kernel.orders)
        agrees_with_general_on_starts(board, k, rng)
    line_chase_mod_k.plan.cache_clear()
