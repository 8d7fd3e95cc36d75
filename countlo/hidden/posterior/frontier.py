"""The `frontier` engine: the posterior over hidden starts on big boards (docs/MATH.md §22).

Cells are assigned one at a time in reading order along the shorter side. Instead of a window of
raw cells, the state is the pending residual of every click equation that is open (some but not
all of its cells assigned): how many of its cells, read as lit-before-the-click, are lit so far,
stored relative to the least value that can still reach the equation's right-hand side. An
equation that forces its cells (right-hand side 0 or full) takes no bits at all, a closed one
gives its bits back, so the state stays a few bits per open equation however many clicks came
before. The lit total of the cells assigned so far is the second coordinate, kept to the band from
which the starting count is still reachable.

Forward tables F_j (states reached before cell j, starts per state and total) and backward tables
B_j on the same states (completions) give the count, every marginal, uniform samples drawn cell
by cell forwards, the full list when it is short, and the law of the count a click would show
(a side pass that carries one more residual, the lit cells of the click's neighbourhood now).

Numbers: tables are float64 (sums of nonnegative terms, so a value is zero exactly when no start
reaches it: the possible counts are exact). The count is also carried modulo 2^64 in uint64; with
the float as an approximation whose relative error is bounded, the two give the exact count as
long as that bound is below 2^62 (always on 10 x 10, where the count is below 2^97). Above that,
`count_exact` is False and `count` is a lower bound within a relative 1e-9 of the truth.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from countlo.board import Shape, move_bits
from countlo.countboard import CountBoard, grid_only
from countlo.errors import BadSizeError, CountloError
from countlo.hidden.record import Record
from countlo.i18n import _

KEY_BITS = 62  # bits of a state key (int64, sign bit unused)
QUERY_BITS = 4  # bits of the side pass's extra residual (a neighbourhood of up to 15 cells)
MAX_CELLS = 1000  # float64 holds every count below 2^1000 with room for the sums
MAX_NARROW = 16  # shorter side: 2 x 16 open equations, most at 1 bit, fit a key with room (MATH §22)


def check_supported(shape: CountBoard) -> None:
    """Refuse up front, in one line, a board beyond the hidden-game engine (BadSizeError)."""
    if not isinstance(shape, Shape) or not shape.rules.classic:  # the window engine's own limit (check_rules)
        return
    if shape.cells > MAX_CELLS or min(shape.rows, shape.cols) > MAX_NARROW:
        raise BadSizeError(_(
            "the hidden game is played on boards of at most {most} cells whose shorter side is at most "
            "{narrow} (the largest square is {narrow}x{narrow}); {shape} is beyond that").format(
                most=MAX_CELLS, narrow=MAX_NARROW, shape=shape))


class TooWide(CountloError, ValueError):
    """A record beyond the engine: more open equations than a state key holds, or too many cells."""

    exit_code = 1


@dataclass(frozen=True)
class _Touch:
    """One equation touched by a step: its field before (offset, mask; mask 0: no bits, value 0)
    and after (offset, width), the flip bit and the delta base."""

    old_offset: int
    old_mask: int
    offset: int
    flip: int  # 1 if the cell counts as lit when it is off (the click saw it flipped)
    base: int  # lo_before - lo_after: added to the field with y, the cell's lit-then value
    width: int  # largest field value after the step (0: the equation is closed or forced)


def _lo(total: int, remaining: int) -> int:
    return max(0, total - remaining)


def _width(total: int, assigned: int, size: int) -> int:
    return min(total, assigned) - _lo(total, size - assigned)


class _Plan:
    """Field layout and per-step touches for a list of equations over cells 0..n-1.

    An equation is (support, flipped, lit): `lit` cells of `support` are lit when read as
    b xor flipped. Its field holds p - lo(a): p lit so far among a assigned cells, lo the least p
    from which `lit` is still reachable. A field has as many bits as its largest value after the
    current step needs (docs/MATH.md §22): a five-cell equation needs 1 bit for most of its life
    and 2 only around its centre, so it grows (in place, or moved to free bits) and shrinks as
    its cells are assigned; the bits it gives back serve other equations.
    """

    def __init__(self, n: int, equations: list[tuple[int, int, int]], base_bits: int = 0):
        self.n = n
        self.touches: list[list[_Touch]] = [[] for _ in range(n)]
        self.infeasible = False
        used = [False] * 64
        placed: dict[int, tuple[int, int]] = {}  # open equation -> (offset, bits)
        at: list[list[int]] = [[] for _ in range(n)]  # step -> equations whose support holds it
        cells_of = []
        for i, (support, _size, lit) in enumerate(equations):
            cells = [c for c in range(n) if support >> c & 1]
            cells_of.append(cells)
            if not 0 <= lit <= len(cells):
                self.infeasible = True
            for c in cells:
                at[c].append(i)
        top = base_bits
        for j in range(n):
            steps = []
            for i in at[j]:
                _, flipped, lit = equations[i]
                cells = cells_of[i]
                size, a = len(cells), cells.index(j) + 1
                width = max(0, _width(lit, a, size)) if 0 <= lit <= size else 0
                offset, bits = placed.get(i, (base_bits, 0))
                base = _lo(lit, size - a + 1) - _lo(lit, size - a)
                steps.append((i, offset, bits, width.bit_length(), width, flipped >> j & 1, base))
            # give back what shrinks (in place) or moves, then place what grows
            for _, offset, bits, need, *_ in steps:
                for b in range(offset + min(bits, need), offset + bits):
                    used[b] = False
            for i, offset, bits, need, width, flip, base in steps:
                new = offset
                if need > bits:
                    if all(not used[b] for b in range(offset + bits, offset + need)) and bits and \
                            offset + need <= KEY_BITS:
                        new = offset  # grows in place
                    else:
                        for b in range(offset, offset + min(bits, need)):
                            used[b] = False
                        found = _first_fit(used, need, base_bits)
                        if found is None:
                            raise TooWide(f"the clicks so far leave more than {KEY_BITS} bits of open "
                                          "equations along one row: too many for the exact engine")
                        new = found
                    for b in range(new, new + need):
                        used[b] = True
                top = max(top, new + need)
                self.touches[j].append(_Touch(offset, (1 << bits) - 1, new, flip, base, width))
                if need:
                    placed[i] = (new, need)
                else:
                    placed.pop(i, None)
        self.bits = top

    def advance(self, keys: np.ndarray, j: int, x: int) -> tuple[np.ndarray, np.ndarray]:
        """States after giving cell j the value x, and which of them keep every equation possible."""
        ok = np.ones(len(keys), dtype=bool)
        out = keys
        moves = []
        for t in self.touches[j]:
            delta = t.base + (x ^ t.flip)
            if not t.old_mask:  # no bits yet (opening, or forced): the value was 0
                if not 0 <= delta <= t.width:
                    ok[:] = False
                elif delta:
                    moves.append((np.int64(delta), t.offset))
                continue
            field = (keys >> t.old_offset) & t.old_mask
            new = field + delta
            ok &= (new >= 0) & (new <= t.width)
            if t.offset == t.old_offset:
                if delta:
                    out = out + (delta << t.offset)
            else:  # the field moves: take the old bits out first, put the new value in after
                out = out - (field << t.old_offset)
                moves.append((new, t.offset))
        for value, offset in moves:
            out = out + (value << offset)
        return out, ok


def _residues(vals: np.ndarray, exact: np.ndarray) -> np.ndarray | None:
    """`exact` (a table mod 2^64) if it must be kept: None while every float of `vals` is below
    2^53, an integer held exactly (a sum of nonnegative integers, each partial sum at most the
    value), so the floats give the residues."""
    return None if not len(vals) or float(vals.max()) < 2.0**53 else exact


def _first_fit(used: list[bool], width: int, low: int) -> int | None:
    if width == 0:
        return low
    run = 0
    for b in range(low, KEY_BITS):
        run = run + 1 if not used[b] else 0
        if run == width:
            return b - width + 1
    return None


def _band(n: int, n0: int, j: int) -> tuple[int, int]:
    """Totals of cells 0..j-1 (j cells assigned) from which a total of n0 is still reachable."""
    return max(0, n0 - (n - j)), min(j, n0)


def _place(rows: np.ndarray, src: tuple[int, int], dst: tuple[int, int], shift: int) -> np.ndarray:
    """Rows on totals src moved to totals dst, `shift` added to each total (lost outside dst)."""
    (lo0, hi0), (lo, hi) = src, dst
    out = np.zeros((rows.shape[0], hi - lo + 1), dtype=rows.dtype)
    a, b = max(lo, lo0 + shift), min(hi, hi0 + shift)
    if a <= b:
        out[:, a - lo : b - lo + 1] = rows[:, a - shift - lo0 : b - shift - lo0 + 1]
    return out


def _group(keys: np.ndarray, *tables: np.ndarray) -> tuple[np.ndarray, ...]:
    """Sorted distinct keys and, per table, the sum of the rows sharing each key."""
    if len(keys) == 0:
        return (keys, *tables)
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return (keys[starts], *(np.add.reduceat(t[order], starts, axis=0) for t in tables))


def _largest_group(parts: list[np.ndarray], live: np.ndarray | np.bool_) -> int:
    """The most rows that were summed into one key at this step."""
    keys = np.concatenate(parts)[live]
    if len(keys) == 0:
        return 1
    return int(np.unique(keys, return_counts=True)[1].max())


def _lookup(keys: np.ndarray, wanted: np.ndarray, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index into sorted `keys`, found) for every wanted key (only where ok)."""
    if len(keys) == 0:
        return np.zeros(len(wanted), dtype=np.intp), np.zeros(len(wanted), dtype=bool)
    idx = np.searchsorted(keys, wanted)
    idx[idx >= len(keys)] = 0
    return idx, ok & (keys[idx] == wanted)


class FrontierPosterior:
    """Count, marginals, next-count laws, samples and short lists of the starts a record allows."""

    count: int
    count_exact: bool
    _plan: _Plan
    _fwd: list[tuple[np.ndarray, np.ndarray]]  # F_j: sorted state keys, counts per state and total
    _cols: list[tuple[int, int]]  # the totals (lo, hi) of each F_j's columns
    _groups: list[int]  # the largest merge before each step (the float's error bound)
    _residues: list[np.ndarray | None]  # F_j mod 2^64 where its floats pass 2^53 (else the floats)
    _bwd: list[np.ndarray]  # B_j on F_j's states
    _lit: np.ndarray  # per cell, the starts' weight with it lit
    _scale: float

    def __init__(self, record: Record, parent: FrontierPosterior | None = None):
        """The tables of `record`. With `parent`, the posterior of a record it extends by one click
        (record.undo()), the forward pass starts where the new click's equation first touches a
        cell (docs/MATH.md §29); the result is the same."""
        shape = grid_only(record.shape, "the frontier programme")
        if shape.cells > MAX_CELLS:
            raise TooWide(f"{shape} has more than {MAX_CELLS} cells")
        self.record = record
        self.transposed = shape.cols > shape.rows
        self._to_list = shape.transposed_cells() if self.transposed else list(range(shape.cells))
        self._to_work = np.array(self._to_list)
        work_shape = shape.transposed() if self.transposed else shape
        self._work_shape = work_shape
        self.n, self.n0 = shape.cells, record.start
        self._flips = self._work_bits(record.flips())
        self._eqs = self._equations(record)
        resume = self._resume_from(parent)
        if resume is not None and parent is not None and resume > self.n:  # the same equations
            self._plan, self._fwd, self._cols, self._groups = parent._plan, parent._fwd, parent._cols, parent._groups
            self._residues = parent._residues
            self.count, self.count_exact, self._scale = parent.count, parent.count_exact, parent._scale
            self._bwd, self._lit = parent._bwd, parent._lit
        else:
            self._plan = _Plan(self.n, self._eqs)
            if self._plan.infeasible:
                resume = None
            self._forward(parent if resume is not None else None, resume or 0)
            self._backward()
        one = self.boards(1) if self.count == 1 else None
        self.board: int | None = one[0] if one else None

    # --- set-up --------------------------------------------------------------------------
    def _work_bits(self, board: int) -> int:
        return move_bits(board, self._to_list) if self.transposed else board

    def _equations(self, record: Record) -> list[tuple[int, int, int]]:
        """Click equations as (support, flipped, lit then), in working cells, without repeats:
        a click that undoes the one before says the same as it (read with every cell flipped)."""
        seen: set[tuple[int, int, int]] = set()
        out = []
        for e in record.equations()[1:]:
            support = self._work_bits(e.plus | e.minus)
            flipped = self._work_bits(e.minus)
            lit = e.rhs + e.minus.bit_count()
            size = support.bit_count()
            key = min((support, flipped, lit), (support, support ^ flipped, size - lit))
            if key not in seen:
                seen.add(key)
                out.append(key)
        return out

    def _resume_from(self, parent: FrontierPosterior | None) -> int | None:
        """The cell from which the forward pass must be redone when `parent`'s tables are reused:
        n + 1 if its equations are these (nothing to redo), the first cell of the one new equation
        if they are these but the last, None if they cannot be reused (docs/MATH.md §29)."""
        if parent is None or parent.n != self.n or parent.n0 != self.n0 or \
                parent._work_shape != self._work_shape or parent._plan.infeasible:
            return None
        old, new = parent._eqs, self._eqs
        if new == old:
            return self.n + 1
        if len(new) != len(old) + 1 or new[:-1] != old:
            return None
        return (new[-1][0] & -new[-1][0]).bit_length() - 1  # its lowest cell

    # --- the two passes -------------------------------------------------------------------
    def _forward(self, parent: FrontierPosterior | None = None, first: int = 0) -> None:
        """F_j for every j. With `parent`, F_0..F_first are its own: cells before `first` meet no
        equation the parent lacks, so the plan is the same there (fields are placed cell by cell)
        and so are the tables, residues mod 2^64 included (docs/MATH.md §29)."""
        n, n0, plan = self.n, self.n0, self._plan
        keys = np.zeros(1, dtype=np.int64)
        vals = np.ones((1, 1))
        exact = np.ones((1, 1), dtype=np.uint64)
        self._fwd = []
        self._cols = []  # each F_j's band of totals, trimmed to the columns in use
        self._groups = []
        self._residues = []
        src = (0, 0)
        group = 1
        if parent is not None:
            self._fwd, self._cols = parent._fwd[:first], parent._cols[:first]
            self._groups, self._residues = parent._groups[:first], parent._residues[:first]
            keys, vals = parent._fwd[first]
            src, group = parent._cols[first], parent._groups[first]
            kept = parent._residues[first]
            exact = vals.astype(np.uint64) if kept is None else kept
        for j in range(first, n):
            self._fwd.append((keys, vals))
            self._cols.append(src)
            self._groups.append(group)
            self._residues.append(_residues(vals, exact))
            if plan.infeasible:
                keys, vals, exact = keys[:0], vals[:0], exact[:0]
                continue
            band = _band(n, n0, j + 1)
            dst = (max(src[0], band[0]), min(src[1] + 1, band[1]))
            parts_k, parts_v, parts_e = [], [], []
            for x in (0, 1):
                nk, ok = plan.advance(keys, j, x)
                parts_k.append(nk[ok])
                parts_v.append(_place(vals[ok], src, dst, x))
                parts_e.append(_place(exact[ok], src, dst, x))
            keys = np.concatenate(parts_k)
            vals, exact = np.concatenate(parts_v), np.concatenate(parts_e)
            live = vals.any(axis=1)
            keys, vals, exact = _group(keys[live], vals[live], exact[live])
            group = max(group, _largest_group(parts_k, live))
            used = np.flatnonzero(vals.any(axis=0))
            if len(used):
                a, b = int(used[0]), int(used[-1])
                vals, exact = vals[:, a : b + 1], exact[:, a : b + 1]
                src = (dst[0] + a, dst[0] + b)
            else:
                src = dst
        self._fwd.append((keys, vals))
        self._cols.append(src)
        self._groups.append(group)
        self._residues.append(_residues(vals, exact))
        approx = float(vals.sum()) if len(keys) else 0.0
        residue = int(exact.sum(dtype=np.uint64)) if len(keys) else 0
        # every value is a sum of nonnegative terms added at most n * (group + 1) times in turn
        error = approx * (n * (group + 1) + 2) * 2.0**-53
        self.count_exact = error < 2.0**61
        if self.count_exact:
            guess = int(approx)
            self.count = residue + ((guess - residue + (1 << 63)) >> 64 << 64)
        else:  # a lower bound: the float less twice its error bound
            self.count = int(approx - 2 * error)
        self._scale = approx

    def _backward(self) -> None:
        """B_j on the states of F_j, and the lit weight of every cell (F x B through x = 1)."""
        n, plan = self.n, self._plan
        self._bwd = [np.empty((0, 0))] * (n + 1)
        self._lit = np.zeros(n)
        last_keys, _ = self._fwd[n]
        b = np.zeros((len(last_keys), 1))
        if len(last_keys):
            b[last_keys == 0, 0] = 1.0
        self._bwd[n] = b
        for j in range(n - 1, -1, -1):
            keys, vals = self._fwd[j]
            nkeys, _ = self._fwd[j + 1]
            src, dst = self._cols[j + 1], self._cols[j]
            total = np.zeros((len(keys), dst[1] - dst[0] + 1))
            for x in (0, 1):
                nk, ok = plan.advance(keys, j, x)
                idx, found = _lookup(nkeys, nk, ok)
                part = np.zeros((len(keys), src[1] - src[0] + 1))
                part[found] = b[idx[found]]
                part = _place(part, src, dst, -x)
                total += part
                if x:
                    self._lit[j] = float((vals * part).sum())
            b = total
            self._bwd[j] = b

    @cached_property
    def nbytes(self) -> int:
        """Bytes held by the tables (callers that cache posteriors bound their total by it). Tables
        shared with the posterior this one was updated from count in both: the bound errs safe."""
        return (sum(k.nbytes + v.nbytes for k, v in self._fwd) + sum(b.nbytes for b in self._bwd)
                + sum(r.nbytes for r in self._residues if r is not None))

    # --- what the guide asks -------------------------------------------------------------
    def start_marginals(self) -> list[float]:
        """P(cell k lit in the hidden start) for every k (0.0 everywhere if no start fits)."""
        if not self.count:
            return [0.0] * self.n
        p = np.clip(self._lit / self._scale, 0.0, 1.0)
        return [float(p[w]) for w in self._to_work]

    def light_marginals(self) -> list[float]:
        """P(cell k lit now) (record.lit_now)."""
        return self.record.lit_now(self.start_marginals(), self.count)

    def count_distribution(self, cell: int) -> dict[int, int]:
        """Count shown after clicking `cell` now -> weight of the consistent starts giving it.

        The weights are exact counts while `count_exact`, else estimates; a count that is absent
        is impossible either way (the side pass only adds nonnegative terms).
        """
        if not self.count:
            return {}
        w = int(self._to_work[cell])
        shape = self._work_shape
        support = 0
        for c in shape.neighbours(w):
            support |= 1 << c
        per = self._query(support, self._flips & support)
        size = support.bit_count()
        now = self.record.count
        return {now + size - 2 * v: round(per[v]) or 1 for v in range(size, -1, -1) if per[v] > 0}

    def count_distributions(self) -> list[dict[int, int]]:
        """count_distribution of every cell (one side pass each)."""
        return [self.count_distribution(k) for k in range(self.n)]

    def _query(self, support: int, flipped: int) -> np.ndarray:
        """Weight of the starts by how many cells of `support` are lit read as b xor flipped."""
        n, n0, plan = self.n, self.n0, self._plan
        cells = [c for c in range(n) if support >> c & 1]
        top = plan.bits
        if top + QUERY_BITS > 63:
            raise TooWide("no room for the side pass")
        first, last = cells[0], cells[-1]
        keys, vals = self._fwd[first]
        dst = self._cols[first]
        for j in range(first, last + 1):
            band = _band(n, n0, j + 1)
            src, dst = dst, (max(dst[0], band[0]), min(dst[1] + 1, band[1]))
            parts_k, parts_v = [], []
            for x in (0, 1):
                nk, ok = plan.advance(keys, j, x)
                if support >> j & 1 and x ^ (flipped >> j & 1):
                    nk = nk + (1 << top)
                parts_k.append(nk[ok])
                parts_v.append(_place(vals[ok], src, dst, x))
            keys, vals = np.concatenate(parts_k), np.concatenate(parts_v)
            live = vals.any(axis=1)
            keys, vals = _group(keys[live], vals[live])
        value = keys >> top
        base = keys & ((1 << top) - 1)
        nkeys, _ = self._fwd[last + 1]
        idx, found = _lookup(nkeys, base, np.ones(len(base), dtype=bool))
        weights = np.zeros(len(keys))
        vals = _place(vals, dst, self._cols[last + 1], 0)
        weights[found] = (vals[found] * self._bwd[last + 1][idx[found]]).sum(axis=1)
        return np.bincount(value, weights=weights, minlength=len(cells) + 1)

    # --- explicit boards -----------------------------------------------------------------
    def sample_matrix(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """n starts drawn uniformly (with replacement) as an (n, cells) 0/1 matrix in the
        record's cell order; empty if no start fits."""
        if not self.count or n <= 0:
            return np.zeros((0, self.n), dtype=np.uint8)
        bits = self._walk(n, rng)
        return bits[:, self._to_work]

    def sample(self, n: int, rng: random.Random) -> list[int]:
        """n starts drawn uniformly with replacement ([] if none fits)."""
        gen = np.random.default_rng(rng.getrandbits(64))
        return _ints(self.sample_matrix(n, gen))

    def boards(self, limit: int) -> list[int] | None:
        """Every consistent start, ascending, if there are at most `limit` of them; else None."""
        if self.count > limit:
            return None
        if not self.count:
            return []
        return sorted(_ints(self._walk(None, None)[:, self._to_work]))

    def _walk(self, n: int | None, rng: np.random.Generator | None) -> np.ndarray:
        """Forward through the cells: n uniform draws, or (n None) every start with weight."""
        cells, plan = self.n, self._plan
        m = n if n is not None else 1
        keys = np.zeros(m, dtype=np.int64)
        totals = np.zeros(m, dtype=np.int64)
        bits = np.zeros((m, cells), dtype=np.uint8)
        for j in range(cells):
            nkeys, _ = self._fwd[j + 1]
            b = self._bwd[j + 1]
            lo, hi = self._cols[j + 1]
            weights, moved = [], []
            for x in (0, 1):
                nk, ok = plan.advance(keys, j, x)
                col = totals + x - lo
                ok &= (col >= 0) & (col <= hi - lo)
                idx, found = _lookup(nkeys, nk, ok)
                w = np.zeros(len(keys))
                w[found] = b[idx[found], col[found]]
                weights.append(w)
                moved.append(nk)
            if rng is not None:
                p1 = weights[1] / (weights[0] + weights[1])
                pick = (rng.random(len(keys)) < p1).astype(np.int64)
                keys = np.where(pick == 1, moved[1], moved[0])
                totals = totals + pick
                bits[:, j] = pick
            else:
                zero, one = weights[0] > 0, weights[1] > 0
                both_bits = np.concatenate((bits[zero], bits[one]))
                both_bits[zero.sum():, j] = 1
                keys = np.concatenate((moved[0][zero], moved[1][one]))
                totals = np.concatenate((totals[zero], totals[one] + 1))
                bits = both_bits
        return bits

    @cached_property
    def summary(self) -> str:
        """The count for people: exact, or marked as an estimate."""
        return f"{self.count:,}" if self.count_exact else f"about {float(self._scale):.3g}"


def _ints(matrix: np.ndarray) -> list[int]:
    """Rows of a 0/1 matrix as board ints (bit k = column k)."""
    out = []
    for row in matrix:
        out.append(int.from_bytes(np.packbits(row, bitorder="little").tobytes(), "little"))
    return out
