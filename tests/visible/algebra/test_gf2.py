"""GF(2) polynomial arithmetic and bit-packed linear algebra against naive definitions."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.visible.algebra import gf2

polys = st.integers(0, (1 << 200) - 1)
nonzero = st.integers(1, (1 << 120) - 1)


def naive_mul(a: int, b: int) -> int:
    out = 0
    for i in range(a.bit_length()):
        for j in range(b.bit_length()):
            if (a >> i) & 1 and (b >> j) & 1:
                out ^= 1 << (i + j)
    return out


@settings(deadline=None)
@given(st.integers(0, 1 << 40), st.integers(0, 1 << 40))
def test_mul_matches_schoolbook(a, b):
    assert gf2.mul(a, b) == naive_mul(a, b) == gf2.mul(b, a)


def test_mul_small_facts():
    assert gf2.mul(0b11, 0b11) == 0b101  # (t + 1)^2 = t^2 + 1
    assert gf2.mul(0b111, 0b11) == 0b1001  # (t^2 + t + 1)(t + 1) = t^3 + 1


@settings(deadline=None)
@given(polys, nonzero)
def test_divmod_identity(a, b):
    q, r = gf2.divmod_(a, b)
    assert gf2.mul(q, b) ^ r == a
    assert gf2.deg(r) < gf2.deg(b)
    assert gf2.mod(a, b) == r


@settings(deadline=None)
@given(polys, nonzero, nonzero)
def test_gcd_divides_and_is_greatest(a, b, c):
    g = gf2.gcd(gf2.mul(a, c), gf2.mul(b, c))
    assert gf2.mod(g, c) == 0 or (a == 0 and b == 0)
    if a or b:
        assert gf2.mod(gf2.mul(a, c), g) == 0 and gf2.mod(gf2.mul(b, c), g) == 0


@settings(deadline=None)
@given(polys, st.integers(2, (1 << 150) - 1))
def test_xgcd_mod_bezout(a, m):
    g, s = gf2.xgcd_mod(a, m)
    assert g == gf2.gcd(m, a)
    assert gf2.deg(s) < gf2.deg(m)
    assert gf2.mod(gf2.mul(s, a), m) == gf2.mod(g, m)


@given(polys, polys)
def test_xgcd_cofactors(a, b):
    g, s, t = gf2.xgcd(a, b)
    assert g == gf2.gcd(a, b)
    assert gf2.mul(s, a) ^ gf2.mul(t, b) == g


def naive_shift(a: int) -> int:
    out, power = 0, 1  # power = (t + 1)^i
    for i in range(a.bit_length()):
        if (a >> i) & 1:
            out ^= power
        power = gf2.mul(power, 0b11)
    return out


@settings(deadline=None)
@given(st.integers(0, 1 << 300))
def test_taylor_shift_is_substitution_and_involution(a):
    assert gf2.taylor_shift(a) == naive_shift(a)
    assert gf2.taylor_shift(gf2.taylor_shift(a)) == a


def naive_rank(rows: list[int], width: int) -> int:
    """Rank by counting the distinct vectors of the span."""
    span = {0}
    for r in rows:
        span |= {v ^ r for v in span}
    return len(span).bit_length() - 1


@settings(deadline=None)
@given(st.lists(st.integers(0, 255), max_size=10))
def test_rank_and_echelon(rows):
    basis = gf2.echelon(rows)
    assert len(basis) == gf2.rank(rows) == naive_rank(rows, 8)
    pivots = [b.bit_length() - 1 for b in basis]
    assert len(set(pivots)) == len(pivots)
    for b in basis:
        assert sum(1 for c in basis if c >> (b.bit_length() - 1) & 1) == 1
    for r in rows:  # every row reduces to zero: the basis spans them
        assert gf2.reduce(r, basis) == 0


@settings(deadline=None)
@given(st.lists(st.integers(0, 255), max_size=6), st.integers(0, 255))
def test_reduce_is_a_canonical_coset_representative(rows, v):
    basis = gf2.echelon(rows)
    rep = gf2.reduce(v, basis)
    for bits in itertools.product((0, 1), repeat=len(rows)):
        w = v
        for take, r in zip(bits, rows):
            if take:
                w ^= r
        assert gf2.reduce(w, basis) == rep


@settings(deadline=None)
@given(st.integers(0, 1 << 300))
def test_square_spreads_bits(a):
    assert gf2.square(a) == gf2.mul(a, a)


def test_fibonacci_doubling_matches_the_recurrence():
    prev, cur = 0, 1  # F_0, F_1
    for n in range(300):
        assert gf2.fibonacci(n) == prev
        prev, cur = cur, (cur << 1) ^ prev
