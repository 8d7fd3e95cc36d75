"""Arithmetic over GF(2): polynomials as Python ints, and bit-packed linear algebra.

A polynomial is an int whose bit i is the coefficient of t^i (0 is the zero polynomial).
A vector is an int bitset; a matrix is a list of row bitsets. Why the fast paths hold:
docs/MATH.md §4.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

Poly = int


def deg(a: Poly) -> int:
    """Degree of a (-1 for the zero polynomial)."""
    return a.bit_length() - 1


def mul(a: Poly, b: Poly) -> Poly:
    """Carry-less product a * b: one shift-and-xor per set bit of the sparser factor."""
    if a.bit_count() > b.bit_count():
        a, b = b, a
    out = 0
    while a:
        low = a & -a
        out ^= b << (low.bit_length() - 1)
        a ^= low
    return out


def square(a: Poly) -> Poly:
    """a^2: over GF(2) squaring spreads the bits (a(t)^2 = a(t^2)), done on the binary string."""
    return int("0".join(bin(a)[2:]), 2) if a else 0


def fibonacci(n: int) -> Poly:
    """F_n(t) with F_0 = 0, F_1 = 1, F_{k+1} = t F_k + F_{k-1}, in O(log n) squarings:
    F_{2k} = t F_k^2 and F_{2k+1} = F_{k+1}^2 + F_k^2 over GF(2)."""
    f, g = 0, 1  # F_k, F_{k+1} for k = the bits of n read so far
    for bit in bin(n)[2:] if n else ():
        f2, g2 = square(f), square(g)
        f, g = f2 << 1, g2 ^ f2  # F_2k, F_2k+1
        if bit == "1":
            f, g = g, (g << 1) ^ f  # F_2k+1, F_2k+2
    return f


def divmod_(a: Poly, b: Poly) -> tuple[Poly, Poly]:
    """(q, r) with a = q b + r and deg r < deg b: schoolbook long division."""
    if not b:
        raise ZeroDivisionError("polynomial division by zero")
    db = b.bit_length()
    q = 0
    while True:
        s = a.bit_length() - db
        if s < 0:
            return q, a
        q |= 1 << s
        a ^= b << s


def mod(a: Poly, b: Poly) -> Poly:
    """a mod b."""
    if not b:
        raise ZeroDivisionError("polynomial division by zero")
    db = b.bit_length()
    while True:
        s = a.bit_length() - db
        if s < 0:
            return a
        a ^= b << s


def gcd(a: Poly, b: Poly) -> Poly:
    """The monic gcd of a and b (every nonzero polynomial over GF(2) is monic)."""
    while b:
        a, b = b, mod(a, b)
    return a


def xgcd(a: Poly, b: Poly) -> tuple[Poly, Poly, Poly]:
    """(g, s, t) with s a + t b = g = gcd(a, b).

    Extended Euclid run bit by bit: every xor of a shifted remainder is mirrored on its
    cofactors, so the cost is O(deg) shift-xors on (deg)-bit ints.
    """
    r0, s0, t0 = a, 1, 0
    r1, s1, t1 = b, 0, 1
    while r1:
        d1 = r1.bit_length()
        while True:
            sh = r0.bit_length() - d1
            if sh < 0:
                break
            r0 ^= r1 << sh
            s0 ^= s1 << sh
            t0 ^= t1 << sh
        r0, s0, t0, r1, s1, t1 = r1, s1, t1, r0, s0, t0
    return r0, s0, t0


def xgcd_mod(a: Poly, m: Poly) -> tuple[Poly, Poly]:
    """(g, s) with g = gcd(a, m) and s a = g (mod m), deg s < deg m."""
    g, s, _t = xgcd(mod(a, m), m)
    # the cofactor may exceed deg m only through the last step
    return g, mod(s, m)


def mulmod(a: Poly, b: Poly, m: Poly) -> Poly:
    """a b mod m."""
    return mod(mul(a, b), m)


def taylor_shift(a: Poly) -> Poly:
    """a(t + 1): since (t + 1)^(2^k) = t^(2^k) + 1, each level k xors the high half of every
    2^(k+1)-bit block into its low half, O(log deg a) big-int operations."""
    n = a.bit_length()
    k = 1
    while k < n:
        a ^= (a >> k) & _low_halves(k, n)
        k <<= 1
    return a


def _low_halves(k: int, n: int) -> int:
    """Bit mask covering n bits: k ones then k zeros, repeated."""
    block = (1 << k) - 1
    width = 2 * k
    mask = block
    span = width
    while span < n:
        mask |= mask << span
        span *= 2
    return mask


# --- bit-packed linear algebra ------------------------------------------------------------


def echelon(rows: Iterable[int]) -> list[int]:
    """A reduced row echelon basis of the span of `rows` (pivot = highest set bit, distinct).

    Every pivot bit is set in exactly one returned row; rows are sorted by pivot, highest first.
    """
    basis: list[int] = []
    for v in rows:
        for b in basis:
            if v ^ b < v:  # b's pivot is set in v
                v ^= b
        if v:
            p = 1 << (v.bit_length() - 1)
            basis = [b ^ v if b & p else b for b in basis]
            basis.append(v)
    basis.sort(reverse=True)
    return basis


def rank(rows: Iterable[int]) -> int:
    """Rank over GF(2) of the matrix with these row bitsets."""
    return len(echelon(rows))


def reduce(v: int, basis: Sequence[int]) -> int:
    """v minus its component in span(basis), for a basis from `echelon` (the canonical coset rep)."""
    for b in basis:
        if v ^ b < v:
            v ^= b
    return v


def gray_members(x: int, basis: Sequence[int], limit: int | None = None) -> Iterator[int]:
    """Every member of the coset x + span(basis) (the first `limit`), in Gray-code order: step i
    xors basis[lowest set bit of i], one xor a member (docs/MATH.md §6)."""
    total = 1 << len(basis) if limit is None else min(limit, 1 << len(basis))
    for i in range(total):
        if i:
            x ^= basis[(i & -i).bit_length() - 1]
        yield x


def gray_coset(x: int, basis: Sequence[int]) -> tuple[int, int, int]:
    """(lightest weight, how many members have it, one lightest) over x + span(basis)."""
    best, best_w, count = x, x.bit_count(), 0
    for y in gray_members(x, basis):
        w = y.bit_count()
        if w < best_w:
            best, best_w, count = y, w, 1
        elif w == best_w:
            count += 1
    return best_w, count, best


def gray_lightest(x: int, basis: Sequence[int]) -> int:
    """The lightest member of the coset x + span(basis) by the Gray-code walk."""
    return gray_coset(x, basis)[2]
