"""The `exact` engine: the exact posterior over hidden starts given a game record.

Every start consistent with the record is equally likely. The dynamic programme of
`countlo.posterior_dp` counts them exactly (cell by cell along the shorter side of the board,
state = a sliding window of 2C + 1 cells and the running lit total), and one backward pass gives
every marginal and every next-count distribution.

A contradictory record (no consistent start) raises nothing: count is 0, board None, the
marginals are all 0.0, every count distribution is {}, boards() is [] and sample() is [].
"""

from __future__ import annotations

import random
from bisect import bisect_right
from functools import cached_property

import numpy as np

from countlo.board import Shape, press_masks
from countlo.observe import Equation, Record, Step
from countlo.posterior_dp import Tables, lit_values, plan_for


def _transpose_cell(shape: Shape, k: int) -> int:
    """Index on the transposed board of cell k of `shape`."""
    r, c = divmod(k, shape.cols)
    return c * shape.rows + r


class Posterior:
    """Exact posterior over the hidden start of a record: count, marginals, next-count laws, samples."""

    def __init__(self, record: Record):
        self.record = record
        shape = record.shape
        self.transposed = shape.cols > shape.rows
        if self.transposed:
            # work on the transpose so the window runs along the shorter side
            self._to_work = [_transpose_cell(shape, k) for k in range(shape.cells)]
            work = Record(
                shape.transposed(),
                record.start,
                tuple(Step(self._to_work[s.cell], s.count) for s in record.steps),
            )
        else:
            self._to_work = list(range(shape.cells))
            work = record
        self._work = work
        eqs: dict[int, list[Equation]] = {}
        for e in work.equations()[1:]:
            eqs.setdefault(e.centre, []).append(e)
        self._tables = Tables(plan_for(work.shape), work.start, eqs)
        self.count: int = self._tables.count
        self.board: int | None = self.boards(1)[0] if self.count == 1 else None

    # --- translation between the record's board and the working board ------------------------
    def _from_work_board(self, b: int) -> int:
        if not self.transposed:
            return b
        out = 0
        for k, w in enumerate(self._to_work):
            if b >> w & 1:
                out |= 1 << k
        return out

    # --- marginals and next-count laws -------------------------------------------------------
    @cached_property
    def _sweep(self) -> tuple[list[int], list[dict[int, int]]]:
        """Backward pass: consistent starts with cell k lit, and the next-count law of every cell."""
        shape, n = self._work.shape, self._work.shape.cells
        lit = [0] * n
        dists: list[dict[int, int]] = [{} for _ in range(n)]
        if self.count == 0:
            return lit, dists
        flips, now = self._work.flips(), self._work.count
        steps = self._tables.plan.steps
        exact_floats = self._tables.dtype == np.float64
        for j, joint in self._tables.joints():
            step = steps[j]
            lit[j] = int(joint[len(joint) // 2 :].sum())
            for k in step.centres:
                values = lit_values(step, k, shape, flips)
                size = len(shape.neighbours(k))
                if exact_floats:  # sums of integers below 2^53: exact in float64
                    per = np.bincount(values, weights=joint, minlength=size + 1)
                else:
                    per = [joint[values == v].sum() for v in range(size + 1)]
                dists[k] = {now + size - 2 * v: int(per[v]) for v in range(size, -1, -1) if per[v]}
        return lit, dists

    def start_marginals(self) -> list[float]:
        """P(cell k lit in the hidden start) for every k, uniform over consistent starts (0.0 if none)."""
        lit = self._sweep[0]
        c = self.count
        return [lit[w] / c if c else 0.0 for w in self._to_work]

    def light_marginals(self) -> list[float]:
        """P(cell k lit now): the start marginal, or its complement where the clicks flipped k."""
        flips = self.record.flips()
        p = self.start_marginals()
        if not self.count:
            return p
        return [1.0 - q if flips >> k & 1 else q for k, q in enumerate(p)]

    def count_distributions(self) -> list[dict[int, int]]:
        """For every cell: count shown after clicking it now -> consistent starts giving it ({} if none)."""
        dists = self._sweep[1]
        return [dict(dists[w]) for w in self._to_work]

    def count_distribution(self, cell: int) -> dict[int, int]:
        """Count shown after clicking `cell` now -> number of consistent starts giving it."""
        return dict(self._sweep[1][self._to_work[cell]])

    # --- explicit boards -----------------------------------------------------------------------
    def boards(self, limit: int) -> list[int] | None:
        """Every consistent start, ascending, if there are at most `limit` of them; else None."""
        if self.count > limit:
            return None
        return sorted(self._from_work_board(b) for b in self._descend(None))

    def sample(self, n: int, rng: random.Random) -> list[int]:
        """n starts drawn uniformly, with replacement, from the consistent ones ([] if there are none)."""
        if self.count == 0 or n <= 0:
            return []
        return [self._from_work_board(b) for b in self._descend((n, rng))]

    def _descend(self, draw: tuple[int, random.Random] | None) -> list[int]:
        """Backward sampling over the forward tables: every consistent start (draw None) or n uniform draws.

        At the last step the window state is chosen in proportion to F[w, n0]. Going from step
        j + 1 down to j, the cells of W_{j+1} other than j + 1 are known, and so is the total t of
        cells 0..j; the cells dropped after step j follow F_j[window, t].
        """
        tables = self._tables
        steps = tables.plan.steps
        parts: list[tuple[int, int, int]] = []  # (window state, total of cells 0..j, board so far)
        above = None
        for j, prev in tables.descending():
            step = steps[j]
            f = tables.full(prev, j)
            lo = tables.bands[j + 1][0]
            if above is None:
                weights = [int(v) for v in f[:, tables.n0 - lo]]
                if draw is None:
                    chosen = [i for i, v in enumerate(weights) if v]
                else:
                    chosen = _draw_many(weights, draw[0], draw[1])
                parts = [(w, tables.n0, _cells_of(w, step.window)) for w in chosen]
            else:
                kept = [p for p in range(step.bits) if p not in step.drops]
                top = above.bits - 1
                combos = [(window_of(y, step.drops), _cells_of(window_of(y, step.drops), step.window))
                          for y in range(1 << len(step.drops))]
                new = []
                for w, t, b in parts:
                    t -= w >> top & 1
                    base = window_of(w, kept)
                    weights = [int(f[base | wb, t - lo]) for wb, _ in combos]
                    if draw is None:
                        picks = [i for i, v in enumerate(weights) if v]
                    else:
                        picks = _draw_many(weights, 1, draw[1])
                    new.extend((base | combos[i][0], t, b | combos[i][1]) for i in picks)
                parts = new
            above = step
        return [b for _, _, b in parts]


def window_of(y: int, positions: list[int] | tuple[int, ...]) -> int:
    """Scatter the bits of y to the given window positions (bit i of y -> bit positions[i])."""
    out = 0
    for i, p in enumerate(positions):
        if y >> i & 1:
            out |= 1 << p
    return out


def _cells_of(w: int, window: tuple[int, ...]) -> int:
    """The board bitset of window state w."""
    return window_of(w, window)


def _draw_many(weights: list[int], n: int, rng: random.Random) -> list[int]:
    """n indices drawn with probability weight / sum(weights), exactly (integer arithmetic)."""
    cum, acc = [], 0
    for v in weights:
        acc += v
        cum.append(acc)
    return [bisect_right(cum, rng.randrange(acc)) for _ in range(n)]
