"""Z_3 (and Z_6 = Z_2 x Z_3) bit-sliced in 64-bit words for the line chase over Z_k (docs/MATH.md §18.7).

An element of Z_3 is two bits, lo = [v == 1] and hi = [v == 2]; a line's expressions, a
(places, W) array of residues, are kept as a (places, 2, words) array of uint64, plane 0 the lo
bits and plane 1 the hi bits of 64 free variables a word. A sum is seven bit operations on the
words (four numpy calls over the planes), a negation swaps the planes (a view, no copy), and
nothing is ever reduced: a quarter of the bytes of the lazy byte arithmetic, and none of its
conditional subtractions. The array is laid out plane by plane in memory (its plane axis has
the largest stride), so each plane of a run of places is one contiguous block and every numpy
call runs over whole blocks, not over rows of a few words. `Z3Bits` offers the same operations
as line_chase_mod_k's byte arithmetic, so the chase runs on either; `Z6Bits` adds a plane mod 2.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

Arr = NDArray[Any]
Ints = NDArray[np.int64]
WORD = 64
PACK_ROWS = 1024  # rows packed at a time (bounds the packing's scratch)
FULL = (1 << WORD) - 1


def planar(shape: tuple[int, ...]) -> Arr:
    """Zeros of `shape` (..., planes, words), laid out plane by plane."""
    d = len(shape)
    out: Arr = np.zeros((shape[-2], *shape[:-2], shape[-1]), dtype=np.uint64).transpose(*range(1, d - 1), 0, d - 1)
    return out


def pack(vals: Arr) -> Arr:
    """(..., W) residues mod 3 -> (..., 2, ceil(W / 64)) uint64 planes (lo, hi), plane by plane."""
    vals = np.asarray(vals)
    w = vals.shape[-1]
    nw = max(1, -(-w // WORD))
    planes = np.zeros((*vals.shape[:-1], 2, nw * WORD), dtype=np.uint8)
    planes[..., 0, :w] = vals == 1
    planes[..., 1, :w] = vals == 2
    packed = np.ascontiguousarray(np.packbits(planes, axis=-1, bitorder="little")).view(np.uint64)
    out = planar(packed.shape)
    out[...] = packed
    return out


def unpack(a: Arr, w: int) -> Arr:
    """(..., 2, words) planes -> (..., w) residues 0..2 as uint8."""
    bits = np.unpackbits(np.ascontiguousarray(a).view(np.uint8), axis=-1, bitorder="little")
    out: Arr = bits[..., 0, :w] + 2 * bits[..., 1, :w]
    return out


def work(shape: tuple[int, ...], scratch: Arr) -> tuple[Arr, Arr, Arr]:
    """add_into's work arrays for a sum of `shape` (..., 2, words), views of `scratch` (at least
    2.5 times their words): u and v laid out plane by plane as the lines are, t one plane."""
    size = math.prod(shape)
    planes = (2, *shape[:-2], shape[-1])
    d = len(shape)
    order = (*range(1, d - 1), 0, d - 1)  # the plane axis back in place
    u = scratch[:size].reshape(planes).transpose(order)
    v = scratch[size:2 * size].reshape(planes).transpose(order)
    t = scratch[2 * size:2 * size + size // 2].reshape(planes[1:])
    return u, v, t


def add_into(out: Arr, b: Arr, bsw: Arr, views: tuple[Arr, Arr, Arr]) -> None:
    """out += b over Z_3, bsw being b with its planes swapped (-b, or b itself for out -= b):
    with t = (a_hi | b_lo) ^ (a_lo | b_hi), the sum's hi plane is (a_lo | b_lo) ^ t and its lo
    plane (a_hi | b_hi) ^ t (checked on all nine pairs by the tests). out is written last, from
    the work arrays (`work`), so b may overlap it."""
    u, v, t = views
    np.bitwise_or(out, bsw, out=u)  # (a_lo | b_hi, a_hi | b_lo)
    np.bitwise_xor(u[..., 0, :], u[..., 1, :], out=t)
    np.bitwise_or(out, b, out=v)  # (a_lo | b_lo, a_hi | b_hi)
    np.bitwise_xor(v[..., ::-1, :], t[..., None, :], out=out)


class Z3Bits:
    """The chase's arithmetic (see line_chase_mod_k._Arith) on bit-sliced Z_3, W free variables wide."""

    k = 3
    dtype: Any = np.uint64

    def __init__(self, width: int) -> None:
        self.width = width
        self.lane = (2, max(1, -(-width // WORD)))
        self.scratch = np.empty(0, dtype=np.uint64)
        self.views: dict[tuple[int, ...], tuple[Arr, Arr, Arr]] = {}

    def _work(self, shape: tuple[int, ...]) -> tuple[Arr, Arr, Arr]:
        """The work arrays of a sum of this shape, made once per shape (a chase sums the same
        few shapes on every line) from one scratch buffer, grown when a sum needs more."""
        got = self.views.get(shape)
        if got is None:
            need = math.prod(shape) * 5 // 2 + 1
            if self.scratch.size < need:
                self.scratch = np.empty(need, dtype=np.uint64)
                self.views.clear()
            got = self.views[shape] = work(shape, self.scratch)
        return got

    def zeros(self, n: int) -> Arr:
        return planar((n, *self.lane))

    def pack(self, vals: Arr) -> Arr:
        """(rows, W) residues as (rows, planes, words), PACK_ROWS rows at a time (the byte planes
        of the packing are a scratch several bytes an entry: the symbolic chase's identity,
        free variables x free variables, packs within a bounded one, docs/MATH.md §18.8)."""
        vals = np.asarray(vals)
        if vals.ndim != 2 or len(vals) <= PACK_ROWS:
            return self._pack(vals)
        first = self._pack(vals[:PACK_ROWS])
        out = planar((len(vals), *first.shape[1:]))
        out[:PACK_ROWS] = first
        for i in range(PACK_ROWS, len(vals), PACK_ROWS):
            out[i:i + PACK_ROWS] = self._pack(vals[i:i + PACK_ROWS])
        return out

    def _pack(self, vals: Arr) -> Arr:
        return pack(vals)

    def values(self, a: Arr) -> Ints:
        out: Ints = unpack(a, self.width).astype(np.int64)
        return out

    def done(self, a: Arr) -> Arr:
        return unpack(a, self.width)

    def add(self, out: Arr, x: Arr) -> None:
        if out.size:
            add_into(out, x, x[..., ::-1, :], self._work(out.shape))

    def add_scaled(self, out: Arr, x: Arr, c: int) -> None:
        c %= 3
        if c == 1:
            Z3Bits.add(self, out, x)  # (Z6Bits runs these on its two planes mod 3)
        elif c == 2 and out.size:
            add_into(out, x[..., ::-1, :], x, self._work(out.shape))

    def neg(self, a: Arr, bound: int) -> Arr:
        out: Arr = a[..., ::-1, :]
        return out

    def reduce(self, a: Arr, bound: int | None = None) -> Arr:
        return a

    def add_col(self, a: Arr, col: int, vals: Ints) -> None:
        """Free variable `col` of every place p of a plus vals[p] (mod 3): a sum on that word only."""
        word, bit = divmod(col, WORD)
        v = np.asarray(vals) % 3
        b_lo = (v == 1).astype(np.uint64) << np.uint64(bit)
        b_hi = (v == 2).astype(np.uint64) << np.uint64(bit)
        a_lo, a_hi = a[:, 0, word], a[:, 1, word]  # one word a place: the sum of add_into on it
        t = (a_hi | b_lo) ^ (a_lo | b_hi)
        hi = (a_lo | b_lo) ^ t
        a[:, 0, word] = (a_hi | b_hi) ^ t
        a[:, 1, word] = hi

    def outer_add(self, a: Arr, col: Ints, row: Ints) -> None:
        """a[p] += col[p] row for every place p."""
        r = pack(np.asarray(row) % 3)
        c = np.asarray(col) % 3
        ones = (c == 1).astype(np.uint64)[:, None] * np.uint64(FULL)  # all bits set where col is 1
        twos = (c == 2).astype(np.uint64)[:, None] * np.uint64(FULL)
        b = planar((len(c), 2, self.lane[-1]))  # col row: row where col is 1, -row (swapped) where 2
        np.bitwise_or(ones & r[0], twos & r[1], out=b[:, 0])
        np.bitwise_or(ones & r[1], twos & r[0], out=b[:, 1])
        Z3Bits.add(self, a, b)


def bits(plane: Arr, w: int) -> Arr:
    """(..., words) bits -> (..., w) 0/1 as uint8."""
    out: Arr = np.unpackbits(np.ascontiguousarray(plane).view(np.uint8), axis=-1, bitorder="little")[..., :w]
    return out


class Z6Bits(Z3Bits):
    """Z_6 = Z_2 x Z_3 (docs/MATH.md §18.7): a (places, 3, words) line, plane 0 the residues mod 2
    (a sum is one xor), planes 1 and 2 the residues mod 3 as in Z3Bits; a value is
    3 (v mod 2) + 4 (v mod 3) mod 6. Every constant of the chase is reduced mod 2 and mod 3."""

    k = 6

    def __init__(self, width: int) -> None:
        super().__init__(width)
        self.lane = (3, self.lane[1])

    def _pack(self, vals: Arr) -> Arr:
        vals = np.asarray(vals)
        two, three = pack(vals % 2), pack(vals % 3)
        out = planar((*three.shape[:-2], 3, three.shape[-1]))
        out[..., 0, :] = two[..., 0, :]
        out[..., 1:, :] = three
        return out

    def done(self, a: Arr) -> Arr:
        out: Arr = (3 * bits(a[..., 0, :], self.width) + 4 * unpack(a[..., 1:, :], self.width)) % 6
        return out

    def values(self, a: Arr) -> Ints:
        out: Ints = self.done(a).astype(np.int64)
        return out

    def add(self, out: Arr, x: Arr) -> None:
        np.bitwise_xor(out[..., 0, :], x[..., 0, :], out=out[..., 0, :])
        super().add(out[..., 1:, :], x[..., 1:, :])

    def add_scaled(self, out: Arr, x: Arr, c: int) -> None:
        if c % 2:
            np.bitwise_xor(out[..., 0, :], x[..., 0, :], out=out[..., 0, :])
        super().add_scaled(out[..., 1:, :], x[..., 1:, :], c)

    def neg(self, a: Arr, bound: int) -> Arr:
        """-a: the same mod 2, the planes mod 3 swapped (a copy: three planes are no reversal)."""
        out = np.empty_like(a)
        out[..., 0, :] = a[..., 0, :]
        out[..., 1, :] = a[..., 2, :]
        out[..., 2, :] = a[..., 1, :]
        return out

    def add_col(self, a: Arr, col: int, vals: Ints) -> None:
        word, bit = divmod(col, WORD)
        v = np.asarray(vals)
        a[:, 0, word] ^= (v % 2).astype(np.uint64) << np.uint64(bit)
        super().add_col(a[:, 1:, :], col, v)

    def outer_add(self, a: Arr, col: Ints, row: Ints) -> None:
        c = np.asarray(col)
        r = pack(np.asarray(row) % 2)[0]
        odd = (c % 2).astype(np.uint64)[:, None] * np.uint64(FULL)
        a[:, 0] ^= odd & r
        super().outer_add(a[:, 1:], c, row)
