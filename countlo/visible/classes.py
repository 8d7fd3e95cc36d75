"""Solutions of a start grouped up to the symmetries of the rules and the board.

A symmetry here is a permutation g of the cells with hits(g j) = g(hits(j)) for every cell j:
clicking then moving equals moving then clicking, so g maps the solutions taking start to target
onto the solutions taking g(start) to g(target). The group used is every rotation or reflection
of the grid, composed with every translation on a torus or cylinder (columns only) and every glide
on a Moebius band or Klein bottle (one column right per step, a cell crossing the twisted join
turned upside down: the join is made so that this maps neighbours to neighbours), that commutes
with the rules and fixes both start and target; a graph uses the identity only (its
automorphisms are not searched).

Those maps need not form a group: on a small joined board a click can reach a cell twice, so
the press matrix has accidental symmetries (a 3x3 cylinder with the knight rule commutes with a
quarter turn, which composed with a column shift is not in the list). Orbits under a set that is
not closed overlap, so the classes are the orbits of the group the maps generate (docs/MATH.md
§7): every composition still commutes with the rules and fixes start and target.

Under the classic rules the group is the board's rotations and reflections fixing the start, and
the solutions stay bitsets (boards up to CLASSIC_CELLS cells).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cmp_to_key

from countlo.board import Shape, Start, Vector, as_bits, as_values, values
from countlo.errors import BadSizeError
from countlo.graph import Board, button_count
from countlo.i18n import _
from countlo.visible import bitsets, solutions

MAX_SOLUTIONS = 1 << 16
MAX_CELLS = 1 << 12
CLASSIC_CELLS = 1 << 16  # the classic rules' symmetries are applied cell by cell on bitsets
GROUP_LIMIT = 1 << 15  # group elements listed; past it, orbits are walked with the generators
Perm = tuple[int, ...]


@dataclass(frozen=True)
class Classes:
    """The solutions' orbits: (representative, class size) sorted by press count, the names of
    the symmetries fixing start and target, and the order of the group they generate (None
    above GROUP_LIMIT)."""

    classes: list[tuple[Vector, int]]
    symmetries: list[str]
    order: int | None


def generated(perms: Sequence[Perm], limit: int = GROUP_LIMIT) -> list[Perm] | None:
    """Every element of the group the permutations generate (identity first), or None when it
    has more than `limit` elements. Closed under left multiplication by each generator, a set
    holding the identity is the group (finite)."""
    n = len(perms[0]) if perms else 0
    group = [tuple(range(n))]
    seen = set(group)
    gens: list[Perm] = []
    for p in perms:
        if p in seen:
            continue
        gens.append(p)
        work: list[tuple[Perm, tuple[Perm, ...]]] = [(e, (p,)) for e in group]  # old elements: the new one only
        while work:
            e, by = work.pop()
            for g in by:
                h = tuple(map(g.__getitem__, e))
                if h not in seen:
                    if len(group) == limit:
                        return None
                    seen.add(h)
                    group.append(h)
                    work.append((h, tuple(gens)))
    return group


def orbits(vectors: Sequence[Sequence[int]], gens: Sequence[Perm]) -> list[list[tuple[int, ...]]]:
    """The orbits of `vectors` (closed under the generated group) under the group that `gens`
    generate, each found by walking the generators from its first member (x moved by g puts
    x[i] on cell g[i])."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for x in vectors:
        start = tuple(x)
        if start in seen:
            continue
        seen.add(start)
        orbit, work = [start], [start]
        while work:
            v = work.pop()
            for g in gens:
                y = [0] * len(v)
                for i, t in enumerate(v):
                    y[g[i]] = t
                w = tuple(y)
                if w not in seen:
                    seen.add(w)
                    orbit.append(w)
                    work.append(w)
        out.append(orbit)
    return out


def _dihedral(rows: int, cols: int) -> list[tuple[str, Perm]]:
    R, C = rows - 1, cols - 1
    maps: list[tuple[str, Callable[[int, int], tuple[int, int]]]] = [
            ("identity", lambda r, c: (r, c)), ("rotate 180", lambda r, c: (R - r, C - c)),
            ("mirror left-right", lambda r, c: (r, C - c)),
            ("mirror top-bottom", lambda r, c: (R - r, c))]
    if rows == cols:
        maps += [("rotate 90", lambda r, c: (c, R - r)), ("rotate 270", lambda r, c: (C - c, r)),
                 ("transpose", lambda r, c: (c, r)),
                 ("anti-transpose", lambda r, c: (C - c, R - r))]
    out = []
    for name, f in maps:
        images = [f(*divmod(i, cols)) for i in range(rows * cols)]
        out.append((name, tuple(r * cols + c for r, c in images)))
    return out


def _moved(q: int, dr: int, dc: int, rows: int, cols: int, glide: bool) -> int:
    """Cell q moved dr rows down and dc columns right (0 <= dc < cols); with `glide`, a cell
    crossing the right edge lands upside down, as the twisted join places it."""
    r, c = divmod(q, cols)
    r, c = (r + dr) % rows, c + dc
    if c >= cols:
        r, c = (rows - 1 - r if glide else r), c - cols
    return r * cols + c


def symmetries(board: Shape) -> list[tuple[str, Perm]]:
    """(name, permutation) of every rotation/reflection (times translation where the topology
    has them) that commutes with the rules."""
    if board.cells > MAX_CELLS:
        raise BadSizeError(_("grouping solutions by symmetry is limited to boards of at most {most} cells; "
                             "{board} has {cells}").format(most=MAX_CELLS, board=board, cells=board.cells))
    top = board.rules.topology
    shifts = [(0, 0)]
    if top == "torus":
        shifts = [(dr, dc) for dr in range(board.rows) for dc in range(board.cols)]
    elif top in ("cylinder", "moebius", "klein"):
        shifts = [(0, dc) for dc in range(board.cols)]
    glide = top in ("moebius", "klein")  # the twisted left-right join turns a crossing cell upside down
    cols = solutions.columns(board)
    out = []
    for name, perm in _dihedral(board.rows, board.cols):
        for dr, dc in shifts:
            p = perm
            if (dr, dc) != (0, 0):
                p = tuple(_moved(q, dr, dc, board.rows, board.cols, glide) for q in perm)
            if all({p[i]: t for i, t in cols[j].items()} == cols[p[j]] for j in range(len(p))):
                label = name if (dr, dc) == (0, 0) else (
                    f"{name} + glide {dc} right" if glide else f"{name} + shift {dr} down {dc} right")
                out.append((label, p))
    return out


def classes(board: Board, start: Start, target: Start | None = None,
            limit: int = MAX_SOLUTIONS) -> Classes:
    """The classes are the orbits of the group generated by the symmetries of the rules fixing
    start and target; representatives the smallest of their orbit, sorted by press count. An
    unsolvable start has no classes."""
    if isinstance(board, Shape) and board.rules.classic:
        goal = as_bits(start) ^ (0 if target is None else as_bits(target))
        return _classic(board, goal, limit)
    start = as_values(start, board.cells)
    target = None if target is None else as_values(target, board.cells)
    sol = solutions.solve(board, start, target)
    if not sol.solvable:
        return Classes([], [], None)
    if sol.solutions > limit:
        raise BadSizeError(_("the start has {n} solutions; grouping them is limited to {most}").format(
            n=sol.solutions, most=limit))
    tgt = list(target) if target is not None else [0] * board.cells
    named: dict[Perm, str] = {tuple(range(button_count(board))): "identity"}  # graphs and press maps: only this
    if isinstance(board, Shape):
        for n, p in symmetries(board):  # one name per map: a 1-row board's top-bottom mirror is the identity
            if all(start[p[i]] == start[i] and tgt[p[i]] == tgt[i] for i in range(len(p))):
                named.setdefault(p, n)
    gens = list(named)
    group = generated(gens)
    found = solutions.all_solutions(board, start, target)
    if group is None:
        sets = orbits(list(found), gens)
    else:  # each orbit at once: the images of its first member under every element
        seen: set[tuple[int, ...]] = set()
        sets = []
        for x in found:
            key = tuple(x)
            if key in seen:
                continue
            orbit = set()
            for p in group:
                y = [0] * len(x)
                for i, v in enumerate(x):
                    y[p[i]] = v
                orbit.add(tuple(y))
            seen |= orbit
            sets.append(list(orbit))
    out = [(list(min(o)), len(o)) for o in sets]
    out.sort(key=lambda rs: (sum(rs[0]), rs[0]))
    return Classes(out, list(named.values()), None if group is None else len(group))


def _classic(shape: Shape, board: int, limit: int) -> Classes:
    """The classic rules on bitsets: the board's symmetries fixing `board` form a group, so
    each orbit is one solution's images; the representative is its smallest bitset."""
    if shape.cells > CLASSIC_CELLS:
        raise BadSizeError(_("grouping solutions by symmetry is limited to boards of at most {most} cells; "
                             "{board} has {cells}").format(most=CLASSIC_CELLS, board=shape, cells=shape.cells))
    sol = bitsets.solve(shape, board)
    if not sol.solvable:
        return Classes([], [], None)
    if sol.nullity > 62 or 1 << sol.nullity > limit:
        raise BadSizeError(_("the start has {n} solutions; grouping them is limited to {most}").format(
            n=f"2^{sol.nullity}", most=limit))
    group, seen_maps = [], set()
    probes = [1 << j for j in {0, min(1, shape.cells - 1), min(shape.cols, shape.cells - 1)}]
    for s in shape.symmetries():  # one name per map: on a 1-row board the top-bottom mirror is the identity
        key = tuple(s.apply(p) for p in probes)  # a rotation or reflection is fixed by a corner and its neighbours
        if s.apply(board) == board and key not in seen_maps:
            seen_maps.add(key)
            group.append(s)
    seen: set[int] = set()
    found: list[tuple[int, int]] = []
    order = cmp_to_key(_reading_order)
    for x in bitsets.all_solutions(shape, board):
        if x in seen:
            continue
        orbit = {g.apply(x) for g in group}
        seen |= orbit
        found.append((min(orbit, key=order), len(orbit)))
    found.sort(key=lambda rs: (rs[0].bit_count(), order(rs[0])))
    return Classes([(values(rep, shape.cells), size) for rep, size in found],
                   [s.name for s in group], len(group))


def _reading_order(x: int, y: int) -> int:
    """Bitsets compared as their cells in reading order, as tuples of values compare: the first
    cell where they differ is dark in the smaller (the lowest differing bit)."""
    if x == y:
        return 0
    low = (x ^ y) & -(x ^ y)
    return 1 if x & low else -1
