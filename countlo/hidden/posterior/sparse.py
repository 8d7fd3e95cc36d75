"""The same dynamic programme as `dense`, keeping only the window states that occur.

For boards wider than a dense table allows (up to 10 x 10): a table is a sorted array of
window states (int64 keys, bit p = window cell p) with one row of counts per state. Click
equations make most window states impossible, so the tables stay small when the record says
much; when it says little, few cells need a window at all (see `plan_for` with centres).
The backward pass is computed only on states the forward pass reached, which is all the
joints need.

Exactness: as in `dense`, float64 up to 53 cells and int64 up to 66 are exact by the size
of the counts. Above 53 cells the tables may still be run in float64 with `guarded=True`: every
value is a sum of nonnegative integers, so while all values stay below 2^53 they are exact, and
the first value that would not be is seen to reach 2^53 (rounding is monotone); then
`Inexact` is raised and the caller reruns in the exact dtype. (docs/MATH.md §9)
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterable, Iterator
from math import comb
from typing import Any

import numpy as np

from countlo.countboard import rules_of
from countlo.errors import EngineLimitError
from countlo.hidden.posterior.dense import Plan, band, table_dtype, window_bits
from countlo.hidden.posterior.split import SPLIT_CELLS
from countlo.hidden.record import Equation
from countlo.i18n import _

TABLE_BYTES = 384 << 20
"""Bytes that every SparseTables alive in this process may hold, together with the working space
of the step being computed, so that a game stays within 512 MB in all (docs/limits.md; the
interpreter, numpy and countlo take the rest). Checked before each step allocates (see `_room`)."""
WORK_COPIES = 6
"""A forward step holds about this many arrays of its output's size at its peak: both placements
of the rows, their concatenation, the kept rows, and group_sum's sorted copy and sums."""

_live = [0]  # bytes stored by the finished SparseTables still alive in this process


def _release(nbytes: int) -> None:
    _live[0] -= nbytes


def live_bytes() -> int:
    """Bytes held by the finished sparse tables alive in this process (a guide's cache counts)."""
    return _live[0]


class TablesTooLarge(EngineLimitError):
    """The tables of a record, with the working space of their next step, would pass TABLE_BYTES:
    how many window states a record leaves open is known only while the tables are built, so
    each step's need is checked just before it allocates."""

KeyedRows = tuple[np.ndarray, np.ndarray]  # sorted window states (int64) and one row of counts each


def compress(keys: np.ndarray, positions: tuple[int, ...]) -> np.ndarray:
    """Remove the given bit positions from every key (higher bits move down)."""
    for p in sorted(positions, reverse=True):
        low = (1 << p) - 1
        keys = (keys & low) | ((keys >> (p + 1)) << p)
    return keys


def group_sum(keys: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct keys and, for each, the sum of the rows sharing it."""
    if len(keys) == 0:
        return keys, rows
    order = np.argsort(keys, kind="stable")
    keys, rows = keys[order], rows[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.add.reduceat(rows, starts, axis=0)


def _nonzero_rows(rows: np.ndarray) -> np.ndarray:
    out: np.ndarray = (rows != 0).any(axis=1)
    return out


EXACT_FLOAT = float(2**53)


class Inexact(Exception):
    """A guarded float64 table reached 2^53: rerun with exact integers."""


def _place(rows: np.ndarray, src: tuple[int, int], dst: tuple[int, int], shift: int,
           dtype: type | np.dtype[Any]) -> np.ndarray:
    """Rows on totals src (axis 1) moved to totals dst, adding `shift` to each total (lost if out of band)."""
    (lo0, hi0), (lo, hi) = src, dst
    out = np.zeros((rows.shape[0], hi - lo + 1) + rows.shape[2:], dtype=dtype)
    a, b = max(lo, lo0 + shift), min(hi, hi0 + shift)
    if a <= b:
        out[:, a - lo : b - lo + 1] = rows[:, a - shift - lo0 : b - shift - lo0 + 1]
    return out


def binom(n: int, k: int) -> int:
    """C(n, k), 0 outside 0 <= k <= n."""
    return comb(n, k) if 0 <= k <= n else 0


class SparseTables:
    """Tables of one record as (states, rows) pairs; count, joints and F_j as in `Tables`.

    The plan's free cells (in no needed neighbourhood) take no step: given the lit total e of
    the stepped cells, they hold n0 - e lit cells in any of C(|free|, n0 - e) ways. A terminal
    (u, b) weighs a final total e by C(|free| - u, n0 - e - b): the completions with b lit among
    u chosen free cells, times C(u, b). (0, 0) is the plain count. The backward tables carry one
    column per u, for h_u(e) = C(|free| - u, n0 - e), on totals extended by max u, since the
    (u, b) weight of total t is h_u at t + b.
    """

    sparse = True

    def __init__(
        self, plan: Plan, n0: int, eqs: dict[int, list[Equation]],
        terminals: Iterable[tuple[int, int]] = ((0, 0),), guarded: bool = False,
    ) -> None:
        self.plan, self.n0, self.eqs = plan, n0, eqs
        n = plan.shape.cells
        self.guarded = guarded
        self.dtype = np.float64 if guarded else table_dtype(n)
        self.free = len(plan.free)
        self.terminals = tuple(terminals)
        self.checks = [
            [
                (window_bits(e.plus, s.window), window_bits(e.minus, s.window), e.rhs)
                for k in s.centres
                for e in eqs.get(k, ())
            ]
            for s in plan.steps
        ]
        self.bands = [band(n, n0, j) for j in range(-1, len(plan.steps))]  # bands[j + 1] is band j
        self.stored: list[KeyedRows] = []  # D_{j-1} for every step j
        table: KeyedRows = (np.zeros(1, dtype=np.int64), np.ones((1, 1), dtype=self.dtype))
        held = 0
        for j in range(len(plan.steps)):
            self.stored.append(table)
            held += table[0].nbytes + table[1].nbytes
            self._room(held + self._forward_bytes(table, j))  # before the step allocates
            table = self.forward(table, j)
        held += table[0].nbytes + table[1].nbytes
        _live[0] += held
        weakref.finalize(self, _release, held)
        keys, rows = table
        lo = self.bands[-1][0]
        #: (lit total of the stepped cells, number of their consistent assignments)
        self.totals = [(lo + i, int(v)) for i, v in enumerate(rows[0])] if len(keys) else []
        self.count = sum(v * binom(self.free, n0 - e) for e, v in self.totals)

    def _room(self, need: int) -> None:
        """TablesTooLarge if `need` more bytes would take the live tables past TABLE_BYTES."""
        if live_bytes() + need > TABLE_BYTES:
            gc.collect()  # tables no longer reachable (a dropped cache entry in a cycle) let go first
        if live_bytes() + need > TABLE_BYTES:
            shape = self.plan.shape
            raise TablesTooLarge(_(
                "the exact posterior's tables for this record on a {shape} board ({rules}) would "
                "pass {most} MB: the clicks reach too far; a board of at most {cells} cells "
                "usually fits").format(shape=shape, rules=rules_of(shape), most=TABLE_BYTES >> 20,
                                       cells=SPLIT_CELLS))

    def _forward_bytes(self, prev: KeyedRows, j: int) -> int:
        """The peak bytes of step j from `prev`: twice its states (both values of cell j), each
        with a row on band j, in WORK_COPIES arrays (see WORK_COPIES), and their keys."""
        keys, rows = prev
        lo, hi = self.bands[j + 1]
        per_row = (hi - lo + 1) * int(np.prod(rows.shape[2:], dtype=np.int64)) * rows.itemsize
        return 2 * len(keys) * (WORK_COPIES * per_row + 4 * 8)

    def _ext(self, j: int) -> tuple[int, int]:
        """Band of step j (j = -1: before any) extended by the largest u of the terminals."""
        lo, hi = self.bands[j + 1]
        return lo, hi + max(u for u, _ in self.terminals)
    def _ok(self, keys: np.ndarray, j: int) -> np.ndarray:
        """States satisfying every equation checked at step j."""
        ok = np.ones(len(keys), dtype=bool)
        for plus, minus, rhs in self.checks[j]:
            v = np.bitwise_count(keys & plus).astype(np.int16)
            if minus:
                v -= np.bitwise_count(keys & minus)
            ok &= v == rhs
        return ok

    def _candidates(self, prev: KeyedRows, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Both values of cell j for every state of D_{j-1}: keys, rows on band j, equation test."""
        keys, rows = prev
        top = 1 << (self.plan.steps[j].bits - 1)
        cand = np.concatenate((keys, keys | top))
        src, dst = self.bands[j], self.bands[j + 1]
        vals = np.concatenate((_place(rows, src, dst, 0, self.dtype), _place(rows, src, dst, 1, self.dtype)))
        return cand, vals, self._ok(cand, j)

    def full(self, prev: KeyedRows, j: int) -> KeyedRows:
        """F_j from D_{j-1}: the reachable states of window W_j and their rows."""
        cand, vals, ok = self._candidates(prev, j)
        ok &= _nonzero_rows(vals)
        return cand[ok], vals[ok]

    def forward(self, prev: KeyedRows, j: int) -> KeyedRows:
        """D_j from D_{j-1}: F_j with the cells dropped after step j summed out."""
        keys, vals = self.full(prev, j)
        drops = self.plan.steps[j].drops
        if drops:
            keys, vals = group_sum(compress(keys, drops), vals)
        self._check(vals)
        return keys, vals

    def _check(self, values: np.ndarray) -> None:
        if self.guarded and values.size and values.max() >= EXACT_FLOAT:
            raise Inexact

    def descending(self) -> Iterator[tuple[int, KeyedRows]]:
        """Yield (j, D_{j-1}) for j = n-1 down to 0."""
        for j in range(len(self.plan.steps) - 1, -1, -1):
            yield j, self.stored[j]

    def joints(self) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """Yield (j, states, J) for every step j, last first: J[i, p] = consistent starts with
        window states[i], weighed by terminal p.

        H_{j-1}[d, t - x] = sum_x [equations hold at (x, d)] H_j[kept(x, d), t], kept only on
        the states the forward pass reached.
        """
        us = sorted({u for u, _ in self.terminals})
        column = {u: i for i, u in enumerate(us)}
        last = len(self.plan.steps) - 1
        lo, hi = self._ext(last)
        hk = np.zeros(1, dtype=np.int64)
        ends = [[binom(self.free - u, self.n0 - e) for u in us] for e in range(lo, hi + 1)]
        hv = np.array([ends], dtype=self.dtype)
        self._check(hv)
        for j, prev in self.descending():
            step = self.plan.steps[j]
            # the forward step's arrays again, and the backward rows (one per terminal column) in
            # `back` and its two placements: checked before they are made
            self._room(self._forward_bytes(prev, j) + 2 * len(prev[0]) * 3 * hv.shape[1] * len(us) * hv.itemsize)
            cand, vals, ok = self._candidates(prev, j)
            proj = compress(cand, step.drops)
            back = np.zeros((len(cand), hv.shape[1], len(us)), dtype=self.dtype)
            if len(hk):
                idx = np.searchsorted(hk, proj)
                idx[idx >= len(hk)] = 0
                found = ok & (hk[idx] == proj)
                back[found] = hv[idx[found]]
            width = vals.shape[1]
            joint = np.stack(
                [np.einsum("lt,lt->l", vals, back[:, b : b + width, column[u]]) for u, b in self.terminals],
                axis=1,
            )
            self._check(joint)
            yield j, cand, joint
            rows = len(prev[0])
            src, dst = self._ext(j), self._ext(j - 1)
            h = _place(back[:rows], src, dst, 0, self.dtype) + _place(back[rows:], src, dst, -1, self.dtype)
            keep = (h != 0).any(axis=(1, 2))
            hk, hv = prev[0][keep], h[keep]
            self._check(hv)

    def finals(self, f: KeyedRows) -> list[tuple[int, int, int]]:
        """(state, total, weight) for every end state of the last table F and final total e, the
        weight counting the completions of the free cells too."""
        keys, vals = f
        lo = self.bands[-1][0]
        out: list[tuple[int, int, int]] = []
        for i, k in enumerate(keys):
            for c, v in enumerate(vals[i]):
                w = int(v) * binom(self.free, self.n0 - lo - c)
                if w:
                    out.append((int(k), lo + c, w))
        return out

    def entry(self, f: KeyedRows, state: int, col: int) -> int:
        """F_j[state, col] (0 for an unreached state)."""
        keys, vals = f
        i = int(np.searchsorted(keys, state))
        if i < len(keys) and keys[i] == state:
            return int(vals[i, col])
        return 0
