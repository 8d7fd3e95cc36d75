"""Visible Lights Out on a two-state Shape under any rules, with bitsets like the classic solver.

The classic game (plus rule, plane) goes to the polynomial solver; every other rule and
topology goes through countlo.visible.solutions. Callers that play the hidden game (the guide,
the strategies, replay) use these so they need not know which rules are in force.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from countlo.board import Shape, bits, values
from countlo.errors import BadRuleError
from countlo.visible import fewest, solutions
from countlo.visible.algebra.gf2 import gray_members
from countlo.visible.engines import polynomial_chase as classic_solver
from countlo.visible.engines.polynomial_chase import Solution


def _check(shape: Shape) -> None:
    if shape.rules.states != 2:
        raise BadRuleError("bitset boards need two states")


def solve(shape: Shape, board: int, target: int = 0) -> Solution:
    """Presses turning `board` into `target` (bitsets), or a witness: a bitset whose overlap
    with the lights keeps its parity whatever is clicked and differs from the target's."""
    if shape.rules.classic:
        return classic_solver.solve(shape, board ^ target)
    _check(shape)
    out = solutions.solve(shape, values(board, shape.cells), values(target, shape.cells))
    if out.presses is not None:
        return Solution(True, bits(out.presses), out.nullity, None)
    assert out.witness is not None
    return Solution(False, None, out.nullity, bits(out.witness))


def fewest_presses(shape: Shape, board: int, target: int = 0, *,
                   exact_nullity: int = fewest.EXACT_NULLITY) -> tuple[int, bool] | None:
    """(fewest presses turning board into target, exact) or None if impossible; under the
    classic rules kernels of nullity above `exact_nullity` get a local search (exact False)."""
    if shape.rules.classic:
        return fewest.fewest_bits(shape, board ^ target, exact_nullity)
    _check(shape)
    found = solutions.fewest(shape, values(board, shape.cells), values(target, shape.cells))
    if found is None:
        return None
    return bits(found[0]), found[1]


def all_solutions(shape: Shape, board: int, limit: int | None = None) -> Iterator[int]:
    """Every press set clearing `board` (none if unsolvable), at most `limit` of them: a Gray
    code over the quiet basis, one xor per step (step i flips basis[lowest set bit of i])."""
    if not shape.rules.classic:
        _check(shape)
        for v in solutions.all_solutions(shape, values(board, shape.cells), None, limit):
            yield bits(v)
        return
    sol = classic_solver.solve(shape, board)
    if sol.presses is None:
        return
    assert isinstance(sol.presses, int)
    total = 1 << sol.nullity if limit is None else min(1 << sol.nullity, limit)
    basis = classic_solver.quiet_patterns(shape, (total - 1).bit_length())  # only those walked
    yield from gray_members(sol.presses, basis, total)


def solution_count(shape: Shape, board: int) -> int:
    """Number of press sets clearing `board`: 2^nullity if solvable, else 0."""
    sol = solve(shape, board)
    return 1 << sol.nullity if sol.solvable else 0


def quiet_patterns(shape: Shape) -> list[int]:
    """A basis of the press sets that change nothing."""
    if shape.rules.classic:
        return classic_solver.quiet_patterns(shape)
    _check(shape)
    return [bits(q) for q, _ in solutions.quiet(shape)]


@lru_cache(maxsize=16)
def invariants(shape: Shape) -> tuple[int, ...]:
    """A basis of the bitsets w whose overlap parity with the lights no click changes (w A = 0).
    The classic press matrix is symmetric, so these are its quiet patterns."""
    if shape.rules.classic:
        return tuple(quiet_patterns(shape))
    _check(shape)
    return tuple(bits(w) for w in solutions.invariants(shape))


@lru_cache(maxsize=16)
def inverse_columns(shape: Shape) -> tuple[int, ...] | None:
    """The presses turning each single light on or off (columns of A^-1), None if A is singular."""
    if shape.rules.classic:
        return classic_solver.inverse_columns(shape)
    if solve(shape, 0).nullity:
        return None
    out = []
    for j in range(shape.cells):
        presses = solve(shape, 1 << j).presses
        assert isinstance(presses, int)
        out.append(presses)
    return tuple(out)
