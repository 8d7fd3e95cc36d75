"""Visible Lights Out on a two-state board of the hidden game (a Shape under any rules, or a
PressBoard: Merlin, holes, a graph, a buttons table), with bitsets like the classic solver.

The classic game (plus rule, plane) goes to the polynomial solver; every other rule and
topology, and every press board, goes through countlo.visible.solutions (a press board as the
Graph or PressMap it was made from, and its fewest presses from countlo.visible.fewest).
Callers that play the hidden game (the guide, the strategies, replay) use these so they need
not know which board or rules are in force.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from countlo.board import Shape, bits, values
from countlo.countboard import CountBoard, PressBoard
from countlo.errors import BadRuleError
from countlo.graph import Board
from countlo.visible import fewest, solutions
from countlo.visible.algebra.gf2 import gray_members
from countlo.visible.engines import polynomial_chase as classic_solver
from countlo.visible.engines.polynomial_chase import Solution


def _check(shape: CountBoard) -> Board:
    """The board the visible solvers take: a grid itself, a press board's Graph or PressMap."""
    if isinstance(shape, PressBoard):
        return shape.board
    if not isinstance(shape, Shape):
        raise TypeError(f"no visible board for {shape}")
    if shape.rules.states != 2:
        raise BadRuleError("bitset boards need two states")
    return shape


def solve(shape: CountBoard, board: int, target: int = 0) -> Solution:
    """Presses turning `board` into `target` (bitsets), or a witness: a bitset whose overlap
    with the lights keeps its parity whatever is clicked and differs from the target's."""
    if isinstance(shape, Shape) and shape.rules.classic:
        return classic_solver.solve(shape, board ^ target)
    out = solutions.solve(_check(shape), values(board, shape.cells), values(target, shape.cells))
    if out.presses is not None:
        return Solution(True, bits(out.presses), out.nullity, None)
    assert out.witness is not None
    return Solution(False, None, out.nullity, bits(out.witness))


def fewest_presses(shape: CountBoard, board: int, target: int = 0, *,
                   exact_nullity: int = fewest.EXACT_NULLITY) -> tuple[int, bool] | None:
    """(fewest presses turning board into target, exact) or None if impossible; under the
    classic rules kernels of nullity above `exact_nullity` get a local search (exact False).
    A press board's come from the visible game's own `fewest` on its Graph or PressMap."""
    if isinstance(shape, Shape) and shape.rules.classic:
        return fewest.fewest_bits(shape, board ^ target, exact_nullity)
    if isinstance(shape, PressBoard):
        best = fewest.fewest(shape.board, board, target)
        return None if best is None else (best.bits, best.exact)
    found = solutions.fewest(_check(shape), values(board, shape.cells), values(target, shape.cells))
    if found is None:
        return None
    return bits(found[0]), found[1]


def all_solutions(shape: CountBoard, board: int, limit: int | None = None) -> Iterator[int]:
    """Every press set clearing `board` (none if unsolvable), at most `limit` of them: a Gray
    code over the quiet basis, one xor per step (step i flips basis[lowest set bit of i])."""
    if not isinstance(shape, Shape) or not shape.rules.classic:
        for v in solutions.all_solutions(_check(shape), values(board, shape.cells), None, limit):
            yield bits(v)
        return
    sol = classic_solver.solve(shape, board)
    if sol.presses is None:
        return
    assert isinstance(sol.presses, int)
    total = 1 << sol.nullity if limit is None else min(1 << sol.nullity, limit)
    basis = classic_solver.quiet_patterns(shape, (total - 1).bit_length())  # only those walked
    yield from gray_members(sol.presses, basis, total)


def solution_count(shape: CountBoard, board: int) -> int:
    """Number of press sets clearing `board`: 2^nullity if solvable, else 0."""
    sol = solve(shape, board)
    return 1 << sol.nullity if sol.solvable else 0


def quiet_patterns(shape: CountBoard) -> list[int]:
    """A basis of the press sets that change nothing."""
    if isinstance(shape, Shape) and shape.rules.classic:
        return classic_solver.quiet_patterns(shape)
    return [bits(q) for q, _ in solutions.quiet(_check(shape))]


@lru_cache(maxsize=16)
def invariants(shape: CountBoard) -> tuple[int, ...]:
    """A basis of the bitsets w whose overlap parity with the lights no click changes (w A = 0).
    The classic press matrix is symmetric, so these are its quiet patterns."""
    if isinstance(shape, Shape) and shape.rules.classic:
        return tuple(quiet_patterns(shape))
    return tuple(bits(w) for w in solutions.invariants(_check(shape)))


@lru_cache(maxsize=16)
def inverse_columns(shape: CountBoard) -> tuple[int, ...] | None:
    """The presses turning each single light on or off (columns of A^-1), None if A is singular."""
    if isinstance(shape, Shape) and shape.rules.classic:
        return classic_solver.inverse_columns(shape)
    if solve(shape, 0).nullity:
        return None
    out = []
    for j in range(shape.cells):
        presses = solve(shape, 1 << j).presses
        assert isinstance(presses, int)
        out.append(presses)
    return tuple(out)
