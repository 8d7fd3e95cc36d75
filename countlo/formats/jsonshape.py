"""The one JSON shape every command's `--json` prints (docs/json.md): its version, the board's
keys, cells as 1-based [row, column] and boards as rows of values per cell.

Every command builds its object from these helpers so a key means the same thing everywhere:
`rows`/`cols`/`topology`/`rule`/`states` (or `nodes` on a graph) name the board, `start` is
always a board (the starting lights) and `start_count` the starting count of a hidden game.
"""

from __future__ import annotations

from collections.abc import Sequence

from countlo.board import Shape

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up of `solve`; mypy knows it)
if TYPE_CHECKING:
    from typing import Any

    from countlo.graph import Board

JSON_SCHEMA = 2  # the version of the --json shape: bumped when a key changes meaning


def board_head(board: Board) -> dict[str, Any]:
    """The keys that open every object: the schema and the board (a grid, or a graph's nodes)."""
    if isinstance(board, Shape):
        return {"schema": JSON_SCHEMA, "rows": board.rows, "cols": board.cols,
                "topology": board.rules.topology, "rule": board.rules.rule.spec(),
                "states": board.rules.states}
    return {"schema": JSON_SCHEMA, "nodes": list(board.nodes), "rule": board.rule, "states": board.states}


def cell_pair(shape: Shape, cell: int) -> list[int]:
    """A cell (reading-order index) as 1-based [row, column]."""
    return [cell // shape.cols + 1, cell % shape.cols + 1]


def press_pairs(board: Board, p: Sequence[int]) -> list[list[Any]]:
    """The JSON form of values per cell: [row, column] or [node], then the times when k > 2."""
    k = board.rules.states if isinstance(board, Shape) else board.states
    out: list[list[Any]] = []
    for i, v in enumerate(p):
        if v:
            place: list[Any] = cell_pair(board, i) if isinstance(board, Shape) else [board.nodes[i]]
            out.append(place + [v] if k > 2 else place)
    return out


def bit_grid(shape: Shape, bits: int | None) -> list[list[int]] | None:
    """A two-state board (a bitset) as rows of 0/1, or None."""
    if bits is None:
        return None
    return [[bits >> (r * shape.cols + c) & 1 for c in range(shape.cols)] for r in range(shape.rows)]
