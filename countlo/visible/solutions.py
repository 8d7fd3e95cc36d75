"""Solutions of every visible board under any rules: grids of every topology and click rule,
graphs, k = 2..255 states (docs/MATH.md §18).

A click on cell j adds A[i][j] (mod k) to cell i; a start s reaches the target t after presses x
(each cell pressed x_j = 0..k-1 times) iff A x = t - s (mod k). One solution or a proof there is
none, the quiet group, the invariants and every solution; each question goes to the engine that
`countlo.visible.engines.choice` picks for the board (docs/ARCHITECTURE.md, "which engine solves
which board"), and the answers are the same whichever it is.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from countlo.board import Vector, bits, values
from countlo.graph import Board, button_count
from countlo.visible.algebra import gf2
from countlo.visible.engines import reference_chase
from countlo.visible.engines.choice import choose
from countlo.visible.engines.engine import INVARIANTS, MAX_CELLS, ORDERS, QUIET, SOLVE, Outcome, check_vector, states

__all__ = ["MAX_CELLS", "Outcome", "all_solutions", "apply", "check_size", "check_vector", "columns", "fewest",
           "invariants", "orders", "press_count", "quiet", "solve", "states"]

EXACT_QUIET = 1 << 22  # fewest presses: walk every solution up to this many


def columns(board: Board) -> list[dict[int, int]]:
    """What a press of each button (each cell on a grid or a graph) adds to each light (entries
    mod k, zeros dropped)."""
    return list(reference_chase.columns(board))


def check_size(board: Board) -> None:
    """Refuse, in one line, a board too large for `solve` under its rules (each engine's limit)."""
    choose(board, SOLVE)


def solve(board: Board, start: Sequence[int], target: Sequence[int] | None = None) -> Outcome:
    """Presses taking `start` to `target` (all dark when None), or a proof there are none."""
    return choose(board, SOLVE).solve_start(board, start, target)


def orders(board: Board) -> tuple[int, ...]:
    """The orders of the quiet group's independent generators."""
    return choose(board, ORDERS).orders(board)


def quiet(board: Board, count: int | None = None) -> list[tuple[Vector, int]]:
    """Independent generators of the quiet patterns (presses changing nothing) with their
    orders; the first `count` when given."""
    return choose(board, QUIET).quiet(board, count)


def invariants(board: Board) -> list[Vector]:
    """Generators of the w with w A = 0 (mod k): weightings of the cells whose weighted sum of
    the lights no click changes (the quiet patterns of the transposed game)."""
    return choose(board, INVARIANTS).invariants(board)


def apply(board: Board, lights: Sequence[int], presses: Sequence[int]) -> Vector:
    """The lights after pressing button (cell) j presses[j] times."""
    k = states(board)
    return [(a + d) % k for a, d in zip(lights, reference_chase.lights(board, presses))]


def all_solutions(board: Board, start: Sequence[int], target: Sequence[int] | None = None,
                  limit: int | None = None) -> Iterator[Vector]:
    """Every press vector taking start to target, at most `limit` of them."""
    sol = solve(board, start, target)
    if sol.presses is None:
        return
    gens = quiet(board)
    k = sol.states
    ranges = [range(o) for _, o in gens]
    for i, combo in enumerate(itertools.product(*ranges)):
        if limit is not None and i >= limit:
            return
        x = list(sol.presses)
        for (g, _order), c in zip(gens, combo):
            if c:
                x = [(a + c * t) % k for a, t in zip(x, g)]
        yield x


def press_count(x: Sequence[int]) -> int:
    """Presses with multiplicity: cell j pressed x_j times (x_j = 0..k-1)."""
    return sum(x)


def fewest(board: Board, start: Sequence[int], target: Sequence[int] | None = None,
           exact_limit: int = EXACT_QUIET) -> tuple[Vector, bool] | None:
    """(presses with the fewest clicks counted with multiplicity, exact) or None if unsolvable.
    Exact by walking every solution when there are at most `exact_limit`; otherwise a descent
    over the quiet generators whose count is an upper bound (exact False)."""
    sol = solve(board, start, target)
    if sol.presses is None:
        return None
    k = sol.states
    if sol.quiet_count == 1:
        return sol.presses, True
    gens = quiet(board)
    if sol.quiet_count <= exact_limit:
        if k == 2:
            best = gf2.gray_lightest(bits(sol.presses), [bits(g) for g, _ in gens])
            return values(best, button_count(board)), True
        return min(all_solutions(board, start, target), key=press_count), True
    x = list(sol.presses)
    improved = True
    while improved:
        improved = False
        for g, o in gens:
            for c in range(1, o):
                y = [(a + c * t) % k for a, t in zip(x, g)]
                if press_count(y) < press_count(x):
                    x, improved = y, True
    return x, False
