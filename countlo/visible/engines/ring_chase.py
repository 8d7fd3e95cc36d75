"""Grids with a prime number of states whose left and right edges are joined (the cylinder, the
torus, the Moebius band, the Klein bottle, the projective plane), chased a row at a time over the
ring of circulant rows (docs/MATH.md §18.9).

A row of C presses is an element of A = F_p[x]/(x^C - 1): coefficient c is the press count of
column c, and x shifts a row one column round (these topologies join left and right). Lights row
i is then sum_e M_e P_{i+e}, M_e the rule's offsets on row i+e as a polynomial, so the board is a
recurrence along the rows with coefficients in A. For p prime not dividing C, A is a product of
fields and every a has a pseudo-inverse a+ = a^(p^D - 2) (D the order of p mod C), computed with
a few products because x -> x^p permutes the coefficients; e = a a+ is an idempotent (1 where a is
a unit, 0 where it vanishes). The idempotents of the M_e split A into pieces on each of which
every M_e is a unit or 0, and on each piece the recurrence has a unit leading coefficient: the
first rows are free, the chase gives the others (leaping over the middle rows by powers of the
companion matrix when there is no b), and a few rows' worth of constraints are left, a system
over the piece solved by elimination that splits the piece again where a pivot is a zero
divisor. The twisted boards are a cover (countlo.visible.engines.twisted_covers) on the patterns its flips keep:
the flip of the rows adds A-linear constraints, the projective plane's flip of the columns is
imposed by averaging and counted apart. A start costs two chases a row wide for all the pieces
together, whatever the number of free variables the line chase of countlo.visible.engines.line_chase_mod_k would
have (thousands on the torus with the knight).

It gives what countlo.visible.solutions asks of it: solvability, a solution, the quiet group's
orders and a witness (a uniformly random quiet pattern of the transposed game not orthogonal to
b); listing the quiet patterns stays with line_chase_mod_k.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from countlo.board import Shape, Vector
from countlo.graph import Board
from countlo.rules import Offset
from countlo.visible.algebra.circulant_ring import Arr, Ring, Spec
from countlo.visible.engines import engine, line_chase_mod_k, twisted_covers
from countlo.visible.engines.engine import Outcome

TOPOLOGIES = ("cylinder", "torus", "moebius", "klein", "projective")
WITNESS_TRIES = 64  # a random quiet pattern misses an unsolvable b with probability 1/p: 3^-64 here
SEED = 20261124
LEAP_FROM = 32  # rows from which the symbolic chase leaps (`_leap`) instead of stepping
MAX_SIDE = 1 << 13  # rows (one chase step each) and columns (dim(e A) by Euclid takes O(C^2)) it takes


def _turned(board: Shape) -> bool:
    """A torus whose columns k divides but whose rows it does not: solved turned over its diagonal
    (the rows become the ring)."""
    k = board.rules.states
    return board.rules.topology == "torus" and board.cols % k == 0 and board.rows % k != 0


def _is_prime(k: int) -> bool:
    return k >= 2 and all(k % d for d in range(2, math.isqrt(k) + 1))


def applies(board: Shape) -> bool:
    """True for a prime number of states above 2 not dividing the number of columns, on the
    cylinder or the torus, any local rule whose rows are fewer than the board's, both sides at
    most MAX_SIDE (longer boards stay with line_chase_mod_k; a torus whose rows k does not divide is turned
    over its diagonal when it divides the columns); on the Moebius band, the Klein bottle and the
    projective plane (of an even number of rows) the same when the rule is its own mirror
    upside down (and left to right on the projective plane)."""
    rules = board.rules
    k, offsets = rules.states, rules.rule.offsets
    if k <= 2 or not _is_prime(k) or rules.topology not in TOPOLOGIES:
        return False
    if _turned(board):
        return applies(board.transposed())
    if not offsets or board.cols % k == 0 or max(board.rows, board.cols) > MAX_SIDE:
        return False
    if not twisted_covers.mirrored(board):
        return False
    drs = [dr for dr, _dc in offsets]
    return board.rows > max(drs) - min(drs) + 1


# --- the recurrence on each piece ---------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """An idempotent q of A on which each row polynomial M_e is a unit (e in `support`) or 0,
    read upside down (`flip`) on the cylinder when every nonzero M_e is on one side below. The
    recurrence gives row j from the `look` rows before it through equation j - top; `free` rows
    start it. `terms` are the spectra of the M_e of the support (top last) in the piece's
    reading, `inverse` that of M_top^-1 (its pseudo-inverse, the inverse on q)."""

    q: Arr
    qspec: Spec
    support: tuple[int, ...]
    flip: bool
    top: int
    look: int
    free: int
    terms: tuple[tuple[int, Spec], ...]
    inverse: Spec


@dataclass(frozen=True)
class Plan:
    """The pieces of one game on its cover (the board itself unless twisted), and per piece, once
    made, its constraint matrix (which does not depend on b) and `_joint`'s coefficients."""

    ring: Ring
    rows: int
    cols: int  # the board's: on a twisted board's cover, x^C is the flip's shift
    torus: bool
    twisted: bool
    direct: bool  # b's projection q b may enter a chase step unreduced (its exact bound fits float64)
    pieces: tuple[Piece, ...]
    mats: dict[int, Arr] = field(default_factory=dict, compare=False)
    coefs: dict[int, Any] = field(default_factory=dict, compare=False)


def _row_polys(offsets: Sequence[Offset], cols: int) -> dict[int, Arr]:
    """The row polynomials M_e with lights row i = sum_e M_e P_{i+e}: the offset (dr, dc) takes
    press row i - dr to lights row i shifted by dc, so e = -dr and M_e gets x^dc."""
    out: dict[int, Arr] = {}
    for dr, dc in offsets:
        poly = out.setdefault(-dr, np.zeros(cols, dtype=np.int64))
        poly[dc % cols] += 1
    return out


def plan(board: Shape, transposed: bool = False) -> Plan:
    """The pieces of the board's game (of its transpose A^T when asked: the rule turned round,
    which on these topologies is the transpose, and the same game for the named rules)."""
    offsets = board.rules.rule.offsets
    turned = sorted((-dr, -dc) for dr, dc in offsets)
    return _plan(board, transposed and turned != sorted(offsets))


@lru_cache(maxsize=8)
def _plan(board: Shape, transposed: bool) -> Plan:
    rules = board.rules
    twisted = rules.topology in twisted_covers.TWISTED
    ring = Ring(rules.states, board.cols * (2 if twisted else 1))
    offsets = [(-dr, -dc) if transposed else (dr, dc) for dr, dc in rules.rule.offsets]
    polys = {e: m % ring.p for e, m in _row_polys(offsets, ring.n).items()}
    polys = {e: m for e, m in polys.items() if m.any()}
    idems = {e: ring.idempotent(m) for e, m in polys.items()}
    parts = [ring.one()]
    for e in sorted(idems):
        split = []
        for q in parts:
            on = ring.mul(q, idems[e])
            split += [x for x in (on, (q - on) % ring.p) if x.any()]
        parts = split
    torus = rules.topology in ("torus", "klein", "projective")
    pieces = []
    for q in parts:
        support = tuple(e for e in sorted(polys) if ring.mul(q, idems[e]).any())
        pieces.append(_piece(ring, q, support, polys, torus))
    # A step's sum before its reduction: q b (at most n (p-1)^2 a coefficient) and the terms, times
    # M_top^-1 (n (p-1) more); float64 carries it exactly with room for the FFT's rounding.
    terms = sum(int(m.sum()) for m in polys.values()) * (ring.p - 1)
    direct = ring.n * (ring.p - 1) * (ring.n * (ring.p - 1) ** 2 + terms) < 1 << 45
    return Plan(ring, twisted_covers.rows(board), board.cols, torus, twisted, direct, tuple(pieces))


def _piece(ring: Ring, q: Arr, support: tuple[int, ...], polys: dict[int, Arr], torus: bool) -> Piece:
    if not support:
        return Piece(q, ring.spec(q), support, False, 0, 0, 0, (), ring.spec(ring.one()))
    # Upside down, press row R-1-i is row i: lights row i' = sum_e M_e P'_{i'-e}, the same M_e at -e.
    flip = not torus and support[-1] < 0
    units = {(-e if flip else e): polys[e] for e in support}
    es = sorted(units)
    top, bottom = es[-1], es[0]
    look = top - bottom if torus else top - min(bottom, 0)
    free = top - bottom if torus else top
    terms = tuple((e, ring.spec(units[e])) for e in es)
    return Piece(q, ring.spec(q), support, flip, top, look, free, terms, ring.spec(ring.pinv(units[top])))


def _chase(plan: Plan, piece: Piece, first: Arr, bspec: Spec | None, keep: bool) -> tuple[Arr | None, Arr]:
    """The piece's rows from its `free` first rows (each W wide: a symbolic chase starts from the
    identity, a concrete one from the values), and the values of its constraints (constraints x W
    x C): on the torus rows R.. against rows 0.., on the cylinder the last `top` equations, and on a
    twisted board's cover the flip's. Rows are kept (R x W x C) only when asked; else a window of
    `look`. Without b and rows, the rows where every term is on the board are leapt over by
    powers of the recurrence's companion matrix (`_leap`)."""
    ring, rows = plan.ring, plan.rows
    width = first.shape[1]
    if bspec is not None and piece.flip:
        bspec = bspec[::-1]

    def projected(i: int) -> Spec:
        """The spectrum of q b_i (b is the whole board's; its projection on the piece here)."""
        assert bspec is not None
        prod: Spec = piece.qspec * bspec[i]
        return prod if plan.direct else ring.spec(ring.back(prod))

    spec: dict[int, Spec] = {}
    vals: dict[int, Arr] = {}
    kept = np.zeros((rows, width, ring.n), dtype=np.int64) if keep else None
    for j in range(piece.free):
        spec[j], vals[j] = ring.spec(first[j]), first[j]
    top, last = piece.top, rows + piece.look if plan.torus else rows
    lower = piece.terms[:-1]
    j = piece.free
    leap = bspec is None and not keep and rows - piece.look > LEAP_FROM
    if leap and not piece.look:  # no terms: without b every row is 0
        j = last
    while j < last:
        if leap and j == piece.look:  # rows 0..look-1 known: the window leaps to rows R-look..R-1
            window = _leap(ring, piece, np.stack([vals[i] for i in range(piece.look)]), rows - piece.look)
            spec.clear()
            for n in range(piece.look):
                vals[rows - piece.look + n] = window[n]
                spec[rows - piece.look + n] = ring.spec(window[n])
            j = rows
            continue
        i = j - top
        acc = np.zeros((width, ring.n // 2 + 1), dtype=np.complex128)
        if bspec is not None:
            acc[width - 1] = projected(i % rows)
        for e, m in lower:
            if i + e >= 0:
                acc -= m * spec[i + e]
        row = ring.back(acc * piece.inverse)
        spec[j] = ring.spec(row)
        spec.pop(j - piece.look, None)
        if kept is not None and j < rows:
            kept[j] = row
        if j >= rows - piece.free or j < piece.look:
            vals[j] = row
        j += 1
    for j in range(min(piece.free, rows)):
        if kept is not None:
            kept[j] = first[j]
    if plan.torus:
        cons = np.stack([(vals[rows + j] - first[j]) % ring.p for j in range(piece.free)]) if piece.free else \
            np.zeros((0, width, ring.n), dtype=np.int64)
    else:
        cons = np.zeros((piece.free, width, ring.n), dtype=np.int64)
        for n, i in enumerate(range(rows - top, rows)):
            acc = np.zeros((width, ring.n // 2 + 1), dtype=np.complex128)
            if bspec is not None:
                acc[width - 1] = -projected(i)
            for e, m in piece.terms:
                if 0 <= i + e < rows:
                    acc += m * spec[i + e]
            cons[n] = ring.back(acc)
    if plan.twisted and piece.free:  # the cover's pattern is the flip's own: P_{R-1-j} = x^C P_j, j < free
        turned = np.stack([(vals[rows - 1 - j] - np.roll(first[j], plan.cols, axis=-1)) % ring.p
                           for j in range(piece.free)])
        cons = np.concatenate([cons, turned])
    if kept is not None and piece.flip:
        kept = kept[::-1]
    return kept, cons


def _leap(ring: Ring, piece: Piece, window: Arr, steps: int) -> Arr:
    """The window of `look` rows `steps` rows on, where every term of the recurrence is on the
    board: each step maps the window by the companion matrix T over A (a shift, and the new row
    sum_e c_e P_{j-top+e} with c_e = -M_top^-1 M_e), so this is T^steps window by squaring, a
    few dozen products of look x look matrices over A instead of `steps` chase steps."""
    look = piece.look
    comp = np.zeros((look, look, ring.n), dtype=np.int64)
    comp[np.arange(look - 1), np.arange(1, look), 0] = 1
    for e, m in piece.terms[:-1]:
        comp[look - 1, look - piece.top + e] = (-ring.back(m * piece.inverse)) % ring.p
    out, base = window, comp
    while steps:
        if steps & 1:
            out = _matmul(ring, base, out)
        steps >>= 1
        if steps:
            base = _matmul(ring, base, base)
    return out


def _matmul(ring: Ring, a: Arr, b: Arr) -> Arr:
    """(a b) over A for matrices of ring elements (a: l x m x n, b: m x w x n)."""
    return ring.back(np.einsum("ikf,kjf->ijf", ring.spec(a), ring.spec(b)))


Branch = tuple[Arr, Arr, int, bool]  # idempotent g, y on g, free columns, consistent


def _system(ring: Ring, mat: Arr, rhs: Arr, g: Arr, rng: np.random.Generator | None) -> list[Branch]:
    """K y = r over g A (K n x m x C): elimination that splits g where a pivot is a zero divisor
    (docs/MATH.md §18.9). Each branch: its idempotent, a solution on it (free columns 0, or uniform
    random with `rng`: then, for r = 0, a uniform element of the kernel), its number of free
    columns, and whether it is consistent (r in the image on it)."""
    p, n = ring.p, ring.n
    nrows, ncols = mat.shape[0], mat.shape[1]
    if ncols == 0:
        return [(g, np.zeros((0, n), dtype=np.int64), 0, not ring.mul(g, rhs).any())]
    out: list[Branch] = []
    rest = g
    for i in range(nrows):
        a = ring.mul(rest, mat[i, 0])
        if not a.any():
            continue
        inv = ring.pinv(a)
        h = ring.mul(a, inv)
        others = [r for r in range(nrows) if r != i]
        factor = ring.mul(mat[others, 0], inv)
        sub = (mat[others, 1:] - ring.mul(factor[:, None, :], mat[i, 1:][None])) % p
        subr = (rhs[others] - ring.mul(factor, rhs[i])) % p
        for gb, yb, free, ok in _system(ring, sub, subr, h, rng):
            done = (rhs[i] - ring.mul(mat[i, 1:], yb).sum(axis=0)) % p
            y0 = ring.mul(gb, ring.mul(inv, done))
            out.append((gb, np.concatenate([y0[None], yb]), free, ok))
        rest = (rest - h) % p
        if not rest.any():
            return out
    for gb, yb, free, ok in _system(ring, mat[:, 1:], rhs, rest, rng):
        y0 = ring.mul(gb, rng.integers(0, p, n)) if rng is not None else np.zeros(n, dtype=np.int64)
        out.append((gb, np.concatenate([y0[None], yb]), free + 1, ok))
    return out


def _matrix(plan: Plan, index: int) -> Arr:
    """The piece's constraint matrix K over q A, from the symbolic chase of the free rows' identity
    (made once per plan: it does not depend on b)."""
    mat = plan.mats.get(index)
    if mat is None:
        ring, piece = plan.ring, plan.pieces[index]
        ident = np.zeros((piece.free, piece.free, ring.n), dtype=np.int64)
        ident[np.arange(piece.free), np.arange(piece.free), 0] = 1
        _rows, cons = _chase(plan, piece, ident, None, keep=False)
        mat = plan.mats[index] = ring.mul(piece.q, cons)
    return mat


def _constraints(plan: Plan, index: int, piece: Piece, bspec: Spec | None) -> tuple[Arr, Arr]:
    """The piece's constraints K y = r over q A: K from `_matrix`, r from a chase of b alone."""
    ring, f = plan.ring, piece.free
    mat = _matrix(plan, index)
    if bspec is None:
        return mat, np.zeros((mat.shape[0], ring.n), dtype=np.int64)
    _rows, cons = _chase(plan, piece, np.zeros((f, 1, ring.n), dtype=np.int64), bspec, keep=False)
    return mat, (-cons[:, 0]) % ring.p


def _coefficients(plan: Plan, index: int) -> tuple[Spec, tuple[tuple[int, Spec], ...], tuple[tuple[int, Spec], ...]]:
    """For `_joint`, the spectra of the piece's step with q folded in, each reduced: q M_top^-1 (b's
    coefficient), -q M_top^-1 M_e for e < top (the terms'), and q M_e for every e (the
    cylinder's last equations)."""
    got = plan.coefs.get(index)
    if got is None:
        ring, piece = plan.ring, plan.pieces[index]
        d = ring.spec(ring.back(piece.qspec * piece.inverse))
        steps = tuple((e, ring.spec((-ring.back(d * m)) % ring.p)) for e, m in piece.terms[:-1])
        ends = tuple((e, ring.spec(ring.back(piece.qspec * m))) for e, m in piece.terms)
        got = plan.coefs[index] = (d, steps, ends)
    return got


def _joint(plan: Plan, indices: Sequence[int], bspec: Spec | None, ys: dict[int, Arr] | None, keep: bool
           ) -> tuple[Arr | None, dict[int, Arr]]:
    """One chase a row wide for several pieces (not upside down) at once: they are orthogonal, so
    a row is the sum of its parts, and the part of piece q comes from q's own recurrence with q
    folded into its coefficients, which read only q's part of the rows before (docs/MATH.md
    §18.9). So a row costs one inverse and one forward FFT for all of them. Free rows are 0, or
    `ys`; returns the rows (kept when asked) and each piece's constraint values, as `_chase`."""
    ring, rows, p = plan.ring, plan.rows, plan.ring.p
    pieces = [(i, plan.pieces[i], _coefficients(plan, i)) for i in indices]
    look = max(piece.look for _i, piece, _c in pieces)
    lasts = [rows + piece.look if plan.torus else rows for _i, piece, _c in pieces]
    kept = np.zeros((rows, ring.n), dtype=np.int64) if keep else None
    tail = rows - max(piece.free for _i, piece, _c in pieces)
    spec: dict[int, Spec] = {}
    vals: dict[int, Arr] = {}
    for j in range(max(lasts)):
        acc = np.zeros(ring.n // 2 + 1, dtype=np.complex128)
        given: Arr | None = None
        for (index, piece, (d, steps, _ends)), last in zip(pieces, lasts):
            if j >= last:
                continue
            if j < piece.free:
                if ys is not None:
                    given = ys[index][j] if given is None else given + ys[index][j]
                continue
            i = j - piece.top
            if bspec is not None:
                acc += d * bspec[i % rows]
            for e, c in steps:
                if i + e >= 0:
                    acc += c * spec[i + e]
        row = ring.back(acc)
        if given is not None:
            row = (row + given) % p
        spec[j] = ring.spec(row)
        spec.pop(j - look, None)
        if kept is not None and j < rows:
            kept[j] = row
        if j >= tail:
            vals[j] = row
    cons: dict[int, Arr] = {}
    for index, piece, (_d, _steps, ends) in pieces:
        y = ys[index] if ys is not None else np.zeros((piece.free, ring.n), dtype=np.int64)
        if plan.torus:
            out = [(ring.mul(piece.q, vals[rows + k]) - y[k]) % p for k in range(piece.free)]
        else:
            out = []
            for i in range(rows - piece.top, rows):
                acc = -(piece.qspec * bspec[i]) if bspec is not None else np.zeros(ring.n // 2 + 1, np.complex128)
                for e, m in ends:
                    if 0 <= i + e < rows:
                        acc = acc + m * spec[i + e]
                out.append(ring.back(acc))
        if plan.twisted:
            out += [(ring.mul(piece.q, vals[rows - 1 - k]) - np.roll(y[k], plan.cols)) % p for k in range(piece.free)]
        cons[index] = np.stack(out) if out else np.zeros((0, ring.n), dtype=np.int64)
    return kept, cons


class Part(NamedTuple):
    rows: Arr | None  # R x C on the piece, None when b has no solution there (SUMMED: in `_joint`'s rows)
    nullity: int


SUMMED = np.zeros((0, 0), dtype=np.int64)


def _part(plan: Plan, index: int, bspec: Spec | None, rng: np.random.Generator | None) -> Part:
    """A x = b on one piece (b given by its rows' spectra; None: 0): a solution (free values 0, or
    uniform with `rng`, which for b = 0 is a uniform quiet pattern on the piece) and the dimension
    of the piece's kernel."""
    ring, piece = plan.ring, plan.pieces[index]
    if not piece.support:
        return _silent(plan, piece, bspec, rng)
    mat, rhs = _constraints(plan, index, piece, bspec)
    branches = _system(ring, mat, rhs, piece.q, rng)
    nullity = sum(ring.dimension(g) * free for g, _y, free, _ok in branches if free)
    if not all(good for _g, _y, _f, good in branches):
        return Part(None, nullity)
    y = sum((yb for _g, yb, _f, _ok in branches), np.zeros((piece.free, ring.n), dtype=np.int64)) % ring.p
    kept, left = _chase(plan, piece, y[:, None, :], bspec, keep=True)
    assert kept is not None and not left.any(), "the ring chase left a constraint unmet"
    return Part(kept[:, 0], nullity)


def _parts_together(plan: Plan, indices: list[int], bspec: Spec) -> tuple[dict[int, Part], Arr | None]:
    """`_part` for these pieces with their two chases (b's, the presses') done jointly: each
    piece's Part without its rows (None where b has no solution), and all their rows summed
    (None unless b has a solution on every one of them)."""
    if not indices:
        return {}, None
    ring = plan.ring
    _none, cons = _joint(plan, indices, bspec, None, keep=False)
    ys: dict[int, Arr] = {}
    parts: dict[int, Part] = {}
    for i in indices:
        piece = plan.pieces[i]
        branches = _system(ring, _matrix(plan, i), (-cons[i]) % ring.p, piece.q, None)
        nullity = sum(ring.dimension(g) * free for g, _y, free, _ok in branches if free)
        solved = all(good for _g, _y, _f, good in branches)
        parts[i] = Part(SUMMED if solved else None, nullity)
        if solved:
            ys[i] = sum((yb for _g, yb, _f, _ok in branches), np.zeros((piece.free, ring.n), dtype=np.int64)) % ring.p
    if len(ys) < len(indices):
        return parts, None
    kept, left = _joint(plan, indices, bspec, ys, keep=True)
    assert kept is not None and not any(v.any() for v in left.values()), "the ring chase left a constraint unmet"
    return parts, kept


def _silent(plan: Plan, piece: Piece, bspec: Spec | None, rng: np.random.Generator | None) -> Part:
    """A piece where every M_e is 0: b must vanish there and every row is free, except that on a
    twisted board's cover P_{R-1-r} = x^C P_r pairs the rows, and x^C = +1 or -1 (the halves
    (1 +- x^C)/2 of q) decides whether a middle row is free or 0."""
    ring, rows = plan.ring, plan.rows
    solvable = bspec is None or not ring.back(piece.qspec * bspec).any()
    if not plan.twisted:
        out = ring.mul(piece.q, rng.integers(0, ring.p, (rows, ring.n))) if rng is not None else \
            np.zeros((rows, ring.n), dtype=np.int64)
        return Part(out if solvable else None, rows * ring.dimension(piece.q))
    out = np.zeros((rows, ring.n), dtype=np.int64)
    nullity = 0
    half = (ring.p + 1) // 2
    for sign in (1, -1):
        unit = np.zeros(ring.n, dtype=np.int64)
        unit[0], unit[plan.cols] = half, sign * half % ring.p
        part = ring.mul(piece.q, unit)
        if not part.any():
            continue
        free = rows // 2 + (rows % 2 if sign == 1 else 0)
        nullity += free * ring.dimension(part)
        if rng is not None:
            vals = ring.mul(part, rng.integers(0, ring.p, (free, ring.n)))
            out[:free] += vals
            out[rows - rows // 2:] += (sign * vals[:rows // 2][::-1]) % ring.p
    return Part(out % ring.p if solvable else None, nullity)


# --- what countlo.visible.solutions asks ------------------------------------------------------------


def solve_start(board: Shape, start: Sequence[int], target: Sequence[int] | None = None
                ) -> tuple[list[int] | None, list[int] | None, tuple[int, ...]]:
    """(presses, witness, orders) taking start to target (all dark when None)."""
    return solve(board, line_chase_mod_k.rhs(board, start, target))


def solve(board: Shape, b: Arr) -> tuple[list[int] | None, list[int] | None, tuple[int, ...]]:
    """(presses, witness, orders) for A x = b (mod p), b an (R, C) array."""
    if _turned(board):  # the answer for the turned board, its vectors turned back
        turned = solve(board.transposed(), b.T)
        back = [None if v is None else np.asarray(v).reshape(board.cols, board.rows).T.reshape(-1).tolist()
                for v in turned[:2]]
        return back[0], back[1], turned[2]
    p = board.rules.states
    pl = plan(board)
    cover = twisted_covers.lift(board, b)
    bspec = pl.ring.spec(cover)
    together = [i for i, piece in enumerate(pl.pieces) if piece.support and not piece.flip]
    parts = {i: _part(pl, i, bspec, None) for i in range(len(pl.pieces)) if i not in together}
    joint, summed = _parts_together(pl, together, bspec)
    parts.update(joint)
    orders = (p,) * _nullity(board, sum(part.nullity for part in parts.values()))
    failed = [pl.pieces[i].q for i, part in sorted(parts.items()) if part.rows is None]
    if failed:
        return None, _witness(board, b, failed), orders
    lifted = summed if summed is not None else np.zeros_like(cover)
    for part in parts.values():
        if part.rows is not None and part.rows is not SUMMED:
            lifted = lifted + part.rows
    lifted %= p
    presses = twisted_covers.descend(board, lifted, p)
    assert np.array_equal(twisted_covers.lights(board, lifted, presses), b), "the ring chase failed to reach the target"
    return presses.reshape(-1).tolist(), None, orders


def _nullity(board: Shape, cover: int) -> int:
    """The board's nullity from its cover's on the patterns tau_h keeps (the same but on the
    projective plane, whose tau_v it does not impose)."""
    return twisted_covers.projective_nullity(board, cover) if board.rules.topology == "projective" else cover


def _star(a: Arr) -> Arr:
    """a(x^-1): the coefficients read backwards round the row."""
    return np.roll(a[::-1], 1)


def _witness(board: Shape, b: Arr, failed: list[Arr]) -> list[int]:
    """A uniformly random quiet pattern w of the transposed game on the piece q' = q* of a piece q
    where b has no solution, drawn until w.b != 0. The transposed game's pieces are the original's
    read backwards (its M_e are M_-e(x^-1)), and w.b = w.(q b) for w on q*, so only those pieces
    can separate b; on one of them w -> w.b is a nonzero linear map, so each draw misses with
    probability 1/p (docs/MATH.md §18.9)."""
    p = board.rules.states
    rng = np.random.default_rng(SEED)
    tp = plan(board, transposed=True)
    for q in failed:
        index = next(i for i, piece in enumerate(tp.pieces) if np.array_equal(_star(piece.q), q))
        for _ in range(WITNESS_TRIES):
            w = _part(tp, index, None, rng).rows
            assert w is not None
            down = twisted_covers.descend(board, w, p)  # w.b on the cover is w.b on the board times its sheets
            if int((down * b).sum()) % p:
                out: list[int] = down.reshape(-1).tolist()
                return out
    raise AssertionError("no quiet pattern of the transposed game separates an unsolvable start")


def orders(board: Shape) -> tuple[int, ...]:
    if _turned(board):
        return orders(board.transposed())
    pl = plan(board)
    return (board.rules.states,) * _nullity(board, sum(_part(pl, i, None, None).nullity for i in range(len(pl.pieces))))


class RingChase:
    """This engine as an Engine for solutions and the quiet group's orders; it lists no quiet
    patterns (the choice leaves QUIET and INVARIANTS to line_chase_mod_k)."""

    def applies(self, board: Board) -> bool:
        return isinstance(board, Shape) and applies(board)

    def check_size(self, board: Board) -> None:
        engine.check_size(board)

    def solve_start(self, board: Board, start: Sequence[int], target: Sequence[int] | None) -> Outcome:
        return Outcome.of(*solve_start(engine.grid(board), start, target), engine.states(board))

    def orders(self, board: Board) -> tuple[int, ...]:
        return orders(engine.grid(board))

    def quiet(self, board: Board, count: int | None) -> list[tuple[Vector, int]]:
        raise NotImplementedError("the ring chase lists no quiet patterns: the choice asks line_chase_mod_k")

    def invariants(self, board: Board) -> list[Vector]:
        raise NotImplementedError("the ring chase lists no invariants: the choice asks line_chase_mod_k")


ENGINE = RingChase()
