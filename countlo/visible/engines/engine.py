"""What every engine of the visible game gives: the `Engine` protocol, the questions it may
answer, and the board limits they share (docs/ARCHITECTURE.md, "which engine solves which board").

A click on cell j adds A[i][j] (mod k) to cell i; a start s reaches the target t after presses x
iff A x = t - s (mod k). Every engine answers for its boards, in the same shapes:
- `solve_start`: an `Outcome` for the presses taking a start to a target;
- `orders`: that group's orders alone;
- `quiet`: independent generators of the quiet patterns with their orders (the first `count`);
- `invariants`: generators of the w with w A = 0 (the quiet patterns of the transposed game).
An engine that cannot list quiet patterns leaves QUIET and INVARIANTS out of its entry's
`questions`, and the choice (`countlo.visible.engines.choice`) then asks the next engine that
takes the board. The classic rules' engine is on the start-up path of `countlo solve`, so this
module loads nothing heavy: records are `Value`s, the protocol is for the type checker only.
"""

from __future__ import annotations

import math

from countlo.board import Shape, Vector
from countlo.errors import BadSizeError
from countlo.i18n import _
from countlo.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal, Protocol

    from countlo.graph import Board

    Question = Literal["solve", "orders", "quiet", "invariants"]

    class Engine(Protocol):
        """One method of solving visible boards (module docstring: what each answer holds)."""

        def applies(self, board: Board) -> bool:
            """True when this method solves `board` (after the choice's cheap test let it through)."""
            ...

        def check_size(self, board: Board) -> None:
            """Refuse, in one line, a board above this method's limit (BadSizeError)."""
            ...

        def solve_start(self, board: Board, start: Sequence[int], target: Sequence[int] | None) -> Outcome: ...

        def orders(self, board: Board) -> tuple[int, ...]: ...

        def quiet(self, board: Board, count: int | None) -> list[tuple[Vector, int]]: ...

        def invariants(self, board: Board) -> list[Vector]: ...


MAX_CELLS = 1 << 22  # boards under other rules, unless an engine states its own limit
SOLVE: Question = "solve"
ORDERS: Question = "orders"
QUIET: Question = "quiet"
INVARIANTS: Question = "invariants"
EVERY_QUESTION: frozenset[Question] = frozenset((SOLVE, ORDERS, QUIET, INVARIANTS))


class Outcome(Value):
    """The answer for one start and target.

    `presses[j]` is how many times to press cell j (0..k-1), None when unsolvable; `witness` is a
    weight per cell whose weighted sum of the lights (mod k) no click changes and that differs
    between start and target (None when solvable). The quiet patterns form the group
    Z_orders[0] x Z_orders[1] x ...; for prime k all orders are k and `nullity` is their number.
    """

    FIELDS = __slots__ = ("solvable", "presses", "witness", "orders", "states")
    solvable: bool
    presses: Vector | None
    witness: Vector | None
    orders: tuple[int, ...]
    states: int

    def __init__(self, solvable: bool, presses: Vector | None, witness: Vector | None, orders: tuple[int, ...],
                 states: int) -> None:
        object.__setattr__(self, "solvable", solvable)
        object.__setattr__(self, "presses", presses)
        object.__setattr__(self, "witness", witness)
        object.__setattr__(self, "orders", orders)
        object.__setattr__(self, "states", states)

    @classmethod
    def of(cls, presses: Vector | None, witness: Vector | None, orders: tuple[int, ...], states: int) -> Outcome:
        return cls(presses is not None, presses, witness, orders, states)

    @property
    def quiet_count(self) -> int:
        return math.prod(self.orders)

    @property
    def solutions(self) -> int:
        return self.quiet_count if self.solvable else 0

    @property
    def nullity(self) -> int:
        """Number of independent quiet patterns (their orders are `orders`)."""
        return len(self.orders)


def check_size(board: Board) -> None:
    """The limits every engine keeps unless it states its own: the graph module's MAX_NODES
    nodes, a press map's MAX_ENTRIES entries (its sides are checked when it is made), MAX_CELLS
    cells."""
    if not isinstance(board, Shape):
        from countlo.graph import MAX_NODES  # noqa: PLC0415 (graphs only: off the classic start-up path)
        from countlo.pressmap import MAX_ENTRIES, PressMap  # noqa: PLC0415 (the same)

        if isinstance(board, PressMap):
            held = sum(len(c) for c in board.changes)
            if held > MAX_ENTRIES:
                raise BadSizeError(_("press maps are limited to {most} non-zero entries; this one has "
                                     "{n}").format(most=f"{MAX_ENTRIES:,}", n=f"{held:,}"))
        elif board.cells > MAX_NODES:
            raise BadSizeError(_("graphs are limited to {most} nodes; this one has {nodes}").format(
                most=MAX_NODES, nodes=board.cells))
    if board.cells > MAX_CELLS:
        raise BadSizeError(_("boards under other rules are limited to {most} cells; {board} has {cells}").format(
            most=MAX_CELLS, board=board, cells=board.cells))


def states(board: Board) -> int:
    return board.rules.states if isinstance(board, Shape) else board.states


def grid(board: Board) -> Shape:
    """The grid an engine for grids was handed (the choice hands it nothing else)."""
    if not isinstance(board, Shape):
        raise TypeError(f"a grid engine was handed {board!r}")
    return board


def goal(board: Board, start: Sequence[int], target: Sequence[int] | None) -> list[int]:
    """target - start (mod k) per light (all dark when target is None), each refused in
    check_vector's words: the b of A x = b for the engines that take a board's values."""
    check_vector(board, start, "the start")
    if target is not None:
        check_vector(board, target, "the target")
    k = states(board)
    return [((target[i] if target is not None else 0) - start[i]) % k for i in range(board.cells)]


def check_vector(board: Board, v: Sequence[int], what: str) -> None:
    k = states(board)
    if len(v) != board.cells or any(not 0 <= x < k for x in v):
        raise BadSizeError(_("{what} must hold {cells} values 0..{last}").format(what=what, cells=board.cells,
                                                                                last=k - 1))
