"""The lightest member of a coset x0 + span(basis) of GF(2)^n, proven, with bounds when stopped.

Generic: cells are bits of Python ints, so any click rule or topology that yields one solution
and a quiet-pattern basis can use it (docs/MATH.md §6).

Method: split the quiet coordinates into `hi` (walked in Gray-code order, one chunk each) and
`lo` (at most LO_BITS of them). Within a chunk every cell is e_j xor a_j . z_lo, so the weight
of all 2^lo members at once is (n - H(z_lo)) / 2 where H is the Walsh-Hadamard transform of
the +-1 cell signs binned by a_j: one bincount and lo in-place butterfly passes in numpy.
That is lo cheap operations per member instead of one n-bit popcount each.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from countlo.visible.algebra import gf2

LO_BITS = 22  # 2^22 int16 sums = 8 MiB per chunk
GRAY_MAX = 10  # below this the pure-int Gray walk beats numpy's set-up cost
REGION_RANK = 24  # regions whose projected quiet space is larger add nothing to the bound
FOLD_MIN_HI = 4  # fold by a symmetry only when at least 2^4 chunks are walked
FOLD_WORK = 1 << 24  # ... and nullity x cells is at most this (the set-up is linear algebra)
BOUND_TIME, BOUND_SHARE = 1.0, 0.1  # the bound after a stop may take max(1 s, 10 % of the run)


@dataclass(frozen=True)
class Lightest:
    """A lightest member found and a proven lower bound on every member's weight."""

    member: int
    lower_bound: int
    stopped: bool = False  # True when the time limit or an interrupt ended the search

    @property
    def weight(self) -> int:
        return self.member.bit_count()

    @property
    def exact(self) -> bool:
        return self.weight <= self.lower_bound


@dataclass(frozen=True)
class Status:
    """Progress of a running search, for a status line."""

    done: int  # members examined
    total: int  # members in the coset
    best: int  # weight of the lightest member so far
    elapsed: float  # CPU seconds (time.process_time)


Progress = Callable[[Status], None]


def reduce_basis(basis: Sequence[int]) -> list[int]:
    """An independent basis of span(basis) in reduced echelon form: each vector's lowest set bit
    (its pivot) is clear in every other vector. Dependent inputs are dropped."""
    out: list[int] = []
    for v in basis:
        for b in out:
            if v & (b & -b):
                v ^= b
        if v:
            p = v & -v
            out = [b ^ v if b & p else b for b in out]
            out.append(v)
    return out


def reduce_member(x: int, basis: Sequence[int]) -> int:
    """The member of x + span(basis) with every pivot of the reduced basis clear."""
    for b in basis:
        if x & (b & -b):
            x ^= b
    return x


def lightest(
    x0: int,
    basis: Sequence[int],
    cells: int,
    *,
    time_limit: float | None = None,
    regions: Sequence[Sequence[int]] = (),
    progress: Progress | None = None,
    progress_every: float = 0.5,
    symmetries: Sequence[Callable[[int], int]] = (),
) -> Lightest:
    """The lightest member of x0 + span(basis) over `cells` bits.

    Exact unless `time_limit` (CPU seconds, time.process_time: a loaded machine does not stop a
    proof early) runs out or the user interrupts: then the
    lightest member seen and a proven lower bound (from `regions`, disjoint cell masks whose
    projected cosets are small enough to minimise exactly; the best of several such tilings
    counts; docs/MATH.md §6) come back.
    `symmetries` are candidate involutions of the cells (bitset -> bitset) keeping weights; the
    first that maps the coset onto itself halves the search (docs/MATH.md §6).
    """
    red = reduce_basis(basis)
    x = reduce_member(x0, red)
    d = len(red)
    if d == 0:
        return Lightest(x, x.bit_count())
    if d <= GRAY_MAX:
        best = gf2.gray_lightest(x, red)
        return Lightest(best, best.bit_count())
    hi_count = max(0, d - LO_BITS)
    worth = hi_count >= FOLD_MIN_HI and d * cells <= FOLD_WORK
    for sigma in symmetries if worth else ():
        folded = fold(x, red, sigma, hi_count)
        if folded is not None:
            x, ordered, skip = folded
            return _Walsh(x, ordered, cells, time_limit, regions, progress, progress_every,
                          skip).run()
    return _Walsh(x, red, cells, time_limit, regions, progress, progress_every).run()


Skip = Callable[[int], bool]  # on the hi coordinates of a chunk: True if its mirror is searched


class _Echelon:
    """Incremental independence test in GF(2)^n, tracking which inputs make each row."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, int]] = []  # (vector with a distinct lowest bit, combination)
        self.count = 0

    def reduce(self, v: int) -> tuple[int, int]:
        combo = 0
        for r, c in self.rows:
            if v & (r & -r):
                v ^= r
                combo ^= c
        return v, combo

    def add(self, v: int) -> bool:
        """Add v (input number self.count); False, and nothing added, if it is dependent."""
        r, combo = self.reduce(v)
        if not r:
            return False
        self.rows.append((r, combo ^ (1 << self.count)))
        self.count += 1
        return True


def fold(x: int, basis: list[int], sigma: Callable[[int], int],
         hi_count: int) -> tuple[int, list[int], Skip] | None:
    """Use an involution sigma of the cells that maps x + span(basis) onto itself.

    With t = 1 + sigma, pick v_i whose t(v_i) = w_i are independent, and sigma-fixed u_k to
    complete a basis. In coordinates (p, q, g) over (v, w, u), sigma maps x + member to
    x + c + member', where member' has q + p in place of q, and c is fixed. Shifting x by the
    v_i with q-coordinate 1 in c leaves c = a sum of u_k only. Then either c != 0: sigma pairs
    g_k = 0 with g_k = 1 for some k with c_k = 1, so the chunks with g_k = 1 are skipped; or
    c = 0: for p != 0 on the first m pairs (v_i, w_i), both kept among the hi coordinates,
    sigma flips q at the lowest set bit of p, so the chunks with that q set are skipped.
    Returns (x, basis ordered lo then hi, skip test on hi coordinates), or None when sigma
    does not keep the coset."""
    space = _Echelon()
    for b in basis:
        space.add(b)
    moved = x ^ sigma(x)
    turned = [b ^ sigma(b) for b in basis]  # t(b) = b + sigma(b)
    if space.reduce(moved)[0] or any(space.reduce(b ^ tb)[0] for b, tb in zip(basis, turned)):
        return None
    images = _Echelon()
    vs: list[int] = []
    ws: list[int] = []  # w_i = t(v_i)
    for b, tb in zip(basis, turned):
        if images.add(tb):
            vs.append(b)
            ws.append(tb)
    # sigma-fixed members of span(basis): kernel of t, by elimination of (t(b), b) pairs
    fixed: list[int] = []
    rows: list[tuple[int, int]] = []
    for b, tb in zip(basis, turned):
        img, src = tb, b
        for r, s_ in rows:
            if img & (r & -r):
                img ^= r
                src ^= s_
        if img:
            rows.append((img, src))
        else:
            fixed.append(src)
    whole = _Echelon()
    for v in vs + ws:
        whole.add(v)
    us = [f for f in fixed if whole.add(f)]
    ordered = vs + ws + us
    if len(ordered) != len(basis):
        return None
    r, combo = whole.reduce(moved)
    if r:
        return None
    a = len(vs)
    for i in range(a):  # q-coordinates of c: shift x by those v_i
        if combo >> (a + i) & 1:
            x ^= vs[i]
    gamma = [k for k in range(len(us)) if combo >> (2 * a + k) & 1]
    if gamma:
        k0 = gamma[0]
        hi = [us[k0]] + [u for k, u in enumerate(us) if k != k0] + vs + ws
        hi = hi[:hi_count]
        rest = [b for b in ordered if b not in hi]

        def skip_gamma(z: int) -> bool:
            return bool(z & 1)

        return x, rest + hi, skip_gamma
    m = min(a, hi_count // 2)
    if m == 0:
        return None
    hi = vs[:m] + ws[:m] + us + vs[m:]
    hi = hi[:hi_count]
    rest = [b for b in ordered if b not in hi]
    low_p = (1 << m) - 1

    def skip_pairs(z: int) -> bool:
        p = z & low_p
        if not p:
            return False
        i = (p & -p).bit_length() - 1
        return bool(z >> (m + i) & 1)

    return x, rest + hi, skip_pairs


def bits_of(v: int, cells: int) -> np.ndarray:
    """The `cells` low bits of v as a uint8 array (bit j at index j)."""
    raw = np.frombuffer(v.to_bytes((cells + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:cells]


def fwht(a: np.ndarray) -> None:
    """In-place Walsh-Hadamard transform: a[z] <- sum_y a[y] (-1)^popcount(y & z).

    Radix 4 (two butterfly levels per pass over memory), one radix-2 level first when the
    length is an odd power of two."""
    n, h = a.shape[-1], 1
    if (n.bit_length() - 1) % 2:
        v = a.reshape(-1, 2, 1)
        lo, hi = v[:, 0, :], v[:, 1, :]
        t = lo - hi
        lo += hi
        hi[...] = t
        h = 2
    while h < n:
        v = a.reshape(-1, 4, h)
        a0, a1, a2, a3 = v[:, 0, :], v[:, 1, :], v[:, 2, :], v[:, 3, :]
        s0, d0, s1, d1 = a0 + a1, a0 - a1, a2 + a3, a2 - a3
        np.add(s0, s1, out=a0)
        np.add(d0, d1, out=a1)
        np.subtract(s0, s1, out=a2)
        np.subtract(d0, d1, out=a3)
        h *= 4


class _Walsh:
    """Chunked Walsh-Hadamard search (see the module docstring)."""

    def __init__(self, x: int, basis: list[int], cells: int, time_limit: float | None,
                 regions: Sequence[Sequence[int]], progress: Progress | None, every: float,
                 skip: Skip | None = None):
        self.x, self.cells, self.regions, self.skip = x, cells, regions, skip
        self.k = min(len(basis), LO_BITS)
        self.lo, self.hi = basis[: self.k], basis[self.k:]
        self.start = time.process_time()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.progress, self.every = progress, every
        self.dtype = np.int16 if cells < 1 << 15 else np.int32

    def run(self) -> Lightest:
        k, cells = self.k, self.cells
        index = np.zeros(cells, dtype=np.int32)
        for i, b in enumerate(self.lo):
            index |= bits_of(b, cells).astype(np.int32) << i
        flips = [bits_of(b, cells) for b in self.hi]
        e = bits_of(self.x, cells)  # cell values at z_lo = 0 in the current chunk
        xh = self.x
        best, best_w = self.x, self.x.bit_count()
        chunks = 1 << len(self.hi)
        size = 1 << k
        last = self.start
        done = 0
        stopped = False
        try:
            for i in range(chunks):
                if i:
                    j = (i & -i).bit_length() - 1
                    e ^= flips[j]
                    xh ^= self.hi[j]
                if self.skip is not None and self.skip(i ^ (i >> 1)):
                    done = i + 1
                    continue  # its mirror image under the symmetry is searched instead
                sums = np.zeros(size, dtype=self.dtype)
                np.add.at(sums, index, 1 - 2 * e.astype(self.dtype))
                fwht(sums)
                z = int(np.argmax(sums))
                w = (cells - int(sums[z])) // 2
                if w < best_w:
                    best, best_w = xh ^ _combine(self.lo, z), w
                done = i + 1
                now = time.process_time()
                if self.progress is not None and now - last >= self.every:
                    last = now
                    self.progress(Status(done * size, chunks * size, best_w, now - self.start))
                if self.deadline is not None and now >= self.deadline and done < chunks:
                    stopped = True
                    break
        except KeyboardInterrupt:
            stopped = done < chunks
        if not stopped:
            return Lightest(best, best_w)
        basis = self.lo + self.hi
        spent = time.process_time() - self.start
        until = time.process_time() + max(BOUND_TIME, BOUND_SHARE * spent)
        rest = max((region_bound(self.x, basis, cells, r, until) for r in self.regions),
                   default=0)
        return Lightest(best, min(best_w, rest), stopped=True)


def span_members(basis: Sequence[int]) -> list[int]:
    """Every member of span(basis) (2^len(basis) of them)."""
    out = [0]
    for b in basis:
        out += [v ^ b for v in out]
    return out


def _combine(basis: Sequence[int], z: int) -> int:
    out = 0
    for i, b in enumerate(basis):
        if z >> i & 1:
            out ^= b
    return out


def region_bound(x: int, basis: Sequence[int], cells: int, regions: Sequence[int],
                 deadline: float | None = None) -> int:
    """A lower bound on every member's weight: the sum over disjoint `regions` of the exact
    minimum weight of the coset projected onto the region (docs/MATH.md §6).
    Regions whose projected quiet space has rank above REGION_RANK count 0, and so do those
    left when the `deadline` (time.process_time, CPU seconds) passes: every partial sum is a bound too."""
    total = 0
    for mask in regions:
        if deadline is not None and time.process_time() > deadline:
            break
        proj = reduce_basis([b & mask for b in basis])
        if len(proj) > REGION_RANK:
            continue
        y = reduce_member(x & mask, proj)
        if len(proj) <= GRAY_MAX:
            total += gf2.gray_lightest(y, proj).bit_count()
        else:
            total += _Walsh(y, proj, cells, None, (), None, 1.0).run().weight
    return total
