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
    from countlo.pressmap import PressMap

JSON_SCHEMA = 2  # the version of the --json shape: bumped when a key changes meaning


def cell_pair(shape: Shape, cell: int) -> list[int]:
    """A cell (reading-order index) as 1-based [row, column]."""
    return [cell // shape.cols + 1, cell % shape.cols + 1]


def press_map(board: Board) -> PressMap | None:
    """The board if it is a press map; the module is loaded only off the classic grids' path."""
    if isinstance(board, Shape):
        return None
    from countlo.pressmap import PressMap  # noqa: PLC0415 (off the classic path only)

    return board if isinstance(board, PressMap) else None


def press_pairs(board: Board, p: Sequence[int], lights: bool = False) -> list[list[Any]]:
    """The JSON form of values per cell: [row, column] or [node], then the times when k > 2. On a
    press map p is per button ([button], or [row, column] when the buttons are a grid's cells),
    or per light when `lights`."""
    k = board.rules.states if isinstance(board, Shape) else board.states
    cols = board.cols if isinstance(board, Shape) else 0
    names: tuple[str, ...] = () if isinstance(board, Shape) else board.nodes
    pm = press_map(board)
    if pm is not None:
        grid = pm.grid is not None and (lights or pm.on_grid)
        cols = pm.grid[1] if grid and pm.grid is not None else 0
        names = pm.lights if lights else pm.buttons
    out: list[list[Any]] = []
    for i, v in enumerate(p):
        if v:
            at = pm.place(i) if pm is not None else i  # a grid with holes: the light's cell
            place: list[Any] = [at // cols + 1, at % cols + 1] if cols else [names[i]]
            out.append(place + [v] if k > 2 else place)
    return out


def board_head(board: Board) -> dict[str, Any]:
    """The keys that open every object: the schema and the board (a grid, a grid with holes, a
    press map's lights and buttons, or a graph's nodes and arcs; docs/json.md)."""
    if isinstance(board, Shape):
        return {"schema": JSON_SCHEMA, "rows": board.rows, "cols": board.cols, "topology": board.rules.topology,
                "rule": board.rules.rule.spec(), "states": board.rules.states}
    pm = press_map(board)
    if pm is not None and pm.rules is not None and pm.grid is not None:  # a grid with holes
        cols = pm.grid[1]
        return {"schema": JSON_SCHEMA, "rows": pm.grid[0], "cols": cols, "topology": pm.rules.topology,
                "rule": pm.rules.rule.spec(), "states": pm.states,
                "holes": [[h // cols + 1, h % cols + 1] for h in pm.holes]}
    if pm is not None:
        head: dict[str, Any] = {"schema": JSON_SCHEMA}
        if pm.grid is not None:
            head.update(rows=pm.grid[0], cols=pm.grid[1])
        if pm.preset:
            head["rule"] = pm.preset
        return dict(head, lights=list(pm.lights), buttons=list(pm.buttons), states=pm.states)
    from countlo.graph import Graph  # noqa: PLC0415 (off the classic path only)

    assert isinstance(board, Graph)
    head = {"schema": JSON_SCHEMA, "nodes": list(board.nodes), "rule": board.rule, "states": board.states}
    if board.arcs:
        head["arcs"] = [[board.nodes[a], board.nodes[b]] for a, b in board.arcs]
    return head


def bit_grid(shape: Shape, bits: int | None) -> list[list[int]] | None:
    """A two-state board (a bitset) as rows of 0/1, or None."""
    if bits is None:
        return None
    return [[bits >> (r * shape.cols + c) & 1 for c in range(shape.cols)] for r in range(shape.rows)]
