"""The `split` engine: the exact posterior of a small board by meeting in the middle (docs/MATH.md §9.1).

The board is cut into two halves, A (the first n // 2 cells in reading order) and B (the rest),
and every assignment of each half is listed: 2^|A| + 2^|B| states instead of 2^n starts. Every
equation of the record (the starting count too) is linear, sum(b[plus]) - sum(b[minus]) = rhs,
so it splits into a part on A and a part on B: an equation on one half only filters that half's
states, and one across the cut asks rhs - v_A = v_B. A start is consistent exactly when its two
halves agree on every such value, so the states of both halves are grouped by that key, and a
group with a states of A and b states of B holds a * b consistent starts. The count, every
marginal and every next-count law follow from the groups:

- the marginal of a cell of A is the sum, over its states with the cell lit, of the matching
  states of B (and the other way round);
- a click on k would show (count now) + |N(k)| - 2 (v_A + v_B), where v_A and v_B are the lit
  cells of N(k) now on each half; with P[g, v] and Q[g, v] the states of each half in group g
  with value v, the law of v_A + v_B is the sum over the anti-diagonals of P^T Q.

Uniform samples draw one of the count consistent starts by its rank (exact integer arithmetic).
Everything is int64 and exact: the count is at most 2^n <= 2^36 here.

Memory is fixed by the board up front (`split_bytes`): a few 8-byte arrays over the states of
the two halves and a law's group tables, whatever the record says; that is what makes it the engine for small boards
under rules whose clicks reach far, where the window of `dense` holds nearly every cell.
"""

from __future__ import annotations

import random
from functools import cached_property, lru_cache

import numpy as np

from countlo.board import popcount
from countlo.countboard import CountBoard
from countlo.hidden.record import Record

SPLIT_CELLS = 36  # largest board for the split engine (two halves of at most 2^18 states)
SPLIT_BYTES = 256 << 20  # largest peak (split_bytes) the split engine may need


def halves(cells: int) -> tuple[int, int]:
    """Cells of half A and half B."""
    return cells // 2, cells - cells // 2


@lru_cache(maxsize=64)
def split_bytes(shape: CountBoard) -> int:
    """Peak bytes of the split engine on this board, from its layout, per state of either half:
    64 bytes of 8-byte arrays (the state, its group id, a key, a value and the temporaries of one
    key step or one sort), and for a law the tables P and Q of 8-byte counts, one row per group
    (at most one group per state of the larger half) and one column per value 0..|N(k)|."""
    a, b = halves(shape.cells)
    width = max(popcount(shape.press_mask(k)) for k in range(shape.cells)) + 1
    return (64 + 2 * 8 * width) * ((1 << a) + (1 << b))


def fits(shape: CountBoard) -> bool:
    """True when the split engine takes this board: other rules or a press map (the classic game
    keeps its window engines), at most SPLIT_CELLS cells and a peak within SPLIT_BYTES."""
    return (not shape.classic and shape.cells <= SPLIT_CELLS
            and split_bytes(shape) <= SPLIT_BYTES)


_RENORMALISE = 1 << 40  # group ids are renumbered before a key step could overflow int64


def _values(states: np.ndarray, plus: int, minus: int) -> np.ndarray:
    """sum(s[plus]) - sum(s[minus]) for every state s of a half (plus, minus in the half's bits)."""
    v: np.ndarray = np.bitwise_count(states & plus).astype(np.int64)
    if minus:
        v -= np.bitwise_count(states & minus)
    return v


class SplitPosterior:
    """Exact posterior over the hidden start of a record on a small board: count, marginals,
    next-count laws, boards and uniform samples (same interface as `Posterior`)."""

    def __init__(self, record: Record):
        shape = record.shape
        n = shape.cells
        if n > SPLIT_CELLS or split_bytes(shape) > SPLIT_BYTES:
            raise ValueError(f"the split engine takes boards of at most {SPLIT_CELLS} cells and "
                             f"{SPLIT_BYTES >> 20} MB, not {shape}")
        self.record = record
        self.count_exact = True
        na, nb = halves(n)
        self._na = na
        low = (1 << na) - 1
        a = np.arange(1 << na, dtype=np.int64)
        b = np.arange(1 << nb, dtype=np.int64)
        straddling: list[tuple[int, int, int, int, int]] = []
        for e in record.equations():
            pa, ma, pb, mb = e.plus & low, e.minus & low, e.plus >> na, e.minus >> na
            if not (pb or mb):
                a = a[_values(a, pa, ma) == e.rhs]
            elif not (pa or ma):
                b = b[_values(b, pb, mb) == e.rhs]
            else:
                straddling.append((pa, ma, pb, mb, e.rhs))
        # group both halves by the values the straddling equations ask of them
        ga = np.zeros(len(a), dtype=np.int64)
        gb = np.zeros(len(b), dtype=np.int64)
        for pa, ma, pb, mb, rhs in straddling:
            lo, hi = -popcount(mb), popcount(pb)
            ka = rhs - _values(a, pa, ma) - lo
            ok = (ka >= 0) & (ka <= hi - lo)
            a, ga, ka = a[ok], ga[ok], ka[ok]
            kb = _values(b, pb, mb) - lo
            ga = ga * (hi - lo + 1) + ka
            gb = gb * (hi - lo + 1) + kb
            if max(ga.max(initial=0), gb.max(initial=0)) * (hi - lo + 1) >= _RENORMALISE:
                ga, gb = self._renumber(ga, gb)
        ga, gb = self._renumber(ga, gb)
        groups = int(max(ga.max(initial=-1), gb.max(initial=-1))) + 1
        ca = np.bincount(ga, minlength=groups)
        cb = np.bincount(gb, minlength=groups)
        ca, cb = ca * (cb > 0), cb * (ca > 0)  # groups without partners hold no start
        # keep the states with a partner, grouped (a stable sort keeps states ascending in a group)
        keep_a, keep_b = ca[ga] > 0, cb[gb] > 0
        a, ga, b, gb = a[keep_a], ga[keep_a], b[keep_b], gb[keep_b]
        oa, ob = np.argsort(ga, kind="stable"), np.argsort(gb, kind="stable")
        self._a, self._ga, self._b, self._gb = a[oa], ga[oa], b[ob], gb[ob]
        self._ca, self._cb = ca, cb
        pairs = ca * cb
        self._cum = np.cumsum(pairs)
        self._first_a = np.cumsum(ca) - ca
        self._first_b = np.cumsum(cb) - cb
        self.count: int = int(pairs.sum())
        listed = self.boards(1) if self.count == 1 else None
        self.board: int | None = listed[0] if listed else None

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays this posterior keeps (the guide bounds its cache by them)."""
        return sum(x.nbytes for x in (self._a, self._ga, self._b, self._gb, self._ca, self._cb, self._cum,
                                      self._first_a, self._first_b))

    @staticmethod
    def _renumber(ga: np.ndarray, gb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The same grouping with ids 0..groups-1 (ids shared between the halves)."""
        _ids, inverse = np.unique(np.concatenate((ga, gb)), return_inverse=True)
        inverse = inverse.astype(np.int64).reshape(-1)
        return inverse[: len(ga)], inverse[len(ga):]

    # --- marginals and next-count laws -------------------------------------------------------
    @cached_property
    def _laws(self) -> tuple[list[int], list[dict[int, int]]]:
        """Consistent starts with cell k lit, and count after clicking k -> consistent starts."""
        shape, n, na = self.record.shape, self.record.shape.cells, self._na
        lit = [0] * n
        dists: list[dict[int, int]] = [{} for _ in range(n)]
        if self.count == 0:
            return lit, dists
        a, b, ga, gb = self._a, self._b, self._ga, self._gb
        wa, wb = self._cb[ga], self._ca[gb]  # partners of each state
        for k in range(n):
            if k < na:
                lit[k] = int(wa[(a >> k) & 1 == 1].sum())
            else:
                lit[k] = int(wb[(b >> (k - na)) & 1 == 1].sum())
        flips, now = self.record.flips(), self.record.count
        low = (1 << na) - 1
        groups = len(self._ca)
        for k in range(n):
            nbr = shape.press_mask(k)
            size = popcount(nbr)
            # lit cells of N(k) now on each half: unflipped cells lit, flipped cells dark
            va = _values(a, nbr & ~flips & low, nbr & flips & low) + popcount(nbr & flips & low)
            vb = (_values(b, (nbr & ~flips) >> na, (nbr & flips) >> na)
                  + popcount((nbr & flips) >> na))
            width = size + 1
            p = np.bincount(ga * width + va, minlength=groups * width).reshape(groups, width)
            q = np.bincount(gb * width + vb, minlength=groups * width).reshape(groups, width)
            # int64, no copies: every entry and sum is at most the count, below 2^36
            joint = np.einsum("gx,gy->xy", p, q)
            per = [0] * width
            for x in range(width):
                row = joint[x]
                for y in range(width - x):
                    if row[y]:
                        per[x + y] += int(row[y])
            dists[k] = {now + size - 2 * v: per[v] for v in range(size, -1, -1) if per[v]}
        return lit, dists

    def start_marginals(self) -> list[float]:
        """P(cell k lit in the hidden start) for every k (0.0 if no start is consistent)."""
        lit, c = self._laws[0], self.count
        return [x / c if c else 0.0 for x in lit]

    def light_marginals(self) -> list[float]:
        """P(cell k lit now) (record.lit_now)."""
        return self.record.lit_now(self.start_marginals(), self.count)

    def count_distributions(self) -> list[dict[int, int]]:
        """For every cell: count shown after clicking it now -> consistent starts giving it."""
        return [dict(d) for d in self._laws[1]]

    def count_distribution(self, cell: int) -> dict[int, int]:
        """Count shown after clicking `cell` now -> number of consistent starts giving it."""
        return dict(self._laws[1][cell])

    # --- explicit boards -----------------------------------------------------------------------
    def _start(self, rank: int) -> int:
        """The consistent start of this rank (groups in order, then A's state, then B's)."""
        g = int(np.searchsorted(self._cum, rank, side="right"))
        r = rank - (int(self._cum[g - 1]) if g else 0)
        i, j = divmod(r, int(self._cb[g]))
        x = int(self._a[int(self._first_a[g]) + i])
        y = int(self._b[int(self._first_b[g]) + j])
        return x | y << self._na

    def boards(self, limit: int) -> list[int] | None:
        """Every consistent start, ascending, if there are at most `limit` of them; else None."""
        if self.count > limit:
            return None
        return sorted(self._start(r) for r in range(self.count))

    def sample(self, n: int, rng: random.Random) -> list[int]:
        """n starts drawn uniformly, with replacement, from the consistent ones ([] if none)."""
        if self.count == 0 or n <= 0:
            return []
        return [self._start(rng.randrange(self.count)) for _ in range(n)]
