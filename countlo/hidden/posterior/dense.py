"""The dynamic programme behind the exact engine: cells in reading order, a sliding window, the lit total.

Cells are assigned one at a time in reading order (on a board at most as wide as it is tall).
Step j assigns cell j; the window W_j holds every assigned cell that some neighbourhood N(k) not
yet complete still needs, plus cell j itself as the top bit, so at most 2C + 1 cells. A click
equation centred on k is checked at step max(N(k)), when its whole neighbourhood is in the window.

    F_j[w, t]  assignments of cells 0..j with window w and t of them lit, satisfying every
               equation checked at steps <= j;
    B_j[w, t]  assignments of cells j+1..n-1 satisfying the later equations and bringing the
               total to n0, given window w and t lit so far.

sum_t F_j * B_j is the number of consistent starts with window w (the joint law of W_j), which
gives the marginal of cell j and the next-count law of every centre checked at step j. Totals
are kept to the band lo_j <= t <= hi_j from which n0 is still reachable.

Exactness: every table entry counts a set of boards with a fixed number of lit cells, so it is
at most C(n, n0) <= C(n, n // 2). float64 is exact up to 2^53 (n <= 53), int64 up to 2^63 - 1
(n <= 66); larger boards use numpy object arrays of Python ints. (docs/MATH.md §9)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import isqrt

import numpy as np

from countlo.board import popcount
from countlo.countboard import CountBoard
from countlo.hidden.record import Equation

MEMORY_BUDGET = 256 << 20  # bytes of stored forward tables before switching to checkpoints
DENSE_BYTES = 384 << 20  # peak bytes of one dense step (see dense_peak_bytes), as sparse.TABLE_BYTES
CACHE_BYTES = 64 << 20  # bytes each cache of per-window arrays below may hold (see Cache)
CACHED_BITS = 20  # wider windows get their state arrays computed afresh, not kept


def table_dtype(cells: int) -> type | np.dtype:
    """The cheapest numpy dtype in which every count on `cells` cells is exact (see module doc)."""
    if cells <= 53:
        return np.float64
    if cells <= 66:
        return np.int64
    return object


@dataclass(frozen=True)
class Step:
    """One step of the programme: window (cell of each bit, the step's cell on top), centres, drops."""

    cell: int
    window: tuple[int, ...]
    centres: tuple[int, ...]
    drops: tuple[int, ...]

    @property
    def bits(self) -> int:
        return len(self.window)


@dataclass(frozen=True)
class Plan:
    """The steps of the programme on one shape (C <= R); `free` cells take no step (see needs)."""

    shape: CountBoard
    steps: tuple[Step, ...]
    free: tuple[int, ...] = ()


@lru_cache(maxsize=64)
def plan_for(shape: CountBoard, needs: tuple[tuple[int, tuple[int, ...]], ...] | None = None) -> Plan:
    """Windows, checks and drops for every step.

    `needs` pairs each centre with the cells its check or query must see together (default:
    every cell with its whole neighbourhood). Only cells some centre needs take a step, in
    reading order; centre k is handled at the step of the last cell it needs, and a cell is
    dropped once every centre needing it has been handled.
    """
    n = shape.cells
    if needs is None:
        needs = tuple((k, shape.neighbours(k)) for k in range(n))
    cells = sorted({c for _, cs in needs for c in cs})
    ready = {k: max(cs) for k, cs in needs}
    users: dict[int, list[int]] = {}
    for k, cs in needs:
        for c in cs:
            users.setdefault(c, []).append(k)
    last = {i: max([ready[k] for k in users.get(i, ())], default=i) for i in cells}
    at: dict[int, list[int]] = {}
    for k, j in ready.items():
        at.setdefault(j, []).append(k)
    steps: list[Step] = []
    kept: list[int] = []
    for j in cells:
        window = tuple(kept) + (j,)
        drops = tuple(p for p, c in enumerate(window) if last[c] == j)
        steps.append(Step(j, window, tuple(sorted(at.get(j, ()))), drops))
        kept = [c for p, c in enumerate(window) if p not in drops]
    free = tuple(sorted(set(range(n)) - set(cells)))
    return Plan(shape, tuple(steps), free)


class Cache:
    """Arrays kept by key up to CACHE_BYTES in all: a wide window's arrays (2^24 states of 8
    bytes are 128 MB) must not pile up across the steps of a game, as an entry-counted cache let
    them do. An array larger than an eighth of the budget is not kept; when full, the oldest go."""

    def __init__(self) -> None:
        self.items: dict[object, np.ndarray] = {}
        self.nbytes = 0

    def get(self, key: object) -> np.ndarray | None:
        return self.items.get(key)

    def put(self, key: object, value: np.ndarray) -> np.ndarray:
        if value.nbytes * 8 > CACHE_BYTES:
            return value
        while self.items and self.nbytes + value.nbytes > CACHE_BYTES:  # the oldest go first
            self.nbytes -= self.items.pop(next(iter(self.items))).nbytes
        self.items[key] = value
        self.nbytes += value.nbytes
        return value


def popcounts(bits: int) -> np.ndarray:
    """popcount(w) for every w < 2^bits (kept for windows of at most CACHED_BITS cells)."""
    if bits > CACHED_BITS:
        return np.bitwise_count(np.arange(1 << bits, dtype=np.uint32)).astype(np.int8)
    return _popcounts(bits)


@lru_cache(maxsize=32)
def _popcounts(bits: int) -> np.ndarray:
    return np.bitwise_count(np.arange(1 << bits, dtype=np.uint32)).astype(np.int8)


def states(bits: int) -> np.ndarray:
    """0..2^bits - 1 as uint32 (window states; kept for windows of at most CACHED_BITS cells)."""
    if bits > CACHED_BITS:
        return np.arange(1 << bits, dtype=np.uint32)
    return _states(bits)


@lru_cache(maxsize=32)
def _states(bits: int) -> np.ndarray:
    return np.arange(1 << bits, dtype=np.uint32)


def window_bits(cells: int, window: tuple[int, ...]) -> int:
    """The bitset `cells` rewritten in window bits (bit p for window[p])."""
    out = 0
    for p, c in enumerate(window):
        if cells >> c & 1:
            out |= 1 << p
    return out


def linear_values(window: tuple[int, ...], plus: int, minus: int) -> np.ndarray:
    """sum(w[plus]) - sum(w[minus]) for every window state w (plus, minus are board bitsets)."""
    w = states(len(window))
    pc = popcounts(len(window))
    p, m = window_bits(plus, window), window_bits(minus, window)
    out = pc[w & p].astype(np.int16)
    if m:
        out -= pc[w & m]
    result: np.ndarray = out
    return result


_MASKS = Cache()


def step_mask(step: Step, eqs: tuple[tuple[int, int, int], ...]) -> np.ndarray | None:
    """Window states satisfying every equation (plus, minus, rhs) checked at this step; cached."""
    if not eqs:
        return None
    key = (step.window, eqs)
    mask = _MASKS.get(key)
    if mask is None:
        mask = np.ones(1 << step.bits, dtype=bool)
        for plus, minus, rhs in eqs:
            mask &= linear_values(step.window, plus, minus) == rhs
        _MASKS.put(key, mask)
    return mask


def band(n: int, n0: int, j: int) -> tuple[int, int]:
    """Totals t of cells 0..j (j = -1: none) from which a total of n0 is still reachable."""
    return max(0, n0 - (n - 1 - j)), min(j + 1, n0)


def extend(old: np.ndarray, old_band: tuple[int, int], new_band: tuple[int, int]) -> np.ndarray:
    """Add one cell on top of the window: new[x * rows + d, t] = old[d, t - x]."""
    (lo0, hi0), (lo, hi) = old_band, new_band
    rows = old.shape[0]
    new = np.zeros((2, rows, hi - lo + 1), dtype=old.dtype)
    a, b = max(lo, lo0), min(hi, hi0)
    if a <= b:
        new[0, :, a - lo : b - lo + 1] = old[:, a - lo0 : b - lo0 + 1]
    a, b = max(lo, lo0 + 1), min(hi, hi0 + 1)
    if a <= b:
        new[1, :, a - lo : b - lo + 1] = old[:, a - 1 - lo0 : b - lo0]
    return new.reshape(2 * rows, hi - lo + 1)


def fold(g: np.ndarray, band_j: tuple[int, int], band_prev: tuple[int, int]) -> np.ndarray:
    """Sum out the top window cell going backwards: h[d, t] = g[d, t] + g[rows + d, t + 1]."""
    (lo, hi), (lo0, hi0) = band_j, band_prev
    rows = g.shape[0] // 2
    h = np.zeros((rows, hi0 - lo0 + 1), dtype=g.dtype)
    a, b = max(lo0, lo), min(hi0, hi)
    if a <= b:
        h[:, a - lo0 : b - lo0 + 1] += g[:rows, a - lo : b - lo + 1]
    a, b = max(lo0, lo - 1), min(hi0, hi - 1)
    if a <= b:
        h[:, a - lo0 : b - lo0 + 1] += g[rows:, a + 1 - lo : b + 2 - lo]
    return h


def drop(table: np.ndarray, step: Step) -> np.ndarray:
    """Sum out the window cells dropped after this step."""
    if not step.drops:
        return table
    m = step.bits
    t = table.reshape((2,) * m + (table.shape[1],))
    t = t.sum(axis=tuple(m - 1 - p for p in step.drops))
    result: np.ndarray = t.reshape(-1, table.shape[1])
    return result


def undrop(table: np.ndarray, step: Step) -> np.ndarray:
    """Spread a table on the kept cells over the full window of this step (it ignores dropped cells)."""
    if not step.drops:
        return table
    m = step.bits
    width = table.shape[1]
    t = table.reshape((2,) * (m - len(step.drops)) + (width,))
    t = np.expand_dims(t, tuple(m - 1 - p for p in step.drops))
    return np.broadcast_to(t, (2,) * m + (width,)).reshape(-1, width)


def _sum_bits(table: np.ndarray, bits: int, positions: tuple[int, ...]) -> np.ndarray:
    """Sum a table over the window bits at `positions` (rows are states of `bits` bits)."""
    if not positions:
        return table
    width = table.shape[1]
    result: np.ndarray
    if positions == (0,):
        result = table[0::2] + table[1::2]
        return result
    t = table.reshape((2,) * bits + (width,))
    result = t.sum(axis=tuple(bits - 1 - p for p in positions)).reshape(-1, width)
    return result


def _spread_bits(table: np.ndarray, bits: int, positions: tuple[int, ...]) -> np.ndarray:
    """Inverse layout of _sum_bits: repeat a table over new window bits at `positions`."""
    if not positions:
        return table
    width = table.shape[1]
    if positions == (0,):
        return np.repeat(table, 2, axis=0)
    t = table.reshape((2,) * (bits - len(positions)) + (width,))
    t = np.expand_dims(t, tuple(bits - 1 - p for p in positions))
    return np.broadcast_to(t, (2,) * bits + (width,)).reshape(-1, width)


def _rowdot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """sum_t a[w, t] * b[w, t] for every row w."""
    result: np.ndarray
    if a.dtype == object:
        result = (a * b).sum(axis=1)
        return result
    result = np.einsum("ij,ij->i", a, b)
    return result


@lru_cache(maxsize=256)
def dense_peak_bytes(shape: CountBoard, n0: int) -> int:
    """Peak bytes of the dense tables' widest step, from the table layout: the backward pass holds
    F_{j-1}, H_j, H_{j-1}, the spread H_j and its masked product (five tables of 2^(bits-1) rows
    of the band's width, counted as 2^bits rows for room), the joint and the lit values of a centre
    (2^bits entries of 8 bytes each), the mask and the popcount temporaries (2^bits of 1 to 4
    bytes: 8 in all)."""
    n = shape.cells
    item = np.dtype(table_dtype(n)).itemsize
    peak = 0
    for j, s in enumerate(plan_for(shape).steps):
        lo, hi = band(n, n0, j)
        peak = max(peak, (1 << s.bits) * (5 * (hi - lo + 1) * item + 8 + 8 + 8))
    return peak


@lru_cache(maxsize=256)
def dense_size(shape: CountBoard, n0: int) -> int:
    """Entries of all dense tables F_j of a record on `shape` with starting count n0."""
    n = shape.cells
    widths = (band(n, n0, j)[1] - band(n, n0, j)[0] + 1 for j in range(n))
    return sum((1 << s.bits) * w for s, w in zip(plan_for(shape).steps, widths))


class Tables:
    """Dense tables of one record: the count, the joint of every window, F_j on demand (checkpointed).

    Stored are D_j, the forward table after step j with its dropped cells summed out
    (D_{-1} = [[1]]); F_j = mask_j * extend(D_{j-1}) is rebuilt when needed.
    """

    sparse = False

    def __init__(self, plan: Plan, n0: int, eqs: dict[int, list[Equation]]):
        self.plan, self.n0 = plan, n0
        n = plan.shape.cells
        assert len(plan.steps) == n, "dense tables take a step for every cell"
        self.dtype = table_dtype(n)
        self.masks = [
            step_mask(s, tuple(sorted((e.plus, e.minus, e.rhs) for k in s.centres for e in eqs.get(k, ()))))
            for s in plan.steps
        ]
        # mask split by the value of cell j (the top bit): halves[j][x][d] for window x * 2^(m-1) + d
        self.halves = [
            None if m is None else m.astype(self.dtype).reshape(2, -1, 1) for m in self.masks
        ]
        self.bands = [band(n, n0, j) for j in range(-1, n)]  # bands[j + 1] is band j
        item = np.dtype(self.dtype).itemsize
        total = sum((1 << (s.bits - 1)) * (hi - lo + 1) for s, (lo, hi) in zip(plan.steps, self.bands))
        self.segment = n if total * item <= MEMORY_BUDGET else max(1, isqrt(n))
        self.checkpoints: dict[int, np.ndarray] = {}
        self.last_start = ((n - 1) // self.segment) * self.segment
        self.stored: dict[int, np.ndarray] = {}  # D_{j-1} for j in the last segment
        table = np.ones((1, 1), dtype=self.dtype)
        for j in range(n):
            if j % self.segment == 0:
                self.checkpoints[j] = table
            if j >= self.last_start:
                self.stored[j] = table
            table = self.forward(table, j)
        self.count = int(table[0, 0])

    def forward(self, prev: np.ndarray, j: int) -> np.ndarray:
        """D_j from D_{j-1}: add cell j, keep states satisfying step j's equations, sum out drops."""
        step = self.plan.steps[j]
        m = step.bits
        (lo0, hi0), (lo, hi) = self.bands[j], self.bands[j + 1]
        halves = self.halves[j]
        inner = tuple(p for p in step.drops if p < m - 1)
        rows = 1 << (m - 1 - len(inner))
        out = np.zeros((2, rows, hi - lo + 1), dtype=self.dtype)
        for x in (0, 1):
            a, b = max(lo, lo0 + x), min(hi, hi0 + x)
            if a > b:
                continue
            q = prev[:, a - x - lo0 : b - x - lo0 + 1]
            target = out[x, :, a - lo : b - lo + 1]
            if inner == (0,):  # the usual step: the oldest cell leaves the window
                q = q.reshape(rows, 2, -1)
                if halves is None:
                    np.add(q[:, 0], q[:, 1], out=target)
                else:
                    np.einsum("klt,kl->kt", q, halves[x].reshape(rows, 2), out=target)
                continue
            if halves is not None:
                q = q * halves[x]
            target[...] = _sum_bits(q, m - 1, inner)
        if m - 1 in step.drops:
            result: np.ndarray = out[0] + out[1]
            return result
        return out.reshape(2 * rows, hi - lo + 1)

    def full(self, prev: np.ndarray, j: int) -> np.ndarray:
        """F_j from D_{j-1} (window W_j before drops)."""
        f = extend(prev, self.bands[j], self.bands[j + 1])
        mask = self.masks[j]
        if mask is not None:
            f[~mask] = 0
        return f

    def descending(self) -> Iterator[tuple[int, np.ndarray]]:
        """Yield (j, D_{j-1}) for j = n-1 down to 0, recomputing earlier segments from checkpoints."""
        n = len(self.plan.steps)
        for j in range(n - 1, self.last_start - 1, -1):
            yield j, self.stored[j]
        for seg in range(self.last_start - self.segment, -1, -self.segment):
            table = self.checkpoints[seg]
            tables: list[np.ndarray] = []
            for j in range(seg, seg + self.segment):
                tables.append(table)
                table = self.forward(table, j)
            for j in range(seg + self.segment - 1, seg - 1, -1):
                yield j, tables[j - seg]

    def joints(self) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """Yield (j, states, J_j) for j = n-1 down to 0: J_j[w] = consistent starts with window state w.

        With H_j the backward table on the cells kept after step j,
        J_j[x, d] = mask[x, d] * sum_t D_{j-1}[d, t - x] * H_j[x, d, t] and
        H_{j-1}[d, t - x] += mask[x, d] * H_j[x, d, t] (d ranges over W_j without cell j).
        """
        steps = self.plan.steps
        h = np.ones((1, 1), dtype=self.dtype)  # nothing left after the last step, total n0
        for j, prev in self.descending():
            step = steps[j]
            m = step.bits
            (lo0, hi0), (lo, hi) = self.bands[j], self.bands[j + 1]
            inner = tuple(p for p in step.drops if p < m - 1)
            # hx[x]: the tables for cell j = x (the same table twice when j is dropped here)
            hx: Sequence[np.ndarray] = (h, h) if m - 1 in step.drops else list(h.reshape(2, -1, h.shape[1]))
            halves = self.halves[j]
            nxt = np.zeros((prev.shape[0], hi0 - lo0 + 1), dtype=self.dtype)
            joint = []
            for x in (0, 1):
                a, b = max(lo, lo0 + x), min(hi, hi0 + x)
                if a > b:
                    joint.append(np.zeros(prev.shape[0], dtype=self.dtype))
                    continue
                hs = hx[x][:, a - lo : b - lo + 1]
                p = prev[:, a - x - lo0 : b - x - lo0 + 1]
                target = nxt[:, a - x - lo0 : b - x - lo0 + 1]
                if inner == (0,):  # the usual step: the oldest cell left the window
                    rows = hs.shape[0]
                    p, target = p.reshape(rows, 2, -1), target.reshape(rows, 2, -1)
                    if halves is None:
                        joint.append(np.einsum("klt,kt->kl", p, hs).reshape(-1))
                        target += hs[:, None, :]
                    else:
                        s = hs[:, None, :] * halves[x].reshape(rows, 2, 1)
                        joint.append(np.einsum("klt,klt->kl", p, s).reshape(-1))
                        target += s
                    continue
                s = _spread_bits(hs, m - 1, inner)
                if halves is not None:
                    s = s * halves[x]
                joint.append(_rowdot(p, s))
                target += s
            yield j, states(m), np.concatenate(joint)
            h = nxt

    def finals(self, f: np.ndarray) -> list[tuple[int, int, int]]:
        """(state, total, consistent starts) for every end state of the last table F."""
        col = self.n0 - self.bands[-1][0]
        return [(w, self.n0, int(v)) for w, v in enumerate(f[:, col]) if v]

    def entry(self, f: np.ndarray, state: int, col: int) -> int:
        """F_j[state, col]."""
        return int(f[state, col])


def lit_values(step: Step, centre: int, shape: CountBoard, flips: int,
               keys: np.ndarray | None = None) -> np.ndarray:
    """Lit cells of N(centre) now (b xor flipped) for the window states `keys` (default: all)."""
    nb = shape.press_mask(centre)
    if keys is None:
        return _lit_values(step.window, nb & ~flips, nb & flips)
    p, q = window_bits(nb & ~flips, step.window), window_bits(nb & flips, step.window)
    v: np.ndarray = np.bitwise_count(keys & p).astype(np.intp) - np.bitwise_count(keys & q) + popcount(nb & flips)
    return v


_LIT = Cache()


def _lit_values(window: tuple[int, ...], unflipped: int, flipped: int) -> np.ndarray:
    key = (window, unflipped, flipped)
    found = _LIT.get(key)
    if found is not None:
        return found
    values = linear_values(window, unflipped, flipped) + popcount(flipped)
    return _LIT.put(key, values.astype(np.intp))
