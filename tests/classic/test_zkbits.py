"""Bit-sliced Z_3 for the line chase (countlo.classic.zkbits, docs/MATH.md §18.7): every operation
on all pairs of elements at widths across word boundaries, and the chase on packed lines against
the chase on bytes (the same constraints, presses and dot products), and whole solves through the
packed chase against brute force."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from test_zkchase import FAST, check_small

from countlo.board import Shape
from countlo.classic import zkbits, zkchase
from countlo.rules import NAMED, Rules

WIDTHS = (1, 63, 64, 65, 130)


def pairs(width: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(a, b) of shape (9 + extra, width): all nine pairs of elements of Z_3 in every column,
    then random rows."""
    a = np.array([p[0] for p in itertools.product(range(3), repeat=2)], dtype=np.int64)
    b = np.array([p[1] for p in itertools.product(range(3), repeat=2)], dtype=np.int64)
    a = np.repeat(a[:, None], width, axis=1)
    b = np.repeat(b[:, None], width, axis=1)
    extra_a = rng.integers(0, 3, (5, width))
    extra_b = rng.integers(0, 3, (5, width))
    return np.concatenate([a, extra_a]), np.concatenate([b, extra_b])


@pytest.mark.parametrize("width", WIDTHS)
def test_pack_and_unpack_are_inverse(width):
    rng = np.random.default_rng(width)
    vals = rng.integers(0, 3, (7, width))
    packed = zkbits.pack(vals)
    assert packed.shape == (7, 2, -(-width // 64))
    assert not (packed[:, 0] & packed[:, 1]).any()  # never both bits
    assert np.array_equal(zkbits.unpack(packed, width), vals)
    ar = zkbits.Z3Bits(width)
    assert np.array_equal(ar.values(ar.pack(vals)), vals)


@pytest.mark.parametrize("width", WIDTHS)
def test_sums_differences_and_negation_on_all_pairs(width):
    rng = np.random.default_rng(width + 1)
    ar = zkbits.Z3Bits(width)
    a, b = pairs(width, rng)
    for c in range(-1, 5):
        out = ar.pack(a)
        ar.add_scaled(out, ar.pack(b), c)
        assert np.array_equal(ar.values(out), (a + c * b) % 3), c
    out = ar.pack(a)
    ar.add(out, ar.pack(b))
    assert np.array_equal(ar.values(out), (a + b) % 3)
    assert np.array_equal(ar.values(ar.neg(ar.pack(a), 3)), (-a) % 3)


@pytest.mark.parametrize("width", WIDTHS)
def test_overlapping_and_broadcast_sums(width):
    """out += out shifted (the operand overlaps the result) and a row added to a block."""
    rng = np.random.default_rng(width + 2)
    ar = zkbits.Z3Bits(width)
    a = rng.integers(0, 3, (12, width))
    out = ar.pack(a)
    ar.add(out[3:], out[:-3])
    ref = a.copy()
    ref[3:] = (a[3:] + a[:-3]) % 3
    assert np.array_equal(ar.values(out), ref)
    cube = ar.zeros(12).reshape(3, 4, 2, -1)
    cube[...] = ar.pack(a).reshape(3, 4, 2, -1)
    ar.add(cube[1:], cube[0][None, 2:3])
    ref = a.reshape(3, 4, width).copy()
    ref[1:] = (ref[1:] + ref[0, 2]) % 3
    assert np.array_equal(ar.values(cube.reshape(12, 2, -1)), ref.reshape(12, width))


@pytest.mark.parametrize("width", WIDTHS)
def test_a_column_set_and_an_outer_product_added(width):
    rng = np.random.default_rng(width + 3)
    ar = zkbits.Z3Bits(width)
    a = rng.integers(0, 3, (9, width))
    col = np.arange(9) % 3
    row = rng.integers(-4, 4, width)
    out = ar.pack(a)
    ar.outer_add(out, col, row)
    assert np.array_equal(ar.values(out), (a + np.multiply.outer(col, row)) % 3)
    vals = rng.integers(-5, 5, 9)
    out = ar.pack(a)
    ar.add_col(out, width - 1, vals)
    expect = a.copy()
    expect[:, width - 1] = (a[:, width - 1] + vals) % 3
    assert np.array_equal(ar.values(out), expect)


@pytest.mark.parametrize("topology", FAST)
def test_the_packed_chase_is_the_byte_chase(topology):
    """Random free values, b and dot vector on random boards of every named rule, both layouts
    (the game and its transpose): identical constraints, presses and dot products."""
    rng = random.Random(topology)
    seen = 0
    for rule in NAMED:
        for _ in range(2):
            board = Shape(rng.randint(4, 11), rng.randint(4, 11), Rules.make(topology, rule, 3))
            if not zkchase.applies(board):
                continue
            for transposed in (False, True):
                z = zkchase.zlayout(board, transposed)
                w = rng.choice(WIDTHS)
                nrng = np.random.default_rng(rng.randrange(1 << 30))
                fv = nrng.integers(0, 3, (z.nfree, w)).astype(np.uint8)
                rhs = nrng.integers(0, 3, (z.lay.rows, z.lay.cols))
                dot = nrng.integers(0, 3, (z.lay.rows, z.lay.cols))
                ref = zkchase.chase(z, fv, rhs, keep=True, dot=dot, rhs_col=w - 1, packed=False)
                got = zkchase.chase(z, fv, rhs, keep=True, dot=dot, rhs_col=w - 1, packed=True)
                assert np.array_equal(ref.cons, got.cons)
                assert ref.presses is not None and got.presses is not None
                assert np.array_equal(ref.presses, got.presses)
                assert np.array_equal(ref.dots, got.dots)
                seen += 1
    assert seen


@pytest.mark.parametrize("topology", FAST)
@pytest.mark.parametrize("rule", ["plus", "x", "star"])
def test_every_start_through_the_packed_chase(topology, rule, monkeypatch):
    """Every chase packed, however narrow: whole solves, quiet groups and witnesses against
    brute force."""
    monkeypatch.setattr(zkchase, "BITS_CELLS", 0)
    zkchase.plan.cache_clear()
    check_small(Shape(3, 3, Rules.make(topology, rule, 3)), 100)
    zkchase.plan.cache_clear()
