"""The most presses a solvable start can need: the covering radius of the quiet-pattern code.

A start b is solvable iff b = M x for some press set x, and then its fewest presses are the
lightest member of x + K (K the quiet patterns). So the most clicks over all solvable starts is
the largest coset-leader weight of K as a code of length n: its covering radius
(docs/MATH.md §17). Generic over cells as bits of ints, like coset.py.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from countlo.errors import BadSizeError
from countlo.i18n import _
from countlo.visible.algebra.coset_walsh import lightest, reduce_basis, span_members

BRUTE_CELLS = 26  # 2^cells xor-and-popcounts: every coset, exactly
CLASSES_CELLS = 1 << 12  # with 3 or more quiet patterns only bounds: the sphere bound sums binomials up to
# about cells / 2 and the local search proves each start by a walk of its coset, too slow past 64x64


@dataclass(frozen=True)
class Hardest:
    """Proven bounds need <= covering radius <= upper and, unless None, a press set x whose
    start M x needs exactly `need` presses (its coset has no lighter member)."""

    presses: int | None
    need: int
    upper: int
    method: str

    @property
    def exact(self) -> bool:
        return self.need >= self.upper


def hardest(basis: Sequence[int], cells: int, *, time_limit: float = 10.0,
            seed: int = 0) -> Hardest:
    """The covering radius of span(basis) in GF(2)^cells and a coset leader attaining it,
    exact for nullity <= 2 or cells <= BRUTE_CELLS, else bounds within about `time_limit`."""
    red = reduce_basis(basis)
    full = (1 << cells) - 1
    if len(red) >= 3 and cells > CLASSES_CELLS:
        raise BadSizeError(_("--most works on boards of at most {most} cells ({side}x{side}) when they have "
                             "3 or more quiet patterns; this one has {cells} cells and nullity {nullity}").format(
                                 most=CLASSES_CELLS, side=math.isqrt(CLASSES_CELLS), cells=cells, nullity=len(red)))
    if not red:
        return Hardest(full, cells, cells, "nullity 0: the only solution of the all-pressed start")
    if len(red) == 1:
        return _one(red[0], cells)
    if len(red) == 2:
        return _two(red[0], red[1], cells)
    if cells <= BRUTE_CELLS:
        return _brute(red, cells)
    return bounds(red, cells, time_limit, seed)


def _one(q: int, cells: int) -> Hardest:
    """{0, q}: every cell off q pressed and half of q's cells."""
    w = q.bit_count()
    x = (((1 << cells) - 1) & ~q) | _first(q, w // 2)
    r = cells - (w + 1) // 2
    return Hardest(x, r, r, "nullity 1: closed form")


def _two(q1: int, q2: int, cells: int) -> Hardest:
    """{0, q1, q2, q1 + q2}: only the number of presses in each class of cells (by membership in
    q1 and q2) matters; the best split of the q1-and-q2 class is a clipped midpoint.

    With k1, k2, k3 presses in the classes only in q1, only in q2 and in both, the weights of
    x + c for c = 0, q1, q2, q1 + q2 are k1 + k2 + k3, (n1-k1) + k2 + (n3-k3),
    k1 + (n2-k2) + (n3-k3) and (n1-k1) + (n2-k2) + k3: two rise with k3, two fall. In u = k1 + k2
    and v = k1 - k2 the rising pair's minimum is min(u, n1 + n2 - u) and the falling pair's
    min(n1 - v, n2 + v) + n3, which is largest at the v nearest (n1 - n2) / 2 that u allows; so
    one pass over u (linear in the cells, 1024x1024 included) finds the covering radius."""
    c1, c2, c3 = q1 & ~q2, q2 & ~q1, q1 & q2
    n1, n2, n3 = c1.bit_count(), c2.bit_count(), c3.bit_count()
    n0 = cells - n1 - n2 - n3
    u = np.arange(n1 + n2 + 1, dtype=np.int64)
    rise = np.minimum(u, n1 + n2 - u)
    lo = np.maximum(-u, u - 2 * n2)  # k1 = (u + v) / 2 in 0..n1 and k2 = (u - v) / 2 in 0..n2
    hi = np.minimum(u, 2 * n1 - u)
    near = np.clip((n1 - n2) // 2, lo, hi)
    fall, v = np.full(u.shape, -1, dtype=np.int64), np.zeros(u.shape, dtype=np.int64)
    for step in (-1, 0, 1, 2):  # the nearest v of u's parity is among these
        w = near + step
        f = np.where((w >= lo) & (w <= hi) & ((w - u) % 2 == 0), np.minimum(n1 - w, n2 + w) + n3, -1)
        better = f > fall
        fall, v = np.where(better, f, fall), np.where(better, w, v)
    best_val, best = -1, (0, 0, 0)
    for k3 in _candidates(rise, fall, n3):
        val = np.minimum(rise + k3, fall - k3)
        i = int(np.argmax(val))
        if int(val[i]) > best_val:
            ui, vi = int(u[i]), int(v[i])
            best_val, best = int(val[i]), ((ui + vi) // 2, (ui - vi) // 2, int(k3[i]))
    a, b, k = best
    x = (((1 << cells) - 1) & ~(q1 | q2)) | _first(c1, a) | _first(c2, b) | _first(c3, k)
    r = n0 + best_val
    return Hardest(x, r, r, "nullity 2: class counts")


def _candidates(rise: np.ndarray, fall: np.ndarray, n3: int) -> list[np.ndarray]:
    """min(rise + k, fall - k) over 0 <= k <= n3 peaks at the clipped midpoint or next to it."""
    mid = np.clip((fall - rise) // 2, 0, n3)
    return [mid, np.clip(mid + 1, 0, n3)]


def _first(mask: int, k: int) -> int:
    """The k lowest set bits of mask (bytes through numpy: linear in the bits, not k times)."""
    if k <= 0:
        return 0
    size = (mask.bit_length() + 7) // 8
    bits = np.unpackbits(np.frombuffer(mask.to_bytes(size, "little"), dtype=np.uint8), bitorder="little")
    out = np.zeros_like(bits)
    out[np.flatnonzero(bits)[:k]] = 1
    return int.from_bytes(np.packbits(out, bitorder="little").tobytes(), "little")


def _brute(red: list[int], cells: int) -> Hardest:
    """Every coset once: its representative with every pivot clear, against every member of K."""
    pivots = 0
    for b in red:
        pivots |= b & -b
    free = [j for j in range(cells) if not pivots >> j & 1]
    reps = np.zeros(1, dtype=np.uint64)
    for j in free:  # all 2^len(free) subsets of the free cells
        reps = np.concatenate([reps, reps | np.uint64(1 << j)])
    lightest_w = np.full(reps.shape, cells, dtype=np.int64)
    for c in span_members(red):
        np.minimum(lightest_w, np.bitwise_count(reps ^ np.uint64(c)), out=lightest_w)
    i = int(np.argmax(lightest_w))
    r = int(lightest_w[i])
    x = lightest(int(reps[i]), red, cells).member
    return Hardest(x, r, r, f"all 2^{len(free)} cosets")


def bounds(red: list[int], cells: int, time_limit: float, seed: int) -> Hardest:
    """Lower bound: the hardest start a seeded local search finds (each one proven by the exact
    fewest-press search). Upper bound: the better of the average solution weight and the
    covering radius of a two-pattern subcode (fewer patterns can only leave starts needing
    more), the best pair among a few heavy patterns."""
    deadline = time.process_time() + time_limit
    upper = min(min(_two(a, b, cells).need for a, b in _pairs(red)), average_bound(red, cells))
    rng = random.Random(seed)
    per = max(0.05, time_limit / 20)
    x = (1 << cells) - 1  # pressing everything: a start far from every quiet pattern
    first = lightest(x, red, cells, time_limit=per)
    if not first.exact:  # no start's minimum can be proven in time: the counting bound only
        return Hardest(None, sphere_bound(len(red), cells), upper,
                       "sphere covering (lower), average solution and two-pattern subcode "
                       "(upper)")
    best_x, best_w = first.member, first.weight
    cur_w = best_w
    while first.exact and time.process_time() < deadline:
        y = x
        for _flip in range(1 + rng.randrange(3)):
            y ^= 1 << rng.randrange(cells)
        r = lightest(y, red, cells, time_limit=per)
        if not r.exact:
            break  # too big to prove a start's minimum in time: keep what is proven
        if r.weight >= cur_w:  # climb (sideways moves allowed) on the proven minimum
            x, cur_w = y, r.weight
            if r.weight > best_w:
                best_x, best_w = r.member, r.weight
    sphere = sphere_bound(len(red), cells)
    if sphere > best_w:  # counting proves more than the hardest start found: keep the count
        return Hardest(None, sphere, upper, "sphere covering (lower), average solution and "
                       "two-pattern subcode (upper)")
    return Hardest(best_x, best_w, max(best_w, upper),
                   "local search (lower), average solution and two-pattern subcode (upper)")


def average_bound(basis: Sequence[int], cells: int) -> int:
    """Every start needs at most the average weight of its solutions: n0 + (n - n0) / 2, where
    n0 cells lie outside every quiet pattern (elsewhere half the solutions press a cell)."""
    support = 0
    for b in basis:
        support |= b
    n0 = cells - support.bit_count()
    return n0 + (cells - n0) // 2


def _pairs(red: list[int]) -> list[tuple[int, int]]:
    heavy = sorted(red, key=lambda v: -v.bit_count())[:6]
    out = [(a, b) for i, a in enumerate(heavy) for b in heavy[i + 1:]]
    return out or [(red[0], red[0])]


def sphere_bound(nullity: int, cells: int) -> int:
    """Covering-radius lower bound: 2^nullity balls of radius R must cover all 2^cells words."""
    need = cells - nullity  # log2 of the number of cosets
    total, r = 0, 0
    while True:
        total += math.comb(cells, r)
        if total.bit_length() - 1 >= need or r >= cells:
            return r
        r += 1
