"""Solutions of a start grouped up to the board's rotations and reflections.

Pressing commutes with every symmetry of the board, so a symmetry that fixes the start maps its
solutions onto its solutions; the classes are the orbits of that subgroup (docs/MATH.md §7).
"""

from __future__ import annotations

from countlo.board import Shape, Symmetry
from countlo.errors import BadSizeError
from countlo.i18n import _
from countlo.visible.engines.polynomial_chase import solve
from countlo.visible.fewest import all_solutions

MAX_SOLUTIONS = 1 << 16
MAX_CELLS = 1 << 16  # symmetries are applied cell by cell


def fixing(shape: Shape, board: int) -> list[Symmetry]:
    """The symmetries of the board (8 if square, else 4) that map `board` onto itself."""
    return [s for s in shape.symmetries() if s.apply(board) == board]


def classes(shape: Shape, board: int, limit: int = MAX_SOLUTIONS) -> list[tuple[int, int]]:
    """(representative, class size) for the orbits of the solutions of `board`.

    The group is the subgroup of the board's symmetries fixing `board` (all of them for a
    symmetric start, only the identity for a start with no symmetry, where every class is a
    single solution). The representative is the smallest bitset of its orbit; the list is sorted
    by press count, then bitset. Raises BadSizeError above `limit` solutions or MAX_CELLS cells.
    """
    if shape.cells > MAX_CELLS:
        raise BadSizeError(_("grouping solutions by symmetry is limited to boards of at most {most} cells; "
                             "{board} has {cells}").format(most=MAX_CELLS, board=shape, cells=shape.cells))
    sol = solve(shape, board)
    if not sol.solvable:
        return []
    if sol.nullity > 62 or 1 << sol.nullity > limit:
        raise BadSizeError(_("the start has {n} solutions; grouping them is limited to {most}").format(
            n=f"2^{sol.nullity}", most=limit))
    group = fixing(shape, board)
    seen: set[int] = set()
    out = []
    for x in all_solutions(shape, board):
        if x in seen:
            continue
        orbit = {g.apply(x) for g in group}
        seen |= orbit
        out.append((min(orbit), len(orbit)))
    out.sort(key=lambda rs: (rs[0].bit_count(), rs[0]))
    return out
