"""Uniform samples and full lists of the starts a record allows, fast, by a numpy row programme.

The adaptive strategy wants hundreds of posterior samples per decision; drawing them one by one
in Python is too slow, so this module redoes the exact count row by row in numpy. Each click's
equation touches at most rows r-1, r, r+1 of the hidden start, so with W = 2^C row patterns a
table V_r[x, y, z] (W^3 booleans) says whether rows r-1 = x, r = y, r+1 = z satisfy every
equation centred on row r. The forward tables F_r[x, y, t] count the starts of rows 0..r ending
in x, y with t lights lit that satisfy the equations centred above row r; the starting count n0
fixes the total. Sampling and listing walk the tables backwards. The board is transposed when
that makes the rows narrower; rows of more than MAX_WIDTH cells are refused (use the posterior).
See docs/MATH.md §10.
"""

from __future__ import annotations

import numpy as np

from countlo.board import Shape
from countlo.countboard import grid_only
from countlo.hidden.record import Equation, Record
from countlo.rules import ROWCOL

MAX_WIDTH = 6
MAX_CELLS = 1000
"""The tables count starts in float64, which overflows past 2^1024: larger boards are refused
(a 3x1000 record has up to 2^3000 starts)."""


def fits(shape: Shape) -> bool:
    """True if boards of `shape` have a side of at most MAX_WIDTH cells (the tables stay small)
    and every click's equation touches only the rows next to its own (the classic rule, or any
    rule reaching one row up and down on a plane or cylinder), and the board has at most
    MAX_CELLS cells (the float64 counts cannot overflow)."""
    if min(shape.rows, shape.cols) > MAX_WIDTH or shape.cells > MAX_CELLS:
        return False
    rules = shape.rules
    if rules.classic:
        return True
    if rules.rule.name == ROWCOL or rules.topology not in ("plane", "cylinder"):
        return False
    work = shape.transposed() if shape.cols > shape.rows and rules.transposable else shape
    return work.cols <= MAX_WIDTH and max(abs(dr) for dr, _ in work.rules.rule.offsets) <= 1


class RowSampler:
    """Exact count, uniform samples and the full list of starts consistent with a record."""

    def __init__(self, record: Record, parent: RowSampler | None = None):
        """The tables of `record`; pass the sampler of record.undo() to add only the last step."""
        shape = grid_only(record.shape, "the row sampler")
        if not fits(shape):
            raise ValueError(f"{shape} is too wide for the row sampler")
        self.shape = shape
        self.transposed = shape.cols > shape.rows and shape.rules.transposable
        self._order: np.ndarray | None = None
        self._tables: list[np.ndarray]
        self._dense: list[np.ndarray]
        self._f: list[np.ndarray]
        if self.transposed:
            self._order = np.array(shape.transposed_cells())  # original cell k sits at working cell _order[k]
            record = record.transposed()
        work = grid_only(record.shape, "the row sampler")
        self.rows, self.cols = work.rows, work.cols
        self.n0 = record.start
        width = 1 << self.cols
        self._values = np.arange(width)
        self._pc = np.array([bin(v).count("1") for v in range(width)], dtype=np.int64)
        self._steps = len(record.steps)
        dense: list[np.ndarray | None]
        if parent is not None and parent._steps == self._steps - 1 and parent.n0 == self.n0:
            tables, dense = list(parent._tables), list(parent._dense)
            eqs = record.equations()[-1:]
        else:
            parent = None
            tables = [np.ones((width, width, width), dtype=bool) for _ in range(self.rows)]
            tables[0][1:, :, :] = False  # no row above the first
            tables[-1][:, :, 1:] = False  # no row below the last
            dense = [None] * self.rows
            eqs = record.equations()[1:]
        changed = self.rows
        for eq in eqs:
            if eq.centre is None:  # only the starting count's equation has no click
                continue
            rho = eq.centre // self.cols
            tables[rho] = tables[rho] & self._equation_table(eq, rho)
            dense[rho] = None
            changed = min(changed, rho)
        # V_r as float64, (y, x, z) order, for the forward products
        self._dense = [np.ascontiguousarray(tables[r].transpose(1, 0, 2), dtype=np.float64)
                       if d is None else d for r, d in enumerate(dense)]
        self._tables = tables
        self._forward(parent._f[: changed + 1] if parent is not None else None)

    def _equation_table(self, eq: Equation, rho: int) -> np.ndarray:
        """V[x, y, z]: the equation holds with rows rho-1, rho, rho+1 = x, y, z."""
        mask = (1 << self.cols) - 1
        parts = []
        for q in (rho - 1, rho, rho + 1):
            if 0 <= q < self.rows:
                plus = (eq.plus >> (q * self.cols)) & mask
                minus = (eq.minus >> (q * self.cols)) & mask
                parts.append((self._pc[self._values & plus] - self._pc[self._values & minus]).astype(np.int8))
            else:
                parts.append(np.zeros(1 << self.cols, dtype=np.int8))
        table: np.ndarray = (parts[0][:, None, None] + parts[1][None, :, None] + parts[2][None, None, :]) == eq.rhs
        return table

    def _forward(self, kept: list[np.ndarray] | None = None) -> None:
        """F_0.. in turn; `kept` are the parent's first tables, unchanged by the new equation."""
        width, total = 1 << self.cols, self.n0 + 1
        if kept:
            forward = list(kept)
        else:
            f = np.zeros((width, width, total))
            ok = self._pc < total
            f[0, np.nonzero(ok)[0], self._pc[ok]] = 1.0
            forward = [f]
        f = forward[-1]
        groups = [np.nonzero(self._pc == c)[0] for c in range(self.cols + 1)]
        for r in range(len(forward) - 1, self.rows - 1):
            # out[y, t, z] = sum_x f[x, y, t] * V_r[x, y, z]
            out = np.matmul(f.transpose(1, 2, 0), self._dense[r])
            out = out.transpose(0, 2, 1)
            g = np.zeros_like(f)
            for c, idx in enumerate(groups):
                if c < total and idx.size:
                    g[:, idx, c:] = out[:, idx, : total - c]
            f = g
            forward.append(f)
        self._f = forward
        self._final = forward[-1][:, :, self.n0] * self._tables[-1][:, :, 0]
        self.count = round(float(self._final.sum()))

    def _step_weights(self, r: int, x: np.ndarray, y: np.ndarray, t: np.ndarray) -> np.ndarray:
        """Weights (states x W) of row r-2 given rows r-1 = x, r = y and the total t of rows 0..r."""
        before = t - self._pc[y]
        weights: np.ndarray = (self._f[r - 1][:, x, before] * self._tables[r - 1][:, x, y]).T
        return weights

    def _rows_to_lights(self, rows: np.ndarray) -> np.ndarray:
        """Starts given as (n, rows) row patterns -> (n, cells) 0/1 matrix in the record's cell order."""
        bits = ((rows[:, :, None] >> np.arange(self.cols)) & 1).reshape(rows.shape[0], -1)
        if self._order is not None:
            bits = bits[:, self._order]
        return bits.astype(np.uint8)

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """n starts drawn uniformly with replacement, as an (n, cells) 0/1 matrix (empty if none fit)."""
        cells = self.rows * self.cols
        if self.count == 0 or n <= 0:
            return np.zeros((0, cells), dtype=np.uint8)
        width = 1 << self.cols
        flat = self._final.ravel()
        picks = rng.choice(flat.size, size=n, p=flat / flat.sum())
        x, y = picks // width, picks % width
        rows = np.zeros((n, self.rows), dtype=np.int64)
        rows[:, -1] = y
        if self.rows > 1:
            rows[:, -2] = x
        t = np.full(n, self.n0)
        for r in range(self.rows - 1, 1, -1):
            w = self._step_weights(r, x, y, t)
            cum = np.cumsum(w, axis=1)
            u = rng.random(n) * cum[:, -1]
            z = (cum <= u[:, None]).sum(axis=1)
            t = t - self._pc[y]
            rows[:, r - 2] = z
            x, y = z, x
        return self._rows_to_lights(rows)

    def boards(self, limit: int) -> np.ndarray | None:
        """Every consistent start as an (m, cells) 0/1 matrix if m <= limit, else None."""
        if self.count > limit:
            return None
        xs, ys = np.nonzero(self._final)
        rows = np.zeros((xs.size, self.rows), dtype=np.int64)
        rows[:, -1] = ys
        if self.rows > 1:
            rows[:, -2] = xs
        x, y, t = xs, ys, np.full(xs.size, self.n0)
        for r in range(self.rows - 1, 1, -1):
            which, z = np.nonzero(self._step_weights(r, x, y, t))
            rows = rows[which]
            rows[:, r - 2] = z
            t = t[which] - self._pc[y[which]]
            x, y = z, x[which]
        return self._rows_to_lights(rows)
