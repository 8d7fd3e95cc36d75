"""The fewest presses over Z_k (k > 2): the lightest member of x + <g_1, ..., g_m>, counted with
multiplicity (cell j pressed v_j = 0..k-1 times weighs v_j), proven or bounded when stopped.

The quiet group is a direct sum of cyclic groups <g_i> of order o_i, so its members are
x + sum c_i g_i with 0 <= c_i < o_i, each exactly once. The first generators (`lo`, at most
LO_MEMBERS members and LO_BYTES of table) are expanded into a table once; the others (`hi`) are
walked by a mixed-radix counter, and each step weighs the whole table at once in numpy
(docs/MATH.md §24). Cells no quiet pattern touches are left out of the table: their presses are
the same in every solution.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from countlo.board import Vector
from countlo.visible.algebra.coset_walsh import Progress, Status

LO_MEMBERS = 1 << 16  # rows of the table weighed per step
LO_BYTES = 1 << 24  # bytes of that table (members x touched cells x 2)
SPAN_CAP = 1 << 16  # a region's projected quiet group is listed up to this many members
BOUND_TIME = 1.0  # the bound and the polish after a stop take about this long at least



@dataclass(frozen=True)
class ZkLightest:
    """A lightest member found and a proven lower bound on every member's weight."""

    member: Vector
    lower_bound: int
    stopped: bool = False

    @property
    def weight(self) -> int:
        return sum(self.member)

    @property
    def exact(self) -> bool:
        return self.weight <= self.lower_bound


def lightest(x: Sequence[int], gens: Sequence[tuple[Sequence[int], int]], k: int, *,
             time_limit: float | None = None, regions: Sequence[Sequence[Sequence[int]]] = (),
             progress: Progress | None = None, every: float = 0.5,
             lo_members: int = LO_MEMBERS) -> ZkLightest:
    """The lightest member of x + span(gens) over Z_k (gens: (generator, its order)), exact
    unless `time_limit` CPU seconds pass or the user interrupts: then the lightest seen, improved
    by a descent, and a lower bound from `regions` (tilings: lists of disjoint cell lists; the
    best tiling counts) and from every single cell (docs/MATH.md §24)."""
    import numpy as np

    start = time.process_time()
    n = len(x)
    gens = [(list(g), o) for g, o in gens if o > 1 and any(v % k for v in g)]
    if not gens:
        return ZkLightest([v % k for v in x], sum(v % k for v in x))
    support = sorted({j for g, _ in gens for j, v in enumerate(g) if v % k})
    fixed = sum(x[j] % k for j in range(n) if j not in set(support))
    s = len(support)
    xs = np.array([x[j] % k for j in support], dtype=np.int32)
    gs = [np.array([g[j] % k for j in support], dtype=np.int32) for g, _ in gens]
    orders = [o for _, o in gens]
    lo = 0
    members = 1
    while (lo < len(gens) and members * orders[lo] <= max(lo_members, orders[0])
           and members * orders[lo] * s * 2 <= max(LO_BYTES, orders[0] * s * 2)):
        members *= orders[lo]
        lo += 1
    lo = max(lo, 1)
    members = math.prod(orders[:lo])
    table = np.zeros((1, s), dtype=np.int32)
    for ga, o in zip(gs[:lo], orders[:lo]):
        table = np.concatenate([(table + c * ga) % k for c in range(o)])  # index: mixed radix
    table = table.astype(np.uint16)
    hi_orders = orders[lo:]
    chunks = math.prod(hi_orders)
    digits = [0] * len(hi_orders)
    v = xs.copy()
    best_w, best_row, best_digits = 1 << 62, 0, list(digits)
    done = 0
    stopped = False
    deadline = None if time_limit is None else start + time_limit
    last = start
    try:
        for step in range(chunks):
            if step:
                i = 0
                while True:  # the counter: o_i g_i = 0, so a wrap is one more addition
                    v = (v + gs[lo + i]) % k
                    digits[i] += 1
                    if digits[i] < hi_orders[i]:
                        break
                    digits[i] = 0
                    i += 1
            w = ((table + v.astype(np.uint16)) % k).sum(axis=1, dtype=np.int64)
            r = int(np.argmin(w))
            if int(w[r]) < best_w:
                best_w, best_row, best_digits = int(w[r]), r, list(digits)
            done = step + 1
            now = time.process_time()
            if progress is not None and now - last >= every:
                last = now
                progress(Status(done * members, chunks * members, best_w + fixed, now - start))
            if deadline is not None and now >= deadline and done < chunks:
                stopped = True
                break
    except KeyboardInterrupt:
        stopped = done < chunks
        if done == 0:
            best_w, best_row = int(xs.sum()), 0
    coefs = _radix(best_row, orders[:lo]) + best_digits
    member = list(x)
    for (g, _), c in zip(gens, coefs):
        if c:
            member = [(a + c * t) % k for a, t in zip(member, g)]
    member = [a % k for a in member]
    if not stopped:
        return ZkLightest(member, sum(member))
    until = time.process_time() + max(BOUND_TIME, 0.1 * (time.process_time() - start))
    member = descend(member, gens, k, until)
    bound = max([region_bound(x, gens, k, tiling, until) for tiling in regions]
                + [cell_bound(x, gens, k)])
    return ZkLightest(member, min(bound, sum(member)), stopped=True)


def _radix(index: int, orders: Sequence[int]) -> list[int]:
    """The coefficients of table row `index` (the first generator varies fastest)."""
    out = []
    for o in orders:
        index, c = divmod(index, o)
        out.append(c)
    return out


def descend(x: Vector, gens: Sequence[tuple[Sequence[int], int]], k: int,
            deadline: float) -> Vector:
    """Add a multiple of one generator while that makes x lighter (an upper bound only)."""
    import numpy as np

    v = np.array(x, dtype=np.int64) % k
    arrays = [(np.array(g, dtype=np.int64) % k, o) for g, o in gens]
    improved = True
    while improved and time.process_time() < deadline:
        improved = False
        for g, o in arrays:
            now = int(v.sum())
            best_c, best_w = 0, now
            for c in range(1, o):  # one multiple at a time: memory stays one board
                w = int(((v + c * g) % k).sum())
                if w < best_w:
                    best_c, best_w = c, w
            if best_c:
                v = (v + best_c * g) % k
                improved = True
            if time.process_time() >= deadline:
                break
    return [int(a) for a in v]


def cell_bound(x: Sequence[int], gens: Sequence[tuple[Sequence[int], int]], k: int) -> int:
    """Sum over cells of the least value cell j takes: the quiet patterns move it by multiples
    of d_j = gcd(k, g_1j, ..., g_mj) only, so it is x_j mod d_j (docs/MATH.md §24)."""
    total = 0
    for j, a in enumerate(x):
        d = k
        for g, _ in gens:
            d = math.gcd(d, g[j])
        total += a % d
    return total


def region_bound(x: Sequence[int], gens: Sequence[tuple[Sequence[int], int]], k: int,
                 tiling: Sequence[Sequence[int]], deadline: float | None = None) -> int:
    """A lower bound: over disjoint regions, the exact least weight of the solutions seen only
    on the region (the projected group listed when it has at most SPAN_CAP members), and the
    cell bound on every other cell (on regions too big, or left when `deadline` passes)."""
    import numpy as np

    covered: set[int] = set()
    total = 0
    for region in tiling:
        if deadline is not None and time.process_time() > deadline:
            break
        cells = list(region)
        span: Any = np.zeros((1, len(cells)), dtype=np.int64)
        too_big = False
        for g, o in gens:
            p = np.array([g[j] for j in cells], dtype=np.int64) % k
            if not p.any():
                continue
            span = np.unique(np.concatenate([(span + c * p) % k for c in range(o)]), axis=0)
            if len(span) > SPAN_CAP:
                too_big = True
                break
        if too_big:
            continue
        xr = np.array([x[j] for j in cells], dtype=np.int64) % k
        total += int(((span + xr) % k).sum(axis=1).min())
        covered.update(cells)
    rest = [j for j in range(len(x)) if j not in covered]
    return total + cell_bound([x[j] for j in rest], [([g[j] for j in rest], o) for g, o in gens],
                              k)
